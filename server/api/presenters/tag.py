"""API shape of a timeline tag: times leave in milliseconds (requests send seconds)."""

from ...models import Tag
from ...services.spoilers import SHOWN, Spoilers
from ..http.envelope import iso


def tag(item: Tag, spoilers: Spoilers = SHOWN) -> dict:
    """A tag; with spoilers hidden, its title without scores and a result's tag without its team
    (server.services.spoilers)."""
    names_team = spoilers.names_team(item.subtype)
    return {
        "_id": item.id,
        "targetId": item.target_id,
        "userId": item.user_id,
        "title": spoilers.text(item.title),
        "startTime": item.start_ms,
        "endTime": item.end_ms,
        "timePTS": item.time_pts,
        "type": item.type,
        "subtype": item.subtype,
        "global": bool(item.is_global),
        "playerNumber": item.player_number if names_team else None,
        "playerColor": item.player_color if names_team else None,
        "teamId": item.team_id if names_team else None,
        "videoType": item.video_type,
        "streamName": item.stream_name,
        "mode": item.mode,
        "added": iso(item.created),
        "updated": iso(item.updated),
    }
