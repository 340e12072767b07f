"""The dashboard's ingest flags (issue 28 §5): live events whose feed is interrupted or transcoded
slower than real time are marked and named, with one health call per live event and refresh. On
fixed answers (FixedApi), and an interrupted recording on a real test server."""

from textual.widgets import DataTable, Static

from cli.tui.app import TouchlineAdmin
from cli.tui.dashboard import DashboardScreen
from server.settings import Settings
from server.tests.api.admin.test_event_ingest import recording_of

from .fixed_data import INGEST_HEALTH, MONITOR, FixedApi
from .test_admin_tui import SIZE, staff_api, wait_until
from .test_live_screen import create_event

INTERRUPTED = "6f1c0a8e2b3d4c5e6f7a8b01"
SLOW = "6f1c0a8e2b3d4c5e6f7a8b02"
HEALTHY = "6f1c0a8e2b3d4c5e6f7a8b03"


def _live(event_id: str, title: str) -> dict:
    return {"_id": event_id, "title": title, "event_date": "2026-11-24T17:30:00Z", "sockets": 3}


class ThreeFeeds(FixedApi):
    """Three live events: one interrupted, one transcoded slower than real time, one healthy; it
    counts the health calls."""

    def __init__(self):
        super().__init__()
        self.asked: list[str] = []
        self.healths = {
            INTERRUPTED: {**INGEST_HEALTH, "state": "interrupted", "publishing": False, "speed": None},
            SLOW: {**INGEST_HEALTH, "speed": 0.91, "behindRealTime": True},
            HEALTHY: INGEST_HEALTH,
        }

    async def monitor(self, limit: int = 10) -> dict:
        live = [_live(INTERRUPTED, "Dropped Derby"), _live(SLOW, "Slow Cup"), _live(HEALTHY, "Fine Final")]
        return {**MONITOR, "liveEvents": live}

    async def ingest(self, event_id: str) -> dict:
        self.asked.append(event_id)
        return {**self.healths[event_id], "event": event_id}


def titles(screen: DashboardScreen) -> dict[str, str]:
    table = screen.query_one("#live", DataTable)
    return {str(key.value): str(table.get_row(key)[0]) for key in table.rows}


def warning(screen: DashboardScreen) -> str:
    line = screen.query_one("#ingest-trouble", Static)
    return str(line.render()) if line.display else ""


async def test_the_dashboard_marks_and_names_an_interrupted_feed_and_a_slow_one_but_not_a_healthy_one():
    api = ThreeFeeds()
    app = TouchlineAdmin(api, refresh_seconds=3600)  # the first refresh only
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, DashboardScreen)
        await wait_until(pilot, lambda: bool(warning(screen)))
        assert warning(screen) == "Ingest: Dropped Derby: ingest interrupted · Slow Cup: slower than real time (0.91×)"
        marked = titles(screen)
        assert marked[INTERRUPTED].startswith("! Dropped") and marked[SLOW].startswith("! Slow")
        assert marked[HEALTHY] == "Fine Final"
        assert sorted(api.asked) == sorted([INTERRUPTED, SLOW, HEALTHY])  # live events only, once each


async def test_a_feed_that_recovers_is_no_longer_flagged_at_the_next_refresh():
    api = ThreeFeeds()
    app = TouchlineAdmin(api, refresh_seconds=3600)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, DashboardScreen)
        await wait_until(pilot, lambda: bool(warning(screen)))
        api.healths.update({INTERRUPTED: INGEST_HEALTH, SLOW: INGEST_HEALTH})
        await pilot.press("r")
        await wait_until(pilot, lambda: not warning(screen))
        assert not any(title.startswith("!") for title in titles(screen).values())
        assert len(api.asked) == 6  # two refreshes, three live events


async def test_the_dashboard_flags_a_live_event_whose_recording_the_server_says_is_interrupted(
    live_server, accounts_db
):
    event = await create_event(live_server)
    setup = staff_api(live_server)
    await setup.go_live(event["_id"])
    await setup.aclose()
    await recording_of(accounts_db.database, Settings(), event["_id"], state="interrupted")

    app = TouchlineAdmin(staff_api(live_server), refresh_seconds=60)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, DashboardScreen)
        await wait_until(pilot, lambda: f"{event['title']}: ingest interrupted" in warning(screen))
        assert titles(screen)[event["_id"]].startswith("! ")
