"""nginx's RTMP module as a supervised child of the server (issue 28 §2): `make run` and
`touchline serve` take encoders' feeds on TOUCHLINE_RTMP_PORT with nothing else to start.

nginx runs from its own prefix (`<var>/ingest/<server port>/`: config, pid, logs) in the
foreground, and asks this very server about every publisher (server/ingest/hooks.py, on
loopback). A crash restarts it (server.media.packaging.supervisor; backing off to 30 s, so a
port another program holds costs a log line now and then, not a busy loop). Where nginx or its
RTMP module is missing, the server runs without ingest and says how to install them. In
`make cluster` one process runs it for the cluster (TOUCHLINE_INGEST_ENABLED on that one only).
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
from ..settings import Settings
from . import live_inputs, srt_listeners
from .hooks import hook_urls

log = logging.getLogger(__name__)

RESTART_AT_MOST_EVERY_S = 30.0


def nginx_binary(module: Path = NGINX_RTMP_MODULE) -> str | None:
    """nginx, when it and its RTMP module are installed."""
    found = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx", "/sbin/nginx") if Path(p).exists()), None)
    return found if found is not None and module.exists() else None


def rtmp_ingest(settings: Settings, control_port: int | None = None) -> RtmpIngest:
    """The ingest this server runs: its hooks on this server's own port, on loopback."""
    publish, done = hook_urls(settings, f"http://127.0.0.1:{settings.port}")
    return RtmpIngest(settings.ingest_host, settings.rtmp_port, publish, done, control_port=control_port)


def _free_loopback_port() -> int:
    """A port for nginx's control API: only this process talks to it (nginx's hooks call this
    process, which is where an encoder is dropped), so any free one does."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _prepared(settings: Settings, ingest: RtmpIngest, module: Path) -> Path:
    """nginx's prefix directory, with its configuration written."""
    prefix = Path(settings.var_dir) / "ingest" / str(settings.port)
    prefix.mkdir(parents=True, exist_ok=True)
    (prefix / "nginx.conf").write_text(nginx_config(ingest, prefix, module))
    return prefix


@contextlib.asynccontextmanager
async def _feeds(settings: Settings, ingest: RtmpIngest, database: Database | None) -> AsyncIterator[None]:
    """The live inputs nginx lets in are transcoded by this process (server.ingest.live_inputs)."""
    if database is None:
        yield
        return
    async with live_inputs.serving(live_inputs.LiveInputs(settings, database, ingest)):
        yield


@contextlib.asynccontextmanager
async def running(
    settings: Settings, module: Path = NGINX_RTMP_MODULE, *, database: Database | None = None
) -> AsyncIterator[Transcoder | None]:
    """nginx-rtmp, and with a database the SRT listeners of the keys in force (server.ingest.srt_listeners),
    for as long as the context lasts (None when ingest is off or not installed)."""
    if not settings.ingest_enabled:
        yield None
        return
    nginx = nginx_binary(module)
    if nginx is None:
        log.warning(
            "live ingest is off: nginx with its RTMP module is not installed (scripts/system-deps serve installs it)"
        )
        yield None
        return
    ingest = rtmp_ingest(settings, _free_loopback_port())
    prefix = _prepared(settings, ingest, module)
    child = Transcoder(
        lambda: nginx_command(prefix, nginx), name="nginx-rtmp", max_restart_delay=RESTART_AT_MOST_EVERY_S
    )
    task = asyncio.create_task(child.run())
    log.info("live ingest: rtmp://%s:%s/live/<stream key>", settings.ingest_host, settings.rtmp_port)
    try:
        async with srt_listeners.running(settings, database), _feeds(settings, ingest, database):
            yield child
    finally:
        await child.stop()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
