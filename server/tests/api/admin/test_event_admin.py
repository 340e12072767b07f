"""Staff event operations (tag admin): create and edit events, start and finish them, switch their
streams; what each tells the event's room; and who may call them.

Every event made here is removed after its test (server/tests/commerce.CREATED), so the
catalogue tests sharing the session database count only their own events.
"""

import asyncio
import json
from datetime import datetime

import httpx
import pytest
import pytest_asyncio

from server import clock
from server.api.http.cache import ResponseCache
from server.app import create_api
from server.media.delivery.urls import game_url
from server.realtime import emitter
from server.realtime.socket import close_socket_server, create_socket_server, start_socket_server, token_authenticator
from server.services.event_admin import MAX_DURATION_S
from server.tests.accounts import sign_up
from server.tests.conftest import with_state
from server.tests.mailbox import recording_socket, staff_headers
from server.tests.media_dir import as_sample, as_samples
from server.tests.realtime.test_socket import Inbox, ask, open_client, serving, socket_settings
from server.tests.staff_events import soon
from server.tests.staff_events import staff_event as create

pytestmark = pytest.mark.asyncio(loop_scope="session")

NOBODY = "f" * 24
LIVE_FOOTBALL = "/media/live/football.m3u8"
OTHER_STREAM = "/media/live/hockey.m3u8"


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def staff(client, database, settings):
    return await staff_headers(client, database, settings)


def when(text: str) -> datetime:
    return datetime.fromisoformat(text)


async def call(client, staff, method: str, path: str, body=None) -> httpx.Response:
    return await client.request(method, f"/api/admin/events{path}", json=body, headers=staff)


async def ok(client, staff, method: str, path: str, body=None) -> dict:
    answer = await call(client, staff, method, path, body)
    assert answer.status_code == 200, answer.text
    return answer.json()["content"]


async def live_event(client, database, staff, **fields) -> dict:
    event = await create(client, database, staff, **fields)
    return await ok(client, staff, "POST", f"/{event['_id']}/go_live")


def room_messages(socket, event_id: str) -> list[tuple[str, dict]]:
    """The room's messages, with asset ids shown as the samples they play (as_samples)."""
    return [as_samples((name, data)) for name, data, room in socket.sent if room == f"event:{event_id}"]


# --- who may call them ---------------------------------------------------------------------------

REQUESTS = [
    ("POST", "", {"title": "A match", "event_date": "2026-11-21T18:00:00Z", "sportType": "football"}),
    ("PATCH", f"/{NOBODY}", {"title": "Renamed"}),
    ("POST", f"/{NOBODY}/go_live", None),
    ("POST", f"/{NOBODY}/finish", None),
    ("POST", f"/{NOBODY}/stream", {"url": LIVE_FOOTBALL}),
    ("GET", f"/{NOBODY}/assets", None),
]
REQUEST_IDS = ["create", "update", "go-live", "finish", "set-stream", "assets"]


@pytest.mark.parametrize(("method", "path", "body"), REQUESTS, ids=REQUEST_IDS)
async def test_viewers_are_refused_with_403(client, method, path, body):
    viewer = await sign_up(client)
    answer = await call(client, viewer["headers"], method, path, body)
    assert answer.status_code == 403 and answer.json()["messageErrorCode"] == "forbidden_role"


@pytest.mark.parametrize(("method", "path", "body"), REQUESTS, ids=REQUEST_IDS)
async def test_anonymous_callers_are_refused_with_401(client, method, path, body):
    answer = await client.request(method, f"/api/admin/events{path}", json=body)
    assert answer.status_code == 401 and answer.json()["messageErrorCode"] == "unauthorized"


@pytest.mark.parametrize(("method", "path", "body"), REQUESTS[1:], ids=REQUEST_IDS[1:])
async def test_an_unknown_event_is_404(client, staff, method, path, body):
    answer = await call(client, staff, method, path, body)
    assert answer.status_code == 404 and answer.json()["messageErrorCode"] == "event_not_found"


async def test_highlights_and_clips_are_not_managed_as_events(client, staff, catalogue):
    answer = await call(client, staff, "POST", f"/{catalogue['recap']}/go_live")
    assert answer.status_code == 404 and answer.json()["messageErrorCode"] == "event_not_found"


# --- create --------------------------------------------------------------------------------------


