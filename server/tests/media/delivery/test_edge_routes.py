"""The edge layout served by the server itself (issue 30, `make run` without an edge): the same
path for every viewer, the token in the query once and then in the cookie it sets, and what a
path may be checked by the path alone (server.media.delivery.edge_routes)."""

import gzip
from datetime import timedelta

import httpx
import pytest

from server import clock
from server.media.assets.store import store_of
from server.media.delivery.edge_tokens import EDGE_COOKIE, issue_edge_token, scope_of
from server.media.delivery.urls import edge_path
from server.media.packaging.made_playlists import MADE_DIRECTORY
from server.tests.media_dir import SAMPLE_LADDER

from ..hls import read_master_playlist, read_media_playlist
from ..serving import played

CLIP = "vod/football/clip-60000-90000.m3u8"  # seg-30 .. seg-44 of the 2 s timeline
GAME = "vod/football/game-5400.m3u8"


def edge_url(settings, stored: str, *, start: int | None = None, lifetime: int = 120) -> str:
    """`/media/<edge path>?token=...` for a stored media path (no `/media/`), as a player gets it."""
    path = edge_path(stored, start)
    assert path is not None
    scope = scope_of(path)
    assert scope is not None
    token = issue_edge_token(scope, secret=settings.secret_key, expires=int(clock.timestamp()) + lifetime)
    return f"/media/{path}?token={token}"


def refused(response: httpx.Response, code: str = "stream_access_denied") -> bool:
    assert response.status_code == 403, (str(response.url), response.status_code, response.text[:200])
    assert response.json() == {"error": True, "message": response.json()["message"], "messageErrorCode": code}
    assert response.headers["cache-control"] == "no-store"
    return True


async def test_an_asset_plays_with_its_token_in_the_query_once_then_in_the_cookie(settings, media):
    url = edge_url(settings, "vod/football/index.m3u8")
    addresses = await played(media, url)
    assert len(addresses) == 1 + 3 * len(SAMPLE_LADDER)  # the master; each rendition, its first and last segment
    assert all(a.startswith("/media/vod/football/") for a in addresses)
    [cookie] = [c for c in media.cookies.jar if c.name == EDGE_COOKIE]
    assert cookie.path == "/media/vod/football/"
    assert cookie.value == url.split("token=", 1)[1]


async def test_the_query_sets_an_http_only_cookie_for_the_tokens_scope_as_long_as_it_lives(settings, media):
    response = await media.get(edge_url(settings, CLIP, lifetime=90))
    assert response.status_code == 200
    cookie = response.headers["set-cookie"]
    assert "Path=/media/vod/football/clip-60000-90000/;" in cookie
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert 88 <= int(cookie.split("Max-Age=", 1)[1].split(";")[0]) <= 90


async def test_answers_are_public_the_same_for_every_viewer(settings, media):
    first = await media.get(edge_url(settings, "vod/football/index.m3u8"))
    media.cookies.clear()
    second = await media.get(edge_url(settings, "vod/football/index.m3u8", lifetime=300))
    assert first.content == second.content
    assert first.headers["cache-control"].startswith("public")


async def test_a_game_and_a_clip_play_from_directories_of_their_own(settings, media):
    for stored, name in ((GAME, "game-5400"), (CLIP, "clip-60000-90000")):
        addresses = await played(media, edge_url(settings, stored))
        assert all(a.startswith(f"/media/vod/football/{name}/") for a in addresses), addresses
        assert sum(a.endswith("/index.m3u8") for a in addresses) == len(SAMPLE_LADDER)


async def test_a_clips_directory_serves_the_segments_of_its_range_to_no_one(settings, media):
    """Not a viewer's check but the path's: the answer is the same for everyone, and cached so."""
    url = edge_url(settings, CLIP)
    assert (await media.get(url)).status_code == 200
    directory = "/media/vod/football/clip-60000-90000/360p"
    assert (await media.get(f"{directory}/seg-30.ts")).status_code == 200
    for outside in ("seg-29.ts", "seg-45.ts", "index0.ts", "game-5400.m3u8", "clip-60000-90000.m3u8"):
        response = await media.get(f"{directory}/{outside}")
        assert response.status_code == 404, (outside, response.text[:200])
        assert response.json()["messageErrorCode"] == "not_found"


