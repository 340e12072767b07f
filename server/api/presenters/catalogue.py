"""API shapes of catalogue records, and of follows (which carry one): the one place ORM rows
become wire names."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ... import clock
from ...media.delivery.signing import sign_stream
from ...models import Event, Team
from ...services.access import FREE, Viewer, decide
from ...services.events import EventView
from ...services.follows import FollowView
from ...services.identities import IdentityView
from ...services.paging import Page
from ...services.spoilers import SHOW, SHOWN, Spoilers
from ..http.context import settings, viewer
from ..http.envelope import iso, ok, page_of

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


@dataclass(frozen=True)
class _Facts:
    """What the per-viewer part of an event's answer reads, copied once out of the ORM rows
    (reading mapped attributes costs more than the decision itself)."""

    event_id: str  # whose rights and token: a clip's game, else the event itself
    media_type: str
    commerce_type: str
    commerce_modes: tuple[str, ...]
    identity_ids: tuple[str, ...]
    regions: tuple[str, ...] | None
    available_anywhere: bool
    owner_id: str | None
    start: float
    streams: tuple[tuple[str, str | None], ...]  # (name, stored URL)


def _facts(view: EventView) -> _Facts:
    e: Event = view.event
    return _Facts(
        event_id=e.parent_event_id or e.id,
        media_type=e.media_type,
        commerce_type=e.commerce_type,
        commerce_modes=tuple(e.commerce_modes or ()),
        identity_ids=tuple(i.id for i in view.identities),
        regions=tuple(e.regions) if e.regions is not None else None,
        available_anywhere=e.available_in_region,
        owner_id=e.owner_id,
        start=stream_start(e),
        streams=tuple((name, getattr(e, name)) for name in STREAMS),
    )


def event(
    view: EventView, viewer: Viewer, *, leagues_view: bool, sign: StreamSigner, spoilers: Spoilers = SHOWN
) -> dict:
    """`sign(url, start=)` turns a stored stream URL into the one a viewer plays
    (server.media.delivery.signing.sign_stream bound to the settings and the answer's instant).

    The answer is the event's shared part (`_shared`, built once per cached view and options,
    whoever asks) with the viewer's own fields laid over it: access and stream URLs."""
    options = (leagues_view, spoilers.hide)
    shared = view.wire.get(options)
    if shared is None:
        shared = view.wire[options] = _shared(view, leagues_view, spoilers)
    facts: _Facts | None = view.wire.get("facts")
    if facts is None:
        facts = view.wire["facts"] = _facts(view)
    access = decide(
        viewer,
        event_id=facts.event_id,
        media_type=facts.media_type,
        commerce_type=facts.commerce_type,
        commerce_modes=facts.commerce_modes,
        identity_ids=facts.identity_ids,
        regions=facts.regions,
        available_anywhere=facts.available_anywhere,
        owner_id=facts.owner_id,
    )
    # Media locations only for viewers who may watch, here and now (entitled, in the event's
    # regions: `decide`): the token beside the URL is everything the media routes and the edge
    # check, for its lifetime (server.media.delivery.signing). An anonymous viewer never gets one
    # for a paid stream (a user clip, "always available", is played by its signed-in viewer). A
    # clip's or highlight's token opens its range alone, never the rest of its game.
    free = facts.commerce_type == FREE
    streams = dict.fromkeys(STREAMS)
    if access.available_for_user and (viewer.user_id is not None or free):
        for name, url in facts.streams:
            if url is not None:
                streams[name] = sign(url, start=facts.start)
    return {
        **shared,
        "availableForUser": access.available_for_user,
        "availableInUserRegion": access.available_in_region,
        "commerceCoverage": list(access.coverage),
        "content": {
            **shared["content"],
            "HLSStream": streams["hls_stream"],
            "PanoStream": streams["pano_stream"],
            "MezzanineVideo": streams["mezzanine_video"],
        },
    }


def _shared(view: EventView, leagues_view: bool, spoilers: Spoilers) -> dict:
    """What every viewer's answer about this event says alike (nested values are never changed
    afterwards: answers copy what they lay over), its free text without scores and a match
    without its length when spoilers are hidden (server.services.spoilers)."""
    e: Event = view.event
    is_clip = e.media_type in CLIP_TYPES
    teams = {"homeTeam": _team(view.home), "awayTeam": _team(view.away)} if view.home and view.away else None
    return {
        "_id": e.id,
        "title": spoilers.text(e.title),
        "description": spoilers.text(e.description),
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
        "availableForUser": None,
        "availableInUserRegion": None,
        "commerceCoverage": None,
        "integrations": {"vidswap": {"enabled": e.stats_enabled, "id": e.data_partner_id}},
        "content": {
            "HLSStream": None,
            "PanoStream": None,
            "PosterH": e.poster_h,
            "MezzanineVideo": None,
            "EPG": f"/api/event/epg/{e.id}" if e.status == "channel" else None,
        },
        "eventTeams": teams,
        "mediaIdentities": [{"_id": i.id, "title": i.title, "media_type": i.media_type} for i in view.identities],
        "advertisements": {"link": {"vast": e.vast_url}},
        "metaTitle": spoilers.text(_meta_title(view, leagues_view)),
        "type": e.highlight_kind,
        "startTime": e.start_time_ms,
        "endTime": e.end_time_ms,
        "duration": spoilers.duration(e.duration_s, is_clip=is_clip),
        "added": iso(e.created),
        "updated": iso(e.updated),
        # Only while the live input it plays is away (server.services.live_feeds).
        **({"liveFeed": e.live_feed} if e.live_feed else {}),
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


def event_presenter(for_viewer: Viewer | None = None, *, spoilers: str = SHOW):
    """A presenter bound to the current viewer (or `for_viewer`), customer options and the
    request's `spoilers` flag."""
    config = settings()
    current, leagues_view = for_viewer or viewer(), config.enable_leagues_view
    mode = Spoilers.asked(spoilers)
    now = clock.timestamp()  # one instant for the whole answer: every URL expires together

    def sign(url, *, start=None):
        return sign_stream(url, settings=config, now=now, start=start)

    return lambda view: event(view, current, leagues_view=leagues_view, sign=sign, spoilers=mode)


def events_page(result: Page[EventView], spoilers: str = SHOW) -> dict:
    """A page of events for the current viewer, in the success envelope."""
    return page_of(result, event_presenter(spoilers=spoilers))


def one_event(view: EventView, spoilers: str = SHOW) -> dict:
    """One event for the current viewer, in the success envelope."""
    return ok(event_presenter(spoilers=spoilers)(view))


def followed(view: FollowView) -> dict:
    f = view.follow
    return {
        "_id": f.id,
        "reference_id": f.reference_id,
        "type": f.type,
        "added": iso(f.created),
        "item": identity(view.item),
    }