async def test_staff_create_an_upcoming_event_with_generated_ids_that_viewers_then_find(
    client, database, staff, catalogue
):
    event = await create(
        client,
        database,
        staff,
        description="Matchday 12.",
        event_date="2030-12-05T15:00:00Z",
        identities=[catalogue["npd"], catalogue["football"]],
        homeTeamId=catalogue["mariners"],
        awayTeamId=catalogue["rovers"],
        commerce_type="commerce_ppv_media",
        commerceType=["ppv"],
        gender="male",
        content={"PosterH": "/media/posters/northern-premier-division.svg"},
    )
    assert event["status"] == "upcoming" and event["media_type"] == "event"
    assert event["event_id"].startswith("TL-EV-") and event["reference_id"].startswith("ref-harbor-city-mariners")
    assert (event["event_date"], event["description"], event["gender"]) == (
        "2030-12-05T15:00:00Z",
        "Matchday 12.",
        "male",
    )
    assert (event["commerce_type"], event["commerceType"]) == ("commerce_ppv_media", ["ppv"])
    assert event["eventTeams"]["homeTeam"]["teamId"] == catalogue["mariners"]
    assert {i["_id"] for i in event["mediaIdentities"]} == {catalogue["npd"], catalogue["football"]}
    assert as_sample(event["content"]["HLSStream"]) is None  # an upcoming event has no stream yet
    assert event["content"]["PosterH"] == "/media/posters/northern-premier-division.svg"

    found = await client.get(f"/api/event/get_by_id/id/{event['_id']}")
    assert found.status_code == 200 and found.json()["content"]["title"] == event["title"]
    search = await client.get(
        "/api/event/search", params={"q": "mariners rovers", "status[]": ["upcoming"], "size": 50}
    )
    assert event["_id"] in [e["_id"] for e in search.json()["content"]["entries"]]


async def test_given_event_and_reference_ids_are_kept(client, database, staff):
    event = await create(client, database, staff, event_id="NPD-2026-12-A", reference_id="npd:2026:12:a")
    assert (event["event_id"], event["reference_id"]) == ("NPD-2026-12-A", "npd:2026:12:a")


async def test_an_event_id_or_reference_id_another_event_has_is_refused_with_409(client, database, staff, catalogue):
    first = await create(client, database, staff)
    for taken in ({"event_id": first["event_id"]}, {"reference_id": first["reference_id"]}):
        answer = await client.post(
            "/api/admin/events",
            headers=staff,
            json={"title": "Copy", "event_date": "2030-12-05T15:00:00Z", "sportType": "football", **taken},
        )
        assert answer.status_code == 409 and answer.json()["messageErrorCode"] == "conflict", answer.text


@pytest.mark.parametrize(("field", "code"), [("homeTeamId", "team_not_found"), ("identities", "identity_not_found")])
async def test_an_unknown_team_or_identity_is_refused_with_404(client, staff, field, code):
    value = [NOBODY] if field == "identities" else NOBODY
    answer = await client.post(
        "/api/admin/events",
        headers=staff,
        json={"title": "A match", "event_date": "2030-12-05T15:00:00Z", "sportType": "football", field: value},
    )
    assert answer.status_code == 404 and answer.json()["messageErrorCode"] == code


async def test_events_created_live_or_archived_play_their_sports_sample_as_the_seed_has_them(client, database, staff):
    live = await create(client, database, staff, status="live", event_date=soon(minutes=-5))
    archived = await create(
        client, database, staff, status="archived", sportType="ice-hockey", event_date=soon(days=-2)
    )
    channel = await create(client, database, staff, status="channel", eventType="channel", sportType="basketball")
    assert (live["status"], as_sample(live["content"]["HLSStream"])) == ("live", LIVE_FOOTBALL)
    assert live["gameStartDate"] == live["event_date"]
    assert as_sample(archived["content"]["HLSStream"]) == "/media/vod/hockey/index.m3u8"
    assert as_sample(channel["content"]["HLSStream"]) == "/media/live/basketball.m3u8"
    assert channel["content"]["EPG"] == f"/api/event/epg/{channel['_id']}"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"title": "   "}, "title"),
        ({"reference_id": "r" * 81}, "reference_id"),
        ({"content": {"HLSStream": "/media/" + "x" * 500}}, "content.HLSStream"),
        ({"endDate": "2030-12-05T12:00:00Z"}, "endDate"),
        ({"homeTeamId": "b" * 24, "awayTeamId": "b" * 24}, "awayTeamId"),
        ({"title": "A\u0000match"}, "title"),
        ({"gameType": "cup\u0007"}, "gameType"),
    ],
    ids=[
        "blank-title",
        "reference-id-too-long",
        "url-too-long",
        "ends-before-it-starts",
        "a-team-against-itself",
        "nul-in-title",
        "control-character",
    ],
)
async def test_what_the_schema_allows_but_an_event_cannot_hold_is_a_400_naming_the_field(client, staff, body, field):
    answer = await client.post(
        "/api/admin/events",
        headers=staff,
        json={"title": "A match", "event_date": "2030-12-05T15:00:00Z", "sportType": "football", **body},
    )
    assert answer.status_code == 400, answer.text
    assert answer.json()["messageErrorCode"] == "validation_error"
    assert answer.json()["details"][0]["field"] == field


