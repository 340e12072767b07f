"""An event's ingest as staff see it (issue 28 §5, `get_event_ingest`): its state, what the
encoder sends and how the transcoder keeps up (from the process that runs the feed), the last
segment and the bitrate (from the recording's files, in any process), who may read it."""

from datetime import timedelta
from types import SimpleNamespace

import pytest
import pytest_asyncio
from sqlalchemy import update

from server import clock
from server.ingest import live_inputs
from server.media.assets.model import LIVE, RECORDING
from server.media.assets.store import store_of
from server.media.packaging.ladder import Source
from server.media.packaging.progress import Progress
from server.media.recordings import RECORDING_FILE, RecordingInfo
from server.media.sources.rtmp import RtmpIngest
from server.models import MediaAsset, StreamKey, new_id
from server.services import stream_keys
from server.tests.accounts import sign_up
from server.tests.mailbox import staff_headers
from server.tests.media.test_recording_tail import write_rendition

from .test_event_admin import NOBODY, call, create, ok
from .test_roles_keys_audit import staff_account

pytestmark = pytest.mark.asyncio(loop_scope="session")

LADDER = ({"name": "720p"}, {"name": "360p"})
SEGMENT_BYTES = 700_000  # 2 s segments of 2800 kbit/s


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def staff(client, database, settings):
    return await staff_headers(client, database, settings)


async def ingest(client, staff, event_id: str) -> dict:
    return await ok(client, staff, "GET", f"/{event_id}/ingest")


async def recording_of(database, settings, event_id: str, *, kind: str = LIVE, state: str = "live") -> str:
    """A live input recording of the event (its row and files) whose last segment ended 3 s ago."""
    now = clock.now()
    asset = MediaAsset(id=new_id(), kind=kind, event_id=event_id, state=state, created=now, updated=now)
    async with database.session() as db:
        db.add(asset)
        await db.commit()
    directory = store_of(settings).directory(asset.id)
    directory.mkdir(parents=True)
    (directory / RECORDING_FILE).write_bytes(RecordingInfo(7200, 2.0, LADDER).dumps())
    write_rendition(directory / "720p", [SEGMENT_BYTES] * 6, start=now.timestamp() - 15)
    return asset.id


def feed_of(settings, database, event_id: str, asset_id: str) -> live_inputs.LiveInputs:
    """This process's live inputs, with a feed of the event as its transcoder left it."""
    inputs = live_inputs.LiveInputs(settings, database, RtmpIngest("127.0.0.1", 1935, "", ""))
    feed = live_inputs.Feed(inputs, event_id, "a-stream")
    feed.asset_id, feed.state, feed.reconnects = asset_id, "reconnecting", 1
    feed.source = Source(1280, 720, 29.97, True, "h264", "aac")
    feed.info = RecordingInfo(7200, 2.0, LADDER)
    progress = Progress(900, 30.0, 0.91, None, 30.0, dropped_frames=3, duplicated_frames=5, ended=False)
    feed.transcoder = SimpleNamespace(last_progress=progress, restarts=2)  # type: ignore[assignment]
    inputs.feeds[event_id] = feed
    return inputs


async def test_an_event_without_a_live_input_is_idle_with_nothing_measured(client, database, staff):
    event = await create(client, database, staff)
    health = await ingest(client, staff, event["_id"])
    assert health == {
        "event": event["_id"],
        "state": "idle",
        "asset": None,
        "publishing": False,
        "renditions": [],
        "video": {"codec": None, "width": None, "height": None, "fps": None},
        "audio": {"codec": None},
        "bitrateKbps": None,
        "speed": None,
        "behindRealTime": False,
        "droppedFrames": None,
        "duplicatedFrames": None,
        "lastSegmentAgeSeconds": None,
        "restarts": None,
        "reconnects": None,
        "viewers": 0,
        "transcoderHere": False,
        "autostart": None,
        "dvrSeconds": 7200,
    }


async def test_the_process_that_runs_the_feed_tells_the_encoders_input_and_the_transcoders_pace(
    client, database, settings, staff, monkeypatch
):
    event = await create(client, database, staff)
    asset_id = await recording_of(database, settings, event["_id"], state="live")
    monkeypatch.setattr(live_inputs, "_current", feed_of(settings, database, event["_id"], asset_id))

    health = await ingest(client, staff, event["_id"])

    assert (health["state"], health["asset"], health["transcoderHere"]) == ("reconnecting", asset_id, True)
    assert health["video"] == {"codec": "h264", "width": 1280, "height": 720, "fps": 29.97}
    assert health["audio"] == {"codec": "aac"}
    assert health["renditions"] == ["720p", "360p"]
    assert (health["speed"], health["behindRealTime"]) == (0.91, True)
    assert (health["droppedFrames"], health["duplicatedFrames"]) == (3, 5)
    assert (health["restarts"], health["reconnects"]) == (2, 1)
    assert health["bitrateKbps"] == SEGMENT_BYTES * 8 / 2 / 1000
    assert 3.0 <= health["lastSegmentAgeSeconds"] < 30


