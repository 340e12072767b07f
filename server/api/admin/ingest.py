"""An event's live input as staff see it (issue 28 §5): its state, what the encoder sends, how
the transcoder keeps up, its last segment and its viewers. The reading is
server/services/ingest_health.py; this process's feed of the event, if it runs one, adds what
only the transcoder knows (server/ingest/live_inputs.py)."""

from ... import clock
from ...ingest import live_inputs
from ...media.assets.store import store_of
from ...realtime import census
from ...realtime.socket import event_room
from ...services import ingest_health, live_feeds
from ...services.ingest_health import IngestHealth
from ..http.audit import note_target
from ..http.context import settings, staff, state
from ..http.database import db_session, db_write_session
from ..http.envelope import ok


def present(health: IngestHealth, viewers: int) -> dict:
    source, progress = health.source, health.progress
    return {
        "event": health.event_id,
        "state": health.state,
        "asset": health.asset_id,
        "publishing": health.publishing,
        "renditions": list(health.renditions),
        # Objects whose fields are null when unknown here (contract checkers read a null object
        # as a wrong type).
        "video": {
            "codec": source.video_codec if source else None,
            "width": source.width if source else None,
            "height": source.height if source else None,
            "fps": source.fps if source else None,
        },
        "audio": {"codec": source.audio_codec if source and source.has_audio else None},
        "bitrateKbps": health.bitrate_kbps,
        "speed": progress.speed if progress else None,
        "behindRealTime": progress.behind_real_time if progress else False,
        "droppedFrames": progress.dropped_frames if progress else None,
        "duplicatedFrames": progress.duplicated_frames if progress else None,
        "lastSegmentAgeSeconds": round(health.last_segment_age, 1) if health.last_segment_age is not None else None,
        "restarts": health.restarts,
        "reconnects": health.reconnects,
        "viewers": viewers,
        "transcoderHere": health.transcoder_here,
        "autostart": health.autostart,
        "dvrSeconds": health.dvr_seconds,
    }


async def set_ingest_settings(id_: str, body: dict):
    """Staff's per-event choices for its feed; answers the ingest as GET does."""
    await staff()
    note_target(id_)
    changes = {}
    if "autostart" in body:
        changes["autostart"] = body["autostart"]
    if "dvrSeconds" in body:
        changes["dvr_seconds"] = body["dvrSeconds"]
    async with db_write_session() as db:
        await live_feeds.set_ingest_settings(
            db, id_, changes, store=store_of(settings()), dvr_default=settings().dvr_seconds
        )
    return await get_event_ingest(id_)


async def get_event_ingest(id_: str):
    await staff()
    inputs = live_inputs.current()
    feed = inputs.health(id_) if inputs is not None else None
    async with db_session() as db:
        health = await ingest_health.ingest_health(
            db, id_, feed=feed, store=store_of(settings()), now=clock.now(), dvr_default=settings().dvr_seconds
        )
    sockets = await census.count(state("socket"))
    return ok(present(health, sockets.room(event_room(id_))))
