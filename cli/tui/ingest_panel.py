"""Live control's ingest panel: the picked event's live input (GET /admin/events/{id}/ingest),
asked again every few seconds while live control is on screen and the event may take a feed, with
a sparkline of the bitrate over the recent answers; and its stream keys, by their hints only.

Making, rotating and revoking the key, allowing a take-over, and the event's ingest settings run
here; the screen owns their bindings and confirmations. A made or rotated key goes straight into
IssuedKeyScreen and is kept nowhere else."""

from collections import deque
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Label, Sparkline, Static
from textual.worker import Worker

from ..ingest_figures import autostart_of
from .api import AdminApi, AdminApiError
from .ingest_health import LABEL_WIDTH, encoder_lines, key_line, output_lines
from .ingest_settings import IngestSettings
from .issued_key import IssuedKey, IssuedKeyScreen

BITRATE_POINTS = 40  # two minutes of answers at the default 3 s
TAKES_A_FEED = ("upcoming", "live", "channel")  # an upcoming event's feed is a staff preview
ISSUED = {"make": "Made", "rotate": "Rotated"}


class IngestPanel(Vertical):
    DEFAULT_CSS = f"""
    IngestPanel {{ height: auto; padding: 0 1; border: round $primary; }}
    IngestPanel #ingest-trend {{ height: 1; }}
    IngestPanel #ingest-trend Label {{ width: {LABEL_WIDTH}; }}
    IngestPanel Sparkline {{ width: 1fr; }}
    IngestPanel .followed {{ display: none; }}
    IngestPanel.following .followed {{ display: block; }}
    """
    # t: a take-over, a: the ingest settings; the help screen (?) says each in full. Fits the column.
    KEY_HELP: ClassVar[str] = "k make o rot x revoke t swap a set"

    def __init__(self, api: AdminApi, refresh_seconds: float, *, id: str | None = None):
        super().__init__(id=id)
        self.api = api
        self.refresh_seconds = refresh_seconds
        self.event: dict | None = None  # the event followed, as live control last showed it
        self.bitrates: deque[float] = deque(maxlen=BITRATE_POINTS)
        self.reading: Worker | None = None
        self.health: dict | None = None  # the followed event's, as last read

    def compose(self) -> ComposeResult:
        yield Static("Pick an event to see its live input.", id="ingest-encoder")
        # Shown once an event is followed (follow()).
        with Horizontal(id="ingest-trend", classes="followed"):
            yield Label("")  # the sparkline sits under the bitrate's value
            yield Sparkline([], id="bitrate")
        yield Static("", id="ingest-output", classes="followed")
        yield Static("", id="stream-keys", classes="followed")

    def on_mount(self) -> None:
        self.border_title = "Ingest"
        self.border_subtitle = self.KEY_HELP
        self.set_interval(self.refresh_seconds, self.refresh_health)

    def follows(self, event_id: str) -> bool:
        return self.event is not None and self.event["_id"] == event_id

    def follow(self, event: dict) -> None:
        """Show `event`'s input from now on; asked again only for a new event or a new status."""
        before, self.event = self.event, event
        if before is not None and before["_id"] == event["_id"]:
            if before.get("status") != event.get("status"):
                self.read_health()
            return
        self.add_class("following")
        self.bitrates.clear()
        self.query_one("#bitrate", Sparkline).data = []
        self.query_one("#ingest-encoder", Static).update("Reading the live input…")
        self.query_one("#ingest-output", Static).update("")
        self.query_one("#stream-keys", Static).update("")
        self.health = None
        self.read_health()
        self.load_keys(event["_id"])

    # --- the health ----------------------------------------------------------------------------------

    def refresh_health(self) -> None:
        """The timer's tick: skipped off screen, for an event that takes no feed, or while an answer is awaited."""
        event = self.event
        if event is None or event.get("status") not in TAKES_A_FEED or not self.screen.is_current:
            return
        if self.reading is not None and self.reading.is_running:
            return
        self.read_health()

    def read_health(self) -> None:
        if self.event is not None:
            self.reading = self.load_health(self.event["_id"])

    @work(exclusive=True, group="ingest-health")
    async def load_health(self, event_id: str) -> None:
        try:
            health = await self.api.ingest(event_id)
        except AdminApiError as error:
            if self.follows(event_id):
                self.query_one("#ingest-encoder", Static).update(Text(f"Could not read the live input: {error}"))
            return
        if self.follows(event_id):
            self.show_health(health)

    def show_health(self, health: dict) -> None:
        self.health = health
        if health["bitrateKbps"] is not None:
            self.bitrates.append(float(health["bitrateKbps"]))
        # One point would fill the whole width: a trend needs two.
        self.query_one("#bitrate", Sparkline).data = list(self.bitrates) if len(self.bitrates) > 1 else []
        self.query_one("#ingest-encoder", Static).update(encoder_lines(health))
        self.query_one("#ingest-output", Static).update(output_lines(health))

    # --- the stream keys -------------------------------------------------------------------------------

    @work(exclusive=True, group="stream-keys")
    async def load_keys(self, event_id: str) -> None:
        try:
            keys = await self.api.stream_keys(event_id)
        except AdminApiError as error:
            if self.follows(event_id):
                self.query_one("#stream-keys", Static).update(Text(f"Could not list the stream keys: {error}"))
            return
        if self.follows(event_id):
            self.query_one("#stream-keys", Static).update(key_line(keys))

    @work(exclusive=True, group="stream-key-change")
    async def change_key(self, event: dict, verb: str) -> None:
        """Make, rotate or revoke the event's key, or allow a take-over; a new key is shown in its
        dialog, once."""
        calls = {
            "make": self.api.make_stream_key,
            "rotate": self.api.rotate_stream_key,
            "revoke": self.api.revoke_stream_key,
            "take-over": self.api.allow_stream_key_take_over,
        }
        title = str(event.get("title", ""))
        try:
            answer = await calls[verb](event["_id"])
        except AdminApiError as error:
            self.notify(str(error), title=f"Could not {verb} the stream key", severity="error", markup=False)
            return
        if verb == "revoke":
            self.notify(f"{title}: stream key …{answer['hint']} revoked", markup=False)
        elif verb == "take-over":
            self.notify(f"{title}: the next encoder with key …{answer['hint']} takes over (2 minutes)", markup=False)
        else:
            self.app.push_screen(IssuedKeyScreen(title, ISSUED[verb], IssuedKey.of(answer)))
        if self.follows(event["_id"]):
            self.load_keys(event["_id"])

    # --- the event's settings ------------------------------------------------------------------------

    @work(exclusive=True, group="ingest-settings")
    async def change_settings(self, event: dict, settings: IngestSettings) -> None:
        title = str(event.get("title", ""))
        try:
            answer = await self.api.set_ingest_settings(event["_id"], settings.body())
        except AdminApiError as error:
            self.notify(str(error), title="Could not change the ingest settings", severity="error", markup=False)
            return
        words = autostart_of(answer["autostart"], short=True)
        self.notify(f"{title}: goes live {words}; rewind {answer['dvrSeconds'] // 60} min", markup=False)
        if self.follows(event["_id"]):
            self.read_health()
