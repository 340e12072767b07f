"""Run an ASGI app under uvicorn in a subprocess, configured like production."""

import http.client
import importlib.util
import inspect
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

# uvicorn must import `server...` whatever the caller's working directory is.
_REPO_ROOT = str(Path(__file__).resolve().parents[2])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def uvicorn_command(target: str, port: int, factory: bool = True) -> list[str]:
    # One worker, no access log, wsproto without deflate: how `touchline serve` runs the app.
    loop = "uvloop" if importlib.util.find_spec("uvloop") else "asyncio"
    cmd = [
        sys.executable,
        "-m",
        "uvicorn",
        target,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--workers",
        "1",
        "--no-access-log",
        "--ws",
        "wsproto",
        "--ws-per-message-deflate",
        "false",
        "--loop",
        loop,
        "--http",
        "httptools",
        "--log-level",
        "warning",
    ]
    return cmd + (["--factory"] if factory else [])


def touchline_app():
    """uvicorn factory for the real app: settings come from the environment."""
    from server.app import create_app

    params = list(inspect.signature(create_app).parameters.values())
    if params and params[0].default is inspect.Parameter.empty:
        from server.settings import Settings

        return create_app(Settings())
    return create_app()


def wait_answering(
    url: str, process: subprocess.Popen, output: Callable[[], str], timeout: float, *, healthy: bool = False
) -> None:
    """Waits until `url` answers (any HTTP answer: the app finished its lifespan startup and is
    routing; with `healthy`, a 200), failing at once with the end of `output()` if `process` exits."""
    deadline = time.monotonic() + timeout
    host, port = urlsplit(url).hostname or "127.0.0.1", urlsplit(url).port or 80
    path = urlsplit(url).path or "/"
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}:\n{output()[-3000:]}")
        try:
            conn = http.client.HTTPConnection(host, port, timeout=2)
            conn.request("GET", path)
            status = conn.getresponse().status
            conn.close()
            if status == 200 or not healthy:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise TimeoutError(f"{url} did not answer{' 200' if healthy else ''} within {timeout:.0f} s:\n{output()[-3000:]}")


def _file_text(log) -> Callable[[], str]:
    def read() -> str:
        log.seek(0)
        return log.read()

    return read


class Server:
    def __init__(self, proc: subprocess.Popen, port: int):
        self.proc, self.port = proc, port
        self.base_url = f"http://127.0.0.1:{port}"

    @property
    def pid(self) -> int:
        return self.proc.pid


@contextmanager
def run_server(
    target: str,
    env: dict | None = None,
    ready_path: str = "/",
    factory: bool = True,
    timeout: float = 60.0,
    cwd: str | None = None,
):
    """Start `target` (module:factory), yield a Server once it answers, then stop it. `env` may
    name another tree in PYTHONPATH (and `cwd`) to serve that tree's code."""
    port = free_port()
    with tempfile.TemporaryFile("w+") as log:
        proc = subprocess.Popen(
            uvicorn_command(target, port, factory),
            # No nginx-rtmp beside a measured server (several run at once, all on one port).
            env={**os.environ, "PYTHONPATH": _REPO_ROOT, "TOUCHLINE_INGEST_ENABLED": "false", **(env or {})},
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=cwd,
        )
        try:
            wait_answering(f"http://127.0.0.1:{port}{ready_path}", proc, _file_text(log), timeout)
            yield Server(proc, port)
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


def fresh_sqlite_database(path) -> str:
    """A new, migrated SQLite database at `path` (any earlier one is removed); its URL."""
    from server.migrate import upgrade

    path.parent.mkdir(parents=True, exist_ok=True)
    for suffix in ("", "-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
    url = f"sqlite+aiosqlite:///{path}"
    upgrade(url)
    return url


def analyzed(url: str) -> str:
    """`url`, its planner statistics gathered if it is PostgreSQL: a database just filled in bulk
    has none until autovacuum's next round, which a served database would long have had, and
    list queries planned without them ran at about two thirds of their rate here. SQLite keeps
    its defaults: nothing analyzes the database `make run` serves either."""
    if url.startswith("postgresql"):
        import psycopg
        from sqlalchemy.engine import make_url

        from server.db_pg_reads import conninfo_of

        with psycopg.connect(conninfo_of(make_url(url)), autocommit=True) as conn:
            conn.execute("ANALYZE")
    return url
