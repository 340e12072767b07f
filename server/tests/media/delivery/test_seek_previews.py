"""Thumbnails when scrubbing (issue 29 §5): a token for a whole asset's master opens the asset's seek
previews beside it (thumbnails.vtt, its sprite sheets, the poster) with their own types, cached as
its segments are; a clip's token opens a thumbnails.vtt made for its range and the sheets that
names; a live token, its recording's pictures of the rewind window (not its poster). Nothing else
at an asset's root, nothing of another asset, nothing for a game token; a viewer's token needs
its token beside their path as its segments do.

The assets (the `assets` fixture, conftest.py) are written as the transcoding queue and the ingest
leave them."""

import httpx
import pytest

from server.media.assets.store import store_of
from server.media.delivery.signing import sign_stream
from server.media.delivery.urls import clip_url, game_url, live_url, vod_url
from server.media.recordings import RECORDING_FILE

from ..serving import media_app
from .conftest import JPEG

BASE = "http://touchline.test"
EVENT = "e0e000000000000000000001"
VTT = "text/vtt; charset=utf-8"


@pytest.fixture(scope="module")
async def media(settings, database):
    transport = httpx.ASGITransport(app=media_app(settings, database))
    async with httpx.AsyncClient(transport=transport, base_url=BASE) as http:
        yield http


def signed(settings, stored: str) -> str:
    start = 0.0 if "/live/" in stored else None
    url = sign_stream(stored, settings=settings, start=start)
    assert url is not None and "?token=" in url
    return url


def beside(url: str, name: str) -> str:
    """`name` in the directory of the signed address `url`, with its token."""
    base, _, token = url.partition("?token=")
    return f"{base.rsplit('/', 1)[0]}/{name}?token={token}"


def with_token_of(url: str, path: str) -> str:
    return f"/media/{path}?token={url.partition('?token=')[2]}"


def refused(response: httpx.Response) -> bool:
    """Out of the token's directory."""
    assert response.status_code == 403, (str(response.url), response.status_code, response.text[:200])
    assert response.json()["messageErrorCode"] == "stream_access_denied"
    assert response.headers["cache-control"] == "no-store"
    return True


def not_there(response: httpx.Response) -> bool:
    """In the token's directory, but no part of its stream."""
    assert response.status_code == 404, (str(response.url), response.status_code, response.text[:200])
    assert response.json()["messageErrorCode"] == "not_found"
    assert response.headers["cache-control"] == "no-store"
    return True


def same_caching(response: httpx.Response, segment: httpx.Response) -> bool:
    """Cached as the segment is: the same scope, for what the token has left (read a moment apart,
    so within a few seconds of it on a busy machine)."""
    scope, _, age = response.headers["cache-control"].partition(", max-age=")
    segment_scope, _, segment_age = segment.headers["cache-control"].partition(", max-age=")
    return scope == segment_scope and abs(int(age) - int(segment_age)) <= 5


def cue_lines(vtt: str) -> list[str]:
    """`start --> end text` per cue."""
    blocks = [block.splitlines() for block in vtt.split("\n\n")[1:] if block.strip()]
    return [f"{timing} {text}" for timing, text in blocks]


# --- a whole asset's master ------------------------------------------------------------------------


async def test_an_assets_master_token_opens_its_thumbnails_sheets_and_poster_with_their_types(settings, media, assets):
    url = signed(settings, vod_url(assets.upload))
    directory = store_of(settings).root / assets.upload
    segment = await media.get(beside(url, "360p/v-00000.ts"))
    assert segment.status_code == 200

    vtt = await media.get(beside(url, "thumbnails.vtt"))
    assert vtt.status_code == 200, vtt.text
    assert vtt.headers["content-type"] == VTT
    assert vtt.text == (directory / "thumbnails.vtt").read_text()
    assert "00:03:20.000 --> 00:03:22.000\nthumbs-002.jpg#xywh=0,0,160,90" in vtt.text
    for name in ("thumbs-001.jpg", "thumbs-003.jpg", "poster.jpg"):
        picture = await media.get(beside(url, name))
        assert picture.status_code == 200, name
        assert picture.headers["content-type"] == "image/jpeg" and picture.content == JPEG
        # Cached as the segments are: for the token's life, an hour at most, by anyone holding the URL.
        assert same_caching(picture, segment)
    assert same_caching(vtt, segment)
    head = await media.head(beside(url, "thumbnails.vtt"))
    assert head.status_code == 200 and head.content == b"" and head.headers["content-type"] == VTT


