"""The media edge (issue 30 §2, server.media.delivery.edge_nginx): Debian's nginx with the generated
configuration in front of a real server process (the origin), whose every request is logged.

Needs nginx (scripts/system-deps installs it for `make run`); REQUIRE_POSTGRES=1 (CI) turns a
missing one into a failure."""

import asyncio
import json
import os
import socket
import subprocess
import time
from collections import Counter
from dataclasses import dataclass, field

import aiohttp
import pytest

from server import clock
from server.ingest.serving import find_nginx
from server.media.delivery import edge_nginx as edge_config
from server.media.delivery.edge_tokens import EDGE_COOKIE, edge_key, issue_edge_token, scope_of
from server.settings import Settings
from server.tests.conftest import with_state
from server.tests.media_dir import SAMPLE_LADDER
from server.tests.realtime.support import free_port
from server.tests.serving import uvicorn_serving
from server.web import static_app

SECRET = "edge-test-secret-of-at-least-32-bytes-long"
SEGMENT = "vod/football/360p/index0.ts"


def nginx_binary() -> str:
    found = find_nginx()
    if found is None:
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail("nginx is required here (Debian package nginx; scripts/system-deps installs it)")
        pytest.skip("nginx is not installed")
    return found


@dataclass
class Origin:
    url: str
    requests: Counter = field(default_factory=Counter)  # path -> requests that reached the origin


@pytest.fixture
async def origin():
    settings = Settings(environment="test", secret_key=SECRET)
    app = with_state(static_app(settings), {"database": None, "settings": settings})
    log = Origin("")

    async def logged(scope, receive, send):
        if scope["type"] == "http":
            log.requests[scope["path"].removeprefix("/media/")] += 1
        await app(scope, receive, send)

    async with uvicorn_serving(lambda port: logged) as url:
        log.url = url
        yield log


@pytest.fixture
def edge(tmp_path, origin):
    """The edge's base URL, in front of `origin`, tokens lasting up to 120 s."""
    port = free_port()
    text = edge_config.config(
        port=port,
        origins=[int(origin.url.rsplit(":", 1)[1])],
        key=edge_key(SECRET),
        run_dir=tmp_path,
        cookie_seconds=120,
    )
    path = edge_config.write_config(tmp_path, text)
    assert path.stat().st_mode & 0o077 == 0  # the key is the owner's alone
    process = subprocess.Popen(
        edge_config.command(nginx_binary(), path), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        deadline = time.monotonic() + 10
        while not _accepts(port):
            assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
            assert time.monotonic() < deadline, "nginx did not listen within 10 s"
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=10)


def _accepts(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture
async def http():
    # No cookie jar: each request says which token it carries, as one viewer's browser would.
    async with aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar(), auto_decompress=True) as session:
        yield session


def token(path: str, lifetime: int = 120, secret: str = SECRET) -> str:
    scope = scope_of(path)
    assert scope is not None
    return issue_edge_token(scope, secret=secret, expires=int(clock.timestamp()) + lifetime)


async def get(http, url: str, *, query: str | None = None, cookie: str | None = None):
    headers = {"Cookie": f"{EDGE_COOKIE}={cookie}"} if cookie else {}
    address = f"{url}?token={query}" if query else url
    async with http.get(address, headers=headers) as answer:
        return answer.status, answer.headers, await answer.read()


async def test_two_viewers_with_different_tokens_share_one_cached_copy_of_a_segment(edge, origin, http):
    first, second = token(SEGMENT, 120), token(SEGMENT, 300)
    assert first != second
    status, headers, body = await get(http, f"{edge}/media/{SEGMENT}", query=first)
    assert (status, headers["X-Cache-Status"]) == (200, "MISS")
    status, headers, again = await get(http, f"{edge}/media/{SEGMENT}", query=second)
    assert (status, headers["X-Cache-Status"], again) == (200, "HIT", body)
    status, headers, _ = await get(http, f"{edge}/media/{SEGMENT}", cookie=second)
    assert (status, headers["X-Cache-Status"]) == (200, "HIT")
    assert origin.requests[SEGMENT] == 1


@pytest.mark.parametrize(
    ("case", "carried", "code"),
    [
        ("no token", lambda: None, "stream_access_denied"),
        ("expired", lambda: token(SEGMENT, -10), "stream_token_expired"),
        ("tampered", lambda: token(SEGMENT)[:-2] + "AA", "stream_access_denied"),
        (
            "a later expiry",
            lambda: str(int(token(SEGMENT).split(".")[0]) + 3600) + "." + token(SEGMENT).split(".")[1],
            "stream_access_denied",
        ),
        ("another asset's", lambda: token("vod/hockey/index.m3u8"), "stream_access_denied"),
        ("a clip's of this asset", lambda: token("vod/football/clip-0-4000/index.m3u8"), "stream_access_denied"),
        ("its live stream's", lambda: token("live/football/from-0/index.m3u8"), "stream_access_denied"),
        (
            "another secret's",
            lambda: token(SEGMENT, secret="another secret of thirty-two bytes!"),
            "stream_access_denied",
        ),
    ],
)
async def test_a_refused_token_is_a_403_envelope_from_the_edge_that_never_reaches_the_origin(
    edge, origin, http, case, carried, code
):
    value = carried()
    for where in ("query", "cookie"):
        status, headers, body = await get(http, f"{edge}/media/{SEGMENT}", **({where: value} if value else {}))
        assert status == 403, (case, where, body[:200])
        assert headers["Content-Type"] == "application/json"
        assert headers["Cache-Control"] == "no-store"
        assert json.loads(body)["messageErrorCode"] == code, (case, where)
        assert set(json.loads(body)) == {"error", "message", "messageErrorCode"}
    assert sum(origin.requests.values()) == 0


