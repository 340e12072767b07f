"""Runs the test pattern's ffmpeg (cli/pattern_encoder.py) for `touchline ingest test-pattern`:
finds ffmpeg and a font for the clock, shows ffmpeg's progress on stderr, stops it cleanly on
Ctrl-C, and keeps its last error line (secrets masked) for the message when it fails."""

import shutil
import signal
import subprocess
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from server.media.packaging.progress import Progress as Snapshot
from server.media.packaging.progress import snapshots

from ..admin_client import fail

FONT_FILES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",  # Debian, Ubuntu
    "/usr/share/fonts/dejavu-sans-fonts/DejaVuSans.ttf",  # Fedora
    "/usr/share/fonts/TTF/DejaVuSans.ttf",  # Arch
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
)
INTERRUPTED = 130  # the shell's code for a command stopped by Ctrl-C
STOP_GRACE_S = 5  # ffmpeg closes the stream on SIGINT; past this it is killed


def ffmpeg_executable() -> str:
    found = shutil.which("ffmpeg")
    if found is None:
        raise fail("ffmpeg is not installed: install the `ffmpeg` package (Debian: apt-get install ffmpeg)")
    return found


def font_file() -> str:
    """DejaVu Sans, where distributions put it, else wherever fontconfig says it is."""
    for candidate in FONT_FILES:
        if Path(candidate).is_file():
            return candidate
    if shutil.which("fc-match"):
        matched = subprocess.run(
            ["fc-match", "--format=%{file}", "DejaVu Sans"], capture_output=True, text=True, timeout=10, check=False
        ).stdout.strip()
        if matched and Path(matched).is_file():
            return matched
    raise fail(
        "No font for the test pattern's clock: install the `fonts-dejavu-core` package "
        "(Debian: apt-get install fonts-dejavu-core)"
    )


def publish(command: list[str], seconds: int, mask: Callable[[str], str]) -> None:
    """Run ffmpeg to its end. Exit 1 with its last error line when it fails, 130 on Ctrl-C."""
    process = subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace"
    )
    assert process.stdout is not None and process.stderr is not None
    errors: deque[str] = deque(maxlen=20)
    reader = threading.Thread(target=lambda: errors.extend(process.stderr or ()), daemon=True)
    reader.start()
    try:
        with _ctrl_c_stops(process) as stopped, _progress_bar(seconds) as show:
            for snapshot in snapshots(process.stdout):
                show(snapshot)
            code = process.wait()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        reader.join(STOP_GRACE_S)
    if stopped():
        Console(stderr=True, highlight=False).print("Stopped: the test pattern was interrupted.")
        raise typer.Exit(INTERRUPTED)
    if code != 0:
        said = next((line.strip() for line in reversed(errors) if line.strip()), f"exit code {code}")
        raise fail(f"ffmpeg stopped before the end: {mask(said)}")


@contextmanager
def _ctrl_c_stops(process: subprocess.Popen) -> Iterator[Callable[[], bool]]:
    """While the block runs, Ctrl-C is passed to ffmpeg, which then ends the stream properly
    (killed if it has not within STOP_GRACE_S, or on a second Ctrl-C); yields `stopped()`. A
    terminal's Ctrl-C reaches ffmpeg itself too: it quits at once only after several."""
    pressed = threading.Event()
    deadline = threading.Timer(STOP_GRACE_S, process.kill)  # nothing once ffmpeg has been waited for
    deadline.daemon = True

    def on_ctrl_c(signum: int, frame: object) -> None:
        if pressed.is_set():
            process.kill()
            return
        pressed.set()
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
        deadline.start()

    previous = signal.signal(signal.SIGINT, on_ctrl_c)
    try:
        yield pressed.is_set
    finally:
        signal.signal(signal.SIGINT, previous)
        deadline.cancel()


@contextmanager
def _progress_bar(seconds: int) -> Iterator[Callable[[Snapshot], None]]:
    """Seconds published of `seconds`, and ffmpeg's pace (below 1× the ingest falls behind); on
    stderr, so stdout keeps only the command's result."""
    with Progress(
        TextColumn("Publishing"),
        BarColumn(),
        TextColumn("{task.completed:.0f}/{task.total:.0f} s"),
        TextColumn("{task.fields[speed]}"),
        TimeElapsedColumn(),
        console=Console(stderr=True, highlight=False),
    ) as progress:
        task = progress.add_task("Publishing", total=seconds, speed="")

        def show(snapshot: Snapshot) -> None:
            speed = f"{snapshot.speed:.2f}× real time" if snapshot.speed is not None else ""
            progress.update(task, completed=min(snapshot.out_seconds, seconds), speed=speed)

        yield show