@pytest.mark.parametrize(
    "body",
    [
        {"event_date": "2030-12-05T15:00:00Z", "sportType": "football"},  # no title
        {"title": "A match", "event_date": "2030-12-05T15:00:00Z", "sportType": "football", "colour": "red"},
        {"title": "A match", "event_date": "tomorrow", "sportType": "football"},
        {"title": "A match", "event_date": "2030-12-05T15:00:00Z", "sportType": "football", "status": "vod"},
    ],
    ids=["no-title", "unknown-field", "not-a-date", "not-an-event-status"],
)
async def test_a_body_the_contract_refuses_is_a_400(client, staff, body):
    answer = await client.post("/api/admin/events", headers=staff, json=body)
    assert answer.status_code == 400 and answer.json()["messageErrorCode"] == "validation_error"


# --- update --------------------------------------------------------------------------------------


async def test_update_changes_only_the_fields_sent_and_tells_the_room_what_changed(client, database, staff, catalogue):
    event = await live_event(client, database, staff, identities=[catalogue["npd"]])
    with recording_socket() as socket:
        updated = await ok(
            client,
            staff,
            "PATCH",
            f"/{event['_id']}",
            {"title": "Mariners vs Rovers (rescheduled)", "event_date": "2030-12-06T15:00:00+01:00"},
        )
    assert updated["title"] == "Mariners vs Rovers (rescheduled)" and updated["event_date"] == "2030-12-06T14:00:00Z"
    for unchanged in (
        "status",
        "event_id",
        "reference_id",
        "sportType",
        "commerce_type",
        "eventType",
        "gameType",
        "mediaIdentities",
    ):
        assert updated[unchanged] == event[unchanged], unchanged  # no defaults filled in for fields not sent
    assert room_messages(socket, event["_id"]) == [
        (
            "update-event",
            {
                "eventId": event["_id"],
                "title": "Mariners vs Rovers (rescheduled)",
                "event_date": "2030-12-06T14:00:00Z",
            },
        )
    ]


async def test_update_replaces_teams_and_identities(client, database, staff, catalogue):
    event = await create(
        client,
        database,
        staff,
        identities=[catalogue["npd"]],
        homeTeamId=catalogue["mariners"],
        awayTeamId=catalogue["rovers"],
    )
    updated = await ok(
        client,
        staff,
        "PATCH",
        f"/{event['_id']}",
        {"identities": [catalogue["cup"]], "homeTeamId": catalogue["hawks"], "awayTeamId": catalogue["mariners"]},
    )
    assert [i["_id"] for i in updated["mediaIdentities"]] == [catalogue["cup"]]
    assert updated["eventTeams"]["homeTeam"]["name"] == "Eastfield Hawks"
    cleared = await ok(
        client, staff, "PATCH", f"/{event['_id']}", {"homeTeamId": None, "awayTeamId": None, "identities": []}
    )
    assert cleared["eventTeams"] is None and cleared["mediaIdentities"] == []


async def test_an_update_to_an_event_id_another_event_has_is_refused_with_409(client, database, staff):
    first, second = await create(client, database, staff), await create(client, database, staff)
    answer = await call(client, staff, "PATCH", f"/{second['_id']}", {"event_id": first["event_id"]})
    assert answer.status_code == 409 and answer.json()["messageErrorCode"] == "conflict"


