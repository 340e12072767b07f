"""SRT ingest through the real tools (issue 28 §2): ffmpeg calls the SRT URL an operator is given,
as an encoder does; the key's listener (server.ingest.srt_listeners) hands the feed to Debian's nginx RTMP
module, whose hook (server/ingest/hooks.py) takes the key's bridge name for the key."""

import asyncio
import contextlib
import inspect
import json
import os
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime

from server.db import Database
from server.ingest import srt_listeners
from server.ingest.hooks import hook_urls
from server.media.sources import stream_keys as keys
from server.media.sources.rtmp import RtmpIngest
from server.models import StreamKey
from server.services import stream_keys
from server.settings import Settings
from server.tests.media.serving import media_app
from server.tests.media.sources.test_rtmp import free_port, start_nginx
from server.tests.media.sources.test_stream_keys_at_the_ingest import new_key
from server.tests.media.tools import tool
from server.tests.serving import uvicorn_serving


@dataclass(frozen=True)
class Chain:
    settings: Settings
    rtmp: RtmpIngest
    srt: srt_listeners.SrtIngest


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@asynccontextmanager
async def srt_chain(settings: Settings, database: Database, prefix) -> AsyncIterator[Chain]:
    """This server's hook, nginx-rtmp asking it, and SRT listeners for keys on one free port."""
    srt_port = free_udp_port()
    settings = settings.model_copy(
        update={"ingest_host": "127.0.0.1", "rtmp_port": free_port(), "srt_ports": f"{srt_port}-{srt_port}"}
    )
    async with uvicorn_serving(lambda port: media_app(settings, database)) as base:
        publish_url, done_url = hook_urls(settings, base)
        rtmp = RtmpIngest("127.0.0.1", settings.rtmp_port, publish_url, done_url)
        nginx = await asyncio.to_thread(start_nginx, rtmp, prefix)
        try:
            async with srt_listeners.running(settings, database, every=0.2, ffmpeg=tool("ffmpeg")) as srt:
                assert srt is not None
                yield Chain(settings, rtmp, srt)
        finally:
            nginx.terminate()
            await asyncio.to_thread(nginx.wait, 10)


async def srt_key(chain: Chain, database: Database) -> tuple[str, StreamKey, str]:
    """(event id, key row, the SRT URL the operator was given) of a new event's key, listened for."""
    event_id, key = await new_key(database, chain.settings)
    row = await key_row(database, event_id)
    assert row.srt_port is not None
    await listening(chain, row.id)
    srt_url = stream_keys.urls(chain.settings, key, row.srt_port).srt
    assert srt_url is not None
    return event_id, row, srt_url


async def key_row(database: Database, event_id: str) -> StreamKey:
    async with database.session() as db:
        row = await stream_keys.in_force(db, event_id)
    assert row is not None
    return row


async def until(condition: Callable[[], object], what: str, timeout: float = 8) -> None:
    """Waits for `condition()` (a value or an awaitable) to hold; fails saying `what` after `timeout`."""
    deadline = time.monotonic() + timeout
    while not await held(condition()):
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.05)


async def held(answer: object) -> bool:
    return bool(await answer if inspect.isawaitable(answer) else answer)


async def listening(chain: Chain, key_id: str) -> None:
    def started() -> bool:
        listener = chain.srt.listeners.get(key_id)
        return listener is not None and listener.ffmpeg.pid is not None and udp_port_taken(listener.bridge.port)

    await until(started, "the key's SRT listener did not start")


