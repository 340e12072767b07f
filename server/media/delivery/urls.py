"""The public URL layout of media (one place, so seed data and the server agree).

`<asset>` below is a media asset's id (server.media.assets): its directory holds a ladder of its
own (a live input's recording, an upload) or links to a shipped sample's. Events store addresses
naming their own assets; the names of the samples themselves are only what staff may give, and
the event then gets an asset of its own playing that sample (server.services.event_admin).

What events store (and the catalogue seeds):

    /media/vod/<asset>/index.m3u8            the asset directory's master playlist: a recording or
                                             upload as it is, a sample's ladder
    /media/vod/<asset>/game-<seconds>.m3u8   an archived game: a sample looped for its length,
                                             made on first request, then a file (server.media.delivery.clips)
    /media/vod/<asset>/clip-<from>-<to>.m3u8
                                             a clip or highlight: <from> to <to> ms of that
                                             timeline, made on first request, then a file
    /media/live/<asset>.m3u8                 made per request by delivery.routes: a live input's
                                             rewind window (delivery.live_recordings), or a
                                             sample played as live (delivery.live)

A ladder is a set of aligned renditions (server.media.playlists; the samples: scripts/sample_video.py):
each rendition has its own directory, `<rendition>` (`360p`, `234p`, `720p`, `144p`; the panoramic
`football-pano`: `360p`, `180p`), with the same segments at the same times.

What viewers get (server.media.delivery.signing signs the stored URL for them: `edge_path` with a
token beside it) and the server serves (server.media.delivery.edge_routes), below /media/:

    vod/<asset>/index.m3u8                  the VOD master: EXT-X-STREAM-INF per rendition, URIs
                                            `<rendition>/index.m3u8`
    vod/<asset>/<rendition>/index.m3u8      a rendition's VOD media playlist; its `index<N>.ts`
    vod/<asset>/<rendition>/index<N>.ts     resolve to its segments
    live/<asset>/from-<start>/index.m3u8    the live master (made) from a kickoff: the VOD master's
                                            variants, URIs `<rendition>/live.m3u8`
    live/<asset>/from-<start>/<rendition>/live.m3u8
                                            a rendition's live media playlist (made): the rewind
                                            window; its `index<N>.ts` are the rendition's segments
    vod/<asset>/game-<seconds>/index.m3u8   an archived game (stored as /media/vod/<asset>/game-...):
                                            a master (made) whose URIs are `<rendition>/index.m3u8`,
                                            the rendition's game playlist (made): a sample looped
                                            on its endless timeline from 0 for <seconds>
                                            (server.media.delivery.clips), EXT-X-ENDLIST
    vod/<asset>/clip-<from>-<to>/index.m3u8 a clip or highlight (stored as /media/vod/<asset>/clip-...):
                                            a master (made) whose URIs are `<rendition>/index.m3u8`,
                                            the rendition's clip playlist (made): its segments from
                                            <from> to <to> ms of the same timeline
    .../<rendition>/seg-<j>.ts              in a game's or clip's directory: segment j of that
                                            timeline, the rendition's file j mod N (N files)

A token opens one of those directories (server.media.delivery.edge_tokens.scope_of), and a path
there what its stored playlist opens (server.media.delivery.reach): a live stream's renditions'
`live.m3u8` and their files; a game's or clip's playlists and the `seg-<j>.ts` of its range; an
asset's playlist in each rendition and their files. Nothing of another stream (`football-pano` is
not below `football/`), nor another playlist of the same asset (its live stream, another game or
clip).

Public, unsigned:

    /media/posters/<slug>.svg        fixtures/posters/<slug>.svg, static; stored with `?v=<content
                                     hash>` (`versioned`) and then cached for a year, immutable
    /media/logos/<team-slug>.svg     fixtures/logos/<team-slug>.svg, the same
    /media/ads/preroll.xml           the test VAST (server.media.delivery.ads), `?case=` variants
    /media/ads/preroll.mp4           fixtures/media/ads/preroll.mp4, its video
    /media/ads/track                 its tracking URLs; /media/ads/track/hits counts them
"""

import hashlib
import re
from pathlib import Path

MEDIA_PREFIX = "/media"
LIVE_VARIANT = "live.m3u8"  # a rendition's live media playlist, in the rendition's directory
ADS_DIR = "ads"
AD_VAST = "preroll.xml"
AD_VIDEO = "preroll.mp4"
AD_MISSING_VIDEO = "missing-preroll.mp4"  # answers 404: the `missing-media` case's MediaFile
AD_TRACK = "track"
AD_TRACK_HITS = "track/hits"


def vod_url(asset: str) -> str:
    return f"{MEDIA_PREFIX}/vod/{asset}/index.m3u8"


def live_url(asset: str) -> str:
    return f"{MEDIA_PREFIX}/live/{asset}.m3u8"


def live_variant_uri(rendition: str) -> str:
    """A live master's URI for one rendition's live playlist, beside it in the edge layout."""
    return f"{rendition}/{LIVE_VARIANT}"


