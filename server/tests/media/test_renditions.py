"""Adaptive streaming: every stream URL an event hands out is a master playlist over the sample's
renditions, and VOD, live and clip playlists of the renditions are aligned, segment for segment, so
a player can switch rendition at any segment (server.media.playlists, .live, .clips, .routes).
The panoramic view is a stream of its own, signed and served alike."""

from datetime import timedelta
from urllib.parse import urljoin

import httpx
import pytest

from server import clock
from server.media.delivery.edge_tokens import issue_edge_token
from server.media.delivery.signing import sign_stream
from server.media.delivery.urls import clip_url, live_url, vod_url
from server.seed.catalogue import build_catalogue
from server.tests.accounts import sign_up
from server.tests.commerce import buy, paid_event
from server.tests.media_dir import as_sample, linked

from .hls import MasterPlaylist, read_master_playlist, read_media_playlist
from .serving import media_app

BASE = "http://touchline.test"
LADDER = ["360p", "234p", "720p", "144p"]  # in the master's order: players start with the first


@pytest.fixture(scope="module")
async def media(settings, database):
    transport = httpx.ASGITransport(app=media_app(settings, database))
    async with httpx.AsyncClient(transport=transport, base_url=BASE) as http:
        yield http


def free(settings, url: str, start: float = 0.0) -> str:
    """`url` signed as the event answer signs it; a live one kicked off at `start` (by default
    long ago: its whole rewind window plays)."""
    signed = sign_stream(url, settings=settings, start=start)
    assert signed is not None
    return signed


def beside(url: str, path: str) -> str:
    """`path` in the directory of the signed address `url`, with its token."""
    base, _, token = url.partition("?token=")
    return f"{base.rsplit('/', 1)[0]}/{path}?token={token}"


def with_token_of(url: str, path: str) -> str:
    """`path` (below /media/) with the token of the signed address `url`."""
    return f"/media/{path}?token={url.partition('?token=')[2]}"


async def master_of(media, url: str, headers: dict | None = None) -> tuple[httpx.Response, MasterPlaylist]:
    response = await media.get(url, headers=headers or {})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/vnd.apple.mpegurl"
    return response, read_master_playlist(response.text)


async def variants(media, url: str, headers: dict | None = None):
    """{rendition: (response, media playlist)} of every variant of the master at `url`, all read at
    one instant of a live window: read again when the window moved on between two of them (a
    segment boundary passed, at either end of the window; a busy machine takes a while to read
    three)."""
    response, master = await master_of(media, url, headers)
    for _attempt in range(5):
        found = {}
        for uri in master.uris:
            variant = await media.get(urljoin(str(response.url), uri), headers=headers or {})
            assert variant.status_code == 200, variant.text
            found[uri.split("/")[-2]] = (variant, read_media_playlist(variant.text))
        if len({tuple(s.sequence for s in playlist.segments) for _v, playlist in found.values()}) == 1:
            break
    return found


def assert_aligned(playlists) -> None:
    """Same media sequence numbers, discontinuities, dates, durations and file numbers in all."""
    shapes = {
        tuple((s.sequence, s.discontinuity, s.discontinuity_before, s.date, s.duration, s.uri) for s in p.segments)
        for p in playlists
    }
    assert len(shapes) == 1
    tags = {(p.media_sequence, p.tags.get("EXT-X-DISCONTINUITY-SEQUENCE"), p.target_duration) for p in playlists}
    assert len(tags) == 1


# --- VOD --------------------------------------------------------------------------------------------


async def test_a_vod_master_lists_four_renditions_with_their_attributes(settings, media):
    _, master = await master_of(media, free(settings, vod_url("football")))
    assert master.uris == [f"{r}/index.m3u8" for r in LADDER]
    assert "EXT-X-INDEPENDENT-SEGMENTS" in master.tags
    resolutions = [v.resolution for v in master.variants]
    assert resolutions == [(640, 360), (416, 234), (1280, 720), (256, 144)]
    for variant in master.variants:
        assert set(variant.attributes) >= {"BANDWIDTH", "AVERAGE-BANDWIDTH", "CODECS", "RESOLUTION", "FRAME-RATE"}
        video, audio = variant.attributes["CODECS"].split(",")
        assert video.startswith("avc1.42") and audio == "mp4a.40.2"
        assert variant.attributes["FRAME-RATE"] == "30.000"
    bandwidths = {v.resolution: v.bandwidth for v in master.variants}
    assert bandwidths[(256, 144)] < bandwidths[(416, 234)] < bandwidths[(640, 360)] < bandwidths[(1280, 720)]
    # Four tiles of multiview on the smallest stay under one full-screen stream and a half.
    assert 4 * bandwidths[(256, 144)] < 1.5 * bandwidths[(1280, 720)]


