"""A clip plays its parent stream's segments between its start and end: the clip playlist
(server.media.delivery.clips) and the signed route that serves it. Its segments are named by their place
on the sample's endless timeline (`seg-<j>.ts`, the sample's file j mod N)."""

import re
from datetime import timedelta
from urllib.parse import urljoin

import httpx
import pytest
from sqlalchemy import delete

from server import clock
from server.media.delivery.clips import MAX_RANGE_MS, Made, Timeline, clip_playlist, clip_segments, made
from server.media.delivery.edge_tokens import issue_edge_token
from server.media.delivery.live import LiveSample, load_vod_playlist, parse_vod_playlist
from server.media.delivery.urls import MAX_KEY_RANGES, keys_file, keys_ranges, live_url
from server.models import Event
from server.services.commerce import grants
from server.services.user_clips import USER_MEDIA_TYPES
from server.tests.accounts import sign_up
from server.tests.commerce import paid_event, product
from server.tests.media_dir import SAMPLE_LADDER

from ..hls import read_master_playlist
from ..serving import media_app

BASE = "http://touchline.test"
VOD_TEXT = (
    "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n"
    + "".join(f"#EXTINF:2.000000,\nindex{i}.ts\n" for i in range(10))
    + "#EXT-X-ENDLIST\n"
)
VOD = parse_vod_playlist(VOD_TEXT)  # 10 segments of 2 s: a 20 s loop
# Uneven segments, as an encoder cutting at keyframes may write them.
UNEVEN = parse_vod_playlist(
    "#EXTM3U\n#EXT-X-TARGETDURATION:4\n"
    + "".join(f"#EXTINF:{d},\npart{i}.ts\n" for i, d in enumerate((3.2, 1.8, 4.0, 0.5, 2.5)))
    + "#EXT-X-ENDLIST\n"
)


def entries(playlist: str) -> list[tuple[float, str]]:
    """(EXTINF duration, URI) of each listed segment."""
    lines = playlist.splitlines()
    return [
        (float(line.split(":", 1)[1].rstrip(",")), lines[n + 1])
        for n, line in enumerate(lines)
        if line.startswith("#EXTINF:")
    ]


def start_offset(playlist: str) -> float:
    found = re.search(r"^#EXT-X-START:TIME-OFFSET=([0-9.]+),PRECISE=YES$", playlist, re.M)
    assert found, "no #EXT-X-START with a precise time offset"
    return float(found.group(1))


# --- the playlist ---------------------------------------------------------------------------------


def test_a_clip_playlist_is_a_vod_playlist_of_the_segments_covering_its_range():
    text = clip_playlist(VOD, 2_500, 7_200)
    assert text.startswith("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n")
    assert "#EXT-X-PLAYLIST-TYPE:VOD" in text and text.endswith("#EXT-X-ENDLIST\n")
    # segment 1 (2-4 s) contains the start, segment 3 (6-8 s) the end.
    assert entries(text) == [(2.0, "seg-1.ts"), (2.0, "seg-2.ts"), (2.0, "seg-3.ts")]
    assert start_offset(text) == pytest.approx(0.5)  # the player begins at 2.5 s, not 2 s
    assert "#EXT-X-DISCONTINUITY" not in text


def test_a_clip_on_segment_boundaries_lists_exactly_those_segments():
    assert entries(clip_playlist(VOD, 2_000, 6_000)) == [(2.0, "seg-1.ts"), (2.0, "seg-2.ts")]
    assert start_offset(clip_playlist(VOD, 2_000, 6_000)) == 0
    assert entries(clip_playlist(VOD, 0, 20_000)) == [(2.0, f"seg-{i}.ts") for i in range(10)]
    assert entries(clip_playlist(VOD, 19_999, 20_000)) == [(2.0, "seg-9.ts")]


@pytest.mark.parametrize("vod", [VOD, UNEVEN], ids=["even", "uneven"])
@pytest.mark.parametrize(
    "start, end",
    [
        (0, 1),
        (1, 2),
        (2_999, 3_001),
        (3_200, 5_000),
        (4_999, 12_000),
        (7_000, 7_001),
        (11_000, 12_000),
        (150, 119_850),
        (1_000_000, 1_600_000),
    ],
)
def test_the_first_segment_contains_the_start_the_last_the_end_and_durations_add_up(vod, start, end):
    timeline = Timeline.of(vod)
    text = clip_playlist(vod, start, end)
    numbers = clip_segments(timeline, start, end)
    first, last = numbers[0], numbers[-1]
    assert timeline.starts_at(first) <= start < timeline.starts_at(first + 1)
    assert timeline.starts_at(last) < end <= timeline.starts_at(last + 1)
    listed = entries(text)
    assert len(listed) == len(numbers) and [uri for _d, uri in listed] == [f"seg-{j}.ts" for j in numbers]
    assert [d for d, _uri in listed] == [timeline.segment(j).duration for j in numbers]
    covered = (timeline.starts_at(last + 1) - timeline.starts_at(first)) / 1000
    assert sum(d for d, _uri in listed) == pytest.approx(covered)
    assert start_offset(text) == pytest.approx((start - timeline.starts_at(first)) / 1000)
    assert text.count("#EXT-X-ENDLIST") == 1