# Names of the playlists and segments made per request (server.media.delivery.clips), as path segments.
CLIP_NAME = re.compile(r"clip-(\d{1,13})-(\d{1,13})\.m3u8")
GAME_NAME = re.compile(r"game-(\d{1,7})\.m3u8")
# A catch-up (issue 31 §2): up to MAX_KEY_RANGES ranges of the timeline played one after the
# other, each `<start>.<length>` in base-36 ms, joined by `_` (in time order).
MAX_KEY_RANGES = 15
KEYS_RANGE = r"[0-9a-z]{1,9}\.[0-9a-z]{1,5}"
KEYS_MADE = rf"keys-{KEYS_RANGE}(?:_{KEYS_RANGE}){{0,{MAX_KEY_RANGES - 1}}}"
KEYS_NAME = re.compile(rf"({KEYS_MADE})\.m3u8")
# Every made playlist's directory name in the edge layout (edge tokens' scopes, edge routes).
MADE_PATTERN = rf"(?:clip-[0-9]{{1,13}}-[0-9]{{1,13}}|game-[0-9]{{1,7}}|{KEYS_MADE})"
SEGMENT_NAME = re.compile(r"seg-(\d{1,13})\.ts")


def game_file(seconds: int) -> str:
    """An archived game's playlist name within its asset's VOD directory, and within each
    rendition's directory: the asset looped for `seconds` (server.media.delivery.clips)."""
    return f"game-{seconds}.m3u8"


def game_url(asset: str, seconds: int) -> str:
    return f"{MEDIA_PREFIX}/vod/{asset}/{game_file(seconds)}"


def segment_file(number: int) -> str:
    """Segment `number` of an asset's endless timeline, in a rendition's directory."""
    return f"seg-{number}.ts"


def clip_file(start_ms: int, end_ms: int) -> str:
    """A clip playlist's name within its asset's VOD directory (server.media.delivery.clips), and within
    each rendition's directory."""
    return f"clip-{start_ms}-{end_ms}.m3u8"


def clip_url(asset: str, start_ms: int, end_ms: int) -> str:
    return f"{MEDIA_PREFIX}/vod/{asset}/{clip_file(start_ms, end_ms)}"


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if not number:
            return out


def keys_file(ranges: list[tuple[int, int]]) -> str:
    """A catch-up playlist's name: [start, end) ms ranges of the timeline, played in this order."""
    return "keys-" + "_".join(f"{_base36(start)}.{_base36(end - start)}" for start, end in ranges) + ".m3u8"


def keys_ranges(name: str) -> list[tuple[int, int]] | None:
    """The ranges a catch-up playlist's name holds (`keys_file` read back), or None."""
    found = KEYS_NAME.fullmatch(name)
    if found is None:
        return None
    ranges = []
    for part in found[1].removeprefix("keys-").split("_"):
        start, _, length = part.partition(".")
        ranges.append((int(start, 36), int(start, 36) + int(length, 36)))
    return ranges


def keys_url(asset: str, ranges: list[tuple[int, int]]) -> str:
    return f"{MEDIA_PREFIX}/vod/{asset}/{keys_file(ranges)}"


def edge_path(media_path: str, start: int | None = None) -> str | None:
    """The edge layout's path (server.media.delivery.edge_routes) of a stored media path (without
    `/media/`), or None when it names no stream of this server: a game's or clip's playlist gets a
    directory of its own (`vod/<asset>/clip-<from>-<to>/index.m3u8`), a live stream one per kickoff
    `start` (`live/<asset>/from-<start>/index.m3u8`); an asset's own playlist stays where it is."""
    kind, _, rest = media_path.partition("/")
    if kind == "live":
        asset = rest.removesuffix(".m3u8")
        if start is None or asset == rest or "/" in asset or not asset:
            return None
        return f"live/{asset}/from-{int(start)}/index.m3u8"
    if kind != "vod":
        return None
    directory, _, name = rest.rpartition("/")
    if not directory or "/" in directory:
        return None
    if CLIP_NAME.fullmatch(name) or GAME_NAME.fullmatch(name) or KEYS_NAME.fullmatch(name):
        return f"vod/{directory}/{name.removesuffix('.m3u8')}/index.m3u8"
    return media_path


def poster_url(slug: str) -> str:
    return f"{MEDIA_PREFIX}/posters/{slug}.svg"


def logo_url(slug: str) -> str:
    return f"{MEDIA_PREFIX}/logos/{slug}.svg"


def versioned(url: str, file: Path) -> str:
    """`url` with the content hash of the file it serves (`?v=<hash>`), so it can be cached for
    good (server.web.ArtworkFiles): new artwork is a new URL. Unchanged without the file."""
    try:
        digest = hashlib.sha256(file.read_bytes()).hexdigest()[:12]
    except OSError:
        return url
    return f"{url}?v={digest}"


def ads_url(name: str) -> str:
    """A path of the test ads (server.media.delivery.ads): `ads_url(AD_VAST)` is the default VAST URL."""
    return f"{MEDIA_PREFIX}/{ADS_DIR}/{name}"


DEFAULT_VAST_URL = ads_url(AD_VAST)
