"""A real uvicorn serving an app on loopback, for tests that need sockets and a real HTTP server."""

import asyncio
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import uvicorn

STARTUP_TIMEOUT_S = 30


@asynccontextmanager
async def uvicorn_serving(make_app: Callable[[int], Any], **config: Any) -> AsyncIterator[str]:
    """Serves the ASGI app `make_app(port)` with uvicorn on a free loopback port, bound here and
    handed over (no race for the port); yields its base URL. `config`: uvicorn.Config options
    (quiet and without per-message deflate unless said otherwise)."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    options = {"log_level": "warning", "ws_per_message_deflate": False, **config}
    server = uvicorn.Server(uvicorn.Config(make_app(port), **options))
    task = asyncio.create_task(server.serve(sockets=[sock]))

    async def started() -> None:
        while not server.started:
            if task.done():
                task.result()  # surfaces why uvicorn stopped
                raise RuntimeError("uvicorn exited before it started")
            await asyncio.sleep(0.01)

    try:
        await asyncio.wait_for(started(), STARTUP_TIMEOUT_S)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task
        sock.close()
