"""The Media screen of `touchline admin` (M; issue 29 §4), driven by Textual's pilot on fixed
answers (MediaLibraryApi: an upload transcoding, one queued, one failed, a recording and a
highlight cut from it), with the socket's `media-job-change` messages sent by the test; and an
upload transcoded, published and deleted on a real test server (cli/tests/conftest.py), which
transcodes with the real ffmpeg."""

import asyncio
import base64
from pathlib import Path

import httpx
import pytest
from textual.widgets import DataTable, Input, Label, Select, Static

from cli.admin_client import AdminApiError
from cli.tui.app import TouchlineAdmin
from cli.tui.media import MediaScreen
from cli.tui.media_forms import AttachForm, CutForm, parse_seconds
from cli.tui.media_jobs import JobFollower
from cli.tui.rooms import MAX_ROOMS
from cli.tui.widgets import ConfirmScreen, HelpScreen
from server.tests.media.sources.videos import make_video

from .fixed_data import HIGHLIGHT_EVENT, MEDIA_ASSETS, MEDIA_JOBS, NORTHGATE, WESTPORT, MediaLibraryApi
from .test_admin_tui import SIZE, cells, staff_api, wait_until
from .test_codes_screen import notified
from .test_live_screen import create_event, on_the_server

QUEUED, RUNNING, FAILED, HIGHLIGHT, RECORDING = (asset["_id"] for asset in MEDIA_ASSETS)
QUEUED_JOB, RUNNING_JOB, FAILED_JOB = (job["_id"] for job in MEDIA_JOBS)
ADMIN_ACTIONS = ("attach", "cut", "delete", "stop_job")


async def open_media(pilot, app) -> MediaScreen:
    """The Media screen (M) with the library listed and the live watch open."""
    await pilot.press("M")
    screen = app.screen
    assert isinstance(screen, MediaScreen)
    await wait_until(pilot, lambda: screen.query_one("#assets", DataTable).row_count == len(MEDIA_ASSETS))
    await wait_until(pilot, lambda: screen.follower.watching)
    return screen


async def select(pilot, screen: MediaScreen, asset_id: str) -> None:
    """Move the cursor to the asset's row and wait for its detail."""
    table = screen.query_one("#assets", DataTable)
    table.focus()
    table.move_cursor(row=table.get_row_index(asset_id))
    await wait_until(pilot, lambda: screen.detail is not None and screen.detail["_id"] == asset_id)


def row(screen: MediaScreen, asset_id: str) -> list[str]:
    return [str(c) for c in screen.query_one("#assets", DataTable).get_row(asset_id)]


def detail(screen: MediaScreen) -> str:
    return str(screen.query_one("#asset-detail", Static).render())


def question(app) -> str:
    return str(app.screen.query_one("#question").render())


def change(job_id: str, event_id: str, asset_id: str, state: str, percent: float, eta: int | None = None, **more):
    """A `media-job-change` payload (asyncapi/asyncapi.yaml)."""
    return {
        "eventId": event_id,
        "jobId": job_id,
        "kind": "transcode",
        "state": state,
        "percent": percent,
        "etaSeconds": eta,
        "assetId": asset_id,
        "error": None,
    } | more


# --- the list and the detail --------------------------------------------------------------------------


