"""Staff upload videos over tus 1.0 (issue 29 §1): an upload cut off resumes from its offset and
ends byte for byte as the file; a complete upload is checked and queued for transcoding; a file
that is no usable video is refused with a clear error and leaves nothing behind; only admin
staff upload, and every request is audited."""

import base64
import hashlib
from pathlib import Path

import pytest
import pytest_asyncio
from sqlalchemy import func, select

from server.media.sources.upload_files import UploadFiles
from server.models import MediaAsset, MediaJob, Upload
from server.services import media_jobs
from server.tests.media.sources.videos import make_audio_only, make_video, truncate

from .test_event_admin import create
from .test_roles_keys_audit import audit, staff_account

pytestmark = pytest.mark.asyncio(loop_scope="session")
TUS = {"Tus-Resumable": "1.0.0"}
BYTES = "application/offset+octet-stream"


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def admin(client, database):
    return await staff_account(client, database, "admin")


@pytest_asyncio.fixture(loop_scope="session")
async def event_id(client, database, admin) -> str:
    return (await create(client, database, admin["headers"], title="Upload test: a match"))["_id"]


@pytest_asyncio.fixture(loop_scope="session", autouse=True)
async def _no_jobs_left(database):
    yield
    async with database.write_session() as db:
        for job_id in await db.scalars(select(MediaJob.id).where(MediaJob.state.in_(media_jobs.ACTIVE))):
            await media_jobs.cancel(db, job_id)
        await db.commit()


def metadata(**pairs: str) -> str:
    return ",".join(f"{key} {base64.b64encode(value.encode()).decode()}" for key, value in pairs.items())


async def begin(client, admin, event_id: str, length: int, **extra: str):
    return await client.post(
        "/api/admin/uploads",
        headers={
            **admin["headers"],
            **TUS,
            "Upload-Length": str(length),
            "Upload-Metadata": metadata(event=event_id, **extra),
        },
    )


async def send(client, admin, location: str, offset: int, data: bytes):
    return await client.patch(
        location,
        content=data,
        headers={**admin["headers"], **TUS, "Upload-Offset": str(offset), "Content-Type": BYTES},
    )


async def counts(database) -> tuple[int, int, int]:
    async with database.session() as db:
        return (
            await db.scalar(select(func.count()).select_from(Upload)) or 0,
            await db.scalar(select(func.count()).select_from(MediaAsset).where(MediaAsset.kind == "upload")) or 0,
            await db.scalar(select(func.count()).select_from(MediaJob)) or 0,
        )


async def test_an_upload_cut_off_half_way_resumes_from_its_offset_and_is_queued_byte_for_byte(
    client, database, settings, admin, event_id, tmp_path
):
    video = make_video(tmp_path / "final.mp4", seconds=3)
    data = video.read_bytes()
    created = await begin(client, admin, event_id, len(data), filename="final.mp4", title="The final")
    assert created.status_code == 201, created.text
    location = created.headers["Location"]
    assert created.headers["Tus-Resumable"] == "1.0.0" and created.headers["Upload-Offset"] == "0"
    upload = created.json()["content"]["upload"]
    assert (upload["event"], upload["length"], upload["offset"], upload["title"]) == (
        event_id,
        len(data),
        0,
        "The final",
    )

    half = len(data) * 6 // 10
    first = await send(client, admin, location, 0, data[:half])
    assert first.status_code == 204, first.text
    assert first.headers["Upload-Offset"] == str(half)
    # A client that lost its place asks, and is told where to go on.
    asked = await client.head(location, headers={**admin["headers"], **TUS})
    assert asked.status_code == 200
    assert (asked.headers["Upload-Offset"], asked.headers["Upload-Length"]) == (str(half), str(len(data)))
    wrong = await send(client, admin, location, 0, data)
    assert wrong.status_code == 409 and wrong.json()["messageErrorCode"] == "upload_offset_mismatch"
    assert wrong.headers["Upload-Offset"] == str(half)

    last = await send(client, admin, location, half, data[half:])
    assert last.status_code == 204, last.text
    job_id, asset_id = last.headers["Upload-Job"], last.headers["Upload-Asset"]
    source = UploadFiles(settings.media_dir).source(job_id)
    assert hashlib.sha256(source.read_bytes()).hexdigest() == hashlib.sha256(data).hexdigest()
    async with database.session() as db:
        job = await db.get(MediaJob, job_id)
        asset = await db.get(MediaAsset, asset_id)
    assert job is not None and (job.state, job.asset_id, job.event_id) == ("queued", asset_id, event_id)
    assert asset is not None and (asset.kind, asset.state, asset.title) == ("upload", "processing", "The final")
    assert asset.duration_ms == pytest.approx(3000, abs=100)
    # The upload is over: its address answers no more.
    gone = await client.head(location, headers={**admin["headers"], **TUS})
    assert gone.status_code == 404

    shown = await client.get(f"/api/admin/media_jobs/{job_id}", headers=admin["headers"])
    assert shown.status_code == 200 and shown.json()["content"]["job"]["state"] == "queued"


