"""What was encoded, read from the files: codecs (RFC 6381), keyframes and bit rates of HLS
renditions in MPEG-TS, and the master playlist that states them (issue 28 §3: the real BANDWIDTH,
RESOLUTION, CODECS and FRAME-RATE). The shipped samples' generator (scripts/sample_video.py) and
the live packager measure their renditions alike.
"""

import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..playlists import MASTER_PLAYLIST, parse_vod_playlist

PLAYLIST = MASTER_PLAYLIST  # index.m3u8: the master in an asset's directory, the media playlist in a rendition's

TS_PACKET = 188


def _pes_payloads(ts: bytes, stream_id: int) -> Iterator[bytes]:
    """The payload of each PES packet of the elementary stream `stream_id` (0xE0: the first
    video stream, 0xC0: the first audio stream) in an MPEG-TS file, reassembled across TS packets."""
    pid: int | None = None
    current = bytearray()
    for at in range(0, len(ts) - TS_PACKET + 1, TS_PACKET):
        packet = ts[at : at + TS_PACKET]
        if packet[0] != 0x47:
            raise ValueError("not MPEG-TS: lost sync")
        start = bool(packet[1] & 0x40)
        packet_pid = ((packet[1] & 0x1F) << 8) | packet[2]
        control = (packet[3] >> 4) & 0x3
        if not control & 0x1:
            continue  # no payload
        offset = 4 + (1 + packet[4] if control & 0x2 else 0)
        payload = packet[offset:]
        if start and payload[:3] == b"\x00\x00\x01":
            if pid is None and payload[3] == stream_id:
                pid = packet_pid
            if packet_pid == pid:
                if current:
                    yield _pes_data(bytes(current))
                current = bytearray(payload)
                continue
        if packet_pid == pid and current:
            current += payload
    if current:
        yield _pes_data(bytes(current))


def _pes_data(pes: bytes) -> bytes:
    return pes[9 + pes[8] :]  # past the PES header and its optional fields


def _nal_units(data: bytes) -> Iterator[bytes]:
    """H.264 Annex B NAL units (start codes removed)."""
    parts = data.split(b"\x00\x00\x01")
    for part in parts[1:]:
        yield part.rstrip(b"\x00")


def video_codec(ts: bytes) -> str:
    """The RFC 6381 name of the H.264 stream (`avc1.PPCCLL`: profile, constraint flags and level
    from its sequence parameter set)."""
    for payload in _pes_payloads(ts, 0xE0):
        for nal in _nal_units(payload):
            if nal and nal[0] & 0x1F == 7:  # sequence parameter set
                return f"avc1.{nal[1]:02x}{nal[2]:02x}{nal[3]:02x}"
    raise ValueError("no H.264 sequence parameter set")


def audio_codec(ts: bytes) -> str:
    """The RFC 6381 name of the AAC stream (`mp4a.40.<audio object type>` from its ADTS header)."""
    for payload in _pes_payloads(ts, 0xC0):
        if len(payload) >= 3 and payload[0] == 0xFF and payload[1] & 0xF0 == 0xF0:
            return f"mp4a.40.{(payload[2] >> 6) + 1}"
    raise ValueError("no AAC (ADTS) audio")


def starts_with_keyframe(ts: bytes) -> bool:
    """Whether the first video access unit of a segment holds an IDR picture (a player may start,
    or switch rendition, there)."""
    for payload in _pes_payloads(ts, 0xE0):
        return any(nal and nal[0] & 0x1F == 5 for nal in _nal_units(payload))
    return False


@dataclass(frozen=True)
class Picture:
    """A rendition as its master playlist names it: its directory, size and frame rate."""

    name: str
    width: int
    height: int
    fps: float


@dataclass(frozen=True)
class Measured:
    """What one rendition's files say: the attributes of its EXT-X-STREAM-INF."""

    picture: Picture
    peak_bps: int  # the largest segment's bytes x 8 / its duration (RFC 8216: BANDWIDTH)
    average_bps: int  # all segments' bytes x 8 / the total duration (AVERAGE-BANDWIDTH)
    codecs: str

    def stream_inf(self) -> str:
        p = self.picture
        return (
            f"#EXT-X-STREAM-INF:BANDWIDTH={self.peak_bps},AVERAGE-BANDWIDTH={self.average_bps},"
            f'CODECS="{self.codecs}",RESOLUTION={p.width}x{p.height},FRAME-RATE={p.fps:.3f}'
        )


def measure(directory: Path, picture: Picture) -> Measured:
    """Measure a rendition's files in `directory/<name>/`: its media playlist and the segments it
    lists so far (a live rendition's grow; the master is written again as they do)."""
    vod = parse_vod_playlist((directory / picture.name / PLAYLIST).read_text())
    if not vod.segments:
        raise ValueError(f"{picture.name}: no segment to measure yet")
    sizes = [(directory / picture.name / s.uri).stat().st_size for s in vod.segments]
    peak = max(math.ceil(size * 8 / s.duration) for size, s in zip(sizes, vod.segments, strict=True))
    average = math.ceil(sum(sizes) * 8 / vod.duration)
    first = (directory / picture.name / vod.segments[0].uri).read_bytes()
    return Measured(picture, peak, average, f"{video_codec(first)},{audio_codec(first)}")


def master_playlist(measured: list[Measured]) -> str:
    """A master playlist: one variant per rendition, in ladder order (the first is where players
    start). Every segment begins with a keyframe: EXT-X-INDEPENDENT-SEGMENTS."""
    lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-INDEPENDENT-SEGMENTS"]
    for m in measured:
        lines += [m.stream_inf(), f"{m.picture.name}/{PLAYLIST}"]
    return "\n".join(lines) + "\n"
