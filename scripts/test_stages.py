"""`make test`'s stages: run in waves (the stages of a wave side by side), timed, summed up at the end.

    python scripts/test_stages.py lint "test-python contract" "test-e2e test-webapp"

Each argument is a wave of lanes, and the next wave starts when the whole wave has ended. The
lanes of a wave (separated by spaces) run at the same time; the make targets of a lane (joined by
`+`) run one after the other. The first lane of a wave prints as it goes; the others keep their
output in a file, printed whole once the wave has ended (two interleaved logs cannot be read). A failing
stage does not stop the others: the run reports every failure, then exits 1. The table at the end
says how long each stage and the whole took.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Stage:
    target: str
    seconds: float = 0.0
    code: int | None = None


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
            stage.code = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT if out else None).returncode
            stage.seconds = time.monotonic() - began
            print(f"\n==== {stage.target}: {_verdict(stage)} in {_duration(stage.seconds)} ====", flush=True)
    finally:
        if out is not None:
            out.close()


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
    print(summary(stages, time.monotonic() - began), flush=True)
    return 0 if all(s.code == 0 for s in stages) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