def test_a_range_over_the_end_of_the_sample_goes_on_at_its_start_after_a_discontinuity():
    text = clip_playlist(VOD, 18_500, 23_000)
    # Segments 10 and 11 of the timeline are the sample's files 0 and 1 again.
    assert [uri for _d, uri in entries(text)] == ["seg-9.ts", "seg-10.ts", "seg-11.ts"]
    assert [Timeline.of(VOD).segment(j).uri for j in (9, 10, 11)] == ["index9.ts", "index0.ts", "index1.ts"]
    lines = text.splitlines()
    assert lines[lines.index("seg-9.ts") + 1] == "#EXT-X-DISCONTINUITY"
    assert text.count("#EXT-X-DISCONTINUITY") == 1


def test_a_clip_of_a_live_stream_lists_the_segments_its_live_playlist_listed():
    """Live playlists and clips share one timeline (server.media.delivery.live), so the moment a viewer saw
    live is the moment the clip plays."""
    sample = LiveSample(VOD)
    now = 1_800_000_123.4
    window = sample.window(now, rewind_seconds=60)
    assert window is not None
    first, end = window
    from_ms, to_ms = round(sample.start_of(first) * 1000), round(sample.start_of(end) * 1000)
    # The live playlist's media sequence numbers are the clip's segment numbers, each the same file.
    assert [uri for _d, uri in entries(clip_playlist(VOD, from_ms, to_ms))] == [
        f"seg-{j}.ts" for j in range(first, end)
    ]
    assert clip_segments(Timeline.of(VOD), from_ms, to_ms) == range(first, end)
    live = sample.render(first, end)
    assert f"#EXT-X-MEDIA-SEQUENCE:{first}" in live
    assert [Timeline.of(VOD).segment(j).uri for j in range(first, end)] == [
        line for line in live.splitlines() if line and not line.startswith("#")
    ]


def test_an_empty_range_is_no_clip():
    with pytest.raises(ValueError):
        clip_playlist(VOD, 5_000, 5_000)


# --- the route ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
async def media(settings, database):
    """The media routes; the clips this module's tests make are removed at its end (the catalogue's
    counts stay as other tests expect on the shared database)."""
    transport = httpx.ASGITransport(app=media_app(settings, database))
    async with httpx.AsyncClient(transport=transport, base_url=BASE) as http:
        yield http
    async with database.session() as db:
        await db.execute(delete(Event).where(Event.media_type.in_(USER_MEDIA_TYPES)))
        await db.commit()


async def clip_of(client, viewer: dict, event_id: str, start: float, end: float) -> dict:
    body = {"event_id": event_id, "title": "A moment", "startTime": start, "endTime": end}
    answer = await client.post("/api/clip/create", json=body, headers=viewer["headers"])
    assert answer.status_code == 200, answer.text
    return answer.json()["content"]


def refused(response: httpx.Response, code: str = "stream_access_denied") -> bool:
    assert response.status_code == 403, response.text
    assert response.json()["messageErrorCode"] == code and response.headers["cache-control"] == "no-store"
    return True


@pytest.fixture
async def bought_clip(client, database):
    """A clip of an archived pay-per-view match, by the viewer who bought it: (viewer, clip)."""
    match = await paid_event(database, status="archived", when=clock.now() - timedelta(days=1))
    fan = await sign_up(client)
    ppv = await product(database, "ppv", event_id=match.id)
    async with database.session() as db:
        purchase = grants.new_purchase(
            ppv, fan["profile"]["userId"], clock.now(), status="init", payment_action="creditCardPay"
        )
        db.add(purchase)
        await grants.complete_purchase(db, purchase, ppv, clock.now())
        await db.commit()
    return fan, await clip_of(client, fan, match.id, 3, 9.5)


