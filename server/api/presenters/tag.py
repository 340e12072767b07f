"""API shape of a timeline tag: times leave in milliseconds (requests send seconds)."""

from ...models import Tag
from ..http.envelope import iso


def tag(item: Tag) -> dict:
    return {
        "_id": item.id,
        "targetId": item.target_id,
        "userId": item.user_id,
        "title": item.title,
        "startTime": item.start_ms,
        "endTime": item.end_ms,
        "timePTS": item.time_pts,
        "type": item.type,
        "subtype": item.subtype,
        "global": bool(item.is_global),
        "playerNumber": item.player_number,
        "playerColor": item.player_color,
        "teamId": item.team_id,
        "videoType": item.video_type,
        "streamName": item.stream_name,
        "mode": item.mode,
        "added": iso(item.created),
        "updated": iso(item.updated),
    }
