"""Starting, watching and stopping the processes of `touchline cluster`: the database it needs,
the server processes, HAProxy in front of them."""

import contextlib
import json
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import psycopg
from psycopg import sql
from sqlalchemy.engine import make_url

STOP_SECONDS = 15


class ClusterError(RuntimeError):
    """Something the operator must fix: the message says what."""


def touchline_command(*args: str) -> list[str]:
    """The `touchline` CLI of this interpreter (works from a virtualenv without activating it)."""
    return [sys.executable, "-m", "cli.main", *args]


def ensure_postgres_database(url: str) -> bool:
    """Create the PostgreSQL database of `url` when it does not exist; True when it was created."""
    target = make_url(url)
    if not target.drivername.startswith("postgresql"):
        raise ClusterError(f"the cluster runs on PostgreSQL; {target.drivername} is not supported here")
    admin = target.set(drivername="postgresql", database="postgres").render_as_string(hide_password=False)
    try:
        with psycopg.connect(admin, autocommit=True, connect_timeout=5) as connection:
            exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", (target.database,)).fetchone()
            if exists:
                return False
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(target.database or "")))
            return True
    except psycopg.OperationalError as error:
        raise ClusterError(f"cannot reach PostgreSQL at {target.host}:{target.port or 5432}: {error}") from None


def healthy(url: str, timeout: float = 2.0) -> dict | None:
    """GET url/api/health's content when it answers 200, else None."""
    try:
        with urllib.request.urlopen(f"{url}/api/health", timeout=timeout) as answer:
            return json.loads(answer.read())["content"]
    except (urllib.error.URLError, OSError, ValueError, KeyError):
        return None


@dataclass
class Child:
    name: str
    url: str | None
    command: list[str]
    env: dict[str, str] = field(repr=False)
    process: subprocess.Popen
    log_path: Path
    log: IO[str] = field(repr=False)
    restarts: int = 0

    def alive(self) -> bool:
        return self.process.poll() is None

    def tail(self, characters: int = 3000) -> str:
        self.log.flush()
        return self.log_path.read_text(errors="replace")[-characters:]


class Supervisor:
    """The cluster's children: started in order, each logging to a file of its own, all stopped
    (SIGTERM, then SIGKILL after STOP_SECONDS) when the block ends."""

    def __init__(self, log_dir: Path):
        self.log_dir = log_dir
        self.children: list[Child] = []

    def start(self, name: str, command: list[str], env: dict[str, str], url: str | None = None) -> Child:
        log_path = self.log_dir / f"{name}.log"
        log = log_path.open("w")
        child = Child(name, url, command, env, self._spawn(command, env, log), log_path, log)
        self.children.append(child)
        return child

    def restart(self, child: Child) -> None:
        """Start an exited child again (its log goes on in the same file)."""
        child.log.write(f"\n--- exited with {child.process.returncode}; restarted ---\n")
        child.log.flush()
        child.process = self._spawn(child.command, child.env, child.log)
        child.restarts += 1

    @staticmethod
    def _spawn(command: list[str], env: dict[str, str], log: IO[str]) -> subprocess.Popen:
        # A session of its own: Ctrl-C in the terminal reaches the supervisor, which stops the
        # children in order, instead of every process at once.
        return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)

    def wait_healthy(self, child: Child, timeout: float = 90) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not child.alive():
                raise ClusterError(f"{child.name} exited with {child.process.returncode}:\n{child.tail()}")
            content = healthy(child.url or "")
            if content is not None:
                return content
            time.sleep(0.2)
        raise ClusterError(f"{child.name} did not become healthy within {timeout:g} s:\n{child.tail()}")

    def first_exited(self) -> Child | None:
        return next((child for child in self.children if not child.alive()), None)

    def stop(self) -> None:
        for child in reversed(self.children):  # the balancer first: no new requests reach the servers
            if child.alive():
                child.process.terminate()
        for child in reversed(self.children):
            try:
                child.process.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                child.process.kill()
                child.process.wait(STOP_SECONDS)
            with contextlib.suppress(OSError):
                child.log.close()


def haproxy_binary() -> str:
    binary = shutil.which("haproxy") or next(
        (str(p) for p in (Path("/usr/sbin/haproxy"), Path("/usr/local/sbin/haproxy")) if p.exists()), None
    )
    if binary is None:
        raise ClusterError("HAProxy is not installed (Debian package haproxy)")
    return binary