def udp_port_taken(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return True
    return False


def call(srt_url: str, seconds: float = 1.5) -> subprocess.CompletedProcess:
    """`seconds` of ffmpeg's test picture and tone over SRT, as an encoder sends them; a caller
    that gets no answer gives up after 1.5 s."""
    return subprocess.run(
        [
            *(tool("ffmpeg"), "-hide_banner", "-loglevel", "error", "-nostdin", "-re"),
            *("-f", "lavfi", "-i", f"testsrc2=size=320x180:rate=25:duration={seconds}"),
            *("-f", "lavfi", "-i", f"sine=frequency=440:duration={seconds}"),
            *("-c:v", "libx264", "-preset", "ultrafast", "-g", "25", "-c:a", "aac", "-f", "mpegts"),
            f"{srt_url}&connect_timeout=1500",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )


def probe(url: str) -> dict:
    """The video stream nginx serves at `url`, as the transcoder will read it."""
    probed = subprocess.run(
        [
            *(tool("ffprobe"), "-v", "error", "-rw_timeout", "5000000", "-select_streams", "v:0"),
            *("-show_entries", "stream=codec_name,width,height", "-of", "json", url),
        ],
        capture_output=True,
        text=True,
        timeout=20,
    )
    assert probed.returncode == 0, probed.stderr
    [video] = json.loads(probed.stdout)["streams"]
    return video


async def test_an_encoder_calling_its_srt_url_publishes_into_nginx_as_its_key_and_the_next_caller_is_heard(
    settings, database, tmp_path
):
    async with srt_chain(settings, database, tmp_path) as chain:
        event_id, row, srt_url = await srt_key(chain, database)
        encoder = asyncio.create_task(asyncio.to_thread(call, srt_url, 6))
        await until(lambda: publishing(database, event_id), "nginx's hook did not take the bridge name for the key")
        since = (await key_row(database, event_id)).publishing_since
        bridged = keys.bridge_name(chain.settings.secret_key, row.id)
        video = await asyncio.to_thread(probe, chain.rtmp.pull_url(bridged))
        assert (video["codec_name"], video["width"], video["height"]) == ("h264", 320, 180)
        assert (await encoder).returncode == 0, (await encoder).stderr
        # The encoder left: nginx told the hook, under the bridge name, and the key is free again.
        await until(lambda: idle(database, event_id), "the key still has a publisher after the encoder left")
        await listening(chain, row.id)
        again = await asyncio.to_thread(call, srt_url)
        assert again.returncode == 0, again.stderr
        await until(lambda: published_after(database, event_id, since), "the next caller's feed never reached nginx")
        async with database.write_session() as db:
            await stream_keys.revoke(db, event_id)


async def publishing(database: Database, event_id: str) -> bool:
    return (await key_row(database, event_id)).publisher is not None


async def published_after(database: Database, event_id: str, since: datetime | None) -> bool:
    last = (await key_row(database, event_id)).last_published_at
    return since is not None and last is not None and last > since


async def ever_published(database: Database, event_id: str) -> bool:
    return (await key_row(database, event_id)).last_published_at is not None


async def idle(database: Database, event_id: str) -> bool:
    return not await publishing(database, event_id)


async def test_a_caller_without_the_passphrase_is_refused_at_connect_and_nothing_is_published(
    settings, database, tmp_path
):
    async with srt_chain(settings, database, tmp_path) as chain:
        event_id, row, srt_url = await srt_key(chain, database)
        listener = chain.srt.listeners[row.id].ffmpeg
        pid = listener.pid
        wrong = srt_url.replace("passphrase=", "passphrase=X")[:-1]
        bare = srt_url.split("&passphrase=")[0]
        for refused in (wrong, bare):
            started = time.monotonic()
            answer = await asyncio.to_thread(call, refused)
            assert answer.returncode != 0 and time.monotonic() - started < 5, answer.stderr
        assert (await key_row(database, event_id)).last_published_at is None
        # The listener was never handed a caller: it still waits, for the encoder with the passphrase.
        assert listener.pid == pid and listener.restarts == 0
        async with database.write_session() as db:
            await stream_keys.revoke(db, event_id)


async def test_a_rotated_keys_old_passphrase_is_refused_and_the_new_keys_listener_takes_its_port(
    settings, database, tmp_path
):
    async with srt_chain(settings, database, tmp_path) as chain:
        event_id, old_row, old_url = await srt_key(chain, database)
        async with database.write_session() as db:
            issued = await stream_keys.rotate(db, event_id, settings=chain.settings, actor=None)
        assert issued.row.srt_port == old_row.srt_port
        await until(lambda: old_row.id not in chain.srt.listeners, "the rotated-away key's listener still runs")
        await listening(chain, issued.row.id)
        assert (await asyncio.to_thread(call, old_url)).returncode != 0
        new_url = stream_keys.urls(chain.settings, issued.key, issued.row.srt_port).srt
        assert new_url is not None and new_url != old_url
        published = await asyncio.to_thread(call, new_url)
        assert published.returncode == 0, published.stderr
        await until(lambda: ever_published(database, event_id), "the new key's feed never reached nginx")
        async with database.write_session() as db:
            await stream_keys.revoke(db, event_id)


async def test_a_revoked_keys_listener_stops_and_its_port_no_longer_answers(settings, database, tmp_path):
    async with srt_chain(settings, database, tmp_path) as chain:
        event_id, row, srt_url = await srt_key(chain, database)
        pid = chain.srt.listeners[row.id].ffmpeg.pid
        assert pid is not None
        async with database.write_session() as db:
            await stream_keys.revoke(db, event_id)
        await until(lambda: not chain.srt.listeners, "the revoked key's listener still runs")
        assert not process_alive(pid)
        refused = await asyncio.to_thread(call, srt_url)
        assert refused.returncode != 0


def process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def test_one_process_of_a_cluster_listens_and_another_takes_over_when_it_stops(settings, database):
    srt_port = free_udp_port()
    settings = settings.model_copy(update={"srt_ports": f"{srt_port}-{srt_port}"})
    event_id, _key = await new_key(database, settings)
    row = await key_row(database, event_id)
    ffmpeg = tool("ffmpeg")
    async with contextlib.AsyncExitStack() as first_process:
        a = await first_process.enter_async_context(
            srt_listeners.running(settings, database, every=0.2, ffmpeg=ffmpeg, holder="process-a")
        )
        assert a is not None
        await until(lambda: row.id in a.listeners, "the first process does not listen")
        async with srt_listeners.running(settings, database, every=0.2, ffmpeg=ffmpeg, holder="process-b") as b:
            assert b is not None
            await asyncio.sleep(0.6)  # rounds of both: the holder of the lease alone listens
            assert row.id in a.listeners and not b.listeners
            await first_process.aclose()  # a stops and gives the lease up
            await until(lambda: row.id in b.listeners, "the other process did not take the listeners over")
            await until(lambda: udp_port_taken(srt_port), "the port does not answer")
