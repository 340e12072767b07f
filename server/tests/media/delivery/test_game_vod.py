"""An archived game's VOD is as long as the game: its sport's sample looped on its endless timeline
for the game's `duration_s` (`/media/vod/<sample>/game-<seconds>.m3u8`, server.media.delivery.clips), so the
official match tags and highlights, placed at match minutes, lie within the video."""

import math
from datetime import UTC, datetime
from urllib.parse import urljoin

import httpx
import pytest

from server import clock
from server.media.assets.store import store_of
from server.media.delivery.clips import MAX_GAME_SECONDS, Timeline, game_playlist, load_sample
from server.media.delivery.edge_tokens import check_edge_token, issue_edge_token
from server.media.delivery.signing import sign_stream
from server.media.delivery.urls import game_url
from server.seed.catalogue import build_catalogue
from server.tests.media_dir import linked

from ..hls import read_media_playlist
from ..serving import media_app
from ..test_renditions import LADDER, assert_aligned, beside, free, master_of, variants

BASE = "http://touchline.test"
NOW = datetime(2026, 11, 22, 18, 0, tzinfo=UTC)
SEGMENT_S = 2.0  # the samples' segments


@pytest.fixture(scope="module")
async def media(settings, database):
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=media_app(settings, database)), base_url=BASE
    ) as http:
        yield http


@pytest.fixture(scope="module")
def catalogue():
    return linked(build_catalogue(NOW))


def sample_of(settings, name: str = "football"):
    vod = load_sample(store_of(settings).root, name)
    assert vod is not None
    return vod


# --- the playlist ---------------------------------------------------------------------------------


@pytest.mark.parametrize("seconds", [1, 23, 24, 25, 6_900, 8_100, MAX_GAME_SECONDS])
def test_a_games_playlist_lasts_its_duration_within_one_segment(settings, seconds):
    playlist = read_media_playlist(game_playlist(sample_of(settings), seconds))
    assert playlist.ended and playlist.tags["EXT-X-PLAYLIST-TYPE"] == "VOD"
    assert seconds <= playlist.duration < seconds + SEGMENT_S
    assert "EXT-X-START" not in playlist.tags  # a game plays from its beginning
    assert playlist.uris == [f"seg-{j}.ts" for j in range(len(playlist.segments))]


def test_a_games_playlist_loops_the_sample_with_a_discontinuity_at_each_loop(settings):
    vod = sample_of(settings)
    n = len(vod.segments)
    playlist = read_media_playlist(game_playlist(vod, 6_900))
    assert len(playlist.segments) == 3_450  # 6900 s of 2 s segments
    assert [j for j, s in enumerate(playlist.segments) if s.discontinuity_before] == list(range(n, 3_450, n))
    timeline = Timeline.of(vod)
    assert [s.duration for s in playlist.segments] == [timeline.segment(j).duration for j in range(3_450)]


# --- served ---------------------------------------------------------------------------------------


async def test_a_games_url_is_a_master_over_aligned_game_playlists_of_every_rendition(settings, media):
    url = free(settings, game_url("football", 6_900))
    _response, master = await master_of(media, url)
    assert master.uris == [f"{r}/index.m3u8" for r in LADDER]
    _, sample_master = await master_of(media, free(settings, "/media/vod/football/index.m3u8"))
    assert [v.attributes for v in master.variants] == [v.attributes for v in sample_master.variants]
    found = await variants(media, url)
    assert list(found) == LADDER
    playlists = [playlist for _response, playlist in found.values()]
    assert_aligned(playlists)
    for variant, playlist in found.values():
        assert 6_900 <= playlist.duration < 6_900 + SEGMENT_S and playlist.ended
        cache = variant.headers["cache-control"]
        assert cache == "public, max-age=3600"  # the same for everyone, as long as a VOD playlist lives
        assert variant.headers["vary"] == "Accept-Encoding"


async def test_segment_j_of_a_game_is_the_samples_file_j_mod_n(settings, media):
    url = free(settings, game_url("football", 6_900))
    vod = sample_of(settings)
    n = len(vod.segments)
    for j in (0, n - 1, n, 1_800, 3_449):
        segment = await media.get(beside(url, f"720p/seg-{j}.ts"))
        assert segment.status_code == 200 and segment.headers["content-type"] == "video/mp2t"
        assert (
            segment.content == (settings.fixtures_dir / "media" / "football" / "720p" / f"index{j % n}.ts").read_bytes()
        )


