"""The media library's transcoding jobs in the staff console, shared by the Media screen and the
dashboard: how a job is worded (a progress cell, the detail's lines) and JobFollower, which keeps
one socket watching the `media:{eventId}` rooms of the events whose jobs are queued or running.

Every process running a job sends `media-job-change` to its event's media room when the job
starts, about every 2 s while it runs and when it ends (asyncapi/asyncapi.yaml), so a screen
moves a job's percent without asking the API. Rooms cannot be left (there is no unwatch), so a
new set of rooms is a new connection; an empty set closes it. The rooms of a connection are
capped by the server (cli/tui/rooms.py): the newest jobs' events are watched first, and the
screens' slow refresh covers what is not watched."""

from collections.abc import Callable, Iterable
from math import floor

from rich.text import Text
from textual.dom import DOMNode

from .api import AdminApi, AdminApiError
from .rooms import MAX_ROOMS

MEDIA_REFRESH_SECONDS = 30.0  # the slow refresh that finds new jobs; the socket says the rest
ACTIVE = ("queued", "running")
ENDED = ("done", "failed", "cancelled")
JOB_CHANGE = "media-job-change"
CANNOT_WATCH = ("api_key_cannot_watch",)  # not tried again: the next refresh could not do better
NONE = "—"
BAR_STYLE = "black on green"  # the done part of a progress cell


def media_room(event_id: str) -> str:
    return f"media:{event_id}"


def clock(seconds: float) -> str:
    """75 → '1:15', 3723 → '1:02:03' (a length or the time left)."""
    whole = max(0, floor(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def percent_of(job: dict) -> float:
    try:
        return min(100.0, max(0.0, float(job.get("percent") or 0)))
    except (TypeError, ValueError):
        return 0.0


def progress_text(job: dict) -> str:
    """'running 42 % · 1:20 left' (the time left once ffmpeg's speed is known); 'queued'; else the state."""
    state = str(job.get("state") or "?")
    if state != "running":
        return state
    eta = job.get("etaSeconds")
    left = f" · {clock(eta)} left" if isinstance(eta, int | float) else ""
    return f"running {percent_of(job):.0f} %{left}"


def progress_cell(job: dict | None, width: int) -> Text:
    """A table cell: for a running job '42% 1:20' over a bar filled to its percent; 'queued'; or nothing."""
    if job is None or job.get("state") not in ACTIVE:
        return Text("")
    if job["state"] == "queued":
        return Text("queued", style="dim")
    eta = job.get("etaSeconds")
    words = f"{percent_of(job):.0f}%" + (f" {clock(eta)}" if isinstance(eta, int | float) else "")
    cell = Text(f"{words:<{width}}"[:width])
    cell.stylize(BAR_STYLE, 0, round(width * percent_of(job) / 100))
    return cell


def log_line(job: dict) -> Text:
    """What the job last said: why it failed (in red), its progress while it runs, or its end."""
    state = job.get("state")
    if state == "failed":
        return Text(f"failed: {job.get('error') or 'no reason given'}", style="bold red")
    if state == "queued":
        return Text("queued, waiting for a free transcoder")
    if state in ("done", "cancelled"):
        when = job.get("finishedAt")
        return Text(f"{state} {str(when)[5:16].replace('T', ' ')}" if when else str(state))
    return Text(progress_text(job))


def attempts_of(job: dict) -> str:
    attempts = job.get("attempts") or 0
    return f"{attempts} attempt" + ("" if attempts == 1 else "s")


def apply_change(job: dict, change: dict) -> dict:
    """`job` as a `media-job-change` message says it is now."""
    updated = dict(job)
    for field, key in (("state", "state"), ("percent", "percent"), ("etaSeconds", "etaSeconds"), ("error", "error")):
        if key in change:
            updated[field] = change[key]
    if change.get("state") != "running":
        updated.pop("etaSeconds", None)
    return updated


def job_of_change(change: dict) -> dict:
    """A job known only from its message (a job that started since the last listing)."""
    return apply_change(
        {"_id": change.get("jobId"), "kind": change.get("kind"), "asset": change.get("assetId"), "attempts": 0},
        change,
    ) | {"event": change.get("eventId")}


def rooms_of(event_ids: Iterable[str | None]) -> tuple[str, ...]:
    """The media rooms of these events, each once, in order, at most MAX_ROOMS."""
    rooms = dict.fromkeys(media_room(e) for e in event_ids if e)
    return tuple(rooms)[:MAX_ROOMS]


class JobFollower:
    """Watches the media rooms of the events given to follow() on one socket, in a worker of
    `node` (a screen), and hands each `media-job-change` payload to `changed`; `on_state` is
    called when the watch starts or stops (for a status line)."""

    def __init__(
        self,
        node: DOMNode,
        api: AdminApi,
        changed: Callable[[dict], None],
        on_state: Callable[[], None] = lambda: None,
        group: str = "media-rooms",
    ):
        self.node = node
        self.api = api
        self.changed = changed
        self.on_state = on_state
        self.group = group
        self.rooms: tuple[str, ...] = ()  # asked for: being connected to, or watched
        self.watching = False
        self.problem: str | None = None  # why live updates are off, in the server's words
        self.given_up = False

    def follow(self, event_ids: Iterable[str | None]) -> None:
        """Watch exactly these events' rooms: a new connection when they differ from the rooms
        watched now, none when there is no event."""
        rooms = rooms_of(event_ids)
        if self.given_up or set(rooms) == set(self.rooms):
            return
        self.node.workers.cancel_group(self.node, self.group)
        self.rooms, self.watching = rooms, False
        if rooms:
            self.node.run_worker(self._watch(rooms), group=self.group, exclusive=True)
        self.on_state()

    async def _watch(self, rooms: tuple[str, ...]) -> None:
        try:
            async with self.api.watch_rooms(rooms) as messages:
                self.watching, self.problem = True, None
                self.on_state()
                async for message in messages:
                    if message.event == JOB_CHANGE and isinstance(message.data, dict):
                        self.changed(message.data)
        except AdminApiError as error:
            self.problem = error.message
            self.given_up = error.code in CANNOT_WATCH
        # Not reached when cancelled: follow() has set the new state already.
        if self.rooms == rooms:
            self.rooms, self.watching = (), False  # the next follow() connects again
        self.on_state()

    def describe(self) -> str:
        """For a status line: what is followed live, or why nothing is."""
        if self.watching:
            return f"live: {len(self.rooms)} event{'s' if len(self.rooms) != 1 else ''}"
        if self.problem:
            return f"live updates off: {self.problem}"
        return "connecting…" if self.rooms else ""
