"""Live control: pick an event (live and upcoming first; the search box filters the list by title),
see its state and stream URLs, and act on it: go live (l), finish (f), switch its stream (s), send
any server message of asyncapi/asyncapi.yaml to a room (m), and watch what its room receives (w).
The ingest panel shows the picked event's live input, refreshed every few seconds, and its stream
key by its hint; make (k), rotate (o) or revoke (x) the key there, or let a second encoder take
over from the one publishing (t) (cli/tui/ingest_panel.py).

Going live, finishing, switching, sending and changing keys need the admin role. Watching is for
any staff (the server lets support and admin `watch-room`) signed in as an account: an API key
cannot open the socket (cli/room_watch.py, shared with `touchline socket watch`). Payloads are
checked against the AsyncAPI document before they are sent (cli/asyncapi_messages.py, shared with
`touchline socket emit`)."""

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar
from urllib.parse import urlsplit

from rich.markup import escape
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, DataTable, Footer, Header, Input, Label, RichLog, Select, Static, TextArea

from ..asyncapi_messages import (
    PayloadError,
    check_room,
    checked_payload,
    example,
    parse_payload,
    room_kind,
    server_messages,
)
from ..room_watch import RoomMessage
from .api import ADMIN_ONLY, REFRESH_SECONDS, AdminApi, AdminApiError
from .ingest_panel import TAKES_A_FEED, IngestPanel
from .ingest_settings import IngestSettings, IngestSettingsScreen
from .widgets import ConfirmScreen, PaletteAction, short_time

ADMIN_ACTIONS = frozenset(
    {
        "go_live",
        "finish",
        "switch_stream",
        "send_message",
        "make_stream_key",
        "rotate_stream_key",
        "revoke_stream_key",
        "ingest_settings",
        "take_over_stream_key",
    }
)
STATE_LABELS = {"archived": "finished"}  # the API's word for an event that ended
# SetStreamRequest.url in openapi/openapi.yaml: a path on this server or an http(s) URL.
STREAM_URL = re.compile(r"(/|https?://)\S*")
STREAM_URL_MAX = 2048
DEFAULT_MESSAGE = "event-url-change"
STREAMS = (("HLS stream", "HLSStream"), ("360° stream", "PanoStream"))  # the URLs of an event's content
DONE = {"go live": "live now", "finish": "finished", "switch": "stream switched"}


def state_of(event: dict) -> str:
    status = str(event.get("status") or "?")
    return STATE_LABELS.get(status, status)


def stream_url_problem(url: str) -> str | None:
    """What is wrong with `url` as a new stream (None: nothing), before the API is asked."""
    if not url:
        return "Enter the new stream URL."
    if len(url) > STREAM_URL_MAX:
        return f"At most {STREAM_URL_MAX} characters."
    if not STREAM_URL.fullmatch(url) or (url.startswith("http") and not urlsplit(url).netloc):
        return "An http(s) URL (https://cdn…/index.m3u8) or a path on this server (/media/live/…), no spaces."
    return None


def room_line(message: RoomMessage) -> Text:
    """One line of the room panel: the time it arrived (UTC), the message and its compact JSON."""
    data = json.dumps(message.data, separators=(",", ":"), ensure_ascii=False)
    return Text.assemble((message.at[11:19], "dim"), " ", (message.event, "bold"), " ", data)


# --- the modals ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StreamChange:
    url: str


@dataclass(frozen=True)
class OutgoingMessage:
    event: str
    room: str
    payload: dict[str, Any]


