"""Staff's uploaded files as a source of assets (issue 29 §1): the bytes of a tus upload while it
arrives, then the checked source a transcoding job reads.

    <media dir>/uploads/<upload id>.part     an upload so far; its size is the tus offset
    <media dir>/uploads/<job id>.source      a complete, checked file waiting for (or under) its job

The size on disk is the offset (as tusd does): a PATCH cut off half way keeps what arrived, and
the client resumes from there after a HEAD. One writer at a time: a PATCH holds an exclusive
`flock` on the file while it appends, so a second PATCH of the same upload (a client retrying
while its first request still runs, from this process or another) is refused, never interleaved.

A complete file is checked before anything is made of it (`check_video`): ffprobe must read it as
a container with a picture, and ffmpeg must decode frames at its start and at its end (a codec
ffmpeg has no decoder for, or a file truncated after its index, fails there).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import os
import re
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from ..assets.store import NAME
from ..packaging.ladder import NotAVideo, Source

UPLOADS = "uploads"
WRITE_BUFFER_BYTES = 1024 * 1024  # written to disk in pieces of about this much
CHECK_TIMEOUT_SECONDS = 60.0
# Decoded at the start and again this far before the end: a file cut off loses its end first.
TAIL_SECONDS = 2.0


class Busy(Exception):
    """Another request is writing this upload now."""


class OffsetMismatch(Exception):
    """The request's Upload-Offset is not where the file ends."""

    def __init__(self, actual: int):
        super().__init__(f"the upload is at offset {actual}")
        self.actual = actual


class TooLong(Exception):
    """The request carries more bytes than the upload's declared length."""


@dataclass(frozen=True)
class Refused(Exception):
    """A complete file that is not a video Touchline can transcode: the envelope's code and a
    one-line reason."""

    code: str
    reason: str

    def __str__(self) -> str:
        return self.reason


@dataclass(frozen=True)
class CheckedVideo:
    source: Source
    duration_seconds: float


class UploadFiles:
    def __init__(self, media_dir: Path):
        self.root = Path(media_dir) / UPLOADS

    def part(self, upload_id: str) -> Path:
        return self.root / f"{_checked(upload_id)}.part"

    def source(self, job_id: str) -> Path:
        return self.root / f"{_checked(job_id)}.source"

    def start(self, upload_id: str) -> None:
        """An empty file for a new upload."""
        self.root.mkdir(parents=True, exist_ok=True)
        self.part(upload_id).touch(exist_ok=False)

    def offset(self, upload_id: str) -> int | None:
        """How many bytes have arrived; None when the upload's file is gone."""
        try:
            return self.part(upload_id).stat().st_size
        except FileNotFoundError:
            return None

    @contextlib.contextmanager
    def writing(self, upload_id: str) -> Iterator[BinaryIO]:
        """The upload's file, this request its one writer (`flock`, so also across processes) until
        the block ends; Busy when another holds it, FileNotFoundError when the upload is gone."""
        handle = self.part(upload_id).open("r+b")
        try:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise Busy() from None
            yield handle
        finally:
            handle.close()  # releases the lock

    async def append(self, handle: BinaryIO, offset: int, length: int, body: AsyncIterator[bytes]) -> int:
        """Append `body` to the file held by `writing` at `offset` (which must be where the file
        ends) without passing `length` in all; the new offset. What arrived before the client went
        away, or before a byte too many, is kept."""
        actual = handle.seek(0, os.SEEK_END)
        if actual != offset:
            raise OffsetMismatch(actual)
        pending = bytearray()
        written = offset
        try:
            async for chunk in body:
                if written + len(pending) + len(chunk) > length:
                    raise TooLong()
                pending += chunk
                if len(pending) >= WRITE_BUFFER_BYTES:
                    written += await asyncio.to_thread(_write, handle, bytes(pending))
                    pending.clear()
        finally:
            if pending:
                written += await asyncio.to_thread(_write, handle, bytes(pending))
        return written

    def keep_as_source(self, upload_id: str, job_id: str) -> Path:
        """The complete upload becomes the source of job `job_id` (a rename: no copy)."""
        target = self.source(job_id)
        self.part(upload_id).rename(target)
        return target

    def remove_part(self, upload_id: str) -> None:
        self.part(upload_id).unlink(missing_ok=True)

    def remove_source(self, job_id: str) -> None:
        self.source(job_id).unlink(missing_ok=True)


