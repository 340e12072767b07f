"""Staff publish what was uploaded (issue 29 §3): as its event's archive, as a highlight of it, or
as a highlight cut from part of it, each playing through a stream token that opens it and nothing
beside; they delete an asset, refused while an event plays it unless forced; an upload declared
`as` an archive is published once transcoded. Through the real tus handler and the app's own
transcoding queue (ffmpeg)."""

import asyncio
import base64
import os
import re
import time
from pathlib import Path

import httpx
import pytest
import pytest_asyncio

from server.media.assets.store import MediaStore
from server.media.delivery.signing import sign_stream
from server.media.delivery.stills import Stills
from server.settings import Settings
from server.tests.media.serving import media_app
from server.tests.media.sources.videos import make_video
from server.transcoding.runner import Transcoding

from .test_event_admin import create, live_event
from .test_event_ingest import recording_of
from .test_roles_keys_audit import audit, staff_account

pytestmark = pytest.mark.asyncio(loop_scope="session")
TUS = {"Tus-Resumable": "1.0.0"}
ADMIN = "/api/admin/media_assets"
JOB_SECONDS = 90


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def admin(client, database):
    return await staff_account(client, database, "admin")


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def support(client, database):
    return await staff_account(client, database, "support")


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def media(settings, database):
    """The media routes (the API client serves /api only)."""
    transport = httpx.ASGITransport(app=media_app(settings, database))
    async with httpx.AsyncClient(transport=transport, base_url="http://touchline.test") as http:
        yield http


@pytest.fixture(scope="module")
def video(tmp_path_factory) -> Path:
    """12 s of 640x360: six 2-second segments per rendition once transcoded."""
    return make_video(tmp_path_factory.mktemp("media-assets") / "match.mp4", seconds=12)


def store() -> MediaStore:
    return MediaStore(Settings().media_dir)


def b64(text: str) -> str:
    return base64.b64encode(text.encode()).decode()


async def upload(client, admin, event_id: str, video: Path, **metadata: str) -> tuple[str, str]:
    """The video uploaded whole for the event; its (job, asset)."""
    data = await asyncio.to_thread(video.read_bytes)
    pairs = ",".join(f"{key} {b64(value)}" for key, value in {"event": event_id, **metadata}.items())
    began = await client.post(
        "/api/admin/uploads",
        headers={**admin["headers"], **TUS, "Upload-Length": str(len(data)), "Upload-Metadata": pairs},
    )
    assert began.status_code == 201, began.text
    sent = await client.patch(
        began.headers["location"],
        content=data,
        headers={
            **admin["headers"],
            **TUS,
            "Upload-Offset": "0",
            "Content-Type": "application/offset+octet-stream",
        },
    )
    assert sent.status_code == 204, sent.text
    return sent.headers["upload-job"], sent.headers["upload-asset"]


async def job_done(client, database, admin, job_id: str) -> dict:
    """Run the queue here (as a server process would: the test app runs none) until the job ends."""
    runner = Transcoding(Settings(), database)
    deadline = time.monotonic() + JOB_SECONDS
    while time.monotonic() < deadline:
        await runner.round()
        await runner.idle()
        job = (await client.get(f"/api/admin/media_jobs/{job_id}", headers=admin["headers"])).json()["content"]["job"]
        if job["state"] not in ("queued", "running"):
            assert job["state"] == "done", job
            return job
        await asyncio.sleep(0.2)
    raise AssertionError(f"job {job_id} still {job['state']} after {JOB_SECONDS} s")


async def ready_upload(client, database, admin, video: Path, **metadata: str) -> tuple[dict, str, dict]:
    """An upcoming event with a transcoded upload: (event, asset id, its done job)."""
    event = await create(client, database, admin["headers"], title="Media library: the final")
    job_id, asset_id = await upload(client, admin, event["_id"], video, title="The final, full match", **metadata)
    return event, asset_id, await job_done(client, database, admin, job_id)


async def call(client, who, method: str, path: str, body=None, **params):
    return await client.request(method, f"{ADMIN}{path}", json=body, params=params or None, headers=who["headers"])


async def signed_stream(client, path: str) -> str:
    """The signed stream URL anonymous viewers get for a free event or highlight (`path`)."""
    answer = await client.get(path)
    assert answer.status_code == 200, answer.text
    return answer.json()["content"]["content"]["HLSStream"]


def renditions(master: str) -> list[str]:
    return [line for line in master.splitlines() if line and not line.startswith("#")]


def segments(playlist: str) -> list[str]:
    return [line for line in playlist.splitlines() if line and not line.startswith("#")]