async def test_an_empty_update_is_a_400(client, database, staff):
    event = await create(client, database, staff)
    answer = await call(client, staff, "PATCH", f"/{event['_id']}", {})
    assert answer.status_code == 400 and answer.json()["messageErrorCode"] == "validation_error"


async def test_an_update_of_the_status_follows_the_status_machine(client, database, staff):
    event = await create(client, database, staff)
    ended = soon(days=1, hours=2)  # after its kickoff, a day ahead
    with recording_socket() as socket:
        live = await ok(client, staff, "PATCH", f"/{event['_id']}", {"status": "live"})
        archived = await ok(client, staff, "PATCH", f"/{event['_id']}", {"status": "archived", "endDate": ended})
    assert (live["status"], as_sample(live["content"]["HLSStream"])) == ("live", LIVE_FOOTBALL)
    # Its VOD is as long as the game (capped at the longest a game may last).
    assert archived["duration"] == min(
        MAX_DURATION_S, int((when(archived["endDate"]) - when(archived["gameStartDate"])).total_seconds())
    )
    assert (archived["status"], as_sample(archived["content"]["HLSStream"])) == (
        "archived",
        game_url("football", archived["duration"]),
    )
    assert archived["endDate"] == ended  # sent with the change: it wins over "now"
    statuses = [data.get("status") for name, data in room_messages(socket, event["_id"]) if name == "update-event"]
    assert statuses == ["live", "archived"]


async def test_an_update_of_a_live_events_stream_moves_its_viewers(client, database, staff):
    event = await live_event(client, database, staff)
    with recording_socket() as socket:
        await ok(client, staff, "PATCH", f"/{event['_id']}", {"content": {"HLSStream": OTHER_STREAM}})
    assert ("event-url-change", {"eventId": event["_id"], "eventUrl": OTHER_STREAM}) in room_messages(
        socket, event["_id"]
    )


async def test_an_update_of_an_upcoming_events_stream_does_not_put_it_on_air(client, database, staff):
    event = await create(client, database, staff)
    with recording_socket() as socket:
        updated = await ok(client, staff, "PATCH", f"/{event['_id']}", {"content": {"HLSStream": OTHER_STREAM}})
    assert updated["status"] == "upcoming" and as_sample(updated["content"]["HLSStream"]) == OTHER_STREAM
    assert room_messages(socket, event["_id"]) == [
        ("update-event", {"eventId": event["_id"], "content": {"HLSStream": OTHER_STREAM}})
    ]


# --- go live and finish --------------------------------------------------------------------------


async def test_go_live_starts_an_upcoming_event_on_its_sports_live_sample(client, database, staff):
    event = await create(client, database, staff, event_date=soon(hours=2))
    with recording_socket() as socket:
        live = await ok(client, staff, "POST", f"/{event['_id']}/go_live")
    assert live["status"] == "live" and as_sample(live["content"]["HLSStream"]) == LIVE_FOOTBALL
    started = when(live["gameStartDate"])
    assert abs((started - clock.now()).total_seconds()) < 5  # the real kick-off: now
    assert room_messages(socket, event["_id"]) == [
        (
            "update-event",
            {
                "eventId": event["_id"],
                "status": "live",
                "gameStartDate": live["gameStartDate"],
                "content": {"HLSStream": LIVE_FOOTBALL},
            },
        ),
        ("event-url-change", {"eventId": event["_id"], "eventUrl": LIVE_FOOTBALL}),  # on air: clients reload it
    ]


async def test_go_live_keeps_a_stream_staff_set_before_and_tells_the_room_it_is_on_air_there(client, database, staff):
    event = await create(client, database, staff, content={"HLSStream": OTHER_STREAM})
    with recording_socket() as socket:
        live = await ok(client, staff, "POST", f"/{event['_id']}/go_live")
    assert as_sample(live["content"]["HLSStream"]) == OTHER_STREAM
    assert room_messages(socket, event["_id"])[-1] == (
        "event-url-change",
        {"eventId": event["_id"], "eventUrl": OTHER_STREAM},
    )