class StreamScreen(ModalScreen[StreamChange | None]):
    """The new stream URL of an event, checked as the API's SetStreamRequest does."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Cancel", id="stream.cancel")]
    DEFAULT_CSS = """
    StreamScreen { align: center middle; }
    StreamScreen > Vertical { width: 70; height: auto; border: thick $accent; background: $surface; padding: 0 1; }
    StreamScreen #error { color: $error; }
    StreamScreen Horizontal { height: auto; align-horizontal: right; }
    StreamScreen Button { margin-left: 2; }
    """

    def __init__(self, title: str, current: str | None):
        super().__init__()
        self.event_title = title
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"New stream for [b]{escape(self.event_title)}[/b]")
            yield Label(Text(f"now: {self.current or '—'}", style="dim"))
            yield Input(placeholder="https://… or /media/live/…", id="url")
            yield Label("", id="error")
            with Horizontal():
                yield Button("Cancel", id="cancel", compact=True)
                yield Button("Switch", id="switch", variant="warning", compact=True)

    def on_input_submitted(self) -> None:
        self.submit()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "switch":
            self.submit()
        else:
            self.dismiss(None)

    def submit(self) -> None:
        url = self.query_one("#url", Input).value.strip()
        problem = stream_url_problem(url)
        if problem:
            self.query_one("#error", Label).update(Text(problem))
            return
        self.dismiss(StreamChange(url))


class MessageScreen(ModalScreen[OutgoingMessage | None]):
    """Any server message the AsyncAPI document declares, its JSON payload (prefilled with the
    document's example) and its room; the payload is checked against the message's schema here,
    and what is wrong is said inline."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss(None)", "Cancel", id="message.cancel")]
    DEFAULT_CSS = """
    MessageScreen { align: center middle; }
    MessageScreen > Vertical { width: 76; height: 22; border: thick $accent; background: $surface; padding: 0 1; }
    MessageScreen Horizontal { height: auto; }
    MessageScreen .field { width: 9; }
    MessageScreen Select, MessageScreen #room { width: 1fr; }
    MessageScreen TextArea { height: 1fr; }
    MessageScreen #error { color: $error; height: auto; max-height: 6; }
    MessageScreen #buttons { align-horizontal: right; }
    MessageScreen Button { margin-left: 2; }
    """

    def __init__(self, event_id: str):
        super().__init__()
        self.event_id = event_id
        self.names = server_messages()
        self.shown: str | None = None  # the message whose example the payload holds

    def compose(self) -> ComposeResult:
        first = DEFAULT_MESSAGE if DEFAULT_MESSAGE in self.names else self.names[0]
        with Vertical():
            with Horizontal():
                yield Label("Message", classes="field")
                yield Select([(n, n) for n in self.names], value=first, allow_blank=False, compact=True, id="message")
            with Horizontal():
                yield Label("Room", classes="field")
                yield Input(
                    f"event:{self.event_id}",
                    placeholder="event:<id>, user:<id>, ingest:<id> or media:<id>",
                    compact=True,
                    id="room",
                )
            yield Label("Payload (JSON; checked against the message's schema before sending)")
            yield TextArea(id="payload")
            yield Label("", id="error")
            with Horizontal(id="buttons"):
                yield Button("Cancel", id="cancel", compact=True)
                yield Button("Send", id="send", variant="warning", compact=True)

    def on_mount(self) -> None:
        self.show_example(self.query_one("#message", Select).value)

    @on(Select.Changed, "#message")
    def message_changed(self, event: Select.Changed) -> None:
        self.show_example(event.value)

    def show_example(self, name: object) -> None:
        if not isinstance(name, str) or name == self.shown:
            return
        self.shown = name
        room = self.query_one("#room", Input)
        kind = room_kind(name)
        if kind in ("event", "ingest"):  # the picked event's room, or its live input's
            room.value = f"{kind}:{self.event_id}"
        elif not room.value.startswith(f"{kind}:"):
            room.value = f"{kind}:"  # the staff types the account's id
        self.query_one("#payload", TextArea).load_text(json.dumps(example(name, room.value), indent=2))
        self.query_one("#error", Label).update("")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "send":
            self.submit()
        else:
            self.dismiss(None)

    def submit(self) -> None:
        name = self.query_one("#message", Select).value
        room = self.query_one("#room", Input).value.strip()
        if not isinstance(name, str):
            return
        try:
            check_room(room)
            payload = checked_payload(name, parse_payload(self.query_one("#payload", TextArea).text), room)
        except PayloadError as error:
            self.query_one("#error", Label).update(Text(str(error)))
            return
        self.dismiss(OutgoingMessage(name, room, payload))


# --- the screen ------------------------------------------------------------------------------------


