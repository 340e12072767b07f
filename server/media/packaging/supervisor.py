"""One supervised ffmpeg (issue 28 §3): started, its progress read, restarted soon after a crash,
stopped on request.

A transcoder that dies (a crash, a kill, an out-of-memory) is started again within
`restart_delay` seconds (doubling while it keeps dying, up to `max_restart_delay`, 3 s by
default: the issue's bound). Its command appends to the same playlists, so the restart shows as
an `EXT-X-DISCONTINUITY` and players continue (server.media.packaging.live_hls). An ffmpeg that
ends by itself with status 0 has reached the end of its input (the publisher stopped): that is not
a crash, and what follows (the reconnect grace, the interruption) is the ingest's decision.
A transcoder dies with the server process that started it (`dies_with_parent`).
"""

import asyncio
import contextlib
import logging
import os
import shutil
import signal
import sys
from collections.abc import Callable

from .progress import Progress, snapshots

log = logging.getLogger(__name__)

STOP_GRACE_SECONDS = 5.0
# util-linux's setpriv (in every Debian) asks the kernel to SIGTERM the child when the server dies.
SETPRIV = shutil.which("setpriv")


# Run between setpriv and the command: a parent that died before setpriv asked for the signal
# never sends it (the child is already another's), so the command starts only under its parent.
_UNDER_PARENT = '[ "$PPID" = "$1" ] || exit 70; shift; exec "$@"'


def dies_with_parent(command: list[str], parent: int | None = None) -> list[str]:
    """`command`, ended (SIGTERM, so ffmpeg closes its files) when this process (`parent`) dies,
    however it dies: a killed server's transcoders and SRT listeners never go on writing beside the
    ones of the process that takes its inputs over (server.ingest.live_inputs), nor hold nginx's or
    an SRT port. setpriv sets it, then a shell execs the command in its place (same pid) if the
    parent is still there; without setpriv the command runs as it is."""
    if SETPRIV is None or not sys.platform.startswith("linux"):
        return command
    expected = os.getpid() if parent is None else parent
    return [SETPRIV, "--pdeathsig", "TERM", "--", "/bin/sh", "-c", _UNDER_PARENT, "sh", str(expected), *command]


class Transcoder:
    def __init__(
        self,
        command: Callable[[], list[str]],
        *,
        on_progress: Callable[[Progress], None] | None = None,
        restart_delay: float = 0.5,
        max_restart_delay: float = 3.0,
        stop_grace: float = STOP_GRACE_SECONDS,
        name: str = "ffmpeg",
    ):
        self._command = command
        self._on_progress = on_progress
        self._restart_delay = restart_delay
        self._max_restart_delay = max_restart_delay
        self._stop_grace = stop_grace
        self.name = name
        self.restarts = 0
        self.last_progress: Progress | None = None
        self.last_error: str | None = None  # ffmpeg's last line on stderr: its reason, readable
        self.exit_code: int | None = None
        self._process: asyncio.subprocess.Process | None = None
        self._stopping = asyncio.Event()
        self._started = asyncio.Event()
        self._terminating: tuple[asyncio.subprocess.Process, asyncio.Future[None]] | None = None

    @property
    def pid(self) -> int | None:
        process = self._process
        return process.pid if process is not None and process.returncode is None else None

    async def wait_started(self) -> None:
        await self._started.wait()

    async def run(self) -> int:
        """Run until the input ends (returns 0) or stop() (returns the last exit code)."""
        delay = self._restart_delay
        while True:
            code = await self._run_once()
            self.exit_code = code
            if self._stopping.is_set() or code == 0:
                return code
            self.restarts += 1
            log.warning("%s died (exit %s: %s); restarting in %.1f s", self.name, code, self.last_error, delay)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), delay)
                return code
            delay = min(delay * 2, self._max_restart_delay)

    async def _run_once(self) -> int:
        process = await asyncio.create_subprocess_exec(
            *dies_with_parent(self._command()),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            start_new_session=True,  # a stop signals ffmpeg alone, never the server's group
        )
        self._process = process
        self._started.set()
        await asyncio.gather(self._read_progress(process), self._read_errors(process))
        return await process.wait()

    async def _read_progress(self, process: asyncio.subprocess.Process) -> None:
        assert process.stdout is not None
        lines: list[str] = []
        async for raw in process.stdout:
            lines.append(raw.decode(errors="replace"))
            if raw.startswith(b"progress="):
                for progress in snapshots(lines):
                    self.last_progress = progress
                    if self._on_progress is not None:
                        self._on_progress(progress)
                lines = []

    async def _read_errors(self, process: asyncio.subprocess.Process) -> None:
        assert process.stderr is not None
        async for raw in process.stderr:
            line = raw.decode(errors="replace").strip()
            if line:
                self.last_error = line[:500]

    async def stop(self) -> None:
        """Stop ffmpeg (SIGTERM, so it closes its files; SIGKILL after a grace) and do not restart.
        One SIGTERM however many ask: ffmpeg takes a second one as "exit now", which interrupts
        the very writes that close its files (a run's playlist is left empty)."""
        self._stopping.set()
        process = self._process
        if process is None or process.returncode is not None:
            return
        if self._terminating is None or self._terminating[0] is not process:
            self._terminating = (process, asyncio.ensure_future(self._terminate(process)))
        await asyncio.shield(self._terminating[1])

    async def _terminate(self, process: asyncio.subprocess.Process) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), self._stop_grace)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            await process.wait()

    async def ended(self, within: float) -> bool:
        """Whether the running ffmpeg ends by itself within `within` seconds (its input ended)."""
        process = self._process
        if process is None or process.returncode is not None:
            return True
        try:
            await asyncio.wait_for(asyncio.shield(process.wait()), within)
        except TimeoutError:
            return False
        return True