async def test_a_clips_url_plays_its_range_of_the_parents_segments(client, media, settings, catalogue):
    fan = await sign_up(client)
    clip = await clip_of(client, fan, catalogue["archived"], 3, 9.5)
    url = clip["content"]["HLSStream"]
    playlist = await media.get(url)
    assert playlist.status_code == 200, playlist.text
    assert playlist.headers["content-type"].startswith("application/vnd.apple.mpegurl")
    cache = playlist.headers["cache-control"]
    assert cache == "public, max-age=3600"  # the same for everyone: as long as a VOD playlist lives
    # A master over the sample's renditions, each its own clip playlist, starting where the clip does.
    master = read_master_playlist(playlist.text)
    assert master.uris == [f"{r}/index.m3u8" for r in SAMPLE_LADDER]
    assert start_offset(playlist.text) == pytest.approx(1.0)
    assert url.split("?")[0].endswith("/clip-3000-9500/index.m3u8")
    clip_dir = url.split("?")[0].rsplit("/", 1)[0]
    for uri in master.uris:
        variant = await media.get(urljoin(str(playlist.url), uri))
        assert variant.status_code == 200 and variant.headers["cache-control"] == cache
        # 3 s is in segment 1 (2-4 s), 9.5 s in segment 4 (8-10 s) of the 2 s football sample.
        assert entries(variant.text) == [(2.0, f"seg-{i}.ts") for i in range(1, 5)]
        assert start_offset(variant.text) == pytest.approx(1.0) and variant.text.endswith("#EXT-X-ENDLIST\n")
        # The segments are the parent's own files, in the clip's directory (the cookie carries the token).
        rendition = uri.split("/")[0]
        segment = await media.get(urljoin(str(variant.url), "seg-1.ts"))
        assert str(segment.url) == f"{BASE}{clip_dir}/{rendition}/seg-1.ts"
        assert segment.status_code == 200 and segment.headers["content-type"] == "video/mp2t"
        assert segment.content == (settings.fixtures_dir / "media" / "football" / rendition / "index1.ts").read_bytes()


async def test_a_live_games_clip_plays_the_segments_its_viewers_saw_live(client, database, media, settings):
    kickoff = clock.now() - timedelta(minutes=10)
    game = await paid_event(
        database,
        commerce_type="commerce_free_media",
        modes=(),
        status="live",
        when=kickoff,
        hls_stream=live_url("football"),
    )
    fan = await sign_up(client)
    clip = await clip_of(client, fan, game.id, 60, 75)
    name = clip["content"]["HLSStream"].split("?")[0].rsplit("/", 2)[1]
    named = re.fullmatch(r"clip-(\d+)-(\d+)", name)
    assert named, name
    from_ms, to_ms = map(int, named.groups())
    assert to_ms - from_ms == 15_000
    # Stream time 0 is the first segment after kickoff on the live timeline.
    sample = LiveSample(load_vod_playlist(settings.fixtures_dir / "media" / "football" / "index.m3u8"))
    assert from_ms - 60_000 == round(sample.start_of(sample.first_starting_at(kickoff.timestamp())) * 1000)
    playlist = await media.get(clip["content"]["HLSStream"])
    assert playlist.status_code == 200
    variant = await media.get(urljoin(str(playlist.url), read_master_playlist(playlist.text).uris[0]))
    assert variant.status_code == 200 and len(entries(variant.text)) in (8, 9)


async def test_a_paid_clip_is_given_to_its_owner_alone_and_plays_for_whoever_holds_its_url(client, media, bought_clip):
    _, clip = bought_clip
    url = clip["content"]["HLSStream"]
    playlist = await media.get(url)
    assert playlist.status_code == 200 and playlist.headers["cache-control"].startswith("public, max-age=")
    assert (await media.get(urljoin(str(playlist.url), "360p/seg-2.ts"))).status_code == 200
    variant = url.split("?")[0].replace("index.m3u8", "720p/index.m3u8")
    assert (await media.get(variant)).status_code == 200
    rival = await sign_up(client)
    answer = await client.get(f"/api/clip/get_by_id/id/{clip['_id']}", headers=rival["headers"])
    assert answer.status_code != 200 or answer.json()["content"]["content"]["HLSStream"] is None


async def test_a_clip_playlist_is_refused_without_a_valid_token(client, media, settings, catalogue):
    fan = await sign_up(client)
    url = (await clip_of(client, fan, catalogue["archived"], 3, 9.5))["content"]["HLSStream"]
    path, _, token = url.partition("?token=")
    forged = token[:-3] + ("xyz" if not token.endswith("xyz") else "abc")
    assert refused(await media.get(f"{path}?token={forged}"))
    assert refused(await media.get(f"{path}?token=not-a-token"))
    # A genuine token of another stream opens none of this one's clips.
    basketball = issue_edge_token(
        "vod/basketball/clip-3000-9500/", secret=settings.secret_key, expires=int(clock.timestamp()) + 60
    )
    assert refused(await media.get(f"{path}?token={basketball}"))
    head = await media.head(f"{path}?token={forged}")
    assert head.status_code == 403 and head.content == b""