async def test_a_games_playlists_are_gzipped_for_players_that_accept_it(settings, media):
    url = beside(free(settings, game_url("football", 6_900)), "360p/index.m3u8")
    plain = await media.get(url, headers={"Accept-Encoding": "identity"})
    packed = await media.get(url, headers={"Accept-Encoding": "gzip"})
    assert "content-encoding" not in plain.headers and packed.headers["content-encoding"] == "gzip"
    assert packed.content == plain.content  # httpx unpacks it
    assert int(packed.headers["content-length"]) < len(plain.content) / 10


@pytest.mark.parametrize(
    "name", ["game-0/index.m3u8", f"game-{MAX_GAME_SECONDS + 1}/index.m3u8", "game-0/360p/index.m3u8"]
)
async def test_a_game_of_no_length_or_longer_than_the_longest_is_not_found(settings, media, name):
    # A token issued for that very game's directory, so only its length is in question.
    directory = name.split("/")[0]
    token = issue_edge_token(
        f"vod/football/{directory}/", secret=settings.secret_key, expires=int(clock.timestamp()) + 60
    )
    answer = await media.get(f"/media/vod/football/{name}?token={token}")
    assert answer.status_code == 404 and answer.json()["messageErrorCode"] == "not_found"


def test_every_seeded_official_tag_lies_within_its_games_vod(settings, catalogue):
    events = {e["id"]: e for e in catalogue.events}
    assert catalogue.tags
    lengths: dict[str, float] = {}
    for tag in catalogue.tags:
        game = events[tag["target_id"]]
        sample, name = game["hls_stream"].split("/")[3:5]
        assert name == f"game-{game['duration_s']}.m3u8"
        if game["id"] not in lengths:
            lengths[game["id"]] = read_media_playlist(
                game_playlist(sample_of(settings, sample), game["duration_s"])
            ).duration
        assert 0 <= tag["start_ms"] < tag["end_ms"] <= lengths[game["id"]] * 1000


async def test_a_seeded_games_tags_are_moments_its_served_vod_reaches(settings, media, catalogue):
    game_id = catalogue.tags[-1]["target_id"]
    game = next(e for e in catalogue.events if e["id"] == game_id)
    last = max(t["end_ms"] for t in catalogue.tags if t["target_id"] == game_id)
    found = await variants(media, free(settings, game["hls_stream"]))
    for _response, playlist in found.values():
        assert last <= playlist.duration * 1000


async def test_a_seeded_highlight_plays_exactly_its_range_of_its_game(settings, media, catalogue):
    highlights = [e for e in catalogue.events if e["parent_event_id"]]
    longest = max(highlights, key=lambda e: e["end_time_ms"] - e["start_time_ms"])
    assert longest["end_time_ms"] - longest["start_time_ms"] > 10 * 60 * 1000  # a condensed game
    for highlight in (highlights[0], longest):
        start, end = highlight["start_time_ms"], highlight["end_time_ms"]
        url = free(settings, highlight["hls_stream"])
        assert url.split("?")[0].endswith(f"/clip-{start}-{end}/index.m3u8")
        timeline = Timeline.of(sample_of(settings, highlight["hls_stream"].split("/")[3]))
        first, last = timeline.segment_at(start), timeline.segment_at(end - 1)
        _response, master = await master_of(media, url)
        assert master.tags["EXT-X-START"] == f"TIME-OFFSET={(start - timeline.starts_at(first)) / 1000:.3f},PRECISE=YES"
        found = await variants(media, url)
        assert_aligned([p for _r, p in found.values()])
        for variant, playlist in found.values():
            # From the segment holding its first moment to the one holding its last, no more.
            assert playlist.uris == [f"seg-{j}.ts" for j in range(first, last + 1)]
            assert math.isclose(playlist.duration * 1000, timeline.starts_at(last + 1) - timeline.starts_at(first))
            segment = await media.get(urljoin(str(variant.url), playlist.uris[-1]))
            assert segment.status_code == 200


def test_a_seeded_games_url_signs_for_its_sample_like_any_vod(settings, catalogue):
    game = next(e for e in catalogue.events if e["status"] == "archived" and e["media_type"] == "event")
    sample = game["hls_stream"].split("/")[3]
    signed = sign_stream(game["hls_stream"], settings=settings)
    assert signed is not None
    path, _, token = signed.partition("?token=")
    assert path == f"/media/vod/{sample}/game-{game['duration_s']}/index.m3u8"
    # The game's token: its whole directory.
    grant = check_edge_token(token, path.removeprefix("/media/"), secret=settings.secret_key, now=clock.timestamp())
    assert grant.scope == f"vod/{sample}/game-{game['duration_s']}/"
