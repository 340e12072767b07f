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
from contextlib import contextmanager
from pathlib import Path

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


def _wait_ready(proc: subprocess.Popen, port: int, path: str, timeout: float, log) -> None:
    # Any HTTP answer means the app finished its lifespan startup and is routing.
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            log.seek(0)
            raise RuntimeError(f"server exited with {proc.returncode}:\n{log.read()[-3000:]}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", path)
            conn.getresponse().read()
            conn.close()
            return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError(f"server on port {port} not ready after {timeout}s")


class Server:
    def __init__(self, proc: subprocess.Popen, port: int):
        self.proc, self.port = proc, port
        self.base_url = f"http://127.0.0.1:{port}"

    @property
    def pid(self) -> int:
        return self.proc.pid


@contextmanager
def run_server(
    target: str, env: dict | None = None, ready_path: str = "/", factory: bool = True, timeout: float = 60.0
):
    """Start `target` (module:factory), yield a Server once it answers, then stop it."""
    port = free_port()
    with tempfile.TemporaryFile("w+") as log:
        proc = subprocess.Popen(
            uvicorn_command(target, port, factory),
            env={**os.environ, "PYTHONPATH": _REPO_ROOT, **(env or {})},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            _wait_ready(proc, port, ready_path, timeout, log)
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