@pytest.mark.parametrize("sample", ["football", "basketball", "hockey", "volleyball"])
async def test_vod_renditions_are_aligned_and_their_segments_differ(settings, media, sample):
    found = await variants(media, free(settings, vod_url(sample)))
    assert list(found) == LADDER
    assert_aligned([playlist for _r, playlist in found.values()])
    assert all(playlist.ended and playlist.tags["EXT-X-PLAYLIST-TYPE"] == "VOD" for _r, playlist in found.values())
    sizes = {}
    for rendition, (response, playlist) in found.items():
        segment = await media.get(urljoin(str(response.url), playlist.uris[0]))
        assert segment.status_code == 200 and segment.headers["content-type"] == "video/mp2t"
        assert str(segment.url).endswith(f"/vod/{sample}/{rendition}/index0.ts")
        sizes[rendition] = len(segment.content)
    assert sizes["234p"] < sizes["360p"] < sizes["720p"]


async def test_vod_masters_are_cached_like_vod_playlists(settings, media):
    response, _ = await master_of(media, free(settings, vod_url("hockey")))
    assert response.headers["cache-control"].startswith("public, max-age=")


# --- live -------------------------------------------------------------------------------------------


async def test_a_live_master_lists_the_vod_masters_variants_as_live_playlists(settings, media):
    live, vod = free(settings, live_url("football")), free(settings, vod_url("football"))
    response, master = await master_of(media, live)
    _, vod_master = await master_of(media, vod)
    assert master.uris == [f"{r}/live.m3u8" for r in LADDER]
    assert [v.attributes for v in master.variants] == [v.attributes for v in vod_master.variants]
    assert response.headers["cache-control"] == "public, max-age=1"
    assert response.headers["vary"] == "Accept-Encoding"


async def test_live_renditions_share_sequence_discontinuities_and_dates(settings, media):
    """hls.js switches levels by media sequence and program date-time: every rendition's live
    playlist at one instant lists the same segments, each in its own rendition's directory."""
    found = await variants(media, free(settings, live_url("football")))
    assert list(found) == LADDER
    playlists = [playlist for _r, playlist in found.values()]
    assert_aligned(playlists)
    first = playlists[0]
    assert not first.ended and len(first.segments) == 900 and first.duration == pytest.approx(1800)
    assert sum(s.discontinuity_before for s in first.segments) >= 74  # loops, marked alike in all
    for rendition, (response, playlist) in found.items():
        assert response.headers["cache-control"] == "public, max-age=1"
        segment = await media.get(urljoin(str(response.url), playlist.uris[-1]))
        assert segment.status_code == 200 and f"/live/football/from-0/{rendition}/index" in str(segment.url)


async def test_live_renditions_stay_aligned_as_the_window_moves_and_from_kickoff(settings, media):
    kickoff = clock.timestamp() - 300.5
    url = free(settings, live_url("basketball"), start=kickoff)
    before = await variants(media, url)
    assert_aligned([p for _r, p in before.values()])
    assert all(p.segments[0].date.timestamp() >= kickoff for _r, p in before.values())
    clock.advance(timedelta(seconds=7))
    after = await variants(media, url)
    assert_aligned([p for _r, p in after.values()])
    assert {p.segments[-1].sequence - before[r][1].segments[-1].sequence for r, (_x, p) in after.items()} <= {3, 4}


async def test_before_kickoff_the_master_and_every_rendition_answer_409(settings, media):
    url = free(settings, live_url("football"), start=clock.timestamp() + 600)
    for path in [url] + [beside(url, f"{r}/live.m3u8") for r in LADDER]:
        response = await media.get(path)
        assert response.status_code == 409 and response.json()["messageErrorCode"] == "stream_not_started"
        assert 600 <= int(response.headers["retry-after"]) <= 605
        assert response.headers["cache-control"] == "no-store"


async def test_live_masters_and_renditions_are_gzipped_for_players_that_accept_it(settings, media):
    url = free(settings, live_url("volleyball"))
    for path in (url, beside(url, "720p/live.m3u8")):
        packed = await media.get(path, headers={"Accept-Encoding": "gzip"})
        plain = await media.get(path, headers={"Accept-Encoding": "identity"})
        assert packed.headers["content-encoding"] == "gzip" and "content-encoding" not in plain.headers
        assert packed.headers["vary"] == plain.headers["vary"] == "Accept-Encoding"
        assert packed.status_code == plain.status_code == 200