async def test_finish_archives_a_live_event_which_then_plays_as_the_vod_of_its_sample(client, database, staff):
    event = await create(client, database, staff, event_date=soon(minutes=-90), gameStartDate=soon(minutes=-85))
    await ok(client, staff, "POST", f"/{event['_id']}/go_live")
    with recording_socket() as socket:
        archived = await ok(client, staff, "POST", f"/{event['_id']}/finish")
    assert abs((when(archived["endDate"]) - clock.now()).total_seconds()) < 5
    assert 85 * 60 - 5 <= archived["duration"] <= 85 * 60 + 5  # from the kick-off to the end
    # Its sample looped for the game's length: the VOD is as long as the game.
    game = game_url("football", archived["duration"])
    assert archived["status"] == "archived" and as_sample(archived["content"]["HLSStream"]) == game
    assert room_messages(socket, event["_id"]) == [
        (
            "update-event",
            {
                "eventId": event["_id"],
                "status": "archived",
                "endDate": archived["endDate"],
                "content": {"HLSStream": game},
            },
        )
    ]


async def test_finishing_turns_the_panoramic_views_live_loop_into_its_vod_too(client, database, staff):
    event = await live_event(
        client,
        database,
        staff,
        gameStartDate=soon(minutes=-30),
        content={"PanoStream": "/media/live/football-pano.m3u8"},
    )
    archived = await ok(client, staff, "POST", f"/{event['_id']}/finish")
    assert 30 * 60 - 5 <= archived["duration"] <= 30 * 60 + 5
    assert as_sample(archived["content"]["PanoStream"]) == game_url("football-pano", archived["duration"])
    assert as_sample(archived["content"]["HLSStream"]) == game_url("football", archived["duration"])


async def test_finishing_keeps_another_hosts_stream(client, database, staff):
    event = await live_event(client, database, staff, content={"HLSStream": "https://cdn.example/live/npd.m3u8"})
    archived = await ok(client, staff, "POST", f"/{event['_id']}/finish")
    assert as_sample(archived["content"]["HLSStream"]) == "https://cdn.example/live/npd.m3u8"


async def test_an_archived_event_plays_for_viewers_as_vod_with_a_url_signed_for_them(client, database, staff):
    event = await live_event(client, database, staff, gameStartDate=soon(minutes=-30))
    archived = await ok(client, staff, "POST", f"/{event['_id']}/finish")
    seen = (await client.get(f"/api/event/get_by_id/id/{event['_id']}")).json()["content"]
    signed = as_sample(seen["content"]["HLSStream"])
    assert signed.startswith(f"/media/vod/football/game-{archived['duration']}/index.m3u8?token=")


INVALID = [
    ("live", "POST", "/go_live", None),
    ("archived", "POST", "/go_live", None),
    ("channel", "POST", "/go_live", None),
    ("upcoming", "POST", "/finish", None),
    ("archived", "POST", "/finish", None),
    ("channel", "POST", "/finish", None),
    ("archived", "POST", "/stream", {"url": OTHER_STREAM}),
    ("upcoming", "PATCH", "", {"status": "archived"}),
    ("live", "PATCH", "", {"status": "upcoming"}),
    ("archived", "PATCH", "", {"status": "live"}),
    ("channel", "PATCH", "", {"status": "live"}),
    ("live", "PATCH", "", {"status": "channel"}),
]


@pytest.mark.parametrize(
    ("status", "method", "path", "body"),
    INVALID,
    ids=[f"{s}-{m}{p or ''}-{(b or {}).get('status', '')}" for s, m, p, b in INVALID],
)
async def test_a_transition_the_status_machine_has_not_is_refused_with_409_and_changes_nothing(
    client, database, staff, status, method, path, body
):
    extra = {"eventType": "channel"} if status == "channel" else {}
    event = await create(client, database, staff, status=status, event_date=soon(hours=-1), **extra)
    with recording_socket() as socket:
        answer = await call(client, staff, method, f"/{event['_id']}{path}", body)
    assert answer.status_code == 409, answer.text
    assert answer.json()["messageErrorCode"] == "invalid_status"
    assert event["status"] in answer.json()["message"]
    assert (await client.get(f"/api/event/get_by_id/id/{event['_id']}")).json()["content"]["status"] == status
    assert room_messages(socket, event["_id"]) == []


async def test_of_two_staff_finishing_one_event_at_once_one_succeeds_and_the_other_gets_409(client, database, staff):
    event = await live_event(client, database, staff)
    with recording_socket() as socket:
        answers = await asyncio.gather(*(call(client, staff, "POST", f"/{event['_id']}/finish") for _ in range(2)))
    assert sorted(a.status_code for a in answers) == [200, 409]
    assert [name for name, _ in room_messages(socket, event["_id"])] == ["update-event"]


