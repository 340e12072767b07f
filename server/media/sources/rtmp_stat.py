"""What nginx-rtmp knows of a feed it takes (`rtmp_stat`, on loopback; rtmp.py): the picture size
from the encoder's H.264 header, its frame rate and whether it sends sound. It knows this as soon
as the encoder's first packets arrive, where ffprobe would have to read seconds of the feed first;
and those seconds, read by a probe rather than the transcoder, are missing from the recording.

nginx's XML is its own, on loopback; it is still parsed as any XML is here (defusedxml), and
trusted for its numbers only."""

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TypeVar

# The type only: parsing is defusedxml's.
from xml.etree.ElementTree import Element  # nosec B405

import aiohttp
from defusedxml import ElementTree

from ..packaging.ladder import Source

log = logging.getLogger(__name__)
T = TypeVar("T")

TIMEOUT = aiohttp.ClientTimeout(total=2)
# A feed whose first packets carried no sound is taken as silent only once it has run this long:
# an encoder may send its audio header a moment after its video one.
SILENT_AFTER_MS = 1000
CODECS = {"H264": "h264", "HEVC": "hevc", "AAC": "aac", "MP3": "mp3", "Speex": "speex"}


def _streams(stat_xml: str, app: str) -> list[Element]:
    try:
        root = ElementTree.fromstring(stat_xml)
    except ElementTree.ParseError:
        return []
    return [
        stream
        for application in root.iterfind("./server/application")
        if application.findtext("name") == app
        for stream in application.iterfind("./live/stream")
    ]


def _stream(stat_xml: str, app: str, name: str) -> Element | None:
    return next((stream for stream in _streams(stat_xml, app) if stream.findtext("name") == name), None)


def publishers_of(stat_xml: str, app: str) -> dict[str, str]:
    """Each publishing encoder's stream name, by publisher as the publish hook names it
    (`clientid@address`, server.ingest.hooks): how a process that did not answer the hook finds
    which feed to pull for a key's publisher (the key itself is kept only as a hash)."""
    found = {}
    for stream in _streams(stat_xml, app):
        for client in stream.iterfind("client"):
            if client.find("publishing") is not None:
                publisher = f"{client.findtext('id') or ''}@{client.findtext('address') or ''}"[:80]
                found[publisher] = stream.findtext("name") or ""
    return found


def source_of(stat_xml: str, app: str, name: str) -> Source | None:
    """The feed `name` of application `app` as a Source, from nginx's stat page; None while nginx
    does not know its picture size and frame rate (or its sound) yet."""
    stream = _stream(stat_xml, app, name)
    return None if stream is None else _source(stream)


def publishing(stat_xml: str, app: str, name: str) -> bool:
    """Whether an encoder publishes the feed `name` now."""
    stream = _stream(stat_xml, app, name)
    return stream is not None and stream.find("publishing") is not None


def _number(text: str | None) -> float:
    try:
        return float(text or 0)
    except ValueError:
        return 0.0


def _source(stream: Element) -> Source | None:
    video = stream.find("./meta/video")
    if video is None:
        return None
    width, height = int(_number(video.findtext("width"))), int(_number(video.findtext("height")))
    fps = _number(video.findtext("frame_rate"))
    if width <= 0 or height <= 0 or fps <= 0:
        return None
    audio = stream.find("./meta/audio")
    has_audio = audio is not None and bool(audio.findtext("codec"))
    if not has_audio and _number(stream.findtext("time")) < SILENT_AFTER_MS:
        return None
    return Source(
        width=width,
        height=height,
        fps=fps,
        has_audio=has_audio,
        video_codec=CODECS.get(video.findtext("codec") or ""),
        audio_codec=CODECS.get(audio.findtext("codec") or "") if audio is not None and has_audio else None,
    )


async def _asked(stat_url: str, read: Callable[[str], T | None], within: float, *, quiet: bool = False) -> T | None:
    """`read` of nginx's stat page, asked every 0.1 s until it is not None, for up to `within`
    seconds; None then, or when the page does not answer (said in the log unless `quiet`)."""
    deadline = time.monotonic() + within
    async with aiohttp.ClientSession(timeout=TIMEOUT) as session:
        while True:
            try:
                async with session.get(stat_url) as answer:
                    answer.raise_for_status()
                    found = read(await answer.text())
            except (aiohttp.ClientError, TimeoutError) as failure:
                if not quiet:
                    log.warning("ingest: nginx's stat page did not answer (%s)", failure)
                return None
            if found is not None or time.monotonic() >= deadline:
                return found
            await asyncio.sleep(0.1)


async def published_source(stat_url: str, app: str, name: str, *, within: float = 3.0) -> Source | None:
    """The feed as nginx describes it; None when nginx could not say within `within` seconds (no
    metadata, no stat page): ffprobe is asked then."""
    return await _asked(stat_url, lambda page: source_of(page, app, name), within)


async def stream_publishers(stat_url: str, app: str) -> dict[str, str] | None:
    """publishers_of nginx's stat page now; None when the page does not answer (asked every
    second by every process: a restarting nginx is no news each time)."""
    return await _asked(stat_url, lambda page: publishers_of(page, app), 0, quiet=True)


async def until_publishing(stat_url: str, app: str, name: str, *, within: float = 5.0) -> bool:
    """Whether nginx has the feed (its publish hook answered, so it takes the encoder's packets)
    within `within` seconds: the transcoder connects then, as nginx turns players of a feed it
    does not have away."""
    return bool(await _asked(stat_url, lambda page: publishing(page, app, name) or None, within))
