"""`touchline events …`: staff event operations, through the admin API.

List events (`list [--status S] [--sport SPORT]`) or look at one (`show ID`), as staff see them
(the stored stream URLs); create an event, change it, start it (go-live), end it (finish: it
plays as VOD from then on) or switch its stream (set-stream: viewers in the event's room are told,
and an upcoming event goes live). Every command prints the event as it is afterwards; `touchline events --json …` prints
the API's answer (the envelope's `content`) for scripts. The server and the staff account come
from the group's options (staff_options.py).
"""

import re
from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated, Any

import typer
from rich.table import Table

from ..admin_client import fail
from . import staff_completion
from .staff_api import (
    NONE,
    Page,
    Size,
    api_call,
    more_hint,
    new_console,
    object_id,
    print_json,
    print_rows,
    text_or_none,
    when,
)
from .staff_options import StaffOptions, options_of, staff_group

app = staff_group("Events: create, change, go live, finish, switch the stream (staff).")

URL = re.compile(r"^(/|https?://)\S*$")


class Status(StrEnum):
    upcoming = "upcoming"
    live = "live"
    archived = "archived"
    channel = "channel"


class EventType(StrEnum):
    game = "game"
    training = "training"
    other = "other"
    channel = "channel"
    external = "externalContent"


class Commerce(StrEnum):
    free = "commerce_free_media"
    members = "commerce_members_media"
    ppv = "commerce_ppv_media"
    transactional = "commerce_transactional_media"
    subscription = "commerce_subscription-basic_media"


class Mode(StrEnum):
    ppv = "ppv"
    svod = "svod"
    cvod = "cvod"


class Gender(StrEnum):
    male = "male"
    female = "female"
    mixed = "mixed"


EventId = Annotated[
    str,
    typer.Argument(
        metavar="ID", help="The event's _id (24 hexadecimal characters).", autocompletion=staff_completion.event_ids
    ),
]
DateOption = Annotated[
    str | None,
    typer.Option("--date", help="Scheduled start, e.g. 2026-12-05T15:00:00Z (UTC unless it says otherwise)."),
]
KickoffOption = Annotated[str | None, typer.Option("--kickoff", help="Real kick-off (gameStartDate), like --date.")]
DescriptionOption = Annotated[str | None, typer.Option("--description", help="The event's description.")]
SportOption = Annotated[str | None, typer.Option("--sport", help="Sport type, e.g. football or ice-hockey.")]
StatusOption = Annotated[Status | None, typer.Option("--status", help="upcoming, live, archived or channel.")]
TypeOption = Annotated[EventType | None, typer.Option("--type", help="Event type (default game).")]
GameTypeOption = Annotated[str | None, typer.Option("--game-type", help="Game type ('other': no teams).")]
CommerceOption = Annotated[Commerce | None, typer.Option("--commerce", help="How the event is sold.")]
ModeOption = Annotated[
    list[Mode] | None, typer.Option("--mode", help="A monetisation mode unlocking it (repeat for several).")
]
GenderOption = Annotated[Gender | None, typer.Option("--gender", help="male, female or mixed.")]
IdentityOption = Annotated[
    list[str] | None, typer.Option("--identity", metavar="ID", help="A category or league it belongs to (repeat).")
]
HomeOption = Annotated[str | None, typer.Option("--home", metavar="ID", help="The home team's id.")]
AwayOption = Annotated[str | None, typer.Option("--away", metavar="ID", help="The away team's id.")]
StreamOption = Annotated[
    str | None, typer.Option("--stream", metavar="URL", help="HLS stream: /media/live/<sample>.m3u8 or an http(s) URL.")
]
PosterOption = Annotated[str | None, typer.Option("--poster", metavar="URL", help="Poster image URL.")]
ExternalIdOption = Annotated[str | None, typer.Option("--event-id", help="External event id (generated if left out).")]
ReferenceOption = Annotated[str | None, typer.Option("--reference-id", help="Reference id (generated if left out).")]


def _event_id(value: str) -> str:
    return object_id(value, "an event id", "it is the event's _id")


def _moment(value: str, option: str) -> str:
    try:
        moment = datetime.fromisoformat(value.strip().upper())
    except ValueError:
        raise fail(f"{option} {value!r} is not a date and time like 2026-12-05T15:00:00Z") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def _url(value: str, option: str) -> str:
    if not URL.match(value):
        raise fail(f"{option} {value!r} is not a path on the server (/media/...) or an http(s) URL")
    return value