async def test_a_clip_url_expires_with_its_token(client, media, settings, catalogue):
    fan = await sign_up(client)
    url = (await clip_of(client, fan, catalogue["archived"], 0, 4))["content"]["HLSStream"]
    assert (await media.get(url)).status_code == 200
    clock.advance(timedelta(seconds=settings.stream_token_seconds + 1))
    assert refused(await media.get(url), "stream_token_expired")


async def test_head_answers_like_get_without_the_body(client, media, catalogue):
    fan = await sign_up(client)
    url = (await clip_of(client, fan, catalogue["archived"], 0, 4))["content"]["HLSStream"]
    for encoding in ("identity", "gzip"):
        asked = {"Accept-Encoding": encoding}
        full, head = await media.get(url, headers=asked), await media.head(url, headers=asked)
        assert head.status_code == 200 and head.content == b""
        assert head.headers.get("content-encoding") == full.headers.get("content-encoding")
        assert int(head.headers["content-length"]) == int(full.headers["content-length"]) == full.num_bytes_downloaded


@pytest.mark.parametrize("name", ["clip-5000-5000", "clip-6000-5000", f"clip-0-{MAX_RANGE_MS + 1}"])
async def test_a_range_that_is_no_clip_is_not_found(client, media, settings, catalogue, name):
    # A token issued for that very directory, so that only the range is in question.
    token = issue_edge_token(f"vod/football/{name}/", secret=settings.secret_key, expires=int(clock.timestamp()) + 60)
    answer = await media.get(f"/media/vod/football/{name}/index.m3u8?token={token}")
    assert answer.status_code == 404 and answer.json()["messageErrorCode"] == "not_found"


async def test_a_clips_token_opens_nothing_of_its_stream_but_the_clip(client, media, catalogue):
    """A clip's token carries its range: its playlists and its segments, not the stream's files,
    its other clips or its game."""
    fan = await sign_up(client)
    url = (await clip_of(client, fan, catalogue["archived"], 0, 4))["content"]["HLSStream"]
    path, _, token = url.partition("?token=")
    clip_dir = path.rsplit("/", 1)[0]
    asset_dir = clip_dir.rsplit("/", 1)[0]
    assert (await media.get(f"{clip_dir}/360p/seg-1.ts?token={token}")).status_code == 200
    for elsewhere in ("index.m3u8", "360p/index.m3u8", "360p/index0.ts", "game-7200/index.m3u8"):
        assert refused(await media.get(f"{asset_dir}/{elsewhere}?token={token}")), elsewhere
    for nowhere in ("360p/index0.ts", "360p/clip-0-4000.m3u8", "poster.jpg"):  # in its directory: no such file
        assert (await media.get(f"{clip_dir}/{nowhere}?token={token}")).status_code == 404, nowhere


# --- catch-ups: several ranges in one playlist (issue 31 §2) ---------------------------------------


def test_a_catch_up_name_holds_its_ranges_and_reads_back():
    ranges = [(1_795_000_000_123, 1_795_000_015_000), (1_795_000_300_000, 1_795_000_320_500)]
    name = keys_file(ranges)
    assert len(name) < 40 and keys_ranges(name) == ranges
    assert made(name) == Made(ranges[0][0], ranges[-1][1], True, tuple(ranges))


@pytest.mark.parametrize(
    "ranges",
    [
        [(60_000, 75_000), (10_000, 20_000)],  # out of order
        [(10_000, 30_000), (20_000, 40_000)],  # overlapping
        [(0, MAX_RANGE_MS + 1)],  # longer than a range may be
    ],
)
def test_a_catch_up_whose_ranges_are_out_of_order_overlap_or_too_long_is_no_playlist(ranges):
    assert made(keys_file(ranges)) is None


def test_a_catch_up_of_more_ranges_than_a_name_may_hold_is_no_playlist():
    ranges = [(i * 60_000, i * 60_000 + 10_000) for i in range(MAX_KEY_RANGES + 1)]
    assert made(keys_file(ranges)) is None and made(keys_file(ranges[:MAX_KEY_RANGES])) is not None


def test_a_catch_up_plays_its_ranges_in_turn_with_a_discontinuity_between_and_shared_segments_once():
    vod = parse_vod_playlist(VOD_TEXT)  # 10 segments of 2 s
    reel = Made(1_000, 24_000, True, ((1_000, 3_000), (2_500, 4_500), (21_000, 24_000))).media_playlist(vod)
    assert re.findall(r"seg-(\d+)\.ts", reel) == ["0", "1", "2", "10", "11"]
    # 2 -> 10 jumps (and the sample starts over at 10): one discontinuity, none inside 0..2.
    assert reel.count("#EXT-X-DISCONTINUITY") == 1
    assert "#EXT-X-START:TIME-OFFSET=1.000,PRECISE=YES" in reel and reel.endswith("#EXT-X-ENDLIST\n")
