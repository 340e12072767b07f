"""The ingest of a server process (issue 28 §2, §6): nginx-rtmp, the SRT listeners and the live
inputs.

- `make run` and `touchline serve` (TOUCHLINE_INGEST_NGINX=own): nginx's RTMP module runs as a
  supervised child of the server, so encoders' feeds arrive on TOUCHLINE_RTMP_PORT with nothing
  else to start. nginx runs from its own prefix (`<var>/ingest/<server port>/`: config, pid,
  logs) in the foreground and asks this very server about every publisher
  (server/ingest/hooks.py, on loopback). A crash restarts it (server.media.packaging.supervisor;
  backing off to 30 s, so a port another program holds costs a log line now and then, not a
  busy loop).
- `make cluster` (TOUCHLINE_INGEST_NGINX=external): the cluster's launcher runs one nginx-rtmp for
  every process (`prepare_nginx`), whose hooks go through HAProxy to any process; each process
  reads its stat page and uses its control API on TOUCHLINE_RTMP_CONTROL_PORT.

Either way every process takes part in transcoding: each live input is run by the process that
holds its lease (server.ingest.live_inputs), and the SRT listeners by the one that holds theirs
(server.ingest.srt_listeners). Where nginx or its RTMP module is missing, the server runs without
ingest and says how to install them.
"""

import asyncio
import contextlib
import logging
import shutil
import socket
from collections.abc import AsyncIterator
from pathlib import Path

from ..db import Database
from ..media.packaging.supervisor import Transcoder
from ..media.sources.rtmp import NGINX_RTMP_MODULE, RtmpIngest, nginx_command, nginx_config
from ..services import job_runs
from ..settings import Settings
from . import live_inputs, srt_listeners
from .hooks import hook_urls

log = logging.getLogger(__name__)

RESTART_AT_MOST_EVERY_S = 30.0


def find_nginx() -> str | None:
    """nginx, when it is installed (on PATH or in sbin, which a user's PATH may leave out)."""
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx", "/sbin/nginx") if Path(p).exists()), None)


def nginx_binary(module: Path = NGINX_RTMP_MODULE) -> str | None:
    """nginx, when it and its RTMP module are installed."""
    found = find_nginx()
    return found if found is not None and module.exists() else None


def rtmp_ingest(settings: Settings, control_port: int | None = None, hooks_at: str | None = None) -> RtmpIngest:
    """The ingest nginx-rtmp serves: its hooks on `hooks_at` (this server's own port by default,
    on loopback)."""
    publish, done = hook_urls(settings, hooks_at or f"http://127.0.0.1:{settings.port}")
    return RtmpIngest(settings.ingest_host, settings.rtmp_port, publish, done, control_port=control_port)


def free_loopback_port() -> int:
    """A port for nginx's control API, which only this machine's processes talk to."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def prepare_nginx(ingest: RtmpIngest, prefix: Path, module: Path = NGINX_RTMP_MODULE) -> Path:
    """nginx's prefix directory, with its configuration written."""
    prefix.mkdir(parents=True, exist_ok=True)
    (prefix / "nginx.conf").write_text(nginx_config(ingest, prefix, module))
    return prefix


@contextlib.asynccontextmanager
async def _feeds(settings: Settings, ingest: RtmpIngest, database: Database | None) -> AsyncIterator[None]:
    """The live inputs this process holds the leases of (server.ingest.live_inputs), and the SRT
    listeners when it holds theirs."""
    if database is None:
        yield
        return
    holder = job_runs.new_holder()
    inputs = live_inputs.LiveInputs(settings, database, ingest, holder=holder)
    async with srt_listeners.running(settings, database, holder=holder), live_inputs.serving(inputs):
        yield


@contextlib.asynccontextmanager
async def _own_nginx(settings: Settings, nginx: str, module: Path) -> AsyncIterator[tuple[Transcoder, RtmpIngest]]:
    """nginx-rtmp as this process's supervised child, asking this process about publishers."""
    ingest = rtmp_ingest(settings, settings.rtmp_control_port or free_loopback_port())
    prefix = prepare_nginx(ingest, Path(settings.var_dir) / "ingest" / str(settings.port), module)
    child = Transcoder(
        lambda: nginx_command(prefix, nginx), name="nginx-rtmp", max_restart_delay=RESTART_AT_MOST_EVERY_S
    )
    task = asyncio.create_task(child.run())
    log.info("live ingest: rtmp://%s:%s/live/<stream key>", settings.ingest_host, settings.rtmp_port)
    try:
        yield child, ingest
    finally:
        await child.stop()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


@contextlib.asynccontextmanager
async def running(
    settings: Settings, module: Path = NGINX_RTMP_MODULE, *, database: Database | None = None
) -> AsyncIterator[Transcoder | None]:
    """The ingest of this process for as long as the context lasts; yields its nginx-rtmp child
    (None when ingest is off or not installed, or when nginx is the cluster's)."""
    if not settings.ingest_enabled:
        yield None
        return
    if settings.ingest_nginx == "external":
        ingest = rtmp_ingest(settings, settings.rtmp_control_port)
        log.info("live ingest: nginx-rtmp of the cluster, rtmp://%s:%s", settings.ingest_host, settings.rtmp_port)
        async with _feeds(settings, ingest, database):
            yield None
        return
    nginx = nginx_binary(module)
    if nginx is None:
        log.warning(
            "live ingest is off: nginx with its RTMP module is not installed (scripts/system-deps serve installs it)"
        )
        yield None
        return
    async with _own_nginx(settings, nginx, module) as (child, ingest), _feeds(settings, ingest, database):
        yield child
