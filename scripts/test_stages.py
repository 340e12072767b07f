"""`make test`'s stages: run in waves (the stages of a wave side by side), timed, summed up at the end.

    python scripts/test_stages.py lint "test-python contract" "test-e2e test-webapp"

Each argument is a wave of lanes, and the next wave starts when the whole wave has ended. The
lanes of a wave (separated by spaces) run at the same time; the make targets of a lane (joined by
`+`) run one after the other. The first lane of a wave prints as it goes; the others keep their
output in a file, printed whole once the wave has ended (two interleaved logs cannot be read). A failing
stage does not stop the others: the run reports every failure, then exits 1. The end of the run
names what failed in each failed stage (its failing lines, read from the stage's output) and gives a
table of how long each stage and the whole took, so the last screenful of a CI log says it all.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO


@dataclass
class Stage:
    target: str
    seconds: float = 0.0
    code: int | None = None
    output: bytes = b""


@dataclass
class Lane:
    """Stages run one after the other (`lint+contract`); the first lane of a wave prints as it goes."""

    stages: list[Stage]
    log: Path | None
    thread: threading.Thread | None = None

    @property
    def name(self) -> str:
        return " then ".join(stage.target for stage in self.stages)


def _run_lane(lane: Lane) -> None:
    out = lane.log.open("wb") if lane.log is not None else None
    try:
        for stage in lane.stages:
            began = time.monotonic()
            command = [os.environ.get("MAKE", "make"), "--no-print-directory", stage.target]
            stage.code, stage.output = _run_stage(command, out or sys.stdout.buffer)
            stage.seconds = time.monotonic() - began
            print(f"\n==== {stage.target}: {_verdict(stage)} in {_duration(stage.seconds)} ====", flush=True)
    finally:
        if out is not None:
            out.close()


def _run_stage(command: list[str], sink: BinaryIO) -> tuple[int, bytes]:
    """Runs one stage, its output going to `sink` as it comes and kept for the failure report."""
    kept = bytearray()
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT) as process:
        assert process.stdout is not None
        for line in process.stdout:
            sink.write(line)
            sink.flush()
            kept += line
    return process.returncode, bytes(kept)


# What a failing test looks like in each runner's last report: pytest's `FAILED path::test - …` and
# `ERROR …`, Vitest's `FAIL  file > test`, Playwright's `✘` and numbered `1) [chromium] › …`, Dredd's
# `fail:`, and a Python traceback's last line.
_FAILING_LINE = re.compile(
    r"^(FAILED|ERROR) |^ ?FAIL |✘|^\s+\d+\) \[|^fail: |^\w+(Error|Exception): |\b\d+ (failed|errors?)\b"
)
_ANSI = re.compile(rb"\x1b\[[0-9;]*m")
_FAILING_LINES_SHOWN = 12


def failing_lines(output: bytes) -> list[str]:
    """The lines of a stage's output that name what failed, the last of them, each once."""
    lines = _ANSI.sub(b"", output).decode("utf-8", "replace").splitlines()
    found = list(dict.fromkeys(line.rstrip()[:300] for line in lines if _FAILING_LINE.search(line)))
    if not found:
        found = [line.rstrip()[:300] for line in lines if line.strip()]
    return found[-_FAILING_LINES_SHOWN:]


def failures(stages: list[Stage]) -> str:
    parts = []
    for stage in stages:
        if stage.code != 0:
            parts.append(f"\n==== {stage.target} failed: ====")
            parts += [f"  {line}" for line in failing_lines(stage.output)]
    return "\n".join(parts)


def _verdict(stage: Stage) -> str:
    return "passed" if stage.code == 0 else f"FAILED (exit {stage.code})"


def _duration(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes}m{rest:02d}s"


def run_waves(waves: list[list[str]], folder: Path) -> list[Stage]:
    done: list[Stage] = []
    for number, wave in enumerate(waves):
        lanes = [
            Lane([Stage(target) for target in lane.split("+")], None if i == 0 else folder / f"{number}-{i}.log")
            for i, lane in enumerate(wave)
        ]
        beside = (
            f" (beside it, printed after it: {'; '.join(lane.name for lane in lanes[1:])})" if len(lanes) > 1 else ""
        )
        print(f"\n==== {lanes[0].name}{beside} ====", flush=True)
        for lane in lanes:
            lane.thread = threading.Thread(target=_run_lane, args=(lane,), name=lane.name)
            lane.thread.start()
        for lane in lanes:
            assert lane.thread is not None
            lane.thread.join()
        for lane in lanes[1:]:
            assert lane.log is not None
            print(f"\n==== {lane.name}: its output ====", flush=True)
            sys.stdout.buffer.write(lane.log.read_bytes())
            sys.stdout.flush()
        done += [stage for lane in lanes for stage in lane.stages]
    return done


def summary(stages: list[Stage], total: float) -> str:
    width = max(len(s.target) for s in stages)
    lines = ["", "==== make test: time per stage ===="]
    lines += [
        f"  {s.target:<{width}}  {_duration(s.seconds):>7}  {'passed' if s.code == 0 else 'FAILED'}" for s in stages
    ]
    lines.append(f"  {'total':<{width}}  {_duration(total):>7}")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    waves = [wave.split() for wave in argv]
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="touchline-stages-") as folder:
        stages = run_waves(waves, Path(folder))
    print(failures(stages) + summary(stages, time.monotonic() - began), flush=True)
    return 0 if all(s.code == 0 for s in stages) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