# --- stream switching ----------------------------------------------------------------------------


async def test_switching_a_live_events_stream_tells_its_room_the_stored_url_and_never_a_signed_one(
    client, database, staff
):
    event = await live_event(client, database, staff, commerce_type="commerce_ppv_media", commerceType=["ppv"])
    with recording_socket() as socket:
        switched = await ok(client, staff, "POST", f"/{event['_id']}/stream", {"url": OTHER_STREAM})
    assert switched["status"] == "live" and as_sample(switched["content"]["HLSStream"]) == OTHER_STREAM
    assert room_messages(socket, event["_id"]) == [
        ("event-url-change", {"eventId": event["_id"], "eventUrl": OTHER_STREAM})
    ]
    assert "token=" not in json.dumps(socket.sent)  # rooms hear the stored address: viewers ask for theirs


async def test_switching_an_upcoming_events_stream_puts_it_live(client, database, staff):
    event = await create(client, database, staff)
    with recording_socket() as socket:
        switched = await ok(client, staff, "POST", f"/{event['_id']}/stream", {"url": OTHER_STREAM})
    assert switched["status"] == "live" and as_sample(switched["content"]["HLSStream"]) == OTHER_STREAM
    messages = room_messages(socket, event["_id"])
    assert [name for name, _ in messages] == ["update-event", "event-url-change"]
    assert messages[0][1]["status"] == "live" and "content" not in messages[0][1]
    assert messages[1][1] == {"eventId": event["_id"], "eventUrl": OTHER_STREAM}


async def test_a_channels_stream_can_be_switched(client, database, staff):
    channel = await create(client, database, staff, status="channel", eventType="channel")
    with recording_socket() as socket:
        switched = await ok(
            client, staff, "POST", f"/{channel['_id']}/stream", {"url": "https://cdn.example/channel/main.m3u8"}
        )
    assert switched["status"] == "channel"
    assert as_sample(switched["content"]["HLSStream"]) == "https://cdn.example/channel/main.m3u8"
    assert room_messages(socket, channel["_id"]) == [
        ("event-url-change", {"eventId": channel["_id"], "eventUrl": "https://cdn.example/channel/main.m3u8"})
    ]


async def test_viewers_who_fetch_the_event_again_get_the_new_stream_signed_for_them(client, database, staff):
    event = await live_event(client, database, staff)
    await ok(client, staff, "POST", f"/{event['_id']}/stream", {"url": OTHER_STREAM})
    seen = (await client.get(f"/api/event/get_by_id/id/{event['_id']}")).json()["content"]["content"]["HLSStream"]
    assert as_sample(seen).startswith("/media/live/hockey/from-") and "/index.m3u8?token=" in seen


@pytest.mark.parametrize("url", ["ftp://cdn.example/live.m3u8", "media/live/football.m3u8", "", "/media/live/a b.m3u8"])
async def test_a_stream_url_that_is_not_a_path_or_http_url_is_a_400(client, database, staff, url):
    event = await live_event(client, database, staff)
    answer = await call(client, staff, "POST", f"/{event['_id']}/stream", {"url": url})
    assert answer.status_code == 400 and answer.json()["messageErrorCode"] == "validation_error"


PRIVATE_OR_RELATIVE = [
    "//cdn.example/live.m3u8",
    "/\\cdn.example/live.m3u8",
    "http://169.254.169.254/latest/meta-data/",
    "http://127.0.0.1:5432/",
    "http://[::1]:6379/",
    "http://127.1/live.m3u8",
    "http://2130706433/live.m3u8",
    "http://[::ffff:10.0.0.1]/live.m3u8",
    "https://192.168.1.10/live.m3u8",
    "http://localhost:8080/live.m3u8",
]


@pytest.mark.parametrize("url", PRIVATE_OR_RELATIVE)
async def test_a_stream_url_into_a_private_network_or_protocol_relative_is_a_400(client, database, staff, url):
    event = await live_event(client, database, staff)
    answer = await call(client, staff, "POST", f"/{event['_id']}/stream", {"url": url})
    assert answer.status_code == 400 and answer.json()["messageErrorCode"] == "validation_error", answer.text
    assert answer.json()["details"][0]["field"] == "content.HLSStream"


