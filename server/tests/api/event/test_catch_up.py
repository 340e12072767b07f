"""Catch up, then live: GET /event/catch_up/{id} gives a live event's key plays so far and one VOD
playlist of them, cut from the live stream with a discontinuity between them, whose token opens
those ranges alone (issue 31 §2).

`live_game` kicked off twenty minutes ago on the football sample (24 s: 12 segments of 2 s),
played as live; its tags are official ones written straight into the database, removed with it."""

import re
import shutil
from datetime import timedelta
from urllib.parse import urljoin

import pytest

from server import clock
from server.media.delivery.urls import live_url, vod_url
from server.models import Event, Tag, new_id
from server.tests.commerce import paid_event
from server.tests.media.hls import read_master_playlist, read_media_playlist
from server.tests.media.serving import media_client

KICKOFF_AGO = timedelta(minutes=20)


@pytest.fixture(scope="module")
async def media(settings, database):
    async with media_client(settings, database) as http:
        yield http


async def live_game(database, commerce_type: str = "commerce_free_media", **fields) -> Event:
    return await paid_event(
        database,
        commerce_type=commerce_type,
        modes=() if commerce_type == "commerce_free_media" else ("ppv",),
        status="live",
        when=clock.now() - KICKOFF_AGO,
        hls_stream=live_url("football"),
        **{"sport_type": "football", **fields},
    )


async def tag(database, event: Event, subtype: str, at_s: int, length_s: int = 15, **fields) -> str:
    """An official tag of `event` from `at_s` seconds after its start, for `length_s` seconds."""
    now = clock.now()
    values = {
        "id": new_id(),
        "target_id": event.id,
        "user_id": None,
        "title": f"{subtype} at {at_s} s",
        "start_ms": at_s * 1000,
        "end_ms": (at_s + length_s) * 1000,
        "type": "player",
        "subtype": subtype,
        "is_global": True,
        "official": True,
        "created": now,
        "updated": now,
        **fields,
    }
    async with database.session() as db:
        db.add(Tag(**values))
        await db.commit()
    return values["id"]


async def catch_up(client, event_id: str, headers: dict | None = None, **query):
    return await client.get(f"/api/event/catch_up/{event_id}", params=query, headers=headers or {})


async def caught_up(client, event_id: str, **query) -> dict:
    answer = await catch_up(client, event_id, **query)
    assert answer.status_code == 200, answer.text
    return answer.json()["content"]


def refusal(answer, status: int, code: str) -> None:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert body["error"] is True and body["messageErrorCode"] == code and body["message"]


async def playlist_of(media, url: str) -> tuple[str, list[str]]:
    """The first rendition's media playlist of the signed master `url`, and its segments' addresses."""
    master = await media.get(url)
    assert master.status_code == 200, master.text
    variant_url = urljoin(url, read_master_playlist(master.text).uris[0])
    variant = await media.get(variant_url)
    assert variant.status_code == 200, variant.text
    return variant.text, [urljoin(str(variant.url), uri) for uri in read_media_playlist(variant.text).uris]


def segment_number(address: str) -> int:
    found = re.search(r"seg-(\d+)\.ts", address)
    assert found is not None, address
    return int(found[1])


async def test_four_key_plays_play_in_order_as_one_playlist_with_a_discontinuity_between_them(client, database, media):
    game = await live_game(database)
    moments = [60, 300, 600, 1080]  # minutes 1, 5, 10 and 18
    ids = [
        await tag(database, game, kind, at)
        for kind, at in zip(("goal", "red_card", "penalty", "goal"), moments, strict=True)
    ]
    await tag(database, game, "yellow_card", 400)  # not a key play in football
    await tag(database, game, "substitution", 700)
    await tag(database, game, "goal", 900, is_global=False, official=False, user_id=None)  # a viewer's own

    content = await caught_up(client, game.id)

    assert [play["_id"] for play in content["keyPlays"]] == ids
    assert [play["startTime"] for play in content["keyPlays"]] == [at * 1000 for at in moments]
    assert [play["reelOffset"] for play in content["keyPlays"]] == [0, 15, 30, 45]
    assert content["liveEdgeMs"] >= (KICKOFF_AGO.total_seconds() - 4) * 1000
    assert "/keys-" in content["url"] and "?token=" in content["url"]
    text, segments = await playlist_of(media, content["url"])
    assert text.count("#EXT-X-DISCONTINUITY") >= 3 and text.rstrip().endswith("#EXT-X-ENDLIST")
    assert "#EXT-X-PLAYLIST-TYPE:VOD" in text
    numbers = [segment_number(s) for s in segments]
    assert numbers == sorted(numbers)  # in stream order, each range's segments once
    # Each key play's 15 s is 8 or 9 segments of 2 s; four of them, nothing in between.
    assert 4 * 8 <= len(numbers) <= 4 * 9
    for address in (segments[0], segments[-1]):
        assert (await media.get(address)).status_code == 200


