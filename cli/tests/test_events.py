"""`touchline events …`, run as staff would (CliRunner) against a real server (the whole app, with
its socket, on a database of its own)."""

import asyncio
import json

import httpx
import pytest
from typer.testing import CliRunner

from cli.main import app
from cli.tests.conftest import PASSWORD
from server.tests.media_dir import as_sample, as_samples
from server.tests.realtime.test_socket import Inbox, ask, open_client

runner = CliRunner()
NOBODY = "f" * 24
CLEAN_ENV = {
    "TOUCHLINE_API_URL": None,
    "TOUCHLINE_STAFF_EMAIL": None,
    "TOUCHLINE_STAFF_PASSWORD": None,
    "COLUMNS": "300",
}
KICKOFF = "2030-12-05T15:00:00Z"


def touchline(server, *args: str, **env: str | None):
    staff = (
        {"TOUCHLINE_API_URL": server.url, "TOUCHLINE_STAFF_EMAIL": server.staff, "TOUCHLINE_STAFF_PASSWORD": PASSWORD}
        if server
        else {}
    )
    return runner.invoke(app, ["events", *args], env={**CLEAN_ENV, **staff, **env})


def as_json(result) -> dict:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def create(server, *options: str, title: str = "Harbor City Mariners vs Riverside Rovers") -> dict:
    return as_json(touchline(server, "--json", "create", title, "--date", KICKOFF, "--sport", "football", *options))


def seen_by_viewers(server, event_id: str) -> dict:
    answer = httpx.get(f"{server.url}/api/event/get_by_id/id/{event_id}")
    assert answer.status_code == 200, answer.text
    return answer.json()["content"]


# --- create and update ---------------------------------------------------------------------------


def test_create_makes_an_upcoming_event_and_prints_it(live_server):
    result = touchline(
        live_server,
        "create",
        "Harbor City Mariners vs Riverside Rovers",
        "--date",
        "2030-12-05T16:00:00+01:00",
        "--sport",
        "football",
        "--description",
        "Matchday 12.",
    )
    assert result.exit_code == 0, result.output
    assert "is created (upcoming)" in result.output
    event_id = result.output.split("Event ", 1)[1].split(" ", 1)[0]
    event = seen_by_viewers(live_server, event_id)
    assert (event["title"], event["status"], event["event_date"]) == (
        "Harbor City Mariners vs Riverside Rovers",
        "upcoming",
        KICKOFF,
    )
    for cell in ("Harbor City Mariners vs Riverside Rovers", "2030-12-05 15:00", "football", "commerce_free_media"):
        assert cell in result.output


def test_create_takes_every_field_staff_set(live_server):
    event = create(
        live_server,
        "--status",
        "live",
        "--commerce",
        "commerce_ppv_media",
        "--mode",
        "ppv",
        "--mode",
        "svod",
        "--gender",
        "female",
        "--stream",
        "https://cdn.example/live/npd.m3u8",
        "--poster",
        "/media/posters/npd.svg",
        "--event-id",
        "NPD-CLI-1",
        "--reference-id",
        "npd-cli-1",
    )
    assert (event["status"], event["commerce_type"], event["commerceType"], event["gender"]) == (
        "live",
        "commerce_ppv_media",
        ["ppv", "svod"],
        "female",
    )
    assert event["content"]["HLSStream"] == "https://cdn.example/live/npd.m3u8"
    assert (event["event_id"], event["reference_id"]) == ("NPD-CLI-1", "npd-cli-1")


def test_update_changes_only_the_options_given(live_server):
    event = create(live_server)
    updated = as_json(
        touchline(
            live_server,
            "--json",
            "update",
            event["_id"],
            "--title",
            "Mariners vs Rovers (rescheduled)",
            "--date",
            "2030-12-06T15:00:00Z",
        )
    )
    assert (updated["title"], updated["event_date"], updated["status"]) == (
        "Mariners vs Rovers (rescheduled)",
        "2030-12-06T15:00:00Z",
        "upcoming",
    )


# --- go live, set the stream, finish -------------------------------------------------------------


def test_an_event_goes_live_switches_stream_and_finishes_as_vod(live_server):
    event = create(live_server)

    live = touchline(live_server, "go-live", event["_id"])
    assert live.exit_code == 0, live.output
    assert f"Event {event['_id']} is live." in live.output and "/media/live/football.m3u8" in as_sample(live.output)

    switched = touchline(live_server, "set-stream", event["_id"], "/media/live/hockey.m3u8")
    assert switched.exit_code == 0, switched.output
    assert f"Event {event['_id']} now streams /media/live/hockey.m3u8 (live)." in as_sample(switched.output)

    finished = as_json(touchline(live_server, "--json", "finish", event["_id"]))
    # The sample that played, looped for as long as the game lasted (here: seconds, maybe none).
    seconds = finished["duration"]
    vod = f"/media/vod/hockey/game-{seconds}.m3u8" if seconds else "/media/vod/hockey/index.m3u8"
    assert (finished["status"], as_sample(finished["content"]["HLSStream"])) == ("archived", vod)
    assert finished["endDate"] is not None
    played = seen_by_viewers(live_server, event["_id"])["content"]["HLSStream"]
    stored = vod.replace("/game-", "/game-").removesuffix(".m3u8")
    expected = f"{stored}/index.m3u8" if seconds else vod
    assert as_sample(played).startswith(f"{expected}?token=")  # signed for the viewer


def test_set_stream_on_an_upcoming_event_puts_it_live(live_server):
    event = create(live_server)
    switched = as_json(
        touchline(live_server, "--json", "set-stream", event["_id"], "https://cdn.example/live/main.m3u8")
    )
    assert (switched["status"], switched["content"]["HLSStream"]) == ("live", "https://cdn.example/live/main.m3u8")