def _fields(
    *,
    title=None,
    date=None,
    kickoff=None,
    description=None,
    sport=None,
    status=None,
    event_type=None,
    game_type=None,
    commerce=None,
    modes=None,
    gender=None,
    identities=None,
    home=None,
    away=None,
    stream=None,
    poster=None,
    external_id=None,
    reference_id=None,
) -> dict[str, Any]:
    """The options given, as AdminEventFields (wire names); options left out are not sent."""
    body: dict[str, Any] = {}
    plain = {
        "title": title,
        "description": description,
        "sportType": sport,
        "gameType": game_type,
        "event_id": external_id,
        "reference_id": reference_id,
    }
    body.update({k: v for k, v in plain.items() if v is not None})
    if date is not None:
        body["event_date"] = _moment(date, "--date")
    if kickoff is not None:
        body["gameStartDate"] = _moment(kickoff, "--kickoff")
    for key, choice in (("status", status), ("eventType", event_type), ("commerce_type", commerce), ("gender", gender)):
        if choice is not None:
            body[key] = choice.value
    if modes:
        body["commerceType"] = list(dict.fromkeys(m.value for m in modes))
    if identities:
        body["identities"] = list(
            dict.fromkeys(object_id(i, "a category or league id", "it is the identity's _id") for i in identities)
        )
    if home is not None:
        body["homeTeamId"] = object_id(home, "a team id", "it is the team's _id")
    if away is not None:
        body["awayTeamId"] = object_id(away, "a team id", "it is the team's _id")
    content = {}
    if stream is not None:
        content["HLSStream"] = _url(stream, "--stream")
    if poster is not None:
        content["PosterH"] = _url(poster, "--poster")
    if content:
        body["content"] = content
    return body


def _show(event: dict, headline: str) -> None:
    console = new_console()
    console.print(headline, soft_wrap=True)
    table = Table(show_header=False, box=None, padding=(0, 2, 0, 0))
    table.add_column("Field", style="bold", no_wrap=True)
    table.add_column("Value", overflow="fold")
    teams = event.get("eventTeams")
    modes = f" ({', '.join(event['commerceType'])})" if event["commerceType"] else ""
    rows = [
        ("ID", event["_id"]),
        ("Event id", event["event_id"]),
        ("Title", event["title"]),
        ("Status", event["status"]),
        ("Date (UTC)", when(event["event_date"])),
        ("Kick-off (UTC)", when(event.get("gameStartDate"))),
        ("Ended (UTC)", when(event.get("endDate"))),
        ("Sport", text_or_none(event.get("sportType"))),
        ("Teams", f"{teams['homeTeam']['name']} vs {teams['awayTeam']['name']}" if teams else NONE),
        ("Sold as", event["commerce_type"] + modes),
        ("Stream", text_or_none(event["content"].get("HLSStream"))),
    ]
    for label, value in rows:
        table.add_row(label, value)
    console.print(table)


def _done(content: dict, options: StaffOptions, headline: str) -> None:
    if options.as_json:
        print_json(content)
    else:
        _show(content, headline)


@app.command("list")
def list_events(
    ctx: typer.Context,
    status: StatusOption = None,
    sport: SportOption = None,
    page: Page = 0,
    size: Size = 10,
) -> None:
    """Events (channels too), latest date first, with their state and stored stream."""
    options = options_of(ctx)
    params: dict[str, Any] = {"page": page, "size": size}
    if status is not None:
        params["status"] = status.value
    if sport is not None and sport.strip():
        params["sportType"] = sport.strip()
    content = api_call(options, lambda api: api.get("/admin/events", params))
    if options.as_json:
        print_json(content)
        return
    console = new_console()
    if not content["entries"]:
        console.print("No event matches" + (f" on page {page}." if page else "."))
        return
    headers = ["ID", "Title", "Status", "Date (UTC)", "Sport", "Stream"]
    rows = [
        [
            e["_id"],
            e["title"],
            e["status"],
            when(e["event_date"]),
            text_or_none(e.get("sportType")),
            text_or_none(e["content"].get("HLSStream")),
        ]
        for e in content["entries"]
    ]
    print_rows(console, "Events", headers, rows)
    more_hint(console, content, page)


@app.command("show")
def show(ctx: typer.Context, event: EventId) -> None:
    """One event as staff see it: its state, dates, teams, how it is sold and its stored stream."""
    options = options_of(ctx)
    event_id = _event_id(event)
    content = api_call(options, lambda api: api.get(f"/admin/events/{event_id}"))
    _done(content, options, f"Event {content['_id']}")


