"""Processes and faults for the realtime tests: a private redis-server that a test may kill and
restart, and a TCP proxy that can stop forwarding without closing (a half-open connection).

Nothing here touches a shared Redis: every server is started on a free loopback port and
stopped by the test that started it.
"""

import asyncio
import contextlib
import os
import random
import shutil
import socket
import subprocess
import time

import pytest
import redis

# Below Linux's ephemeral range (32768-60999), from which the system picks the local port of every
# outgoing connection: a port found free there can be taken by a client (a test's own database
# connection) before the server meant for it binds it.
LISTEN_PORTS = range(20_000, 32_768)


def free_port() -> int:
    """A loopback TCP port nothing holds now, outside the ephemeral range."""
    for _ in range(200):
        port = random.choice(LISTEN_PORTS)
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free loopback port found")


def redis_server_binary() -> str:
    """Path of redis-server; skips (or fails with REQUIRE_REDIS=1, as in CI) when missing."""
    binary = shutil.which("redis-server")
    if binary is None:
        message = "redis-server is not installed (Debian package redis-server; .ci/run installs it)"
        if os.environ.get("REQUIRE_REDIS") == "1":
            pytest.fail(f"Redis is required (REQUIRE_REDIS=1): {message}")
        pytest.skip(message)
    return binary


class RedisServer:
    """A redis-server of our own on 127.0.0.1:`port`, without persistence."""

    def __init__(self, binary: str, port: int | None = None):
        self.binary = binary
        self.port = port or free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def client(self) -> redis.Redis:
        return redis.Redis(port=self.port, socket_connect_timeout=1, socket_timeout=2)

    def start(self, timeout: float = 10) -> "RedisServer":
        self.process = subprocess.Popen(
            [
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--daemonize",
                "no",
                "--loglevel",
                "warning",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        while True:
            with contextlib.suppress(redis.exceptions.RedisError):
                if self.client().ping():
                    return self
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server on port {self.port} exited with {self.process.returncode}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"redis-server on port {self.port} did not answer within {timeout} s")
            time.sleep(0.02)

    def kill(self) -> None:
        """SIGKILL, like a crash: connections are cut, nothing is said to clients."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    def numsub(self, channel: str) -> int:
        [(_, count)] = self.client().pubsub_numsub(channel)
        return int(count)


class TcpProxy:
    """Forwards 127.0.0.1:`port` to a target port; `freeze()` stops moving bytes in both
    directions while every connection stays open (what a dead network path looks like),
    `thaw()` resumes."""

    def __init__(self, target_port: int):
        self.target_port = target_port
        self.port = 0
        self._flowing = asyncio.Event()
        self._flowing.set()
        self._server: asyncio.AbstractServer | None = None
        self._tasks: set[asyncio.Task] = set()
        self._writers: set[asyncio.StreamWriter] = set()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def freeze(self) -> None:
        self._flowing.clear()

    def thaw(self) -> None:
        self._flowing.set()

    async def start(self) -> "TcpProxy":
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def go_down(self) -> None:
        """What a restarting server looks like from outside: every open connection is closed
        and new ones are refused (nothing listens on the port) until `come_up()`."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
        await self._close_connections()
        if server is not None:
            await server.wait_closed()

    async def come_up(self) -> None:
        await self.start()  # the same port again

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        await self._flowing.wait()
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        self._writers.add(up_writer)
        for source, sink in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.ensure_future(self._pump(source, sink))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pump(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        try:
            while data := await source.read(65536):
                await self._flowing.wait()
                sink.write(data)
                await sink.drain()
        except (OSError, asyncio.IncompleteReadError):
            pass
        finally:
            sink.close()

    async def aclose(self) -> None:
        if self._server is not None:
            self._server.close()
        await self._close_connections()

    async def _close_connections(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for writer in list(self._writers):
            writer.close()
        self._writers.clear()
        if self._tasks:
            await asyncio.wait(list(self._tasks))