async def test_set_stream_reaches_a_socket_client_in_the_event_room(live_server):
    event = await asyncio.to_thread(create, live_server)  # the command runs its own event loop
    client = await open_client(live_server.url)
    try:
        inbox = Inbox(client)
        assert (await ask(client, "join-event-room", {"eventId": event["_id"]}))["ok"] is True
        result = await asyncio.to_thread(touchline, live_server, "set-stream", event["_id"], "/media/live/hockey.m3u8")
        assert result.exit_code == 0, result.output
        name, data = await inbox.next()  # the upcoming event went live
        assert (name, data["status"]) == ("update-event", "live")
        assert as_samples(await inbox.next()) == (
            "event-url-change",
            {"eventId": event["_id"], "eventUrl": "/media/live/hockey.m3u8"},
        )
    finally:
        await client.disconnect()


# --- errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "says"),
    [
        (["go-live"], "Only an upcoming event can go live (this one is archived) (invalid_status)"),
        (["finish"], "Only a live event can be finished (this one is archived) (invalid_status)"),
        (["set-stream", "/media/live/hockey.m3u8"], "An archived event's stream cannot be switched"),
    ],
    ids=["go-live", "finish", "set-stream"],
)
def test_a_change_an_archived_event_cannot_make_ends_with_exit_code_1(live_server, command, says):
    event = create(live_server, "--status", "archived")
    result = touchline(live_server, command[0], event["_id"], *command[1:])
    assert result.exit_code == 1 and says in result.output, result.output


@pytest.mark.parametrize(
    "command",
    [
        ["go-live", NOBODY],
        ["finish", NOBODY],
        ["update", NOBODY, "--title", "X"],
        ["set-stream", NOBODY, "/media/live/football.m3u8"],
    ],
    ids=["go-live", "finish", "update", "set-stream"],
)
def test_an_unknown_event_ends_with_exit_code_1_and_event_not_found(live_server, command):
    result = touchline(live_server, *command)
    assert result.exit_code == 1 and "Event not found (event_not_found)" in result.output


def test_an_event_id_another_event_has_ends_with_exit_code_1(live_server):
    first = create(live_server)
    result = touchline(
        live_server, "create", "Copy", "--date", KICKOFF, "--sport", "football", "--event-id", first["event_id"]
    )
    assert result.exit_code == 1 and "Another event has this event_id (conflict)" in result.output


@pytest.mark.parametrize(
    ("command", "says"),
    [
        (["go-live", "TL-EV-000001"], "'TL-EV-000001' is not an event id"),
        (["set-stream", NOBODY, "rtmp://ingest/live"], "URL 'rtmp://ingest/live' is not a path on the server"),
        (
            ["create", "A match", "--date", "tomorrow", "--sport", "football"],
            "--date 'tomorrow' is not a date and time",
        ),
        (["create", "  ", "--date", KICKOFF, "--sport", "football"], "TITLE is empty"),
        (["update", NOBODY], "Nothing to change"),
    ],
    ids=["event-id", "stream-url", "date", "blank-title", "nothing-to-change"],
)
def test_a_malformed_argument_ends_with_exit_code_1_before_anything_is_sent(command, says):
    result = touchline(None, *command)  # no server, no credentials: the command stops before needing them
    assert result.exit_code == 1, result.output
    assert says in result.output


def test_a_viewer_account_is_refused_with_exit_code_1(live_server):
    result = touchline(live_server, "go-live", NOBODY, TOUCHLINE_STAFF_EMAIL=live_server.viewer)
    assert result.exit_code == 1 and "(forbidden_role)" in result.output


# --- list and show -------------------------------------------------------------------------------


def test_list_shows_events_with_their_state_and_stored_stream(live_server):
    event = create(live_server, "--stream", "/media/live/football.m3u8")
    result = touchline(live_server, "list", "--size", "100")
    assert result.exit_code == 0, result.output
    [row] = [line for line in result.output.splitlines() if event["_id"] in line]
    assert "upcoming" in row and "/media/live/football.m3u8" in as_sample(row) and "2030-12-05 15:00" in row


def test_list_json_filters_by_status(live_server):
    upcoming = create(live_server)
    live = create(live_server)
    as_json(touchline(live_server, "--json", "go-live", live["_id"]))
    content = as_json(touchline(live_server, "--json", "list", "--status", "live", "--size", "100"))
    ids = {e["_id"] for e in content["entries"]}
    assert live["_id"] in ids and upcoming["_id"] not in ids
    assert {e["status"] for e in content["entries"]} == {"live"}


def test_list_says_when_nothing_matches(live_server):
    result = touchline(live_server, "list", "--sport", "no-such-sport")
    assert result.exit_code == 0 and "No event matches." in result.output


def test_show_prints_the_event_as_staff_see_it(live_server):
    event = create(live_server, "--stream", "/media/live/football.m3u8")
    result = touchline(live_server, "show", event["_id"])
    assert result.exit_code == 0, result.output
    assert f"Event {event['_id']}" in result.output and "/media/live/football.m3u8" in as_sample(result.output)
    assert "upcoming" in result.output


def test_show_json_prints_the_apis_answer(live_server):
    event = create(live_server)
    content = as_json(touchline(live_server, "--json", "show", event["_id"]))
    assert content["_id"] == event["_id"] and content["title"] == event["title"]


def test_showing_an_unknown_event_ends_with_exit_code_1(live_server):
    result = touchline(live_server, "show", NOBODY)
    assert result.exit_code == 1 and "Event not found (event_not_found)" in result.output