async def test_another_process_reads_the_state_from_the_recording_and_measures_its_files(
    client, database, settings, staff
):
    event = await create(client, database, staff)
    asset_id = await recording_of(database, settings, event["_id"], state="interrupted")

    health = await ingest(client, staff, event["_id"])

    assert (health["state"], health["asset"], health["transcoderHere"]) == ("interrupted", asset_id, False)
    assert health["renditions"] == ["720p", "360p"]
    assert health["bitrateKbps"] == SEGMENT_BYTES * 8 / 2 / 1000
    assert 3.0 <= health["lastSegmentAgeSeconds"] < 30
    # Only the transcoder knows these.
    assert set(health["video"].values()) == {None} and health["audio"] == {"codec": None}
    assert [health[f] for f in ("speed", "droppedFrames", "restarts", "reconnects")] == [None] * 4


async def test_a_recording_that_became_the_archive_is_finished_and_its_newest_recording_counts(
    client, database, settings, staff
):
    event = await create(client, database, staff)
    await recording_of(database, settings, event["_id"], kind=LIVE, state="interrupted")
    clock.advance(timedelta(seconds=1))
    archive = await recording_of(database, settings, event["_id"], kind=RECORDING, state="ready")
    health = await ingest(client, staff, event["_id"])
    assert (health["state"], health["asset"]) == ("finished", archive)


async def test_publishing_says_whether_an_encoder_uses_the_events_key(client, database, settings, staff):
    event = await create(client, database, staff)
    async with database.write_session() as db:
        await stream_keys.create(db, event["_id"], settings=settings, actor=None)
    assert (await ingest(client, staff, event["_id"]))["publishing"] is False
    async with database.session() as db:
        await db.execute(update(StreamKey).where(StreamKey.event_id == event["_id"]).values(publisher="7@127.0.0.1"))
        await db.commit()
    assert (await ingest(client, staff, event["_id"]))["publishing"] is True


async def test_an_unknown_event_is_404_and_a_malformed_id_400(client, staff):
    unknown = await call(client, staff, "GET", f"/{NOBODY}/ingest")
    assert unknown.status_code == 404 and unknown.json()["messageErrorCode"] == "event_not_found"
    malformed = await call(client, staff, "GET", "/not-an-id/ingest")
    assert malformed.status_code == 400 and malformed.json()["error"] is True


async def test_support_staff_may_read_it_and_viewers_may_not(client, database, staff):
    event = await create(client, database, staff)
    support = await staff_account(client, database, "support")
    assert (await call(client, support["headers"], "GET", f"/{event['_id']}/ingest")).status_code == 200
    viewer = await sign_up(client)
    refused = await call(client, viewer["headers"], "GET", f"/{event['_id']}/ingest")
    assert refused.status_code == 403 and refused.json()["messageErrorCode"] == "forbidden_role"
    anonymous = await client.get(f"/api/admin/events/{event['_id']}/ingest")
    assert anonymous.status_code == 401


# --- per-event settings -----------------------------------------------------------------------------


async def test_staff_arm_or_disarm_auto_start_and_set_the_rewind_window_and_fields_not_sent_stay(
    client, database, staff
):
    event = await create(client, database, staff)
    armed = await ok(client, staff, "PATCH", f"/{event['_id']}/ingest", {"autostart": True, "dvrSeconds": 1800})
    assert (armed["autostart"], armed["dvrSeconds"], armed["state"]) == (True, 1800, "idle")
    off = await ok(client, staff, "PATCH", f"/{event['_id']}/ingest", {"autostart": False})
    assert (off["autostart"], off["dvrSeconds"]) == (False, 1800)
    back = await ok(client, staff, "PATCH", f"/{event['_id']}/ingest", {"autostart": None, "dvrSeconds": None})
    assert (back["autostart"], back["dvrSeconds"]) == (None, 7200)  # the kickoff rule and the setting again


async def test_settings_refuse_a_window_out_of_range_an_empty_change_and_non_admins(client, database, staff):
    event = await create(client, database, staff)
    for body in ({"dvrSeconds": 59}, {"dvrSeconds": 86401}, {}, {"autostart": "yes"}, {"other": 1}):
        answer = await call(client, staff, "PATCH", f"/{event['_id']}/ingest", body)
        assert answer.status_code == 400 and answer.json()["messageErrorCode"] == "validation_error", body
    assert (await call(client, staff, "PATCH", f"/{NOBODY}/ingest", {"autostart": True})).status_code == 404
    support = await staff_account(client, database, "support")
    refused = await call(client, support["headers"], "PATCH", f"/{event['_id']}/ingest", {"autostart": True})
    assert refused.status_code == 403 and refused.json()["messageErrorCode"] == "forbidden_role"
    assert (await ingest(client, staff, event["_id"]))["autostart"] is None
