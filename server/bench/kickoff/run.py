"""Running the kickoff load test's pieces: the servers under test and one locust run.

Locust runs as a subprocess (`python -m locust --headless`), never in this process: importing
locust monkey-patches the standard library with gevent, which must not reach the asyncio code
that prepares databases here, nor a pytest session.
"""

import json
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..fanout import redis_server
from ..servers import _REPO_ROOT, free_port, run_server, wait_answering
from .analysis import Sample, read_requests
from .mix import FACTOR, RAMP_SECONDS, VIEWER_RPS
from .prepare import server_env

LOCUSTFILE = Path(__file__).with_name("locustfile.py")


@dataclass(frozen=True)
class Shape:
    """The locustfile's KICKOFF_* settings for one run."""

    base_seconds: float = 10
    ramp_seconds: float = RAMP_SECONDS
    hold_seconds: float = 15
    factor: float = FACTOR
    signin_share: float = 0.05  # of arriving viewers who sign in with a password (the rest refresh)
    socket_share: float = 0.2  # of arriving viewers who hold a socket in the event room
    burst: int = 0  # sign-ins of the fairness check
    burst_at: float = 8
    burst_spread: float = 2

    @property
    def seconds(self) -> float:
        return self.base_seconds + self.ramp_seconds + self.hold_seconds

    def env(self, base_viewers: int) -> dict[str, str]:
        values = {
            "KICKOFF_BASE_RPS": base_viewers * VIEWER_RPS,
            "KICKOFF_BASE_SECONDS": self.base_seconds,
            "KICKOFF_RAMP_SECONDS": self.ramp_seconds,
            "KICKOFF_HOLD_SECONDS": self.hold_seconds,
            "KICKOFF_FACTOR": self.factor,
            "KICKOFF_SIGNIN_SHARE": self.signin_share,
            "KICKOFF_SOCKET_SHARE": self.socket_share,
            "KICKOFF_BURST_SIGNINS": self.burst,
            "KICKOFF_BURST_AT": self.burst_at,
            "KICKOFF_BURST_SPREAD": self.burst_spread,
        }
        return {name: repr(value) for name, value in values.items()}


def run_locust(
    base_url: str, plan: Path, workdir: Path, label: str, base_viewers: int, shape: Shape
) -> tuple[list[Sample], dict]:
    """One headless locust run of the kickoff shape; every request, and the run's summary.
    Its console output goes to `workdir/label.log`."""
    workdir.mkdir(parents=True, exist_ok=True)
    requests, summary, output = (workdir / f"{label}{suffix}" for suffix in (".csv", ".json", ".log"))
    summary.unlink(missing_ok=True)
    env = {
        **os.environ,
        "PYTHONPATH": _REPO_ROOT,
        "KICKOFF_PLAN": str(plan),
        "KICKOFF_REQUEST_LOG": str(requests),
        "KICKOFF_SUMMARY": str(summary),
        **shape.env(base_viewers),
    }
    command = [
        sys.executable,
        "-m",
        "locust",
        "-f",
        str(LOCUSTFILE),
        "--headless",
        "--host",
        base_url,
        "--only-summary",
        "--loglevel",
        "WARNING",
    ]
    # The shape ends the run; the margin covers locust's start and a late burst (BURST_GRACE).
    timeout = shape.seconds + (90 if shape.burst else 30)
    with output.open("w") as out:
        subprocess.run(command, env=env, stdout=out, stderr=subprocess.STDOUT, timeout=timeout, check=False)
    if not summary.exists():
        raise RuntimeError(f"locust wrote no summary; its output ({output}):\n{output.read_text()[-3000:]}")
    return read_requests(requests), json.loads(summary.read_text())


@contextmanager
def single_process(database_url: str, settings: dict[str, str] | None = None) -> Iterator[str]:
    """One server process (uvicorn, as `touchline serve` runs it), with `settings` (environment
    variables) over the bench's own; yields its base URL."""
    env = {**server_env(database_url), **(settings or {})}
    with run_server("server.bench.servers:touchline_app", env, "/api/health") as server:
        yield server.base_url


def _two_free_ports() -> tuple[int, int]:
    """HAProxy's port and the first server process's; the second process takes the next one."""
    for _ in range(50):
        first = free_port()
        ports = (first + 1, first + 2)
        try:
            for port in ports:
                with socket.socket() as s:
                    s.bind(("127.0.0.1", port))
        except OSError:
            continue
        return first, first + 1
    raise RuntimeError("no three consecutive free ports")


@contextmanager
def cluster(database_url: str, workdir: Path, workers: int = 2) -> Iterator[str]:
    """`touchline cluster` (HAProxy, `workers` server processes) on `database_url` and a private
    redis-server; yields HAProxy's base URL. The database is migrated and seeded already."""
    workdir.mkdir(parents=True, exist_ok=True)
    log = workdir / "cluster.log"
    with redis_server() as redis_url:
        port, first = _two_free_ports()
        command = [
            *(sys.executable, "-m", "cli.main", "cluster"),
            *("--workers", str(workers), "--port", str(port), "--first-process-port", str(first)),
            *("--database-url", database_url, "--redis-url", redis_url, "--no-seed"),
        ]
        with log.open("w") as out:
            process = subprocess.Popen(
                command,
                env={**os.environ, "PYTHONPATH": _REPO_ROOT, **server_env(database_url, redis_url)},
                cwd=_REPO_ROOT,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
            try:
                url = f"http://127.0.0.1:{port}"
                wait_answering(f"{url}/api/health", process, log.read_text, timeout=120, healthy=True)
                yield url
            finally:
                # SIGTERM: the cluster stops HAProxy and its server processes itself.
                if process.poll() is None:
                    process.send_signal(signal.SIGTERM)
                    try:
                        process.wait(60)
                    except subprocess.TimeoutExpired:
                        process.kill()
                        process.wait()