@pytest.mark.parametrize("path", ["1080p/live.m3u8", "index.m3u8/live.m3u8"])
async def test_a_rendition_the_sample_does_not_have_is_not_found(settings, media, path):
    url = free(settings, live_url("football"))
    response = await media.get(beside(url, path))
    assert response.status_code == 404 and response.json()["messageErrorCode"] in ("stream_not_found", "not_found")


async def test_a_token_for_one_stream_opens_none_of_anothers_renditions(settings, media):
    football = free(settings, live_url("football"))
    for path in (
        "live/hockey/from-0/360p/live.m3u8",
        "vod/hockey/720p/index.m3u8",
        "vod/hockey/234p/index3.ts",
        "vod/hockey/clip-0-4000/360p/index.m3u8",
        "live/football-pano/from-0/360p/live.m3u8",
        "live/football-pano/from-0/index.m3u8",
    ):
        response = await media.get(with_token_of(football, path))
        assert response.status_code == 403 and response.json()["messageErrorCode"] == "stream_access_denied", path
    # ...while it opens every rendition of its own.
    for rendition in LADDER:
        assert (await media.get(beside(football, f"{rendition}/live.m3u8"))).status_code == 200
        assert (await media.get(beside(football, f"{rendition}/index0.ts"))).status_code == 200


async def test_a_buyers_live_stream_plays_every_rendition_on_its_cookie(client, database, media):
    event = await paid_event(
        database, status="live", when=clock.now() - timedelta(minutes=20), hls_stream=live_url("football")
    )
    fan = await sign_up(client)
    await buy(database, fan["profile"]["userId"], event.id)
    answer = await client.get(f"/api/event/get_by_id/id/{event.id}", headers=fan["headers"])
    url = answer.json()["content"]["content"]["HLSStream"]
    found = await variants(media, url)
    assert_aligned([p for _r, p in found.values()])
    for response, playlist in found.values():
        assert response.headers["cache-control"] == "public, max-age=1"
        segment = urljoin(str(response.url), playlist.uris[0])
        assert (await media.get(segment)).status_code == 200
    transport = httpx.ASGITransport(app=media._transport.app)
    async with httpx.AsyncClient(transport=transport, base_url=BASE) as stranger:  # no cookie, no token
        assert (await stranger.get(str(response.url))).status_code == 403


# --- clips ------------------------------------------------------------------------------------------


async def test_a_clip_is_a_master_over_aligned_clips_of_each_rendition(settings, media):
    stream = free(settings, vod_url("football"))
    url = free(settings, clip_url("football", 21_000, 29_500))  # over the end of the 24 s sample
    _, master = await master_of(media, url)
    _, vod_master = await master_of(media, stream)
    assert master.uris == [f"{r}/index.m3u8" for r in LADDER]
    assert [v.attributes for v in master.variants] == [v.attributes for v in vod_master.variants]
    assert master.tags["EXT-X-START"] == "TIME-OFFSET=1.000,PRECISE=YES"
    found = await variants(media, url)
    playlists = [p for _r, p in found.values()]
    assert_aligned(playlists)
    # Segments 10 to 14 of the timeline: the sample's files 10, 11, then 0, 1, 2 again.
    assert [s.uri for s in playlists[0].segments] == [f"seg-{j}.ts" for j in range(10, 15)]
    assert [s.discontinuity_before for s in playlists[0].segments] == [False, False, True, False, False]
    for rendition, (variant, playlist) in found.items():
        assert playlist.ended and f"\n#EXT-X-START:{master.tags['EXT-X-START']}\n" in variant.text
        segment = await media.get(urljoin(str(variant.url), playlist.uris[2]))
        assert segment.status_code == 200
        assert str(segment.url).endswith(f"/vod/football/clip-21000-29500/{rendition}/seg-12.ts")
        assert segment.content == (settings.fixtures_dir / "media" / "football" / rendition / "index0.ts").read_bytes()


async def test_a_clip_token_for_another_stream_opens_no_rendition_of_this_clip(settings, media):
    stream = free(settings, clip_url("football", 0, 4_000))
    expires = int(clock.timestamp()) + 60
    other = issue_edge_token("vod/hockey/clip-0-4000/", secret=settings.secret_key, expires=expires)
    base = stream.split("?")[0].rsplit("/", 1)[0]
    for path in ("index.m3u8", "360p/index.m3u8", "720p/index.m3u8"):
        response = await media.get(f"{base}/{path}?token={other}")
        assert response.status_code == 403, path