async def test_an_event_cannot_be_made_or_changed_with_a_private_stream_or_poster_address(client, database, staff):
    event = await live_event(client, database, staff)
    for content in ({"HLSStream": "http://10.1.2.3/x.m3u8"}, {"PosterH": "//tracker.example/p.png"}):
        answer = await call(client, staff, "PATCH", f"/{event['_id']}", {"content": content})
        assert answer.status_code == 400, answer.text


async def test_a_private_stream_url_is_stored_where_the_setting_allows_it(api, database, settings, staff):
    lab = settings.model_copy(update={"allow_private_stream_urls": True})
    transport = httpx.ASGITransport(app=with_state(create_api(lab), {"database": database, "settings": lab}))
    async with httpx.AsyncClient(transport=transport, base_url="http://touchline.test") as lab_client:
        event = await live_event(lab_client, database, staff)
        answer = await call(lab_client, staff, "POST", f"/{event['_id']}/stream", {"url": "http://192.168.1.10/a.m3u8"})
        assert answer.status_code == 200, answer.text
        protocol_relative = await call(lab_client, staff, "POST", f"/{event['_id']}/stream", {"url": "//x.example/a"})
        assert protocol_relative.status_code == 400


# --- the anonymous catalogue cache ---------------------------------------------------------------


async def test_a_change_is_seen_at_once_by_anonymous_viewers_served_from_the_cache(api, database, settings, staff):
    cache = ResponseCache(ttl_seconds=300)
    transport = httpx.ASGITransport(app=with_state(api, {"database": database, "settings": settings, "cache": cache}))
    async with httpx.AsyncClient(transport=transport, base_url="http://touchline.test") as cached:
        event = await create(cached, database, staff)
        assert (await cached.get(f"/api/event/get_by_id/id/{event['_id']}")).json()["content"]["status"] == "upcoming"
        assert (await cached.get(f"/api/event/get_by_id/id/{event['_id']}")).json()["content"]["status"] == "upcoming"
        assert cache.hits == 1
        await ok(cached, staff, "POST", f"/{event['_id']}/go_live")
        assert (await cached.get(f"/api/event/get_by_id/id/{event['_id']}")).json()["content"]["status"] == "live"


# --- over a real socket --------------------------------------------------------------------------


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def socket_app(settings, database):
    """The API with a real socket server (served by uvicorn) bound to the process-wide emitter,
    as create_app binds it: what services send reaches websocket clients."""
    sio = create_socket_server(socket_settings(), authenticate=token_authenticator(settings.secret_key))
    previous = emitter.default._target
    await start_socket_server(sio)
    try:
        async with serving(sio) as url:
            api = create_api(settings)
            state = {"database": database, "settings": settings, "socket": sio}
            async with httpx.AsyncClient(
                transport=httpx.ASGITransport(app=with_state(api, state)), base_url="http://touchline.test"
            ) as http:
                emitter.bind(sio)
                yield http, url
    finally:
        emitter.bind(previous)
        await close_socket_server(sio)


async def test_stream_switching_and_status_changes_reach_a_socket_client_in_the_event_room(socket_app, database, staff):
    http, url = socket_app
    event = await create(http, database, staff)
    outsider_event = await create(http, database, staff)
    viewer = await open_client(url)
    try:
        inbox = Inbox(viewer)
        assert (await ask(viewer, "join-event-room", {"eventId": event["_id"]}))["ok"] is True

        await ok(http, staff, "POST", f"/{outsider_event['_id']}/go_live")  # another room: not for this viewer
        await ok(http, staff, "POST", f"/{event['_id']}/go_live")
        name, data = await inbox.next()
        assert (name, data["eventId"], data["status"]) == ("update-event", event["_id"], "live")
        assert as_samples(await inbox.next()) == (
            "event-url-change",
            {"eventId": event["_id"], "eventUrl": LIVE_FOOTBALL},
        )

        await ok(http, staff, "POST", f"/{event['_id']}/stream", {"url": OTHER_STREAM})
        assert as_samples(await inbox.next()) == (
            "event-url-change",
            {"eventId": event["_id"], "eventUrl": OTHER_STREAM},
        )

        await ok(http, staff, "POST", f"/{event['_id']}/finish")
        name, data = await inbox.next()
        assert (name, data["status"], as_samples(data["content"])) == (
            "update-event",
            "archived",
            {"HLSStream": "/media/vod/hockey/index.m3u8"},
        )
    finally:
        await viewer.disconnect()
