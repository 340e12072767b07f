"""API shapes of catalogue records, and of follows (which carry one): the one place ORM rows
become wire names."""

from collections.abc import Callable
from typing import Any

from ... import clock
from ...media.signing import sign_stream
from ...models import Event, Team
from ...services.access import FREE, Viewer, decide
from ...services.events import EventView
from ...services.follows import FollowView
from ...services.identities import IdentityView
from ..http.context import settings, viewer, viewer_session
from ..http.envelope import iso

CLIP_TYPES = ("highlight", "clip", "user_clip", "user_highlight")
STREAMS = ("hls_stream", "pano_stream", "mezzanine_video")
StreamSigner = Callable[..., str | None]


def _team(team: Team) -> dict:
    return {"teamId": team.id, "name": team.name, "shortName": team.short_name, "logo": team.logo, "color": team.color}


def _meta_title(view: EventView, leagues_view: bool) -> str | None:
    if not leagues_view or view.home is None or view.away is None:
        return None
    league = next((i.title for i in view.identities if i.media_type == "identity_item"), None)
    category = next((i.title for i in view.identities if i.media_type == "identity"), None)
    if not league or not category:
        return None
    return f"{league}•{category}"


def stream_start(e: Event) -> float:
    """Where an event's live stream begins (epoch seconds): its kickoff, else its start. Live
    playlists list nothing before it and answer `stream_not_started` until then, whatever the
    status (going live gives an event without a kickoff one: server.services.event_admin)."""
    return (e.game_start_date or e.event_date).timestamp()


def event(view: EventView, viewer: Viewer, *, leagues_view: bool, sign: StreamSigner) -> dict:
    """`sign(url, user_id=, event_id=, start=, regions=)` turns a stored stream URL into the one a
    viewer plays (server.media.signing.sign_stream bound to the settings, the answer's instant and
    the viewer's session)."""
    e: Event = view.event
    is_clip = e.media_type in CLIP_TYPES
    teams = {"homeTeam": _team(view.home), "awayTeam": _team(view.away)} if view.home and view.away else None
    access = decide(
        viewer,
        event_id=e.parent_event_id or e.id,
        media_type=e.media_type,
        commerce_type=e.commerce_type,
        commerce_modes=e.commerce_modes or (),
        identity_ids=[i.id for i in view.identities],
        regions=e.regions,
        available_anywhere=e.available_in_region,
        owner_id=e.owner_id,
    )
    # Media locations only for viewers who may watch, signed for them and this event: the media
    # routes serve nothing else. Free events get tokens bound to no one (anyone may watch them,
    # so binding adds nothing and the player needs no bearer); the rest only play with the
    # viewer's own access token, so an anonymous viewer never gets one for a paid stream (a
    # user clip, "always available", is played by its signed-in viewer). An event limited to
    # regions gets tokens for those regions only, free ones included: the URL plays nowhere else.
    # A clip's or highlight's token opens its range alone, never the rest of its game.
    holder = None if e.commerce_type == FREE else viewer.user_id
    watchable = access.available_for_user and (holder is not None or e.commerce_type == FREE)
    if watchable:
        start, regions = stream_start(e), list(e.regions or ()) or None
        streams = {
            name: sign(
                getattr(e, name), user_id=holder, event_id=e.parent_event_id or e.id, start=start, regions=regions
            )
            for name in STREAMS
        }
    else:
        streams = dict.fromkeys(STREAMS)
    return {
        "_id": e.id,
        "title": e.title,
        "description": e.description,
        "event_date": iso(e.event_date),
        "gameStartDate": iso(e.game_start_date),
        "endDate": iso(e.end_date),
        # For clips the link that matters is the event they come from.
        "event_id": (e.parent_event_id or e.external_id) if is_clip else e.external_id,
        "reference_id": e.reference_id,
        "sportType": e.sport_type,
        "media_type": e.media_type,
        "eventType": e.event_type,
        "gameType": e.game_type,
        "status": e.status,
        "commerce_type": e.commerce_type,
        "commerceType": list(e.commerce_modes or []),
        "gender": e.gender,
        "availableForUser": access.available_for_user,
        "availableInUserRegion": access.available_in_region,
        "commerceCoverage": list(access.coverage),
        "integrations": {"vidswap": {"enabled": e.stats_enabled, "id": e.data_partner_id}},
        "content": {
            "HLSStream": streams["hls_stream"],
            "PanoStream": streams["pano_stream"],
            "PosterH": e.poster_h,
            "MezzanineVideo": streams["mezzanine_video"],
            "EPG": f"/api/event/epg/{e.id}" if e.status == "channel" else None,
        },
        "eventTeams": teams,
        "mediaIdentities": [{"_id": i.id, "title": i.title, "media_type": i.media_type} for i in view.identities],
        "advertisements": {"link": {"vast": e.vast_url}},
        "metaTitle": _meta_title(view, leagues_view),
        "type": e.highlight_kind,
        "startTime": e.start_time_ms,
        "endTime": e.end_time_ms,
        "duration": e.duration_s,
        "added": iso(e.created),
        "updated": iso(e.updated),
    }


def identity(view: IdentityView) -> dict[str, Any]:
    item = view.item
    parents = [{"_id": p.id, "title": p.title, "media_type": p.media_type} for p in view.parents]
    body: dict[str, Any] = {
        "_id": item.id,
        "content": {"PosterH": item.poster_h, "PosterF": item.poster_f},
        "extendedContent": {
            "PosterF": list((item.extended_content or {}).get("PosterF", [])),
            "MobilePosterF": list((item.extended_content or {}).get("MobilePosterF", [])),
        },
        "socialMediasLinks": dict(item.social_links or {}),
        "mainCategories": list(view.parent_positions),
        "media_parent_order": dict(view.parent_positions),
        "identityId": [p.id for p in view.parents],
        "mediaParentIdentities": parents,
        "sportType": item.sport_type,
    }
    if isinstance(item, Team):
        body.update(
            title=item.name,
            shortTitle=item.short_name,
            order=0,
            archived=False,
            media_type="team",
            gender=None,
            shortName=item.short_name,
            logo=item.logo,
            color=item.color,
        )
    else:
        body.update(
            title=item.title,
            shortTitle=item.short_title,
            order=item.order,
            archived=item.archived,
            media_type=item.media_type,
            gender=item.gender,
        )
    return body


def event_presenter(for_viewer: Viewer | None = None):
    """A presenter bound to the current viewer (or `for_viewer`) and customer options."""
    config = settings()
    current, leagues_view = for_viewer or viewer(), config.enable_leagues_view
    now = clock.timestamp()  # one instant for the whole answer: every URL expires together
    session_id = viewer_session()  # a viewer's URLs play in this sign-in session only

    def sign(url, *, user_id, event_id, start=None, regions=None):
        return sign_stream(
            url,
            user_id=user_id,
            event_id=event_id,
            settings=config,
            now=now,
            start=start,
            session_id=session_id,
            regions=regions,
        )

    return lambda view: event(view, current, leagues_view=leagues_view, sign=sign)


def followed(view: FollowView) -> dict:
    f = view.follow
    return {
        "_id": f.id,
        "reference_id": f.reference_id,
        "type": f.type,
        "added": iso(f.created),
        "item": identity(view.item),
    }
