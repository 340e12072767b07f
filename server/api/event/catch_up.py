"""Catch up, then live (issue 31 §2): a live event's key plays so far, as one playlist."""

from ... import clock
from ...errors import Forbidden
from ...media.delivery.signing import sign_stream
from ...models import Event
from ...services import catch_up as catch_up_service
from ...services import events as events_service
from ...services.spoilers import SHOW, Spoilers
from ..http.context import bind_viewer, settings
from ..http.database import db_read_session
from ..http.envelope import ok
from ..presenters.catalogue import event_presenter


async def get_catch_up(id_: str, spoilers: str = SHOW):
    viewer = await bind_viewer()
    config, mode = settings(), Spoilers.asked(spoilers)
    async with db_read_session() as db:
        view = await events_service.get_event(db, id_, media_types=("event",))
        # Whoever may play the event now (its answer carries them a stream) may catch up on it.
        if event_presenter(viewer)(view)["content"]["HLSStream"] is None:
            raise Forbidden("You can only catch up on an event you may watch", code="forbidden")
        event = await db.get(Event, view.event.id)
        assert event is not None  # the view was read from it in this session
        reel = await catch_up_service.catch_up(db, event, settings=config, now=clock.now())
    return ok(
        {
            "eventId": event.id,
            "url": sign_stream(reel.url, settings=config),
            "liveEdgeMs": reel.live_edge_ms,
            "keyPlays": [
                {
                    "_id": play.tag_id,
                    "subtype": play.subtype,
                    "title": mode.text(play.title),
                    "startTime": play.start_ms,
                    "endTime": play.end_ms,
                    "reelOffset": play.reel_offset_s,
                }
                for play in reel.key_plays
            ],
        }
    )
