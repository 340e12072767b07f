"""Every event plays media assets of its own (issue 28, section 1): staff give a sample's URL and
the event gets an asset of its own playing it; no event can be pointed at another's asset; staff
list an event's assets (`list_event_assets`); a viewer's clip is an asset of its own, whose
directory goes with it."""

import os

import pytest
import pytest_asyncio

from server.media.assets.store import MediaStore
from server.settings import Settings
from server.tests.accounts import sign_up
from server.tests.mailbox import staff_headers
from server.tests.media_dir import as_sample

from .test_event_admin import call, create, live_event, ok, soon

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def staff(client, database, settings):
    return await staff_headers(client, database, settings)


def asset_named(url: str) -> str:
    """The asset a stored URL names (`/media/live/<asset>.m3u8`, `/media/vod/<asset>/...`)."""
    path = url.split("/media/", 1)[1]
    return path.removeprefix("live/").removesuffix(".m3u8") if path.startswith("live/") else path.split("/")[1]


def plays(directory) -> bool:
    """A directory that holds a master playlist (the asset's bytes are there)."""
    return os.path.isfile(directory / "index.m3u8")


def lexists(path) -> bool:
    return os.path.lexists(path)


def store() -> MediaStore:
    return MediaStore(Settings().media_dir)


async def assets_of(client, staff, event_id: str) -> list[dict]:
    return (await ok(client, staff, "GET", f"/{event_id}/assets"))["assets"]


async def test_a_sample_given_by_staff_plays_through_a_new_asset_of_the_event(client, database, staff):
    event = await live_event(client, database, staff, content={"HLSStream": "/media/live/football.m3u8"})
    stored = event["content"]["HLSStream"]
    [asset] = await assets_of(client, staff, event["_id"])
    assert stored == f"/media/live/{asset['_id']}.m3u8" and as_sample(stored) == "/media/live/football.m3u8"
    assert (asset["kind"], asset["event"], asset["state"], asset["sample"]) == (
        "sample",
        event["_id"],
        "ready",
        "football",
    )
    # Its directory in the store plays the sample's bytes, under the asset's own name.
    directory = store().directory(asset["_id"])
    assert plays(directory) and os.readlink(directory) == ".samples/football"


async def test_two_events_on_one_sample_never_share_an_asset(client, database, staff):
    first = await live_event(client, database, staff)
    second = await live_event(client, database, staff)
    assert as_sample(first["content"]["HLSStream"]) == as_sample(second["content"]["HLSStream"])
    assert asset_named(first["content"]["HLSStream"]) != asset_named(second["content"]["HLSStream"])


async def test_finishing_keeps_the_events_asset_and_its_default_streams_get_assets_too(client, database, staff):
    live = await live_event(client, database, staff, event_date=soon(minutes=-30))
    archived = await ok(client, staff, "POST", f"/{live['_id']}/finish")
    assert asset_named(archived["content"]["HLSStream"]) == asset_named(live["content"]["HLSStream"])
    channel = await create(client, database, staff, status="channel", eventType="channel")
    assert [a["_id"] for a in await assets_of(client, staff, channel["_id"])] == [
        asset_named(channel["content"]["HLSStream"])
    ]


@pytest.mark.parametrize(
    "how",
    [
        lambda other: ("POST", "/stream", {"url": other}),
        lambda other: ("PATCH", "", {"content": {"HLSStream": other}}),
        lambda other: ("PATCH", "", {"content": {"PanoStream": other}}),
    ],
    ids=["set-stream", "update", "update-pano"],
)
async def test_an_event_cannot_be_pointed_at_another_events_asset(client, database, staff, how):
    other = await live_event(client, database, staff)
    event = await live_event(client, database, staff)
    method, path, body = how(other["content"]["HLSStream"])
    answer = await call(client, staff, method, f"/{event['_id']}{path}", body)
    assert answer.status_code == 409, answer.text
    assert answer.json()["messageErrorCode"] == "asset_of_another_event"
    assert (await ok(client, staff, "GET", f"/{event['_id']}"))["content"]["HLSStream"] == event["content"]["HLSStream"]


async def test_a_new_event_cannot_take_an_existing_asset(client, database, staff):
    other = await live_event(client, database, staff)
    body = {
        "title": "Copycat",
        "event_date": soon(days=1),
        "sportType": "football",
        "content": {"HLSStream": other["content"]["HLSStream"]},
    }
    answer = await call(client, staff, "POST", "", body)
    assert answer.status_code == 409 and answer.json()["messageErrorCode"] == "asset_of_another_event"


@pytest.mark.parametrize("url", ["/media/live/curling.m3u8", "/media/vod/0123456789abcdef01234567/index.m3u8"])
async def test_an_address_of_this_server_that_names_no_media_is_refused(client, database, staff, url):
    event = await create(client, database, staff)
    answer = await call(client, staff, "PATCH", f"/{event['_id']}", {"content": {"HLSStream": url}})
    assert answer.status_code == 400 and answer.json()["messageErrorCode"] == "validation_error"
    assert answer.json()["details"][0]["field"] == "content.HLSStream"


async def test_support_staff_list_assets_and_an_unknown_event_is_404(client, database, staff):
    assert (await call(client, staff, "GET", f"/{'f' * 24}/assets")).status_code == 404
    event = await create(client, database, staff)
    assert await assets_of(client, staff, event["_id"]) == []  # upcoming: no stream yet


async def test_a_viewers_clip_is_an_asset_of_its_own_and_its_directory_goes_with_it(client, database, staff):
    game = await live_event(client, database, staff, event_date=soon(minutes=-30))
    game = await ok(client, staff, "POST", f"/{game['_id']}/finish")
    fan = await sign_up(client)
    body = {"event_id": game["_id"], "title": "A moment", "startTime": 2, "endTime": 8}
    made = await client.post("/api/clip/create", json=body, headers=fan["headers"])
    assert made.status_code == 200, made.text
    clip = made.json()["content"]
    signed = clip["content"]["HLSStream"]
    own = signed.split("/vod/", 1)[1].split("/")[0]
    parent = asset_named(game["content"]["HLSStream"])
    assert own != parent
    directory = store().directory(own)
    # The clip shares the game's bytes: its directory links to the same sample, not a copy.
    assert os.readlink(directory) == os.readlink(store().directory(parent))
    gone = await client.post(f"/api/clip/delete/{clip['_id']}", headers=fan["headers"])
    assert gone.status_code == 200, gone.text
    assert not lexists(directory)
    assert plays(store().directory(parent))  # the game's stays