class LiveControlScreen(Screen[None]):
    TITLE = "Live control"
    BINDINGS: ClassVar[list[BindingType]] = [
        # Not in the footer (80 columns are few): in the help screen and the palette.
        Binding("slash", "focus_search", "Search", id="live.search", key_display="/", show=False),
        Binding("r", "reload", "Reload", id="live.reload", show=False),
        Binding("l", "go_live", "Go live", id="live.go_live"),
        Binding("f", "finish", "Finish", id="live.finish"),
        Binding("s", "switch_stream", "Stream", id="live.switch_stream"),
        Binding("m", "send_message", "Message", id="live.send_message"),
        Binding("w", "watch", "Watch", id="live.watch"),
        # The ingest panel's border names these: the footer has no room left at 80 columns.
        Binding("k", "make_stream_key", "Make stream key", id="live.make_stream_key", show=False),
        Binding("o", "rotate_stream_key", "Rotate stream key", id="live.rotate_stream_key", show=False),
        Binding("x", "revoke_stream_key", "Revoke stream key", id="live.revoke_stream_key", show=False),
        Binding("t", "take_over_stream_key", "Take over (swap encoders)", id="live.take_over_stream_key", show=False),
        Binding("a", "ingest_settings", "Ingest settings (go live, rewind)", id="live.ingest_settings", show=False),
    ]
    PALETTE: ClassVar[list[PaletteAction]] = [
        PaletteAction("Search events by title", "focus_search", "Filter the list of events"),
        PaletteAction("Reload the events", "reload", "Ask the server for the events again"),
        PaletteAction("Go live: picked event", "go_live", "Admin only: put the upcoming event live"),
        PaletteAction("Finish: picked event", "finish", "Admin only: end the live event"),
        PaletteAction("Switch the picked event's stream", "switch_stream", "Admin only: a new stream URL"),
        PaletteAction("Send a socket message", "send_message", "Admin only: a server message to a room"),
        PaletteAction("Watch the picked event's room", "watch", "Show what its room receives; again stops"),
        PaletteAction("Make the picked event's stream key", "make_stream_key", "Admin only: shown once, with URLs"),
        PaletteAction("Rotate the picked event's stream key", "rotate_stream_key", "Admin only: the old key stops"),
        PaletteAction("Revoke the picked event's stream key", "revoke_stream_key", "Admin only: encoders are refused"),
        PaletteAction(
            "Let a second encoder take over the picked event's key",
            "take_over_stream_key",
            "Admin only: for 2 minutes; the encoder publishing is dropped",
        ),
    ]
    DEFAULT_CSS = """
    LiveControlScreen #top { height: 1fr; }
    LiveControlScreen #left { width: 41; }
    LiveControlScreen #events { height: 1fr; border: round $primary; }
    LiveControlScreen #detail { height: auto; padding: 0 1; border: round $primary; }
    LiveControlScreen #room { height: 1fr; border: round $primary; }
    LiveControlScreen DataTable:focus, LiveControlScreen RichLog:focus { border: round $accent; }
    """

    def __init__(self, api: AdminApi, refresh_seconds: float = REFRESH_SECONDS):
        super().__init__()
        self.api = api
        self.refresh_seconds = refresh_seconds
        self.events: list[dict] = []  # as loaded: live, upcoming, then the others
        self.event: dict | None = None  # the picked event, as GET /admin/events/{id} gave it
        self.watching: str | None = None  # the room being watched (or connected to)

    @property
    def disabled_reason(self) -> str:
        return ADMIN_ONLY

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="top"):
            with Vertical(id="left"):
                yield Input(placeholder="/ filters by title", id="search")
                events: DataTable = DataTable(id="events", cursor_type="row")
                events.border_title = "Events (Enter picks)"
                events.add_column("Event", width=14)
                events.add_column("State", width=8)
                events.add_column("Kickoff", width=11)
                yield events
                yield IngestPanel(self.api, self.refresh_seconds, id="ingest")
            with Vertical(id="right"):
                detail = Static("Pick an event (Enter on a row).", id="detail")
                detail.border_title = "Event"
                yield detail
                room = RichLog(id="room", wrap=True, min_width=20, max_lines=500)
                room.border_title = "Room (w watches)"
                yield room
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#events", DataTable).focus()  # the footer shows the keys; / goes to the search
        self.load_events()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ADMIN_ACTIONS and not self.api.is_admin:
            return None  # shown disabled in the footer; the palette and `?` say why
        return True

    def action_focus_search(self) -> None:
        self.query_one("#search", Input).focus()

    def action_reload(self) -> None:
        self.load_events()

    # --- the list and the picked event --------------------------------------------------------------

    @work(exclusive=True, group="events")
    async def load_events(self) -> None:
        try:
            live = await self.api.events("live")
            upcoming = sorted(await self.api.events("upcoming"), key=lambda e: e.get("event_date") or "")
            recent = await self.api.events()
        except AdminApiError as error:
            self.notify(str(error), title="Could not load the events", severity="error")
            return
        first: dict[str, dict] = {}
        for event in [*live, *upcoming, *recent]:
            first.setdefault(event["_id"], event)  # in that order: live, then upcoming, then the others
        self.events = list(first.values())
        self.show_events()
        self.refresh_bindings()  # the role may be known only now

    def show_events(self) -> None:
        words = self.query_one("#search", Input).value.strip().casefold()
        table = self.query_one("#events", DataTable)
        table.clear()
        for event in self.events:
            if words in str(event.get("title", "")).casefold():
                cells = (event.get("title", ""), state_of(event), short_time(event.get("event_date")))
                table.add_row(*cells, key=event["_id"])
        if self.event is not None and self.event["_id"] in table.rows:
            table.move_cursor(row=table.get_row_index(self.event["_id"]))

    @on(Input.Changed, "#search")
    def search_changed(self) -> None:
        self.show_events()

    @on(Input.Submitted, "#search")
    def search_submitted(self) -> None:
        self.query_one("#events", DataTable).focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value:
            self.pick(event.row_key.value)

    def pick(self, event_id: str) -> None:
        if self.watching is not None and self.watching != f"event:{event_id}":
            self.stop_watching()  # leaving the event leaves its room
        self.load_event(event_id)

    @work(exclusive=True, group="detail")
    async def load_event(self, event_id: str) -> None:
        try:
            event = await self.api.event(event_id)
        except AdminApiError as error:
            self.notify(str(error), title="Could not load the event", severity="error")
            return
        self.show_event(event)

    def show_event(self, event: dict) -> None:
        self.event = event
        content = event.get("content") or {}
        # The label on a line of its own: a URL does not fit beside it in a narrow panel.
        streams = [f"[dim]{name}[/dim]\n{escape(content[key])}" for name, key in STREAMS if content.get(key)]
        room = f"event:{event['_id']}"
        lines = [
            f"[b]{escape(str(event.get('title', '')))}[/b]",
            f"{state_of(event)} · kickoff {short_time(event.get('event_date'))}",
            *(streams or ["[dim]no stream yet[/dim]"]),
            f"room {room}",
            "[b]watching[/b] (w stops)" if self.watching == room else "not watched (w watches)",
        ]
        self.query_one("#detail", Static).update("\n".join(lines))
        self.query_one(IngestPanel).follow(event)

    def picked(self, verb: str, states: tuple[str, ...] = ()) -> dict | None:
        """The picked event when it may `verb` (else None, and a notification says why)."""
        event = self.event
        if event is None:
            self.notify(f"Pick an event to {verb} (Enter on a row)", severity="warning")
            return None
        if states and event.get("status") not in states:
            wanted = ", ".join(STATE_LABELS.get(s, s) for s in states)
            self.notify(f"Cannot {verb}: the event is {state_of(event)} (needs {wanted})", severity="warning")
            return None
        return event

    def confirm(self, question: str, label: str, then: Callable[[], object]) -> None:
        def answered(yes: bool | None) -> None:
            if yes:
                then()

        self.app.push_screen(ConfirmScreen(question, label), answered)

    # --- go live, finish, switch the stream (admin) ----------------------------------------------

    def action_go_live(self) -> None:
        event = self.picked("go live", ("upcoming",))
        if event is not None:
            question = f"Put {escape(str(event.get('title')))} live now?"
            self.confirm(question, "Go live", lambda: self.change_event(event["_id"], "go live"))

    def action_finish(self) -> None:
        event = self.picked("finish", ("live",))
        if event is not None:
            question = f"Finish {escape(str(event.get('title')))}? Viewers see the replay from then on."
            self.confirm(question, "Finish", lambda: self.change_event(event["_id"], "finish"))

    def action_switch_stream(self) -> None:
        event = self.picked("switch its stream", ("upcoming", "live", "channel"))
        if event is None:
            return
        title = str(event.get("title", ""))

        def chosen(change: StreamChange | None) -> None:
            if change is not None:
                question = f"Switch the stream of {escape(title)} to {escape(change.url)}? Players in its room reload."
                self.confirm(question, "Switch", lambda: self.change_event(event["_id"], "switch", change.url))

        self.app.push_screen(StreamScreen(title, (event.get("content") or {}).get("HLSStream")), chosen)

    @work(exclusive=True, group="event-change")
    async def change_event(self, event_id: str, verb: str, url: str = "") -> None:
        try:
            if verb == "go live":
                event = await self.api.go_live(event_id)
            elif verb == "finish":
                event = await self.api.finish(event_id)
            else:
                event = await self.api.set_stream(event_id, url)
        except AdminApiError as error:
            self.notify(str(error), title=f"Could not {verb}", severity="error")
            return
        self.notify(f"{event.get('title')}: {DONE[verb]}")
        self.show_event(event)
        self.load_events()

    # --- stream keys (admin) ----------------------------------------------------------------------

    def action_make_stream_key(self) -> None:
        event = self.picked("make its stream key", TAKES_A_FEED)
        if event is not None:
            self.query_one(IngestPanel).change_key(event, "make")

    def action_rotate_stream_key(self) -> None:
        event = self.picked("rotate its stream key", TAKES_A_FEED)
        if event is not None:
            question = (
                f"Rotate the stream key of {escape(str(event.get('title')))}? "
                "The old key stops at once: an encoder using it needs the new one."
            )
            self.confirm(question, "Rotate", lambda: self.query_one(IngestPanel).change_key(event, "rotate"))

    def action_revoke_stream_key(self) -> None:
        event = self.picked("revoke its stream key")
        if event is not None:
            title = escape(str(event.get("title")))
            question = f"Revoke the stream key of {title}? Its encoder is cut off and refused from now on."
            self.confirm(question, "Revoke", lambda: self.query_one(IngestPanel).change_key(event, "revoke"))

    def action_take_over_stream_key(self) -> None:
        event = self.picked("let a second encoder take over", TAKES_A_FEED)
        if event is not None:
            question = (
                f"Let the next encoder with the key of {escape(str(event.get('title')))} take over for 2 minutes? "
                "The encoder publishing now is dropped when it connects."
            )
            self.confirm(question, "Take over", lambda: self.query_one(IngestPanel).change_key(event, "take-over"))

    def action_ingest_settings(self) -> None:
        event = self.picked("change its ingest settings", TAKES_A_FEED)
        if event is None:
            return
        panel = self.query_one(IngestPanel)
        health = panel.health if panel.follows(event["_id"]) else None
        if health is None:
            self.notify("Reading the live input: try again in a moment", severity="warning")
            return

        def chosen(settings: IngestSettings | None) -> None:
            if settings is not None:
                panel.change_settings(event, settings)

        minutes = health["dvrSeconds"] // 60
        self.app.push_screen(IngestSettingsScreen(str(event.get("title", "")), health["autostart"], minutes), chosen)

    # --- socket messages (admin) -----------------------------------------------------------------

    def action_send_message(self) -> None:
        event = self.picked("send a message to")
        if event is None:
            return

        def chosen(message: OutgoingMessage | None) -> None:
            if message is not None:
                self.send(message)

        self.app.push_screen(MessageScreen(event["_id"]), chosen)

    @work(exclusive=False, group="send")
    async def send(self, message: OutgoingMessage) -> None:
        try:
            answer = await self.api.emit(message.event, message.room, message.payload)
        except AdminApiError as error:
            self.notify(str(error), title=f"Could not send {message.event}", severity="error")
            return
        self.notify(f"Sent {message.event} to {message.room} (fan-out: {answer.get('manager', '?')})")

    # --- watching the room -------------------------------------------------------------------------

    def action_watch(self) -> None:
        if self.watching is not None:
            self.stop_watching()
            return
        event = self.picked("watch its room")
        if event is not None:
            self.watching = f"event:{event['_id']}"
            self.follow_room(self.watching)

    def stop_watching(self) -> None:
        self.workers.cancel_group(self, "watch")
        if self.watching is not None:
            self.query_one("#room", RichLog).write(Text(f"Stopped watching {self.watching}.", style="dim"))
        self.set_watching(None)

    def set_watching(self, room: str | None) -> None:
        self.watching = room
        self.query_one("#room", RichLog).border_title = f"Room {room} (w stops)" if room else "Room (w watches)"
        if self.event is not None:
            self.show_event(self.event)

    @work(exclusive=True, group="watch")
    async def follow_room(self, room: str) -> None:
        log = self.query_one("#room", RichLog)
        try:
            async with self.api.watch_room(room) as messages:
                self.set_watching(room)
                log.write(Text(f"Watching {room}; what it receives appears here.", style="dim"))
                async for message in messages:
                    log.write(room_line(message))
        except AdminApiError as error:
            self.notify(str(error), title=f"Cannot watch {room}", severity="error", timeout=10)
        # Not reached when cancelled: stop_watching() or a newer watch has set the state already.
        if self.watching == room:
            self.set_watching(None)