def _checked(name: str) -> str:
    if not NAME.match(name):
        raise ValueError(f"{name!r} is not an upload or job id")
    return name


def _write(handle: BinaryIO, data: bytes) -> int:
    handle.write(data)
    handle.flush()
    return len(data)


async def _run(*command: str, timeout: float = CHECK_TIMEOUT_SECONDS) -> tuple[int, bytes, bytes]:
    process = await asyncio.create_subprocess_exec(
        *command, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()
        raise Refused(
            "unreadable_video", f"{Path(command[0]).name} took longer than {timeout:g} s to read it"
        ) from None
    assert process.returncode is not None  # communicate() waited for it
    return process.returncode, out, err


def _first_line(err: bytes, fallback: str) -> str:
    """ffmpeg's reason in one readable line: its last two messages, without the file's path or
    the `[demuxer @ 0x...]` prefixes."""
    messages: list[str] = []
    for line in err.decode(errors="replace").splitlines():
        text = _PREFIX.sub("", line.strip())
        head, sep, rest = text.partition(": ")
        if sep and "/" in head:  # "<path>: Invalid data found when processing input"
            text = rest
        if text and text not in messages:
            messages.append(text)
    return "; ".join(messages[-2:])[:200] if messages else fallback


_PREFIX = re.compile(r"^\[[^\]]* @ 0x[0-9a-f]+\]\s*")


async def probe(path: Path, ffprobe: str = "ffprobe") -> dict:
    code, out, err = await _run(
        ffprobe, "-v", "error", "-print_format", "json", "-show_format", "-show_streams", str(path)
    )
    if code != 0:
        raise Refused("not_a_video", f"The file is not a video ffmpeg can read: {_first_line(err, 'unknown format')}")
    try:
        return json.loads(out)
    except ValueError:
        raise Refused("not_a_video", "The file is not a video ffmpeg can read") from None


async def check_video(path: Path, *, ffprobe: str = "ffprobe", ffmpeg: str = "ffmpeg") -> CheckedVideo:
    """What the complete file `path` is, or Refused: not readable as a video, no picture, no
    length, or frames that cannot be decoded at its start or its end."""
    if (await asyncio.to_thread(path.stat)).st_size == 0:
        raise Refused("empty_file", "The file is empty")
    described = await probe(path, ffprobe)
    try:
        source = Source.from_ffprobe(described)
    except NotAVideo:
        raise Refused("no_video_stream", "The file has no video stream (audio only, or no picture)") from None
    except (KeyError, TypeError, ValueError):
        raise Refused("not_a_video", "The file's video stream has no usable picture size") from None
    duration = _duration(described)
    if duration is None or duration <= 0:
        raise Refused("unreadable_video", "The file's length cannot be read (a truncated or unfinished file?)")
    for start in sorted({0.0, max(0.0, duration - TAIL_SECONDS)}):
        code, _, err = await _run(
            ffmpeg, "-v", "error", "-xerror", "-nostdin", "-ss", f"{start:.3f}", "-i", str(path),
            "-map", "0:v:0", "-frames:v", "3", "-f", "null", "-",
        )  # fmt: skip
        if code != 0:
            where = "start" if start == 0 else "end"
            raise Refused(
                "undecodable_video",
                f"The video cannot be decoded at its {where}: {_first_line(err, 'decoding failed')}",
            )
    return CheckedVideo(source, duration)


def _duration(described: dict) -> float | None:
    for value in (
        (described.get("format") or {}).get("duration"),
        *(s.get("duration") for s in described.get("streams") or [] if s.get("codec_type") == "video"),
    ):
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            continue
        if seconds > 0:
            return seconds
    return None