BAD_FILES = {
    "text-named-mp4": (lambda p: _text(p / "notes.mp4"), "not_a_video"),
    "truncated-mp4": (lambda p: truncate(make_video(p / "whole.mp4"), p / "cut.mp4"), "not_a_video"),
    "audio-only": (lambda p: make_audio_only(p / "song.m4a"), "no_video_stream"),
    "truncated-after-its-index": (
        lambda p: truncate(make_video(p / "fs.mp4", seconds=6, faststart=True), p / "cut.mp4", 0.6),
        "undecodable_video",
    ),
}


def _text(path: Path) -> Path:
    path.write_text("Team sheets and the referee's report\n" * 100)
    return path


@pytest.mark.parametrize("kind", list(BAD_FILES))
async def test_a_file_that_is_no_usable_video_is_refused_and_leaves_nothing_behind(
    client, database, settings, admin, event_id, tmp_path, kind
):
    make, code = BAD_FILES[kind]
    data = make(tmp_path).read_bytes()
    before = await counts(database)
    created = await begin(client, admin, event_id, len(data), filename="x.mp4")
    assert created.status_code == 201, created.text
    location = created.headers["Location"]
    refused = await send(client, admin, location, 0, data)
    assert refused.status_code == 422, refused.text
    body = refused.json()
    assert body["error"] is True and body["messageErrorCode"] == code
    assert body["message"] and "\n" not in body["message"] and str(settings.media_dir) not in body["message"]
    assert await counts(database) == before
    upload_id = location.rsplit("/", 1)[1]
    assert not UploadFiles(settings.media_dir).part(upload_id).exists()
    assert (await client.head(location, headers={**admin["headers"], **TUS})).status_code == 404


async def test_an_empty_file_is_refused_before_anything_is_stored(client, database, admin, event_id):
    before = await counts(database)
    answer = await begin(client, admin, event_id, 0)
    assert answer.status_code == 422 and answer.json()["messageErrorCode"] == "empty_file"
    assert await counts(database) == before


async def test_a_file_larger_than_the_server_takes_is_refused_up_front(client, admin, event_id, settings):
    answer = await begin(client, admin, event_id, settings.upload_max_bytes + 1)
    assert answer.status_code == 413 and answer.json()["messageErrorCode"] == "upload_too_large"


async def test_bytes_past_the_declared_length_are_refused(client, admin, event_id):
    created = await begin(client, admin, event_id, 10)
    answer = await send(client, admin, created.headers["Location"], 0, b"x" * 20)
    assert answer.status_code == 413 and answer.json()["messageErrorCode"] == "upload_too_large"