async def test_a_clip_of_a_rendition_the_sample_does_not_have_is_not_found(settings, media):
    stream = free(settings, clip_url("football", 0, 4_000))
    response = await media.get(beside(stream, "1080p/index.m3u8"))
    assert response.status_code == 404 and response.json()["messageErrorCode"] == "not_found"


async def test_seeded_highlights_play_their_games_ladder(settings, media):
    """Official clips and highlights store their range (startTime/endTime) of their game's VOD, on
    the same sample's timeline: a master over every rendition like the game's."""
    data = linked(build_catalogue())
    games = {e["id"]: e for e in data.events if e["media_type"] == "event"}
    assets = {a["id"]: a for a in data.media_assets}
    highlights = [e for e in data.events if e["parent_event_id"]]
    assert highlights
    for highlight in highlights:
        game = games[highlight["parent_event_id"]]
        own = assets[highlight["hls_stream"].split("/")[3]]  # the highlight's own asset: a range of its game's
        assert (own["kind"], own["parent_id"]) == ("highlight", game["hls_stream"].split("/")[3])
        assert highlight["hls_stream"] == clip_url(own["id"], highlight["start_time_ms"], highlight["end_time_ms"])
    football = [h for h in highlights if assets[h["hls_stream"].split("/")[3]]["sample"] == "football"]
    for stored in sorted({h["hls_stream"] for h in football})[:5]:
        _, master = await master_of(media, free(settings, stored))
        assert [uri.split("/")[0] for uri in master.uris] == LADDER


# --- the panoramic view -------------------------------------------------------------------------------


async def test_the_panoramic_view_is_a_wide_ladder_of_its_own(settings, media):
    _, master = await master_of(media, free(settings, vod_url("football-pano")))
    assert master.uris == ["360p/index.m3u8", "180p/index.m3u8"]
    assert [v.resolution for v in master.variants] == [(1280, 360), (640, 180)]
    assert master.variants[0].bandwidth > master.variants[1].bandwidth
    found = await variants(media, free(settings, live_url("football-pano")))
    assert_aligned([p for _r, p in found.values()])


async def test_the_panoramic_live_view_keeps_time_with_the_broadcast(settings, media, monkeypatch):
    # Both read at one instant: a segment boundary passing between the two reads would move one window.
    frozen = clock.now()
    monkeypatch.setattr(clock, "now", lambda: frozen)
    kickoff = clock.timestamp() - 600
    broadcast = await variants(media, free(settings, live_url("football"), start=kickoff))
    pano = await variants(media, free(settings, live_url("football-pano"), start=kickoff))
    assert_aligned([broadcast["360p"][1], pano["360p"][1]])  # the same segments at the same times


async def test_a_free_live_games_panoramic_view_is_signed_for_anyone(client, database, media):
    event = await paid_event(
        database,
        commerce_type="commerce_free_media",
        modes=(),
        status="live",
        when=clock.now() - timedelta(minutes=10),
        hls_stream=live_url("football"),
        pano_stream=live_url("football-pano"),
    )
    content = (await client.get(f"/api/event/get_by_id/id/{event.id}")).json()["content"]["content"]
    hls, pano = content["HLSStream"], content["PanoStream"]
    assert as_sample(pano).startswith("/media/live/football-pano/from-")
    assert hls.split("?token=")[1] != pano.split("?token=")[1]  # a token per stream
    found = await variants(media, pano)
    assert list(found) == ["360p", "180p"]
    # Each token opens its own stream only.
    hls_path, hls_token = hls.split("?token=")
    pano_path, pano_token = pano.split("?token=")
    assert (await media.get(f"{pano_path}?token={hls_token}")).status_code == 403
    assert (await media.get(f"{hls_path}?token={pano_token}")).status_code == 403


async def test_a_paid_games_panoramic_view_is_signed_only_for_a_viewer_who_may_watch(client, database, media):
    event = await paid_event(
        database,
        status="archived",
        when=clock.now() - timedelta(days=1),
        hls_stream=vod_url("football"),
        pano_stream=vod_url("football-pano"),
    )
    path = f"/api/event/get_by_id/id/{event.id}"
    assert (await client.get(path)).json()["content"]["content"]["PanoStream"] is None
    fan = await sign_up(client)
    assert (await client.get(path, headers=fan["headers"])).json()["content"]["content"]["PanoStream"] is None
    await buy(database, fan["profile"]["userId"], event.id)
    pano = (await client.get(path, headers=fan["headers"])).json()["content"]["content"]["PanoStream"]
    assert as_sample(pano.split("?")[0]).endswith("/vod/football-pano/index.m3u8")
    found = await variants(media, pano)
    assert list(found) == ["360p", "180p"]
