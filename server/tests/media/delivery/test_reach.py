"""What a stream token opens, read from the stored path it was issued for (server.media.delivery.reach): that
playlist, the same playlist in each rendition and the segments they list, and for a whole asset's
master or a clip its seek previews; nothing beside it."""

import pytest

from server.media.delivery.reach import Place, reach_of, stream_of
from server.media.packaging.previews import SHEET_TEMPLATE

GAME = "vod/football/game-5400.m3u8"
CLIP = "vod/football/clip-60000-90000.m3u8"
LIVE = "live/football.m3u8"
SAMPLE = "vod/football/index.m3u8"


@pytest.mark.parametrize(
    ("issued", "requested", "place"),
    [
        # A game: its master, its playlist in a rendition, the segments of [0, 5400 s) (checked later).
        (GAME, GAME, Place("")),
        (GAME, "vod/football/360p/game-5400.m3u8", Place("360p")),
        (GAME, "vod/football/360p/seg-7.ts", Place("360p", segment=7)),
        (GAME, "vod/football/seg-7.ts", Place("", segment=7)),  # a sample of one rendition
        # A clip: the same, for its range.
        (CLIP, CLIP, Place("")),
        (CLIP, "vod/football/720p/clip-60000-90000.m3u8", Place("720p")),
        (CLIP, "vod/football/720p/seg-30.ts", Place("720p", segment=30)),
        # A rendition's own file, for a clip of a live input's recording: the route checks that the
        # file is a segment of the recording in the clip's range (a sample's files are refused).
        (CLIP, "vod/football/720p/r1-00003.ts", Place("720p", ranged=True)),
        (GAME, "vod/football/360p/index0.ts", Place("360p", ranged=True)),
        # A live stream: its master, every rendition's live playlist, the files they list.
        (LIVE, LIVE, Place("")),
        (LIVE, "vod/football/234p/live.m3u8", Place("234p")),
        (LIVE, "vod/football/234p/index3.ts", Place("234p", file=True)),
        # A stored VOD file: itself, the same name in each rendition, their files.
        (SAMPLE, SAMPLE, Place("", file=True)),
        (SAMPLE, "vod/football/360p/index.m3u8", Place("360p", file=True)),
        (SAMPLE, "vod/football/360p/index0.ts", Place("360p", file=True)),
        # A whole asset's master: its seek previews beside it (issue 29 §5).
        (SAMPLE, "vod/football/thumbnails.vtt", Place("", preview=True)),
        (SAMPLE, "vod/football/thumbs-001.jpg", Place("", preview=True)),
        (SAMPLE, "vod/football/thumbs-1000.jpg", Place("", preview=True)),
        (SAMPLE, "vod/football/poster.jpg", Place("", preview=True)),
        # A clip: its own thumbnails.vtt, and sheets (the route keeps those its cues name).
        (CLIP, "vod/football/thumbnails.vtt", Place("", preview=True)),
        (CLIP, "vod/football/thumbs-002.jpg", Place("", preview=True)),
        # A live recording: the pictures of its rewind window (server.media.packaging.live_previews).
        (LIVE, "vod/football/thumbnails.vtt", Place("", preview=True)),
        (LIVE, "vod/football/thumbs-000012.jpg", Place("", preview=True)),
    ],
)
def test_a_token_opens_its_playlist_in_every_rendition_and_their_segments(issued, requested, place):
    reach = reach_of(issued)
    assert reach is not None
    assert reach.place(requested) == place


