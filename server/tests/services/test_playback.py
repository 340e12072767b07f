"""Playback positions (server/services/playback.py): the resume rule, retention and what happens to
positions when their video goes."""

from datetime import timedelta

import pytest
from sqlalchemy import delete, select

from server import clock
from server.models import Event, PlaybackPosition, User, new_id
from server.services import playback
from server.services.paging import PageQuery
from server.tests.commerce import CREATED


@pytest.fixture
async def user_id(database) -> str:
    user = User(id=new_id(), email=f"{new_id()}@example.com", display_name="Viewer", club_list=[], options={})
    async with database.session() as db:
        db.add(user)
        await db.commit()
    return user.id


async def new_video(database, catalogue, *, status: str = "archived") -> str:
    video_id = new_id()
    async with database.session() as db:
        parent = await db.get(Event, catalogue["archived"])
        db.add(
            Event(
                id=video_id,
                media_type="highlight",
                title=f"Highlight {video_id[:6]}",
                event_date=parent.event_date,
                external_id=f"TL-PBS-{video_id[:10]}",
                reference_id=f"ref-pbs-{video_id}",
                status=status,
                parent_event_id=parent.id,
            )
        )
        await db.commit()
    CREATED.append((database, video_id))  # gone after the test: the clip lists count highlights
    return video_id


async def save(database, user_id: str, video_id: str, position: float, duration: float = 100):
    async with database.write_session() as db:
        return await playback.save_position(db, user_id, video_id, position=position, duration=duration)


async def kept(database, user_id: str) -> list[str]:
    async with database.session() as db:
        rows = await db.scalars(
            select(PlaybackPosition.video_id)
            .where(PlaybackPosition.user_id == user_id)
            .order_by(PlaybackPosition.updated.desc())
        )
        return list(rows)


def test_a_video_is_resumable_from_ten_seconds_in_until_ninety_five_percent():
    assert not playback.is_resumable(0, 100)
    assert not playback.is_resumable(9.99, 100)
    assert playback.is_resumable(10, 100)
    assert playback.is_resumable(94.9, 100)
    assert not playback.is_resumable(95, 100)
    assert not playback.is_resumable(100, 100)
    # A video shorter than ten seconds is never worth resuming.
    assert not playback.is_resumable(9, 9.5)


async def test_a_viewer_keeps_only_the_most_recently_watched_positions(database, catalogue, user_id, monkeypatch):
    monkeypatch.setattr(playback, "RETENTION", 3)
    videos = [await new_video(database, catalogue) for _ in range(5)]
    for video_id in videos:
        await save(database, user_id, video_id, 20)
        clock.advance(timedelta(seconds=1))
    assert await kept(database, user_id) == videos[:1:-1]
    # Watching an old one again makes it the newest; the oldest kept one goes.
    await save(database, user_id, videos[2], 30)
    clock.advance(timedelta(seconds=1))
    await save(database, user_id, videos[0], 30)
    assert await kept(database, user_id) == [videos[0], videos[2], videos[4]]


async def test_a_highlight_of_status_vod_keeps_a_position(database, catalogue, user_id):
    video_id = await new_video(database, catalogue, status="vod")
    saved = await save(database, user_id, video_id, 42, duration=180)
    assert (saved.position, saved.duration, saved.resumable) == (42, 180, True)
    async with database.session() as db:
        page = await playback.continue_watching(db, user_id, PageQuery())
    assert [(view.event.id, saved.position) for view, saved in page.entries] == [(video_id, 42)]


async def test_a_deleted_video_takes_its_positions_with_it(database, catalogue, user_id):
    video_id = await new_video(database, catalogue)
    await save(database, user_id, video_id, 50)
    async with database.session() as db:
        await db.execute(delete(Event).where(Event.id == video_id))
        await db.commit()
    assert await kept(database, user_id) == []