async def test_an_upload_attached_as_archive_archives_its_event_which_plays_all_of_it_with_its_own_poster(
    client, database, media, admin, video
):
    event, asset_id, _ = await ready_upload(client, database, admin, video)
    answer = await call(client, admin, "POST", f"/{asset_id}/attach", {"as": "archive"})
    assert answer.status_code == 200, answer.text
    archived = answer.json()["content"]
    assert archived["_id"] == event["_id"] and archived["status"] == "archived"
    assert archived["content"]["HLSStream"] == f"/media/vod/{asset_id}/index.m3u8"
    assert archived["duration"] == 12
    poster = archived["content"]["PosterH"]
    assert re.fullmatch(rf"/media/stills/{asset_id}\.jpg\?v=[0-9a-f]{{12}}", poster)
    still = await media.get(poster)
    assert still.status_code == 200 and still.headers["content-type"] == "image/jpeg"
    assert still.content[:3] == b"\xff\xd8\xff"
    # Viewers play it: its master lists the ladder, never upscaled (360p and 234p from 360p).
    stream = await signed_stream(client, f"/api/event/get_by_id/id/{event['_id']}")
    master = await media.get(stream)
    assert master.status_code == 200 and len(renditions(master.text)) == 2
    assert [entry["action"] for entry in await audit(client, admin["headers"], target=asset_id)][:1] == [
        "attach_media_asset"
    ]


async def test_an_upload_attached_as_a_recap_is_a_free_highlight_of_its_event_with_an_asset_of_its_own(
    client, database, media, admin, video
):
    event, asset_id, _ = await ready_upload(client, database, admin, video)
    answer = await call(client, admin, "POST", f"/{asset_id}/attach", {"as": "recap", "title": "Recap: the final"})
    assert answer.status_code == 200, answer.text
    recap = answer.json()["content"]
    assert (recap["media_type"], recap["type"], recap["title"]) == ("highlight", "recap", "Recap: the final")
    assert recap["_id"] != event["_id"] and recap["event_id"] == event["_id"]
    own = recap["content"]["HLSStream"].split("/")[3]
    assert own != asset_id
    detail = (await call(client, admin, "GET", f"/{own}")).json()["content"]["asset"]
    assert (detail["kind"], detail["parent"], detail["event"]) == ("highlight", asset_id, recap["_id"])
    # The upload's own detail names the highlight's event among those that play it.
    assert recap["_id"] in (await call(client, admin, "GET", f"/{asset_id}")).json()["content"]["asset"]["playedBy"]
    stream = await signed_stream(client, f"/api/clip/get_by_id/id/{recap['_id']}")
    assert (await media.get(stream)).status_code == 200
    # Its token opens its own asset, not the upload it shares bytes with.
    neighbour = stream.replace(f"/vod/{own}/", f"/vod/{asset_id}/")
    assert (await media.get(neighbour)).status_code == 403