async def test_a_token_opens_none_of_its_neighbours(settings, media):
    """A clip's token (a free highlight of a paid game) in the cookie and the query of every
    neighbour's request: the whole asset, its game, its live stream, another clip, another asset."""
    token = edge_url(settings, CLIP).split("token=", 1)[1]
    neighbours = [
        "vod/football/index.m3u8",
        "vod/football/360p/index0.ts",
        "vod/football/game-5400/index.m3u8",
        "vod/football/game-5400/360p/seg-30.ts",
        "vod/football/clip-60000-92000/index.m3u8",
        "vod/football/clip-58000-90000/360p/seg-30.ts",
        "live/football/from-0/index.m3u8",
        "live/football/from-0/360p/live.m3u8",
        "vod/hockey/clip-60000-90000/index.m3u8",
        "vod/football-pano/clip-60000-90000/360p/index.m3u8",
    ]
    media.cookies.set(EDGE_COOKIE, token, domain="touchline.test", path="/media/")
    for path in neighbours:
        assert refused(await media.get(f"/media/{path}")), path
        assert refused(await media.get(f"/media/{path}?token={token}")), path


async def test_no_token_an_expired_one_or_an_altered_one_is_refused(settings, media):
    assert refused(await media.get("/media/vod/football/index.m3u8"))
    url = edge_url(settings, "vod/football/index.m3u8", lifetime=60)
    clock.advance(timedelta(seconds=62))
    assert refused(await media.get(url), "stream_token_expired")
    expiry = url.split("token=", 1)[1].split(".")[0]
    later = url.replace(f"token={expiry}.", f"token={int(expiry) + 3600}.")
    assert refused(await media.get(later))


async def test_a_refusal_sets_no_cookie(settings, media):
    response = await media.get(edge_url(settings, "vod/football/index.m3u8").replace("vod/football/", "vod/hockey/"))
    assert refused(response)
    assert "set-cookie" not in response.headers


async def test_a_live_stream_plays_from_its_kickoff_in_a_directory_per_kickoff(settings, media):
    kickoff = int(clock.timestamp()) - 600
    url = edge_url(settings, "live/football.m3u8", start=kickoff)
    assert url.startswith(f"/media/live/football/from-{kickoff}/index.m3u8?token=")
    addresses = await played(media, url)
    assert sum(a.endswith("/live.m3u8") for a in addresses) == len(SAMPLE_LADDER)
    assert all(a.startswith(f"/media/live/football/from-{kickoff}/") for a in addresses)
    window = read_media_playlist((await media.get(f"/media/live/football/from-{kickoff}/360p/live.m3u8")).text)
    assert 0 < len(window.uris) <= 600 // 2 + 1  # from the kickoff, not the whole rewind window before it


async def test_a_live_stream_before_its_kickoff_is_not_started(settings, media):
    kickoff = int(clock.timestamp()) + 600
    response = await media.get(edge_url(settings, "live/football.m3u8", start=kickoff))
    assert response.status_code == 409
    assert response.json()["messageErrorCode"] == "stream_not_started"


@pytest.mark.parametrize(
    "path",
    [
        "vod/football/clip-60000-90000/360p/clip-60000-90000.m3u8",  # a made playlist under another name
        "vod/football/clip-60000-90000/",
        "live/football/360p/live.m3u8",  # no kickoff
        "live/football/from-x/index.m3u8",
    ],
)
async def test_a_path_the_layout_does_not_have_is_not_found_with_a_valid_token(settings, media, path):
    scope = scope_of(path)
    assert scope is not None
    token = issue_edge_token(scope, secret=settings.secret_key, expires=int(clock.timestamp()) + 60)
    response = await media.get(f"/media/{path}?token={token}")
    assert response.status_code == 404, response.text[:200]


# --- what the transcoding queue and the ingest leave: ladders with previews, recordings ---------------


def edge(settings, path: str) -> str:
    """`/media/<path>?token=...`, a token for the scope `path` lies in."""
    scope = scope_of(path)
    assert scope is not None
    token = issue_edge_token(scope, secret=settings.secret_key, expires=int(clock.timestamp()) + 120)
    return f"/media/{path}?token={token}"


async def test_an_uploads_previews_lie_beside_its_master_and_nothing_else_of_its_root_is_served(
    settings, media, assets
):
    for name, kind in (("thumbnails.vtt", "text/vtt"), ("thumbs-001.jpg", "image/jpeg"), ("poster.jpg", "image/jpeg")):
        response = await media.get(edge(settings, f"vod/{assets.upload}/{name}"))
        assert response.status_code == 200 and response.headers["content-type"].startswith(kind), name
    for name in ("notes.txt", "recording.json"):
        assert (await media.get(edge(settings, f"vod/{assets.upload}/{name}"))).status_code == 404, name
    assert (await media.get(edge(settings, f"vod/{assets.bare}/thumbnails.vtt"))).status_code == 404


