"""A supervised transcoder restarts soon after a crash and the playlist carries on (issue 28 §3)."""

import asyncio
import itertools
import os
import signal
import sys
import time

import pytest

from server.media.packaging.ladder import Source, plan
from server.media.packaging.live_hls import LiveInput, live_hls_command
from server.media.packaging.progress import Progress
from server.media.packaging.supervisor import Transcoder, dies_with_parent
from server.media.recordings import recorded

from ..tools import tool


def python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


async def until(condition, timeout: float = 20.0, step: float = 0.05):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(step)


async def test_a_process_that_ends_its_input_cleanly_is_not_restarted():
    transcoder = Transcoder(lambda: python("print('progress=end')"))
    assert await transcoder.run() == 0
    assert transcoder.restarts == 0 and transcoder.last_progress is not None and transcoder.last_progress.ended


async def test_a_crash_is_restarted_and_its_reason_kept_in_one_line():
    runs = []

    def command():
        runs.append(1)
        code = (
            "import sys; sys.exit(0)"
            if len(runs) == 3
            else "import sys; sys.stderr.write('boom: no input\\n'); sys.exit(1)"
        )
        return python(code)

    transcoder = Transcoder(command, restart_delay=0.01)
    assert await asyncio.wait_for(transcoder.run(), 10) == 0
    assert transcoder.restarts == 2 and transcoder.last_error == "boom: no input"


async def test_progress_is_reported_as_it_comes():
    seen: list[Progress] = []
    code = (
        "import sys, time\n"
        "for f in (30, 60):\n"
        " print(f'frame={f}\\nspeed=1.0x\\nprogress=continue', flush=True); time.sleep(0.05)"
    )
    await Transcoder(lambda: python(code), on_progress=seen.append).run()
    assert [p.frame for p in seen] == [30, 60]


async def test_stop_ends_the_process_and_no_restart_follows():
    transcoder = Transcoder(lambda: python("import time; time.sleep(60)"))
    running = asyncio.create_task(transcoder.run())
    await transcoder.wait_started()
    pid = transcoder.pid
    assert pid is not None
    await transcoder.stop()
    await asyncio.wait_for(running, 10)
    assert transcoder.pid is None and transcoder.restarts == 0
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


async def test_a_process_deaf_to_sigterm_is_killed():
    transcoder = Transcoder(
        lambda: python(
            "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
            "print('ready', flush=True); time.sleep(60)"
        ),
        stop_grace=0.5,
    )
    running = asyncio.create_task(transcoder.run())
    await transcoder.wait_started()
    await asyncio.sleep(0.3)
    await transcoder.stop()
    assert await asyncio.wait_for(running, 15) == -signal.SIGKILL


async def test_stops_asked_at_once_send_one_sigterm_as_a_second_would_make_ffmpeg_exit_mid_write(tmp_path):
    counted = tmp_path / "sigterms"
    code = (
        "import signal, sys, time\n"
        f"def counted(*_):\n open({str(counted)!r}, 'a').write('x')\n"
        "signal.signal(signal.SIGTERM, counted)\n"
        "print('ready', flush=True)\n"
        "time.sleep(0.6)\n"
        "sys.exit(0)"
    )
    transcoder = Transcoder(lambda: python(code), stop_grace=5)
    running = asyncio.create_task(transcoder.run())
    await transcoder.wait_started()
    await asyncio.sleep(0.2)
    await asyncio.gather(transcoder.stop(), transcoder.stop(), transcoder.stop())
    await asyncio.wait_for(running, 10)
    assert counted.read_text() == "x"


async def test_a_process_whose_input_ends_is_seen_to_end_by_itself():
    transcoder = Transcoder(lambda: python("import time; time.sleep(0.3)"))
    running = asyncio.create_task(transcoder.run())
    await transcoder.wait_started()
    assert await transcoder.ended(within=10)
    assert await running == 0
    waiting = Transcoder(lambda: python("import time; time.sleep(60)"))
    running = asyncio.create_task(waiting.run())
    await waiting.wait_started()
    assert not await waiting.ended(within=0.2)
    await waiting.stop()
    await running


async def test_a_killed_ffmpeg_is_back_within_3_s_and_the_recording_continues_with_a_discontinuity(tmp_path):
    ladder = plan(Source(416, 234, 30, has_audio=False))
    ffmpeg = tool("ffmpeg")
    feed = LiveInput("testsrc2=size=416x234:rate=30", has_audio=False, options=("-re", "-f", "lavfi"))
    runs = itertools.count(1)
    transcoder = Transcoder(
        lambda: live_hls_command(feed, tmp_path, ladder, segment_seconds=1, run=next(runs), ffmpeg=ffmpeg),
        restart_delay=0.5,
    )
    running = asyncio.create_task(transcoder.run())
    rendition = tmp_path / "234p"

    def uris() -> list[str]:
        return [s.uri for s in recorded(rendition).segments]

    try:
        await until(lambda: "r1-00001.ts" in uris())
        first = transcoder.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)
        killed_at = time.monotonic()
        await until(lambda: transcoder.pid not in (None, first))
        assert time.monotonic() - killed_at < 3
        # The restart records its own run; the recording continues behind a discontinuity.
        await until(lambda: "r2-00000.ts" in uris())
        segments = recorded(rendition).segments
        joined_at = [s.uri for s in segments].index("r2-00000.ts")
        assert segments[joined_at].discontinuous and not any(s.discontinuous for s in segments[:joined_at])
        assert transcoder.restarts == 1
    finally:
        await transcoder.stop()
        await asyncio.wait_for(running, 15)


SERVER_THAT_DIES = """
import asyncio, sys
from server.media.packaging.supervisor import Transcoder

async def main():
    transcoder = Transcoder(lambda: ["sleep", "600"])
    asyncio.ensure_future(transcoder.run())
    await transcoder.wait_started()
    print(transcoder.pid, flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's parent-death signal is Linux's")
async def test_a_transcoder_dies_with_the_server_process_that_started_it():
    server = await asyncio.create_subprocess_exec(
        *python(SERVER_THAT_DIES), stdout=asyncio.subprocess.PIPE, cwd=os.getcwd()
    )
    assert server.stdout is not None
    child = int(await asyncio.wait_for(server.stdout.readline(), 20))
    os.kill(child, 0)  # running
    server.kill()  # SIGKILL: the server runs no code of its own on the way out
    await server.wait()

    def gone() -> bool:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            return True
        return False

    await until(gone, timeout=5)


async def test_a_command_runs_under_the_process_that_started_it(tmp_path):
    ran = tmp_path / "ran"
    process = await asyncio.create_subprocess_exec(*dies_with_parent(["touch", str(ran)]))
    assert await process.wait() == 0
    assert ran.exists()


async def test_a_command_whose_server_died_before_it_could_be_told_never_starts(tmp_path):
    """The gap the kernel's parent-death signal leaves: a server killed between the fork and the
    request for the signal. Its child is already another's (here, as if: the parent named is not
    ours), so the command, an SRT listener that would hold its port for ever, does not run."""
    ran = tmp_path / "ran"
    process = await asyncio.create_subprocess_exec(*dies_with_parent(["touch", str(ran)], parent=os.getppid()))
    assert await process.wait() == 70
    assert not ran.exists()