async def test_the_table_lists_the_apis_assets_newest_first_with_event_state_length_and_progress():
    app = TouchlineAdmin(MediaLibraryApi(), refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_media(pilot, app)
        rows = cells(screen.query_one("#assets", DataTable))
        assert [r[:5] for r in rows] == [
            ["Northgate press conference", "upload", "Northgate vs Eastbay", "processing", "—"],
            ["Westport vs Lakeside, full match", "upload", "Westport vs Lakeside", "processing", "1:30:00"],
            ["Harbor City warm-up", "upload", "Harbor City vs Riverside", "failed", "—"],
            ["Opening goal", "highlight", HIGHLIGHT_EVENT["title"], "ready", "0:18"],
            ["recording of Westport vs Lakeside", "recording", "Westport vs Lakeside", "ready", "1:45:00"],
        ]
        assert [r[5].strip() for r in rows] == ["queued", "42% 1:20", "", "", ""]
        status = str(screen.query_one("#media-status", Static).render())
        assert status == "5 assets · 1 running, 1 queued · live: 2 events"


async def test_a_running_jobs_detail_says_its_percent_time_left_and_attempts():
    app = TouchlineAdmin(MediaLibraryApi(), refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_media(pilot, app)
        await select(pilot, screen, RUNNING)
        await wait_until(pilot, lambda: "running 42 % · 1:20 left" in detail(screen))
        assert "transcode · 1 attempt · queued 11-24 17:40" in detail(screen)
        assert "Played by no event" in detail(screen)


async def test_a_failed_job_shows_its_error_line_and_attempts():
    app = TouchlineAdmin(MediaLibraryApi(), refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_media(pilot, app)
        await select(pilot, screen, FAILED)
        await wait_until(pilot, lambda: "Log" in detail(screen))
        assert "failed: ffmpeg: moov atom not found (the file is cut short)" in detail(screen)
        assert "2 attempts" in detail(screen)


async def test_the_detail_names_the_events_that_play_the_asset():
    app = TouchlineAdmin(MediaLibraryApi(), refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_media(pilot, app)
        await select(pilot, screen, RECORDING)
        await wait_until(pilot, lambda: "Played by" in detail(screen))
        assert f"Played by Westport vs Lakeside, {HIGHLIGHT_EVENT['title']}" in detail(screen)
        assert "Job       none" in detail(screen)


# --- live: media-job-change ----------------------------------------------------------------------------


async def test_it_watches_the_media_rooms_of_the_events_with_queued_or_running_jobs_only():
    api = MediaLibraryApi()
    app = TouchlineAdmin(api, refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_media(pilot, app)
        # One socket for the screen (and one for the dashboard), never the failed job's event.
        assert set(screen.follower.rooms) == {f"media:{WESTPORT}", f"media:{NORTHGATE}"}
        assert all(set(rooms) == {f"media:{WESTPORT}", f"media:{NORTHGATE}"} for rooms in api.watched)


async def test_a_media_job_change_moves_the_rows_percent_and_the_detail_without_an_api_call():
    api = MediaLibraryApi()
    app = TouchlineAdmin(api, refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_media(pilot, app)
        await select(pilot, screen, RUNNING)
        await wait_until(pilot, lambda: "running 42 %" in detail(screen))
        await pilot.pause(0.1)
        calls = len(api.calls)

        api.tell(change(RUNNING_JOB, WESTPORT, RUNNING, "running", 73.4, 35))
        await wait_until(pilot, lambda: row(screen, RUNNING)[5].strip() == "73% 0:35")
        await wait_until(pilot, lambda: "running 73 % · 0:35 left" in detail(screen))
        api.tell(change(QUEUED_JOB, NORTHGATE, QUEUED, "running", 0.5, None))
        await wait_until(pilot, lambda: row(screen, QUEUED)[5].strip() == "0%")
        assert "2 running, 0 queued" in str(screen.query_one("#media-status", Static).render())
        assert api.calls[calls:] == []


async def test_a_job_that_ends_reloads_the_list_and_a_failure_is_said_in_its_words():
    api = MediaLibraryApi()
    app = TouchlineAdmin(api, refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_media(pilot, app)
        # The server has finished the job: the asset is ready, the job no longer running.
        api.assets[1] = {**api.assets[1], "state": "ready"}
        api.jobs[1] = {**api.jobs[1], "state": "done", "percent": 100}
        api.tell(change(RUNNING_JOB, WESTPORT, RUNNING, "done", 100, 0))
        await wait_until(pilot, lambda: row(screen, RUNNING)[3] == "ready")
        assert row(screen, RUNNING)[5].strip() == ""
        assert notified(app, "Westport vs Lakeside, full match is transcoded")

        why = "ffmpeg: Invalid data found when processing input"
        api.assets[0] = {**api.assets[0], "state": "failed"}
        api.jobs[0] = {**api.jobs[0], "state": "failed", "error": why}
        api.tell(change(QUEUED_JOB, NORTHGATE, QUEUED, "failed", 0, None, error=why))
        await wait_until(pilot, lambda: notified(app, f"Northgate press conference: {why}"))
        # No job is queued or running any more: the screen's socket is closed.
        await wait_until(pilot, lambda: screen.follower.rooms == ())


async def test_a_job_the_list_did_not_have_reloads_it_once_not_at_every_heartbeat():
    api = MediaLibraryApi()
    app = TouchlineAdmin(api, refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        await open_media(pilot, app)
        listed = api.calls.count(("media_assets",))
        new_job = "6c1f0c2e9b3d4e5f60718399"  # the recording's previews: the fixed list never has it
        api.tell(change(new_job, WESTPORT, RECORDING, "running", 10, 60, kind="previews"))
        await wait_until(pilot, lambda: api.calls.count(("media_assets",)) == listed + 1)
        api.tell(change(new_job, WESTPORT, RECORDING, "running", 20, 50, kind="previews"))
        await pilot.pause(0.3)
        assert api.calls.count(("media_assets",)) == listed + 1


async def test_no_more_rooms_are_asked_for_than_the_server_lets_one_connection_hold():
    api = MediaLibraryApi()
    app = TouchlineAdmin(api, refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_media(pilot, app)
        follower = JobFollower(screen, api, lambda change: None, group="test-rooms")
        follower.follow(f"{n:024x}" for n in range(MAX_ROOMS + 10))
        assert len(follower.rooms) == MAX_ROOMS
        await wait_until(pilot, lambda: follower.watching)
        assert len(api.watched[-1]) == MAX_ROOMS


# --- support staff ---------------------------------------------------------------------------------


async def test_a_support_session_sees_the_actions_disabled_with_the_reason():
    api = MediaLibraryApi(role="support")
    app = TouchlineAdmin(api, refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_media(pilot, app)
        for action in ADMIN_ACTIONS:
            assert screen.check_action(action, ()) is None, action
        assert screen.check_action("reload", ()) is True
        await pilot.press("t", "h", "x", "s")
        await pilot.pause(0.1)
        assert app.screen is screen  # no form, no confirmation
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        help_text = str(app.screen.query_one("#help-text").render())
        for name in ("Attach", "Cut highlight", "Delete", "Stop job"):
            assert f"{name} (disabled: needs the admin role" in help_text
    assert not [call for call in api.calls if call[0] not in ("media_assets", "media_jobs", "media_asset")]


# --- delete ------------------------------------------------------------------------------------------


async def test_delete_asks_first_naming_the_events_that_play_it_and_on_asset_in_use_offers_force():
    api = MediaLibraryApi()
    app = TouchlineAdmin(api, refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_media(pilot, app)
        await select(pilot, screen, RECORDING)
        await pilot.press("x")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert f"Events play it: Westport vs Lakeside, {HIGHLIGHT_EVENT['title']}." in question(app)
        await pilot.press("y")

        # The server refuses (409 asset_in_use): a second question, in the server's words.
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen) and "force" in question(app))
        assert "Events play this asset:" in question(app) and "Take recording of Westport" in question(app)
        await pilot.press("y")
        await wait_until(pilot, lambda: screen.query_one("#assets", DataTable).row_count == len(MEDIA_ASSETS) - 1)
        assert notified(app, "taken off Westport vs Lakeside")
    deletes = [call for call in api.calls if call[0] == "delete_media_asset"]
    assert deletes == [("delete_media_asset", RECORDING, False), ("delete_media_asset", RECORDING, True)]


async def test_declining_force_keeps_the_asset():
    api = MediaLibraryApi()
    app = TouchlineAdmin(api, refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_media(pilot, app)
        await select(pilot, screen, HIGHLIGHT)
        await pilot.press("x")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen) and "force" in question(app))
        await pilot.press("n")
        await wait_until(pilot, lambda: app.screen is screen)
        assert screen.query_one("#assets", DataTable).row_count == len(MEDIA_ASSETS)
    assert [call for call in api.calls if call[0] == "delete_media_asset"] == [("delete_media_asset", HIGHLIGHT, False)]


async def test_an_asset_no_event_plays_is_deleted_after_one_confirmation_and_cancelling_sends_nothing():
    api = MediaLibraryApi()
    app = TouchlineAdmin(api, refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_media(pilot, app)
        await select(pilot, screen, FAILED)
        await pilot.press("x")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "No event plays it." in question(app)
        await pilot.press("n")
        await wait_until(pilot, lambda: app.screen is screen)
        assert not [call for call in api.calls if call[0] == "delete_media_asset"]

        await pilot.press("x")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_until(pilot, lambda: FAILED not in screen.assets)
        assert notified(app, "Harbor City warm-up: 1 asset deleted")
    assert [call for call in api.calls if call[0] == "delete_media_asset"] == [("delete_media_asset", FAILED, False)]


# --- cut and attach --------------------------------------------------------------------------------


async def fill(pilot, form, **fields: str) -> None:
    for field, text in fields.items():
        form.query_one(f"#{field}", Input).value = text
    await pilot.pause()


async def test_cut_sends_from_and_to_in_seconds_with_the_title_and_kind():
    api = MediaLibraryApi()
    app = TouchlineAdmin(api, refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_media(pilot, app)
        await select(pilot, screen, RECORDING)
        await pilot.press("h")
        await wait_until(pilot, lambda: isinstance(app.screen, CutForm))
        form = app.screen
        await fill(pilot, form, **{"from": "1:02", "to": "95.5", "title": "Late equaliser"})
        form.query_one("#kind", Select).value = "recap"
        await pilot.click("#cut")
        await wait_until(pilot, lambda: notified(app, "Late equaliser (1:02–1:35 of recording of Westport"))
        assert app.screen is screen
    cut = [call for call in api.calls if call[0] == "cut_media_asset"]
    assert cut == [("cut_media_asset", RECORDING, {"from": 62, "to": 95.5, "title": "Late equaliser", "as": "recap"})]


@pytest.mark.parametrize(
    ("fields", "says", "field"),
    [
        ({"from": "soon"}, "From: seconds (75), m:ss (1:15) or h:mm:ss", "from"),
        ({"from": "1:75"}, "From: seconds (75), m:ss (1:15) or h:mm:ss", "from"),
        ({"to": "10"}, "To must come after From", "to"),
        ({"to": "40:00"}, "A cut is at most 30:00 long", "to"),
        ({"from": "1:44:00", "to": "1:46:00"}, "The asset is 1:45:00 long", "to"),
        ({"title": "  "}, "Give the highlight a title", "title"),
    ],
    ids=["not-a-time", "seconds-past-59", "reversed", "too-long", "past-the-end", "no-title"],
)
async def test_the_cut_form_refuses_a_bad_field_without_calling_the_server(fields, says, field):
    api = MediaLibraryApi()
    app = TouchlineAdmin(api, refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_media(pilot, app)
        await select(pilot, screen, RECORDING)
        await pilot.press("h")
        await wait_until(pilot, lambda: isinstance(app.screen, CutForm))
        form = app.screen
        await fill(pilot, form, **{"from": "12", "to": "30", "title": "Goal", **fields})
        await pilot.click("#cut")
        await pilot.pause(0.1)
        assert app.screen is form  # still open, saying what is wrong, on the field
        assert says in str(form.query_one("#error", Label).render())
        assert form.focused is not None and form.focused.id == field
    assert not [call for call in api.calls if call[0] == "cut_media_asset"]


def test_times_are_read_as_seconds_m_ss_or_h_mm_ss():
    assert [parse_seconds(t) for t in ("75", "12.5", "1:15", "0:01:15", "1:02:03")] == [75, 12.5, 75, 75, 3723]
    for wrong in ("", "1:", "-3", "1:60", "1:60:00", "a:10"):
        with pytest.raises(ValueError):
            parse_seconds(wrong)


async def test_attach_as_archive_sends_only_as_and_as_a_highlight_its_title():
    api = MediaLibraryApi()
    app = TouchlineAdmin(api, refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_media(pilot, app)
        await select(pilot, screen, RECORDING)
        await pilot.press("t")
        await wait_until(pilot, lambda: isinstance(app.screen, AttachForm))
        assert app.screen.query_one("#title", Input).disabled  # an archive keeps its event's title
        await pilot.click("#attach")
        await wait_until(pilot, lambda: notified(app, "is the archive of Westport vs Lakeside"))

        await pilot.press("t")
        await wait_until(pilot, lambda: isinstance(app.screen, AttachForm))
        form = app.screen
        form.query_one("#as", Select).value = "condensed"
        await wait_until(pilot, lambda: not form.query_one("#title", Input).disabled)
        await fill(pilot, form, title="The derby in 10 minutes")
        await pilot.click("#attach")
        await wait_until(pilot, lambda: notified(app, "published as condensed The derby in 10 minutes"))
    attached = [call for call in api.calls if call[0] == "attach_media_asset"]
    assert attached == [
        ("attach_media_asset", RECORDING, {"as": "archive"}),
        ("attach_media_asset", RECORDING, {"as": "condensed", "title": "The derby in 10 minutes"}),
    ]


class RefusingApi(MediaLibraryApi):
    """The server refuses to publish an asset that is still transcoding."""

    async def attach_media_asset(self, asset_id: str, body: dict) -> dict:
        raise AdminApiError("The asset is not ready to play (processing)", "asset_not_ready", 409)


async def test_an_api_refusal_is_shown_in_the_servers_words():
    app = TouchlineAdmin(RefusingApi(), refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_media(pilot, app)
        await select(pilot, screen, RUNNING)
        await pilot.press("t")
        await wait_until(pilot, lambda: isinstance(app.screen, AttachForm))
        await pilot.click("#attach")
        await wait_until(pilot, lambda: notified(app, "The asset is not ready to play (processing) (asset_not_ready)"))
        assert app.screen is screen


class DownApi(MediaLibraryApi):
    async def media_assets(self, event: str | None = None, limit: int = 50) -> list[dict]:
        raise AdminApiError("Cannot reach http://touchline.test: connection refused", "api_unreachable")


async def test_a_list_that_cannot_be_read_says_why_in_the_status_line():
    app = TouchlineAdmin(DownApi(), refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("M")
        screen = app.screen
        assert isinstance(screen, MediaScreen)
        status = screen.query_one("#media-status", Static)
        await wait_until(pilot, lambda: "Could not list the media" in str(status.render()))
        assert "connection refused (api_unreachable)" in str(status.render())
        assert notified(app, "connection refused")


# --- stop a job ------------------------------------------------------------------------------------


async def test_stop_job_asks_first_then_cancels_the_selected_assets_running_job():
    api = MediaLibraryApi()
    app = TouchlineAdmin(api, refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_media(pilot, app)
        await select(pilot, screen, RUNNING)
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "Stop transcoding Westport vs Lakeside, full match (running)?" in question(app)
        await pilot.press("y")
        await wait_until(pilot, lambda: notified(app, "transcoding stopped"))

        await select(pilot, screen, RECORDING)
        await pilot.press("s")  # nothing to stop: said, not asked
        await wait_until(pilot, lambda: notified(app, "has no queued or running job"))
        assert app.screen is screen
    assert [call for call in api.calls if call[0] == "cancel_media_job"] == [("cancel_media_job", RUNNING_JOB)]


# --- against the test server ------------------------------------------------------------------------

TRANSCODE_S = 120  # a few seconds of video on a busy two-core machine


async def upload(server, event_id: str, video: Path, title: str) -> tuple[str, str]:
    """The video uploaded whole for the event over tus, as `touchline media upload` would; its
    (job, asset)."""
    api = staff_api(server)
    await api.media_jobs(limit=1)  # signs in
    token = api.client.token
    await api.aclose()
    data = await asyncio.to_thread(video.read_bytes)
    metadata = ",".join(
        f"{k} {base64.b64encode(v.encode()).decode()}" for k, v in (("event", event_id), ("title", title))
    )
    headers = {"Authorization": f"Bearer {token}", "Tus-Resumable": "1.0.0"}
    async with httpx.AsyncClient(base_url=server.url, headers=headers, timeout=60) as http:
        began = await http.post(
            "/api/admin/uploads", headers={"Upload-Length": str(len(data)), "Upload-Metadata": metadata}
        )
        assert began.status_code == 201, began.text
        sent = await http.patch(
            began.headers["location"],
            content=data,
            headers={"Upload-Offset": "0", "Content-Type": "application/offset+octet-stream"},
        )
        assert sent.status_code == 204, sent.text
    return sent.headers["upload-job"], sent.headers["upload-asset"]


async def test_an_upload_is_followed_live_until_ready_then_published_and_deleted_with_force(live_server, tmp_path):
    """The screen already watches the event's media room (as it does while another of its jobs
    runs), so the job's messages from its start reach it: the list is asked again when the job is
    new and when it ends, never on a timer (the refresh is an hour here)."""
    event = await create_event(live_server)
    video = make_video(tmp_path / "final.mp4", seconds=6)
    app = TouchlineAdmin(staff_api(live_server), refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("M")
        screen = app.screen
        assert isinstance(screen, MediaScreen)
        await wait_until(
            pilot, lambda: screen.problem is None and "assets" in str(screen.query_one("#media-status").render())
        )
        screen.follower.follow([event["_id"]])
        await wait_until(pilot, lambda: screen.follower.watching)

        job_id, asset_id = await upload(live_server, event["_id"], video, "Final, full match")
        await wait_until(pilot, lambda: notified(app, "Final, full match is transcoded"), TRANSCODE_S)
        await wait_until(pilot, lambda: asset_id in screen.assets and row(screen, asset_id)[3] == "ready")
        assert row(screen, asset_id)[:3] == ["Final, full match", "upload", event["title"]]
        assert row(screen, asset_id)[4] == "0:06"

        await select(pilot, screen, asset_id)
        await wait_until(pilot, lambda: "done" in detail(screen))
        await pilot.press("t")
        await wait_until(pilot, lambda: isinstance(app.screen, AttachForm))
        await pilot.click("#attach")
        await wait_until(pilot, lambda: notified(app, f"is the archive of {event['title']}"))
        await wait_until(pilot, lambda: f"Played by {event['title']}" in detail(screen))

        await pilot.press("x")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert f"Events play it: {event['title']}." in question(app)
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmScreen) and "force" in question(app))
        assert event["_id"] in question(app)  # the server's words name the event
        await pilot.press("y")
        await wait_until(pilot, lambda: asset_id not in screen.assets)
        assert notified(app, f"taken off {event['title']}")

    check = staff_api(live_server)
    with pytest.raises(AdminApiError) as gone:
        await check.media_asset(asset_id)
    job = await check.media_job(job_id)
    await check.aclose()
    assert gone.value.status == 404 and job["state"] == "done"
    stored = await on_the_server(live_server, event["_id"])
    assert stored["content"]["HLSStream"] is None  # taken off the asset: it plays nothing now
