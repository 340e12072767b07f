"""The signed-in viewer's playback positions: "Continue watching" and resuming a video (only ever
their own: the id comes from the session)."""

from ...services import playback
from ...services.paging import PageQuery
from ...services.spoilers import SHOW
from ..http.context import bind_viewer, signed_in
from ..http.database import db_session, db_write_session
from ..http.envelope import iso, ok, page_of
from ..presenters.catalogue import event_presenter


def _position(saved: playback.SavedPosition) -> dict:
    return {
        "video_id": saved.video_id,
        "position": saved.position,
        "duration": saved.duration,
        "updated": iso(saved.updated),
    }


async def save_playback_position(body: dict):
    principal = await signed_in()
    async with db_write_session() as db:
        saved = await playback.save_position(
            db, principal.user_id, body["video_id"], position=body["position"], duration=body["duration"]
        )
    return ok(_position(saved))


async def get_playback_position(video_id: str):
    principal = await signed_in()
    async with db_session() as db:
        saved = await playback.resume_position(db, principal.user_id, video_id)
    return ok(_position(saved) if saved else None)


async def get_continue_watching(
    page: int = 0, size: int = 10, next_: bool = False, count: bool = False, spoilers: str = SHOW
):
    principal = await signed_in()
    async with db_session() as db:
        result = await playback.continue_watching(db, principal.user_id, PageQuery(page, size, next_, count))
    present = event_presenter(await bind_viewer(), spoilers=spoilers)
    return page_of(result, lambda entry: {"video": present(entry[0]), **_position(entry[1])})


async def remove_playback_position(body: dict):
    principal = await signed_in()
    async with db_write_session() as db:
        await playback.remove_position(db, principal.user_id, body["video_id"])
    return ok(None)