async def test_a_recordings_master_token_opens_its_thumbnails_but_not_its_recording_json(settings, media, assets):
    url = signed(settings, vod_url(assets.recording))
    assert (await media.get(beside(url, "thumbnails.vtt"))).status_code == 200
    assert (await media.get(beside(url, "thumbs-001.jpg"))).status_code == 200
    assert not_there(await media.get(beside(url, RECORDING_FILE)))


async def test_an_asset_without_previews_answers_not_found_which_players_do_without(settings, media, assets):
    url = signed(settings, vod_url(assets.bare))
    for name in ("thumbnails.vtt", "thumbs-001.jpg", "poster.jpg"):
        response = await media.get(beside(url, name))
        assert response.status_code == 404 and response.json()["messageErrorCode"] == "not_found", name
    assert (await media.get(url)).status_code == 200  # the video itself plays


@pytest.mark.parametrize(
    "neighbour",
    [
        "{other}/thumbnails.vtt",  # another asset's previews, under the same names
        "{other}/thumbs-001.jpg",
        "{other}/poster.jpg",
        "{own}/game-60/thumbnails.vtt",  # a game's or clip's directory is a stream of its own
        "{own}/clip-0-4000/thumbnails.vtt",
    ],
)
async def test_an_assets_master_token_opens_no_other_assets_previews(settings, media, assets, neighbour):
    url = signed(settings, vod_url(assets.upload))
    path = neighbour.format(own=assets.upload, other=assets.other)
    assert refused(await media.get(with_token_of(url, f"vod/{path}")))
    # ...while the other asset's own token opens its own.
    if path.startswith(assets.other):
        assert (await media.get(with_token_of(signed(settings, vod_url(assets.other)), f"vod/{path}"))).is_success


@pytest.mark.parametrize(
    "name",
    [
        "%2E%2E/{other}/thumbnails.vtt",
        "%2E/thumbnails.vtt",
        "notes.txt",
        "thumbs-1.jpg",
        "thumbnails.vtt.bak",
        "thumbnails.m3u8",
        "poster.png",
    ],
)
async def test_an_assets_directory_serves_no_other_file_at_its_root(settings, media, assets, name):
    url = signed(settings, vod_url(assets.upload))
    name = name.format(other=assets.other)  # no way out of its own directory either
    response = await media.get(with_token_of(url, f"vod/{assets.upload}/{name}"))
    assert response.status_code == 404, name


@pytest.mark.parametrize("name", ["thumbnails.vtt", "thumbs-001.jpg", "poster.jpg"])
async def test_a_game_token_opens_no_previews(settings, media, assets, name):
    url = signed(settings, game_url(assets.upload, 60))
    assert not_there(await media.get(beside(url, name)))


async def test_a_live_token_opens_the_recordings_pictures_of_its_rewind_window_and_not_its_poster(
    settings, media, assets
):
    url = signed(settings, live_url(assets.recording))
    vtt = await media.get(beside(url, "thumbnails.vtt"))
    assert vtt.status_code == 200 and vtt.headers["content-type"] == VTT
    assert vtt.headers["cache-control"] == "public, max-age=1"  # it grows with the recording
    assert (await media.get(beside(url, "thumbs-001.jpg"))).status_code == 200
    assert not_there(await media.get(beside(url, "poster.jpg")))
    assert not_there(await media.get(beside(url, "recording.json")))
    # ...and only its own: another asset's pictures with this token are refused.
    assert refused(await media.get(with_token_of(url, f"vod/{assets.other}/thumbnails.vtt")))
    assert refused(await media.get(with_token_of(url, f"live/{assets.other}/from-0/thumbnails.vtt")))


async def test_a_live_stream_that_is_no_recording_gets_an_empty_vtt_not_a_failure(settings, media, assets):
    # A looped sample's live stream never has pictures: its player, asking every few seconds,
    # sees an empty VTT (cached long), never a 404.
    vtt = await media.get(beside(signed(settings, live_url(assets.upload)), "thumbnails.vtt"))
    assert (vtt.status_code, vtt.text, vtt.headers["content-type"]) == (200, "WEBVTT\n", VTT)
    assert int(vtt.headers["cache-control"].rpartition("=")[2]) > 60


