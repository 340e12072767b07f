"""An upload's bytes (issue 29 §1): appended at the offset the file ends at, kept when the client
goes away half way, one writer at a time; and a complete file checked with the real ffprobe and
ffmpeg before anything is made of it."""

import asyncio
import hashlib
from pathlib import Path

import pytest

from server.media.sources.upload_files import Busy, OffsetMismatch, Refused, TooLong, UploadFiles, check_video

from .videos import make_audio_only, make_video, truncate


async def chunks(data: bytes, size: int = 1000, fail_after: int | None = None):
    for at in range(0, len(data), size):
        if fail_after is not None and at >= fail_after:
            raise ConnectionResetError("the client went away")
        yield data[at : at + size]
        await asyncio.sleep(0)


async def test_an_upload_cut_off_half_way_keeps_what_arrived_and_resumes_from_there(tmp_path):
    files = UploadFiles(tmp_path)
    data = bytes(range(256)) * 40
    files.start("u1")
    with pytest.raises(ConnectionResetError), files.writing("u1") as handle:
        await files.append(handle, 0, len(data), chunks(data, fail_after=6000))
    offset = files.offset("u1")
    assert offset == 6000
    with files.writing("u1") as handle:
        assert await files.append(handle, offset, len(data), chunks(data[offset:])) == len(data)
    assert hashlib.sha256(files.part("u1").read_bytes()).digest() == hashlib.sha256(data).digest()


async def test_a_write_at_another_offset_than_the_files_end_is_refused_with_the_real_offset(tmp_path):
    files = UploadFiles(tmp_path)
    files.start("u2")
    with files.writing("u2") as handle:
        await files.append(handle, 0, 100, chunks(b"x" * 40))
    with pytest.raises(OffsetMismatch) as refused, files.writing("u2") as handle:
        await files.append(handle, 10, 100, chunks(b"y" * 10))
    assert refused.value.actual == 40
    assert files.part("u2").read_bytes() == b"x" * 40


async def test_bytes_past_the_declared_length_are_refused_and_the_upload_stays_whole(tmp_path):
    files = UploadFiles(tmp_path)
    files.start("u3")
    with pytest.raises(TooLong), files.writing("u3") as handle:
        await files.append(handle, 0, 50, chunks(b"z" * 80, size=30))
    assert files.offset("u3") == 30  # the chunks within the length were kept


async def test_a_second_writer_of_the_same_upload_is_refused_while_the_first_writes(tmp_path):
    files = UploadFiles(tmp_path)
    files.start("u4")
    gate = asyncio.Event()

    async def slow():
        yield b"a" * 10
        await gate.wait()
        yield b"b" * 10

    async def first_writer():
        with files.writing("u4") as handle:
            return await files.append(handle, 0, 100, slow())

    first = asyncio.create_task(first_writer())
    await asyncio.sleep(0.05)
    with pytest.raises(Busy), files.writing("u4"):
        pass
    gate.set()
    assert await first == 20


def test_names_that_are_no_ids_never_become_paths(tmp_path):
    files = UploadFiles(tmp_path)
    for bad in ("../x", "", "a/b", ".hidden"):
        with pytest.raises(ValueError):
            files.part(bad)


async def test_a_video_is_described_by_its_picture_sound_and_length(tmp_path):
    checked = await check_video(make_video(tmp_path / "ok.mp4", seconds=3, size="640x360"))
    assert (checked.source.width, checked.source.height, checked.source.has_audio) == (640, 360, True)
    assert checked.duration_seconds == pytest.approx(3, abs=0.1)


@pytest.mark.parametrize(
    ("make", "code", "words"),
    [
        (
            lambda p: (p / "notes.mp4").write_text("minutes of the match\n" * 50) and p / "notes.mp4",
            "not_a_video",
            "not a video",
        ),
        (lambda p: (p / "empty.mp4").write_bytes(b"") or p / "empty.mp4", "empty_file", "empty"),
        (lambda p: truncate(make_video(p / "whole.mp4"), p / "cut.mp4"), "not_a_video", "moov atom not found"),
        (lambda p: make_audio_only(p / "song.m4a"), "no_video_stream", "no video stream"),
        (
            lambda p: truncate(make_video(p / "fs.mp4", seconds=6, faststart=True), p / "cut-fs.mp4", 0.6),
            "undecodable_video",
            "at its end",
        ),
    ],
    ids=["text-named-mp4", "zero-bytes", "truncated", "audio-only", "truncated-after-its-index"],
)
async def test_a_file_that_is_no_usable_video_is_refused_with_a_clear_reason(tmp_path, make, code, words):
    path: Path = make(tmp_path)
    with pytest.raises(Refused) as refused:
        await check_video(path)
    assert refused.value.code == code
    assert words in str(refused.value)
    assert str(tmp_path) not in str(refused.value)  # never a path of the server
    assert "\n" not in str(refused.value)