async def test_a_cut_is_a_highlight_whose_token_opens_the_segments_of_its_range_only(
    client, database, media, admin, video
):
    event, asset_id, _ = await ready_upload(client, database, admin, video)
    answer = await call(
        client, admin, "POST", f"/{asset_id}/cuts", {"from": 4, "to": 8, "title": "Opening goal", "as": "clip"}
    )
    assert answer.status_code == 201, answer.text
    clip = answer.json()["content"]
    assert (clip["media_type"], clip["type"], clip["event_id"]) == ("clip", "clip", event["_id"])
    stored = clip["content"]["HLSStream"]
    assert stored.endswith("/clip-4000-8000.m3u8")
    own = stored.split("/")[3]
    assert Stills(Settings().media_dir).path(own).is_file()  # a frame of its own range, not the parent's poster
    stream = await signed_stream(client, f"/api/clip/get_by_id/id/{clip['_id']}")
    master = await media.get(stream)
    assert master.status_code == 200, master.text
    base = stream.split("?")[0].rsplit("/", 1)[0]
    rendition = renditions(master.text)[0]
    playlist = await media.get(f"{base}/{rendition}")
    assert playlist.status_code == 200
    listed = segments(playlist.text)
    assert len(listed) == 2  # [4 s, 8 s) is the 3rd and 4th of the 2-second segments
    rendition_dir = rendition.rsplit("/", 1)[0]
    assert (await media.get(f"{base}/{rendition_dir}/{listed[0]}")).status_code == 200
    # The neighbours: a segment outside the range, the whole upload's master, another range.
    outside = sorted(os.listdir(store().directory(asset_id) / rendition_dir))
    outside = [name for name in outside if name.endswith(".ts") and name not in listed]
    assert outside and (await media.get(f"{base}/{rendition_dir}/{outside[0]}")).status_code == 404  # not its
    token = stream.split("?token=")[1]
    assert (await media.get(f"/media/vod/{own}/index.m3u8?token={token}")).status_code == 403
    assert (await media.get(f"/media/vod/{own}/clip-0-12000/index.m3u8?token={token}")).status_code == 403


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"from": 8, "to": 4, "title": "Backwards"}, "to"),
        ({"from": 0, "to": 60, "title": "Past the end"}, "to"),
        ({"from": 2, "to": 4, "title": "   "}, "title"),
    ],
)
async def test_a_cut_outside_what_was_recorded_is_refused_with_the_field(client, database, admin, video, body, field):
    _, asset_id, _ = await ready_upload(client, database, admin, video)
    answer = await call(client, admin, "POST", f"/{asset_id}/cuts", body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["messageErrorCode"] == "validation_error"
    assert answer.json()["details"][0]["field"] == field


async def test_only_ready_uploads_and_recordings_are_published_or_cut(client, database, admin):
    event = await live_event(client, database, admin["headers"], content={"HLSStream": "/media/live/football.m3u8"})
    sample = event["content"]["HLSStream"].removeprefix("/media/live/").removesuffix(".m3u8")
    attached = await call(client, admin, "POST", f"/{sample}/attach", {"as": "highlight"})
    assert (attached.status_code, attached.json()["messageErrorCode"]) == (409, "asset_not_attachable")
    cut = await call(client, admin, "POST", f"/{sample}/cuts", {"from": 0, "to": 4, "title": "A sample"})
    assert (cut.status_code, cut.json()["messageErrorCode"]) == (409, "asset_not_cuttable")
    unknown = await call(client, admin, "POST", "/0123456789abcdef01234567/attach", {"as": "archive"})
    assert (unknown.status_code, unknown.json()["messageErrorCode"]) == (404, "asset_not_found")


async def test_a_live_event_is_not_given_an_uploaded_archive(client, database, admin, video):
    event, asset_id, _ = await ready_upload(client, database, admin, video)
    went_live = await client.post(f"/api/admin/events/{event['_id']}/go_live", headers=admin["headers"])
    assert went_live.status_code == 200, went_live.text
    answer = await call(client, admin, "POST", f"/{asset_id}/attach", {"as": "archive"})
    assert (answer.status_code, answer.json()["messageErrorCode"]) == (409, "invalid_status")


async def test_deleting_an_asset_an_event_plays_is_refused_until_forced_which_takes_it_off_first(
    client, database, admin, video
):
    event, asset_id, _ = await ready_upload(client, database, admin, video)
    await call(client, admin, "POST", f"/{asset_id}/attach", {"as": "archive"})
    cut = (await call(client, admin, "POST", f"/{asset_id}/cuts", {"from": 0, "to": 4, "title": "Kickoff"})).json()
    own = cut["content"]["content"]["HLSStream"].split("/")[3]
    refused = await call(client, admin, "DELETE", f"/{asset_id}")
    assert (refused.status_code, refused.json()["messageErrorCode"]) == (409, "asset_in_use")
    assert event["_id"] in refused.json()["message"] and cut["content"]["_id"] in refused.json()["message"]
    assert store().directory(asset_id).is_dir()  # nothing removed
    forced = await call(client, admin, "DELETE", f"/{asset_id}", force="true")
    assert forced.status_code == 200, forced.text
    assert sorted(forced.json()["content"]["deleted"]) == sorted([asset_id, own])
    assert sorted(forced.json()["content"]["detached"]) == sorted([event["_id"], cut["content"]["_id"]])
    archived = (await client.get(f"/api/admin/events/{event['_id']}", headers=admin["headers"])).json()["content"]
    assert archived["content"]["HLSStream"] is None and archived["content"]["PosterH"] is None
    gone = [store().directory(asset_id), store().directory(own), Stills(Settings().media_dir).path(asset_id)]
    assert not any([await asyncio.to_thread(os.path.lexists, path) for path in gone])
    assert (await call(client, admin, "GET", f"/{asset_id}")).status_code == 404


async def test_deleting_an_upload_still_transcoding_cancels_its_job(client, database, admin, tmp_path):
    event = await create(client, database, admin["headers"], title="Media library: deleted while queued")
    long_video = make_video(tmp_path / "long.mp4", seconds=30, size="1280x720")
    job_id, asset_id = await upload(client, admin, event["_id"], long_video)
    deleted = await call(client, admin, "DELETE", f"/{asset_id}")
    assert deleted.status_code == 200, deleted.text
    job = (await client.get(f"/api/admin/media_jobs/{job_id}", headers=admin["headers"])).json()["content"]["job"]
    assert job["state"] == "cancelled" and "asset" not in job


async def test_support_staff_see_the_library_but_publish_cut_or_delete_nothing(client, database, admin, support, video):
    event, asset_id, _ = await ready_upload(client, database, admin, video)
    listed = await call(client, support, "GET", "", event=event["_id"])
    assert [asset["_id"] for asset in listed.json()["content"]["assets"]] == [asset_id]
    detail = (await call(client, support, "GET", f"/{asset_id}")).json()["content"]["asset"]
    assert detail["job"]["state"] == "done" and detail["playedBy"] == []
    for method, path, body in (
        ("POST", f"/{asset_id}/attach", {"as": "archive"}),
        ("POST", f"/{asset_id}/cuts", {"from": 0, "to": 2, "title": "x"}),
        ("DELETE", f"/{asset_id}", None),
    ):
        answer = await call(client, support, method, path, body)
        assert (answer.status_code, answer.json()["messageErrorCode"]) == (403, "forbidden_role")


async def test_an_upload_declared_as_archive_is_published_once_transcoded(client, database, admin, video):
    event = await create(client, database, admin["headers"], title="Media library: published on its own")
    job_id, asset_id = await upload(client, admin, event["_id"], video, **{"as": "archive"})
    job = await job_done(client, database, admin, job_id)
    assert (job["attachAs"], job["attached"]) == ("archive", event["_id"])
    archived = (await client.get(f"/api/admin/events/{event['_id']}", headers=admin["headers"])).json()["content"]
    assert archived["status"] == "archived" and archived["content"]["HLSStream"] == f"/media/vod/{asset_id}/index.m3u8"


async def test_an_upload_declared_as_something_else_is_refused_before_a_byte_is_sent(client, database, admin):
    event = await create(client, database, admin["headers"], title="Media library: as what?")
    answer = await client.post(
        "/api/admin/uploads",
        headers={
            **admin["headers"],
            **TUS,
            "Upload-Length": "100",
            "Upload-Metadata": f"event {b64(event['_id'])},as {b64('trailer')}",
        },
    )
    assert (answer.status_code, answer.json()["messageErrorCode"]) == (400, "invalid_upload_metadata")


async def test_a_highlight_cut_from_a_live_recording_plays_its_range_and_no_neighbour_token_opens_it(
    client, database, media, settings, admin
):
    event = await live_event(client, database, admin["headers"])
    recording = await recording_of(database, settings, event["_id"])  # six 2-second segments so far
    # ...and the master the ingest measures once the first segments are written.
    (store().directory(recording) / "index.m3u8").write_text(
        "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=2800000,RESOLUTION=1280x720\n720p/index.m3u8\n"
    )
    answer = await call(client, admin, "POST", f"/{recording}/cuts", {"from": 2, "to": 6, "title": "The equaliser"})
    assert answer.status_code == 201, answer.text
    highlight = answer.json()["content"]
    own = highlight["content"]["HLSStream"].split("/")[3]
    stream = await signed_stream(client, f"/api/clip/get_by_id/id/{highlight['_id']}")
    base = stream.split("?")[0].rsplit("/", 1)[0]
    assert (await media.get(stream)).status_code == 200  # its answer sets the token's cookie
    playlist = await media.get(f"{base}/720p/index.m3u8")
    assert playlist.status_code == 200, playlist.text
    listed = segments(playlist.text)
    recorded = segments((store().directory(recording) / "720p" / "index.m3u8").read_text())
    assert listed == recorded[1:3]  # [2 s, 6 s): the 2nd and 3rd segments, nothing else
    assert [(await media.get(f"{base}/720p/{name}")).status_code for name in listed] == [200, 200]
    for neighbour in (recorded[0], recorded[3]):  # in its directory, but not its range
        assert (await media.get(f"{base}/720p/{neighbour}")).status_code == 404
    assert (await media.get(f"{base}/720p/clip-0-12000.m3u8")).status_code == 404
    # A token for the recording itself does not open the highlight's own path.
    parent = sign_stream(f"/media/vod/{recording}/index.m3u8", settings=Settings())
    assert parent is not None
    parent_token = parent.split("?token=")[1]
    path = f"/media/vod/{own}/clip-2000-6000/720p/index.m3u8?token={parent_token}"
    assert (await media.get(path)).status_code == 403