@pytest.mark.parametrize(
    ("issued", "requested"),
    [
        # A VOD token never opens a live path.
        (GAME, "live/football.m3u8"),
        (GAME, "vod/football/360p/live.m3u8"),
        (SAMPLE, "live/football.m3u8"),
        (SAMPLE, "vod/football/360p/live.m3u8"),
        (CLIP, "live/football.m3u8"),
        # ...nor another game length, clip or the sample's own VOD.
        (GAME, "vod/football/game-7200.m3u8"),
        (GAME, "vod/football/360p/game-7200.m3u8"),
        (GAME, "vod/football/clip-0-4000.m3u8"),
        (GAME, "vod/football/360p/clip-0-4000.m3u8"),
        (GAME, "vod/football/index.m3u8"),
        (GAME, "vod/football/360p/index.m3u8"),
        (CLIP, "vod/football/clip-60000-92000.m3u8"),
        (CLIP, "vod/football/game-5400.m3u8"),
        (SAMPLE, "vod/football/game-5400.m3u8"),
        (SAMPLE, "vod/football/360p/clip-0-4000.m3u8"),
        (SAMPLE, "vod/football/360p/seg-0.ts"),
        # A live token opens no VOD playlist of its sample.
        (LIVE, "vod/football/index.m3u8"),
        (LIVE, "vod/football/360p/index.m3u8"),
        (LIVE, "vod/football/game-5400.m3u8"),
        (LIVE, "vod/football/360p/game-5400.m3u8"),
        (LIVE, "vod/football/360p/clip-0-4000.m3u8"),
        (LIVE, "vod/football/360p/seg-0.ts"),
        (LIVE, "vod/football/live.m3u8"),
        # Another sample, whatever its name shares.
        (LIVE, "live/football-pano.m3u8"),
        (LIVE, "vod/football-pano/360p/live.m3u8"),
        (GAME, "vod/football-pano/game-5400.m3u8"),
        (GAME, "vod/hockey/360p/game-5400.m3u8"),
        (SAMPLE, "vod/footballer/360p/index0.ts"),
        # Nothing deeper than a rendition, and no path tricks.
        (SAMPLE, "vod/football/360p/hd/index0.ts"),
        (SAMPLE, "vod/football/../hockey/index.m3u8"),
        (SAMPLE, "vod/football//index0.ts"),
        (SAMPLE, "vod/football/"),
        (SAMPLE, ""),
        # A made name out of bounds opens its own path alone (which is not found).
        ("vod/football/game-0.m3u8", "vod/football/360p/seg-0.ts"),
        # Seek previews: a game's token opens none, a live token's and a clip's not the poster.
        (GAME, "vod/football/thumbnails.vtt"),
        (GAME, "vod/football/thumbs-001.jpg"),
        (GAME, "vod/football/poster.jpg"),
        (LIVE, "vod/football/poster.jpg"),
        (CLIP, "vod/football/poster.jpg"),
        (CLIP, "vod/football/recording.json"),
        # ...nor any token another asset's, nor what only looks like one.
        (SAMPLE, "vod/hockey/thumbnails.vtt"),
        (SAMPLE, "vod/football-pano/thumbs-001.jpg"),
        (CLIP, "vod/hockey/thumbnails.vtt"),
        (SAMPLE, "vod/football/../hockey/thumbnails.vtt"),
        (SAMPLE, "vod/football/thumbnails.m3u8"),
        (SAMPLE, "vod/football/thumbs.m3u8"),
        (CLIP, "vod/football/thumbs-1.jpg"),
        (CLIP, "vod/football/thumbnails.vtt.gz"),
    ],
)
def test_a_token_opens_none_of_its_neighbours(issued, requested):
    reach = reach_of(issued)
    assert reach is not None
    assert reach.place(requested) is None


def test_a_clip_tokens_range_is_its_clip_and_a_games_is_from_zero():
    clip, game, live = reach_of(CLIP), reach_of(GAME), reach_of(LIVE)
    assert clip is not None and game is not None and live is not None
    assert clip.clip == (60_000, 90_000) and game.clip is None and live.clip is None
    assert game.made is not None and (game.made.start_ms, game.made.end_ms) == (0, 5_400_000)


@pytest.mark.parametrize("path", ["live/Football.m3u8 x", "vod/index.m3u8", "posters/x.svg", "vod/a/../b.m3u8"])
def test_a_path_that_names_no_stream_has_no_reach(path):
    assert stream_of(path) is None and reach_of(path) is None


@pytest.mark.parametrize(
    ("issued", "requested"),
    [
        # Other files beside a stored master: the route opens them only for a stream of one
        # rendition (its segments), never beside a ladder's master (recording.json, anything else).
        (SAMPLE, "vod/football/recording.json"),
        (SAMPLE, "vod/football/index0.ts"),
        (SAMPLE, "vod/football/thumbs-1.jpg"),
    ],
)
def test_a_file_beside_a_stored_master_is_left_to_the_route(issued, requested):
    reach = reach_of(issued)
    assert reach is not None
    assert reach.place(requested) == Place("", file=True)


@pytest.mark.parametrize("issued", [SAMPLE, CLIP, GAME])
def test_every_sheet_name_the_packager_writes_is_a_sheet_name(issued):
    reach = reach_of(issued)
    assert reach is not None
    opened = {n for n in (1, 7, 99, 605, 1000) if reach.opens_preview(SHEET_TEMPLATE % n)}
    assert opened == (set() if issued == GAME else {1, 7, 99, 605, 1000})