@pytest.mark.parametrize(
    ("upload_metadata", "status", "code"),
    [
        ("filename ZmluYWwubXA0", 400, "invalid_upload_metadata"),  # no event
        ("event !!!", 400, "validation_error"),  # the contract's pattern: base64's characters
        ("event AAA", 400, "invalid_upload_metadata"),  # its characters, but no base64
        ("event " + base64.b64encode(b"0" * 24).decode(), 404, "event_not_found"),
        ("event " + base64.b64encode(b"\xff\xfe").decode(), 400, "invalid_upload_metadata"),
    ],
    ids=["no-event", "not-base64", "bad-base64", "unknown-event", "not-utf8"],
)
async def test_metadata_that_names_no_event_is_refused(client, admin, upload_metadata, status, code):
    answer = await client.post(
        "/api/admin/uploads",
        headers={**admin["headers"], **TUS, "Upload-Length": "100", "Upload-Metadata": upload_metadata},
    )
    assert answer.status_code == status, answer.text
    assert answer.json()["messageErrorCode"] == code


async def test_another_tus_version_is_refused(client, admin, event_id):
    answer = await client.post(
        "/api/admin/uploads",
        headers={
            **admin["headers"],
            "Tus-Resumable": "0.2.2",
            "Upload-Length": "100",
            "Upload-Metadata": metadata(event=event_id),
        },
    )
    assert answer.status_code == 400 and answer.json()["messageErrorCode"] == "validation_error"
    assert "Tus-Resumable" in answer.json()["message"]


async def test_deleting_an_upload_frees_its_storage(client, database, settings, admin, event_id):
    created = await begin(client, admin, event_id, 1000)
    location = created.headers["Location"]
    await send(client, admin, location, 0, b"y" * 400)
    upload_id = location.rsplit("/", 1)[1]
    assert UploadFiles(settings.media_dir).offset(upload_id) == 400
    deleted = await client.delete(location, headers={**admin["headers"], **TUS})
    assert deleted.status_code == 204
    assert UploadFiles(settings.media_dir).offset(upload_id) is None
    assert (await send(client, admin, location, 400, b"y")).status_code == 404


async def test_support_staff_cannot_upload_and_the_refusal_is_audited(client, database, admin, event_id):
    support = await staff_account(client, database, "support")
    answer = await begin(client, support, event_id, 100)
    assert answer.status_code == 403 and answer.json()["messageErrorCode"] == "forbidden_role"
    entries = await audit(client, admin["headers"], action="create_upload", actor=support["userId"])
    assert entries and entries[0]["status"] == 403


async def test_an_upload_is_audited_with_its_event_and_its_size(client, admin, event_id):
    created = await begin(client, admin, event_id, 1234)
    assert created.status_code == 201
    entries = await audit(client, admin["headers"], action="create_upload", actor=admin["userId"])
    assert entries[0]["target"] == event_id and entries[0]["detail"]["bytes"] == 1234


async def test_an_upload_plays_as_the_events_archive_only_once_it_is_ready(client, database, admin, event_id, tmp_path):
    data = make_video(tmp_path / "archive.mp4", seconds=2).read_bytes()
    created = await begin(client, admin, event_id, len(data))
    asset_id = (await send(client, admin, created.headers["Location"], 0, data)).headers["Upload-Asset"]
    stream = {"content": {"HLSStream": f"/media/vod/{asset_id}/index.m3u8"}}
    early = await client.patch(f"/api/admin/events/{event_id}", json=stream, headers=admin["headers"])
    assert early.status_code == 409 and early.json()["messageErrorCode"] == "asset_not_ready"
    async with database.session() as db:  # as its transcoding job leaves it
        asset = await db.get(MediaAsset, asset_id)
        assert asset is not None
        asset.state = "ready"
        await db.commit()
    ready = await client.patch(f"/api/admin/events/{event_id}", json=stream, headers=admin["headers"])
    assert ready.status_code == 200, ready.text
    assert ready.json()["content"]["content"]["HLSStream"] == f"/media/vod/{asset_id}/index.m3u8"