async def test_a_recording_plays_live_from_its_own_directory_with_its_pictures_but_not_its_poster(
    settings, media, assets
):
    base = f"live/{assets.recording}/from-0"
    master = await media.get(edge(settings, f"{base}/index.m3u8"))
    assert master.status_code == 200, master.text
    assert read_master_playlist(master.text).uris == ["360p/live.m3u8", "234p/live.m3u8"]
    window = await media.get(f"/media/{base}/360p/live.m3u8")
    assert window.status_code == 200 and window.headers["cache-control"] == "public, max-age=1"
    first = read_media_playlist(window.text).uris[0]
    assert (await media.get(f"/media/{base}/360p/{first}")).status_code == 200
    vtt = await media.get(f"/media/{base}/thumbnails.vtt")
    assert vtt.status_code == 200 and vtt.headers["cache-control"] == "public, max-age=1"
    assert (await media.get(f"/media/{base}/thumbs-001.jpg")).status_code == 200
    for name in ("poster.jpg", "recording.json", "index.m3u8x"):
        assert (await media.get(f"/media/{base}/{name}")).status_code == 404, name


async def test_a_clip_of_a_recording_lists_the_recordings_own_segments_of_its_range(settings, media, assets):
    # 61-95 s of the recording: a first segment of 3.5 s, then 4 s each: files 15 (59.5 s) to 23.
    base = f"vod/{assets.recording}/clip-61000-95000"
    master = await media.get(edge(settings, f"{base}/index.m3u8"))
    assert master.status_code == 200, master.text
    assert read_master_playlist(master.text).uris == ["360p/index.m3u8", "234p/index.m3u8"]
    playlist = await media.get(f"/media/{base}/360p/index.m3u8")
    assert "#EXT-X-START:TIME-OFFSET=1.500" in playlist.text
    assert read_media_playlist(playlist.text).uris == [f"r1-{k:05d}.ts" for k in range(15, 24)]
    assert (await media.get(f"/media/{base}/360p/r1-00015.ts")).status_code == 200
    for outside in ("r1-00014.ts", "r1-00024.ts"):
        assert (await media.get(f"/media/{base}/360p/{outside}")).status_code == 404, outside
    vtt = await media.get(f"/media/{base}/thumbnails.vtt")
    assert vtt.status_code == 200 and "00:00:00.500 --> 00:00:02.500\nthumbs-001.jpg" in vtt.text
    assert (await media.get(f"/media/{base}/thumbs-001.jpg")).status_code == 200
    assert (await media.get(f"/media/{base}/poster.jpg")).status_code == 404


async def test_a_clip_of_an_upload_opens_the_sheets_its_cues_name_and_no_other(settings, media, assets):
    base = f"vod/{assets.upload}/clip-191000-209500"
    vtt = await media.get(edge(settings, f"{base}/thumbnails.vtt"))
    assert vtt.status_code == 200 and vtt.text.count("-->") == 10
    for sheet in ("thumbs-001.jpg", "thumbs-002.jpg"):
        assert (await media.get(f"/media/{base}/{sheet}")).status_code == 200, sheet
    assert (await media.get(f"/media/{base}/thumbs-003.jpg")).status_code == 404
    assert (await media.get(f"/media/{base}/360p/seg-95.ts")).status_code == 200


async def test_a_clips_playlists_are_written_once_and_then_answered_from_their_files(settings, media, assets):
    base = f"vod/{assets.other}/clip-10000-20000"
    master = await media.get(edge(settings, f"{base}/index.m3u8"))
    playlist = await media.get(f"/media/{base}/360p/index.m3u8")
    assert master.status_code == 200 and playlist.status_code == 200
    written = store_of(settings).root / assets.other / MADE_DIRECTORY / "clip-10000-20000"
    assert (written / "index.m3u8").read_text() == master.text
    assert (written / "360p.m3u8").read_text() == playlist.text
    # Later answers are the file's, whichever process gives them.
    (written / "360p.m3u8").write_text(playlist.text.replace("#EXTM3U", "#EXTM3U\n#EXT-X-FROM-THE-FILE"))
    (written / "360p.m3u8.gz").write_bytes(gzip.compress((written / "360p.m3u8").read_bytes()))
    for encoding in ("identity", "gzip"):
        again = await media.get(f"/media/{base}/360p/index.m3u8", headers={"Accept-Encoding": encoding})
        assert "#EXT-X-FROM-THE-FILE" in again.text, encoding
        assert again.headers["cache-control"].startswith("public, max-age=")
    assert again.headers["content-encoding"] == "gzip"


async def test_a_clip_past_what_a_recording_holds_yet_is_answered_as_live_and_not_written(settings, media, assets):
    # The recording holds 119.5 s: a clip to 130 s is not final yet.
    base = f"vod/{assets.recording}/clip-100000-130000"
    playlist = await media.get(edge(settings, f"{base}/360p/index.m3u8"))
    assert playlist.status_code == 200, playlist.text
    assert playlist.headers["cache-control"] == "public, max-age=1"
    assert not (store_of(settings).root / assets.recording / MADE_DIRECTORY / "clip-100000-130000").exists()
