"""What uploads and transcoding leave behind is removed by the media sweep: an upload left
unfinished past its retention (row and bytes), and files no row accounts for once they are old;
nothing a live upload or a running job still needs."""

import os
import time
from datetime import timedelta

import pytest
from sqlalchemy import select

from server import clock
from server.media.sources.upload_files import UploadFiles
from server.models import Upload, new_id
from server.services import uploads
from server.tests import factories
from server.tests.commerce import CREATED
from server.transcoding.leftovers import sweep_uploads


@pytest.fixture
def media_settings(settings, tmp_path):
    return settings.model_copy(update={"media_dir": tmp_path / "media"})


async def new_upload(database, settings, retention_hours: int = 1) -> str:
    async with database.session() as db:
        event = factories.event(db, "Leftovers", status="archived", when=clock.now() - timedelta(days=1))
        await db.commit()
    CREATED.append((database, event.id))
    async with database.write_session() as db:
        upload = await uploads.begin(
            db,
            event_id=event.id,
            length=100,
            filename=None,
            title=None,
            created_by=None,
            max_bytes=settings.upload_max_bytes,
            retention_hours=retention_hours,
        )
        await db.commit()
    UploadFiles(settings.media_dir).start(upload.id)
    return upload.id


def age(path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


async def test_an_upload_left_unfinished_past_its_retention_is_removed_with_its_bytes(database, media_settings):
    files = UploadFiles(media_settings.media_dir)
    stale = await new_upload(database, media_settings)
    fresh = await new_upload(database, media_settings, retention_hours=48)
    clock.advance(timedelta(hours=2))
    try:
        removed = await sweep_uploads(database, media_settings)
    finally:
        clock.reset()
    assert f"{stale}.part" in removed and not files.part(stale).exists()
    assert files.part(fresh).exists()
    async with database.session() as db:
        left = set(await db.scalars(select(Upload.id).where(Upload.id.in_([stale, fresh]))))
    assert left == {fresh}


async def test_old_files_no_row_accounts_for_go_and_what_is_in_use_stays(database, media_settings):
    files = UploadFiles(media_settings.media_dir)
    in_use = await new_upload(database, media_settings, retention_hours=48)
    orphan_part, orphan_source = files.part(new_id()), files.source(new_id())
    for path in (orphan_part, orphan_source):
        path.write_bytes(b"left behind")
    work = media_settings.media_dir / "transcoding" / new_id()
    work.mkdir(parents=True)
    young_orphan = files.source(new_id())
    young_orphan.write_bytes(b"just written")
    for path in (orphan_part, orphan_source, work, files.part(in_use)):
        age(path, 7200)
    removed = await sweep_uploads(database, media_settings)
    assert not orphan_part.exists() and not orphan_source.exists() and not work.exists()
    assert files.part(in_use).exists()  # its upload goes on
    assert young_orphan.exists()  # maybe a job being queued right now
    assert len(removed) == 3