# --- a clip's range --------------------------------------------------------------------------------


async def test_a_clips_thumbnails_are_its_ranges_cues_on_its_own_timeline(settings, media, assets):
    # 191-209.5 s of the upload: its playlists list the 2 s segments from 190 s (segment 95) on.
    url = signed(settings, clip_url(assets.upload, 191_000, 209_500))
    vtt = await media.get(beside(url, "thumbnails.vtt"))
    assert vtt.status_code == 200, vtt.text
    assert vtt.headers["content-type"] == VTT and vtt.text.startswith("WEBVTT\n")
    cues = cue_lines(vtt.text)
    assert len(cues) == 10  # the thumbnails of 190-192 s .. 208-210 s, the ones overlapping the range
    assert cues[0] == "00:00:00.000 --> 00:00:02.000 thumbs-001.jpg#xywh=800,810,160,90"  # 95th: row 9, column 5
    assert cues[4] == "00:00:08.000 --> 00:00:10.000 thumbs-001.jpg#xywh=1440,810,160,90"
    assert cues[5] == "00:00:10.000 --> 00:00:12.000 thumbs-002.jpg#xywh=0,0,160,90"  # 200 s: the next sheet
    assert cues[-1] == "00:00:18.000 --> 00:00:20.000 thumbs-002.jpg#xywh=640,0,160,90"
    segment = await media.get(beside(url, "360p/seg-95.ts"))
    assert segment.status_code == 200
    assert same_caching(vtt, segment)

    # The sheets its cues name, and no other: not the rest of the match's, nor the poster.
    for sheet in ("thumbs-001.jpg", "thumbs-002.jpg"):
        picture = await media.get(beside(url, sheet))
        assert picture.status_code == 200 and picture.headers["content-type"] == "image/jpeg", sheet
    for elsewhere in ("thumbs-003.jpg", "poster.jpg", "notes.txt"):
        assert not_there(await media.get(beside(url, elsewhere)))


async def test_a_clip_of_a_recording_begins_its_thumbnails_where_its_first_segment_begins(settings, media, assets):
    # 61-95 s of the recording: its first segment covering 61 s began at 59.5 s (3.5 s, then 4 s each).
    url = signed(settings, clip_url(assets.recording, 61_000, 95_000))
    vtt = await media.get(beside(url, "thumbnails.vtt"))
    assert vtt.status_code == 200, vtt.text
    cues = cue_lines(vtt.text)
    assert cues[0] == "00:00:00.500 --> 00:00:02.500 thumbs-001.jpg#xywh=0,270,160,90"  # the thumbnail of 60-62 s
    assert cues[-1] == "00:00:34.500 --> 00:00:36.500 thumbs-001.jpg#xywh=1120,360,160,90"  # of 94-96 s
    assert len(cues) == 18
    # The clip's playlist starts the player at 1.5 s into that timeline: where the range begins.
    playlist = await media.get(beside(url, "360p/index.m3u8"))
    assert "#EXT-X-START:TIME-OFFSET=1.500" in playlist.text
    assert (await media.get(beside(url, "thumbs-001.jpg"))).status_code == 200
    assert not_there(await media.get(beside(url, RECORDING_FILE)))


async def test_a_clip_whose_asset_has_no_previews_has_none(settings, media, assets):
    url = signed(settings, clip_url(assets.bare, 0, 10_000))
    response = await media.get(beside(url, "thumbnails.vtt"))
    assert response.status_code == 404 and response.json()["messageErrorCode"] == "not_found"
    assert not_there(await media.get(beside(url, "thumbs-001.jpg")))


async def test_a_clips_token_opens_no_other_assets_thumbnails(settings, media, assets):
    url = signed(settings, clip_url(assets.upload, 0, 10_000))
    assert refused(await media.get(with_token_of(url, f"vod/{assets.other}/thumbnails.vtt")))
    assert refused(await media.get(with_token_of(url, f"vod/{assets.other}/clip-0-10000/thumbs-001.jpg")))