async def test_the_token_opens_the_key_plays_alone_not_their_neighbours(client, database, media):
    game = await live_game(database)
    for at in (120, 480):
        await tag(database, game, "goal", at)
    url = (await caught_up(client, game.id))["url"]
    _, segments = await playlist_of(media, url)
    numbers = {segment_number(s) for s in segments}
    token = url.split("?token=", 1)[1]
    rendition_dir = segments[0].rsplit("/", 1)[0]
    # The segment before the first key play, between the two, and after the last: refused.
    for neighbour in (min(numbers) - 1, max(numbers) + 1, sorted(numbers)[len(numbers) // 2 - 1] + 3):
        if neighbour in numbers:
            continue
        answer = await media.get(f"{rendition_dir}/seg-{neighbour}.ts?token={token}")
        assert answer.status_code in (403, 404), (neighbour, answer.status_code)
    # Not the event's live stream, nor another catch-up of the same stream.
    asset_dir = url.split("/keys-", 1)[0]
    for other in (
        f"{asset_dir}/index.m3u8",
        f"{asset_dir}/keys-{'1' * 9}.bk0/index.m3u8",
        f"{asset_dir}/clip-0-60000/index.m3u8",
    ):
        assert (await media.get(f"{other}?token={token}")).status_code in (403, 404), other


async def test_overlapping_key_plays_play_once(client, database):
    game = await live_game(database)
    await tag(database, game, "goal", 300, 20)
    await tag(database, game, "red_card", 310, 15)
    content = await caught_up(client, game.id)
    assert len(content["keyPlays"]) == 2
    assert [play["reelOffset"] for play in content["keyPlays"]] == [0, 10]
    assert content["url"].split("?")[0].count("_") == 0  # one range (the token may hold one)


async def test_a_key_play_past_the_live_edge_is_not_in_it_yet(client, database):
    game = await live_game(database)
    await tag(database, game, "goal", 60)
    await tag(database, game, "goal", 30 * 60)  # ten minutes from now
    assert [play["startTime"] for play in (await caught_up(client, game.id))["keyPlays"]] == [60_000]


async def test_without_key_plays_there_is_no_playlist_yet(client, database):
    game = await live_game(database)
    await tag(database, game, "substitution", 60)
    content = await caught_up(client, game.id)
    assert content["keyPlays"] == [] and content["url"] is None


async def test_each_sport_has_its_own_key_plays(client, database):
    game = await live_game(database, sport_type="volleyball")
    ace = await tag(database, game, "ace", 60)
    await tag(database, game, "goal", 120)  # no goals in volleyball
    assert [play["_id"] for play in (await caught_up(client, game.id))["keyPlays"]] == [ace]


async def test_spoiler_free_titles_carry_no_score(client, database):
    game = await live_game(database)
    await tag(database, game, "goal", 60, title="Goal 1' - Mariners (MAR 1-0 ROV)")
    hidden = await caught_up(client, game.id, spoilers="hide")
    shown = await caught_up(client, game.id)
    assert hidden["keyPlays"][0]["title"] == "Goal 1' - Mariners (MAR vs ROV)"
    assert shown["keyPlays"][0]["title"] == "Goal 1' - Mariners (MAR 1-0 ROV)"


async def test_an_event_that_is_not_live_has_no_catch_up(client, database):
    archived = await paid_event(
        database, commerce_type="commerce_free_media", modes=(), status="archived", hls_stream=vod_url("football")
    )
    refusal(await catch_up(client, archived.id), 409, "catch_up_unavailable")
    upcoming = await paid_event(database, commerce_type="commerce_free_media", modes=())
    refusal(await catch_up(client, upcoming.id), 409, "catch_up_unavailable")


async def test_a_viewer_who_may_not_watch_the_event_may_not_catch_up(client, database):
    paid = await live_game(database, commerce_type="commerce_ppv_media")
    await tag(database, paid, "goal", 60)
    refusal(await catch_up(client, paid.id), 403, "forbidden")


async def test_an_unknown_event_is_not_found(client):
    refusal(await catch_up(client, new_id()), 404, "event_not_found")


# --- a live input's recording ---------------------------------------------------------------------

RECORDED_SEGMENT_S = 4


@pytest.fixture
def recording(settings):
    """A live input's recording of the last five minutes (75 segments of 4 s, dated), as the ingest
    writes it: one rendition, its measured master and recording.json; removed after the test."""
    from server.media.assets.store import store_of
    from server.media.recordings import RECORDING_FILE, RecordingInfo

    asset, started = new_id(), clock.now() - timedelta(minutes=5)
    directory = store_of(settings).root / asset
    (directory / "360p").mkdir(parents=True)
    lines = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-TARGETDURATION:4", "#EXT-X-MEDIA-SEQUENCE:0"]
    lines.append("#EXT-X-PLAYLIST-TYPE:EVENT")
    for k in range(75):
        moment = started + timedelta(seconds=k * RECORDED_SEGMENT_S)
        lines += [f"#EXTINF:{RECORDED_SEGMENT_S}.000000,", f"#EXT-X-PROGRAM-DATE-TIME:{moment.isoformat()}"]
        lines.append(f"rec-{k:05d}.ts")
        (directory / "360p" / f"rec-{k:05d}.ts").write_bytes(b"G" * 188)
    (directory / "360p" / "index.m3u8").write_text("\n".join([*lines, ""]))
    master = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-INDEPENDENT-SEGMENTS"]
    master += [
        '#EXT-X-STREAM-INF:BANDWIDTH=900000,RESOLUTION=640x360,CODECS="avc1.64001e,mp4a.40.2"',
        "360p/index.m3u8",
    ]
    (directory / "index.m3u8").write_text("\n".join([*master, ""]))
    (directory / RECORDING_FILE).write_bytes(RecordingInfo(7200, 4.0, ({"name": "360p"},)).dumps())
    yield asset, started
    shutil.rmtree(directory, ignore_errors=True)


async def test_a_live_recordings_key_plays_are_cut_from_its_own_files_and_no_others(client, database, media, recording):
    asset, started = recording
    game = await paid_event(
        database,
        commerce_type="commerce_free_media",
        modes=(),
        status="live",
        when=started,
        hls_stream=live_url(asset),
        sport_type="football",
        game_start_date=started,
    )
    for at in (20, 200):  # each 15 s: segments 5-8 and 50-53 of the recording
        await tag(database, game, "goal", at)
    content = await caught_up(client, game.id)
    assert [play["startTime"] for play in content["keyPlays"]] == [20_000, 200_000]
    text, segments = await playlist_of(media, content["url"])
    files = [address.rsplit("/", 1)[1].split("?")[0] for address in segments]
    assert files == [f"rec-{k:05d}.ts" for k in (5, 6, 7, 8, 50, 51, 52, 53)]
    assert text.count("#EXT-X-DISCONTINUITY") == 1 and text.rstrip().endswith("#EXT-X-ENDLIST")
    assert (await media.get(segments[0])).status_code == 200
    token = content["url"].split("?token=", 1)[1]
    for outside in ("rec-00004.ts", "rec-00009.ts", "rec-00030.ts"):
        answer = await media.get(f"{segments[0].rsplit('/', 1)[0]}/{outside}?token={token}")
        assert answer.status_code in (403, 404), outside