async def test_a_token_in_the_query_becomes_the_cookie_of_its_scope(edge, http):
    clip = "vod/football/clip-60000-90000/index.m3u8"
    viewer = token(clip)
    status, headers, _ = await get(http, f"{edge}/media/{clip}", query=viewer)
    assert status == 200
    cookie = headers["Set-Cookie"]
    assert cookie.startswith(f"{EDGE_COOKIE}={viewer};")
    assert "Path=/media/vod/football/clip-60000-90000/;" in cookie and "HttpOnly" in cookie
    status, headers, _ = await get(http, f"{edge}/media/{clip}", cookie=viewer)
    assert status == 200 and "Set-Cookie" not in headers


async def test_the_edge_reads_a_paths_scope_as_the_server_does(edge, http):
    """Each path opens with a token of the scope server.media.delivery.edge_tokens gives it, at the
    edge as at the server, and with none of its neighbours' scopes."""
    paths = [
        "vod/football/index.m3u8",
        "vod/football/720p/index.m3u8",
        "vod/football/clip-60000-90000/index.m3u8",
        "vod/football/clip-60000-90000/360p/seg-30.ts",
        "vod/football/game-5400/234p/index.m3u8",
        f"live/football/from-{int(clock.timestamp()) - 600}/index.m3u8",
    ]
    for path in paths:
        status, _, body = await get(http, f"{edge}/media/{path}", query=token(path))
        assert status == 200, (path, body[:200])
        for other in paths:
            if scope_of(other) != scope_of(path):
                status, _, _ = await get(http, f"{edge}/media/{path}", query=token(other))
                assert status == 403, (path, other)


async def test_a_player_plays_an_asset_through_the_edge_with_the_cookie_alone(edge, origin, http):
    master = "vod/football/index.m3u8"
    viewer = token(master)
    status, headers, body = await get(http, f"{edge}/media/{master}", query=viewer)
    assert status == 200 and headers["Content-Type"].startswith("application/vnd.apple.mpegurl")
    variants = [line for line in body.decode().splitlines() if line and not line.startswith("#")]
    assert len(variants) == len(SAMPLE_LADDER)
    for variant in variants:
        status, _, playlist = await get(http, f"{edge}/media/vod/football/{variant}", cookie=viewer)
        assert status == 200
        rendition = variant.rsplit("/", 1)[0]
        segment = next(line for line in playlist.decode().splitlines() if line and not line.startswith("#"))
        status, _, _ = await get(http, f"{edge}/media/vod/football/{rendition}/{segment}", cookie=viewer)
        assert status == 200
    # A second viewer plays the same without the origin hearing of it.
    before = sum(origin.requests.values())
    other = token(master, 200)
    assert (await get(http, f"{edge}/media/{master}", query=other))[1]["X-Cache-Status"] == "HIT"
    assert sum(origin.requests.values()) == before


async def test_a_crowd_asking_for_a_new_live_playlist_at_once_makes_one_origin_request(edge, origin, http):
    kickoff = int(clock.timestamp()) - 600
    playlist = f"live/football/from-{kickoff}/360p/live.m3u8"
    started = time.monotonic()
    answers = await asyncio.gather(
        *(get(http, f"{edge}/media/{playlist}", query=token(playlist, 60 + n)) for n in range(200))
    )
    elapsed = time.monotonic() - started
    assert all(status == 200 for status, _, _ in answers)
    # One per second at most (live playlists live a second at the edge): the crowd waits for it.
    assert origin.requests[playlist] <= 1 + int(elapsed), (origin.requests[playlist], elapsed)
    assert Counter(headers["X-Cache-Status"] for _, headers, _ in answers)["MISS"] <= 1 + int(elapsed)


async def test_a_live_playlist_is_kept_a_second_at_most(edge, http):
    kickoff = int(clock.timestamp()) - 600
    playlist = f"live/football/from-{kickoff}/360p/live.m3u8"
    viewer = token(playlist)
    await get(http, f"{edge}/media/{playlist}", query=viewer)
    await asyncio.sleep(2.1)
    _, headers, _ = await get(http, f"{edge}/media/{playlist}", cookie=viewer)
    assert headers["X-Cache-Status"] in ("EXPIRED", "MISS", "UPDATING", "STALE")


async def test_what_is_not_a_stream_is_not_found_at_the_edge(edge, origin, http):
    for path in ("media/vod/", "media/vod/..%2f/index.m3u8", "media/posters/x.svg", "api/health"):
        async with http.get(f"{edge}/{path}") as answer:
            assert answer.status == 404, path
            assert (await answer.json())["messageErrorCode"] == "not_found"
    assert sum(origin.requests.values()) == 0