@app.command("create")
def create(
    ctx: typer.Context,
    title: Annotated[str, typer.Argument(help="The event's title, e.g. 'Harbor City Mariners vs Riverside Rovers'.")],
    date: Annotated[
        str, typer.Option("--date", help="Scheduled start, e.g. 2026-12-05T15:00:00Z (UTC unless it says otherwise).")
    ],
    sport: Annotated[str, typer.Option("--sport", help="Sport type, e.g. football or ice-hockey.")],
    description: DescriptionOption = None,
    kickoff: KickoffOption = None,
    status: StatusOption = None,
    event_type: TypeOption = None,
    game_type: GameTypeOption = None,
    commerce: CommerceOption = None,
    mode: ModeOption = None,
    gender: GenderOption = None,
    identity: IdentityOption = None,
    home: HomeOption = None,
    away: AwayOption = None,
    stream: StreamOption = None,
    poster: PosterOption = None,
    event_id: ExternalIdOption = None,
    reference_id: ReferenceOption = None,
) -> None:
    """Create an event (upcoming unless --status says otherwise).

    A live, archived or channel event created without --stream plays its sport's sample."""
    options = options_of(ctx)
    if not title.strip():
        raise fail("TITLE is empty")
    body = _fields(
        title=title,
        date=date,
        kickoff=kickoff,
        description=description,
        sport=sport,
        status=status,
        event_type=event_type,
        game_type=game_type,
        commerce=commerce,
        modes=mode,
        gender=gender,
        identities=identity,
        home=home,
        away=away,
        stream=stream,
        poster=poster,
        external_id=event_id,
        reference_id=reference_id,
    )
    content = api_call(options, lambda api: api.post("/admin/events", body))
    _done(content, options, f"Event {content['_id']} is created ({content['status']}).")


@app.command("update")
def update(
    ctx: typer.Context,
    event: EventId,
    title: Annotated[str | None, typer.Option("--title", help="A new title.")] = None,
    date: DateOption = None,
    kickoff: KickoffOption = None,
    description: DescriptionOption = None,
    sport: SportOption = None,
    status: StatusOption = None,
    commerce: CommerceOption = None,
    mode: ModeOption = None,
    stream: StreamOption = None,
    poster: PosterOption = None,
) -> None:
    """Change an event's fields (those not given stay as they are); viewers in its room are told."""
    options = options_of(ctx)
    event = _event_id(event)
    if title is not None and not title.strip():
        raise fail("--title is empty")
    body = _fields(
        title=title,
        date=date,
        kickoff=kickoff,
        description=description,
        sport=sport,
        status=status,
        commerce=commerce,
        modes=mode,
        stream=stream,
        poster=poster,
    )
    if not body:
        raise fail("Nothing to change: give at least one option (see --help)")
    content = api_call(options, lambda api: api.request("PATCH", f"/admin/events/{event}", body=body))
    _done(content, options, f"Event {event} is updated.")


@app.command("go-live")
def go_live(ctx: typer.Context, event: EventId) -> None:
    """Start an upcoming event now (its sport's live sample unless it has a stream)."""
    options = options_of(ctx)
    event = _event_id(event)
    content = api_call(options, lambda api: api.post(f"/admin/events/{event}/go_live"))
    _done(content, options, f"Event {event} is live.")


@app.command("finish")
def finish(ctx: typer.Context, event: EventId) -> None:
    """End a live event: it is archived and plays as VOD from then on."""
    options = options_of(ctx)
    event = _event_id(event)
    content = api_call(options, lambda api: api.post(f"/admin/events/{event}/finish"))
    _done(content, options, f"Event {event} is finished: it plays as VOD.")


@app.command("set-stream")
def set_stream(
    ctx: typer.Context,
    event: EventId,
    url: Annotated[
        str,
        typer.Argument(
            metavar="URL", help="The new HLS stream: /media/live/<sample>.m3u8 on this server, or an http(s) URL."
        ),
    ],
) -> None:
    """Switch a live, upcoming or channel event's stream; viewers in its room are told.

    An upcoming event goes live. Viewers get the new stream signed for them when they reload it."""
    options = options_of(ctx)
    event = _event_id(event)
    body = {"url": _url(url, "URL")}
    content = api_call(options, lambda api: api.post(f"/admin/events/{event}/stream", body))
    _done(content, options, f"Event {event} now streams {content['content']['HLSStream']} ({content['status']}).")
