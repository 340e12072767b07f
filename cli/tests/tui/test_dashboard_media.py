"""The dashboard's transcoding queue (issue 29 §4): running jobs, then the queued ones in the order
they run, with percent and time left, moved by the socket's `media-job-change` messages; a line
names the jobs that failed in the last hour. On fixed answers (MediaLibraryApi, FixedApi)."""

from textual.widgets import DataTable, Static

from cli.tui.app import TouchlineAdmin
from cli.tui.dashboard import DashboardScreen

from .fixed_data import MEDIA_JOBS, NORTHGATE, WESTPORT, FixedApi, MediaLibraryApi
from .test_admin_tui import SIZE, cells, wait_until
from .test_media_screen import change

QUEUED_JOB, RUNNING_JOB, FAILED_JOB = (job["_id"] for job in MEDIA_JOBS)
QUEUED_ASSET, RUNNING_ASSET, _ = (job["asset"] for job in MEDIA_JOBS)


async def dashboard(pilot, app) -> DashboardScreen:
    screen = app.screen
    assert isinstance(screen, DashboardScreen)
    await wait_until(pilot, lambda: screen.query_one("#media-queue", DataTable).row_count > 0)
    await wait_until(pilot, lambda: screen.media.watching)
    return screen


def queue(screen: DashboardScreen) -> list[list[str]]:
    return cells(screen.query_one("#media-queue", DataTable))


def failed_line(screen: DashboardScreen) -> str:
    line = screen.query_one("#media-failed", Static)
    return str(line.render()) if line.display else ""


async def test_the_queue_shows_running_then_queued_jobs_with_percent_and_time_left_and_a_recent_failure():
    app = TouchlineAdmin(MediaLibraryApi(), refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = await dashboard(pilot, app)
        assert queue(screen) == [
            ["Westport vs Lakeside, full match", "running", "42%", "1:20"],
            ["Northgate press conference", "queued", "—", "—"],
        ]
        assert screen.query_one("#media-queue", DataTable).border_title == "Transcoding: 1 running, 1 queued"
        # Failed at 17:35, the server's snapshot is of 18:00: within the hour.
        await wait_until(pilot, lambda: bool(failed_line(screen)))
        assert failed_line(screen) == (
            "Transcoding failed: Harbor City warm-up: ffmpeg: moov atom not found (the file is cut short)"
        )


async def test_a_media_job_change_moves_the_queue_without_an_api_call_and_an_end_asks_again():
    api = MediaLibraryApi()
    app = TouchlineAdmin(api, refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = await dashboard(pilot, app)
        assert {f"media:{WESTPORT}", f"media:{NORTHGATE}"} == set(screen.media.rooms)
        await pilot.pause(0.1)
        calls = len(api.calls)
        api.tell(change(RUNNING_JOB, WESTPORT, RUNNING_ASSET, "running", 88.2, 9))
        await wait_until(pilot, lambda: queue(screen)[0][2:] == ["88%", "0:09"])
        assert api.calls[calls:] == []

        api.jobs[1] = {**api.jobs[1], "state": "done", "percent": 100}
        api.tell(change(RUNNING_JOB, WESTPORT, RUNNING_ASSET, "done", 100, 0))
        await wait_until(pilot, lambda: [row[0] for row in queue(screen)] == ["Northgate press conference"])
        await wait_until(pilot, lambda: ("media_jobs", "running") in api.calls[calls:])  # asked again
        await wait_until(pilot, lambda: set(screen.media.rooms) == {f"media:{NORTHGATE}"})


async def test_an_old_failure_is_not_named():
    api = MediaLibraryApi()
    api.jobs[2] = {**api.jobs[2], "finishedAt": "2026-11-24T16:30:00Z"}  # 90 minutes before the snapshot
    app = TouchlineAdmin(api, refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = await dashboard(pilot, app)
        await wait_until(pilot, lambda: screen.snapshot is not None)
        await pilot.pause(0.1)
        assert failed_line(screen) == ""


async def test_with_nothing_to_transcode_there_is_no_queue_and_no_socket():
    app = TouchlineAdmin(FixedApi(), refresh_seconds=3600)
    async with app.run_test(size=SIZE):
        await app.workers.wait_for_complete()
        screen = app.screen
        assert isinstance(screen, DashboardScreen)
        assert not screen.query_one("#media-queue", DataTable).display
        assert failed_line(screen) == ""
        assert screen.media.rooms == ()
