"""What the delivery tests share: `media`, the media routes as one viewer's browser reaches them;
`assets`, assets written as the transcoding queue and the ingest leave them (a ladder of aligned
renditions, or a recording with its recording.json), with previews.cues' thumbnails: a thumbnail
every 2 s, 100 to a sheet."""

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from server.media.assets.store import store_of
from server.media.packaging import previews
from server.media.recordings import RECORDING_FILE, RecordingInfo
from server.models import new_id

from ..serving import media_client

RENDITIONS = (("360p", "640x360"), ("234p", "416x234"))
JPEG = b"\xff\xd8\xff\xe0 a sprite sheet \xff\xd9"
# 500 s of an upload: 250 segments of 2 s, and 250 thumbnails on sheets 001 (0-200 s), 002, 003.
UPLOAD_SECONDS = 500
# 120 s of a recording: a first segment of 3.5 s (the encoder's first keyframe came late), then 4 s.
RECORDED = (3.5, *[4.0] * 29)


@dataclass(frozen=True)
class Assets:
    upload: str  # A: an upload's ladder with its previews
    other: str  # B: another upload beside it
    recording: str  # a finished live recording with its previews
    bare: str  # an upload whose previews are not made (yet)


def _media_playlist(durations, name) -> str:
    lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:4", "#EXT-X-MEDIA-SEQUENCE:0"]
    lines.append("#EXT-X-PLAYLIST-TYPE:VOD")
    for k, duration in enumerate(durations):
        lines += [f"#EXTINF:{duration:.6f},", name % k]
    return "\n".join([*lines, "#EXT-X-ENDLIST", ""])


def _asset(root: Path, durations, segment: str, *, thumbnails: bool, recording: bool = False) -> str:
    asset = new_id()
    directory = root / asset
    master = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-INDEPENDENT-SEGMENTS"]
    for name, size in RENDITIONS:
        (directory / name).mkdir(parents=True)
        (directory / name / "index.m3u8").write_text(_media_playlist(durations, segment))
        for k in range(len(durations)):
            (directory / name / (segment % k)).write_bytes(b"G" * 188)
        master += [f'#EXT-X-STREAM-INF:BANDWIDTH=500000,RESOLUTION={size},CODECS="avc1.64001e,mp4a.40.2"']
        master += [f"{name}/index.m3u8"]
    (directory / "index.m3u8").write_text("\n".join([*master, ""]))
    if recording:
        info = RecordingInfo(7200, 4.0, tuple({"name": name} for name, _ in RENDITIONS))
        (directory / RECORDING_FILE).write_bytes(info.dumps())
    if thumbnails:
        listed = previews.cues(sum(durations), 2, 90)
        (directory / previews.THUMBNAILS_VTT).write_text(previews.webvtt(listed))
        for sheet in {cue.sheet for cue in listed}:
            (directory / sheet).write_bytes(JPEG)
        (directory / previews.POSTER).write_bytes(JPEG)
    (directory / "notes.txt").write_text("left by someone")
    return asset


@pytest.fixture(scope="module")
def assets(settings):
    root = store_of(settings).root
    upload = [2.0] * (UPLOAD_SECONDS // 2)
    made = Assets(
        upload=_asset(root, upload, "v-%05d.ts", thumbnails=True),
        other=_asset(root, upload, "v-%05d.ts", thumbnails=True),
        recording=_asset(root, RECORDED, "r1-%05d.ts", thumbnails=True, recording=True),
        bare=_asset(root, upload, "v-%05d.ts", thumbnails=False),
    )
    yield made
    for asset in (made.upload, made.other, made.recording, made.bare):
        shutil.rmtree(root / asset, ignore_errors=True)


@pytest.fixture
async def media(settings, database):
    """The media routes as one viewer's browser reaches them, a test's own: the cookie a stream's
    first answer sets goes with the requests after it. (Modules that share one client over their
    tests define `media` of their own.)"""
    async with media_client(settings, database) as http:
        yield http
