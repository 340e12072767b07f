"""Locust users of the kickoff load test: signed-in viewers arriving at a live match.

Each `Viewer` arrives (a token refresh, or a password sign-in for KICKOFF_SIGNIN_SHARE of them;
the event page; the live master playlist; the event list; for KICKOFF_SOCKET_SHARE of them a
socket joining the event room), then watches: the live playlist every 2 s, the event page and
the event list again every 20 s each. So a watching viewer asks VIEWER_RPS requests a second,
and a rate is a number of viewers. `KickoffShape`: the base rate for KICKOFF_BASE_SECONDS, then
KICKOFF_FACTOR (12.5) times as many viewers within KICKOFF_RAMP_SECONDS, held for
KICKOFF_HOLD_SECONDS. KICKOFF_BURST_SIGNINS > 0 adds that many password sign-ins, sent evenly over
KICKOFF_BURST_SPREAD seconds from KICKOFF_BURST_AT seconds in (the fairness check); a sign-in the
server sheds (503 with Retry-After) is asked again after that wait, as the webapp does. Every viewer
sends an X-Forwarded-For address of its own, as the proxy in front of production would.

Every request is written to KICKOFF_REQUEST_LOG (one CSV row each, locust's own
CsvRequestLogger), the shape's start and the generator's CPU warning to KICKOFF_SUMMARY.
KICKOFF_PLAN is the JSON file that `python -m server.bench.kickoff` writes: the event, the
socket Origin, and accounts with a pre-issued refresh token each.

This module is only ever loaded by locust (which monkey-patches the standard library with
gevent on import): never import it from the server, the bench runner or a test process.
"""

import itertools
import json
import os
import random
import time
from typing import Any
from urllib.parse import urljoin

import gevent  # type: ignore[import-untyped, import-not-found, unused-ignore]
import socketio
from locust import FastHttpUser, LoadTestShape, constant_pacing, events, task  # type: ignore[import-not-found, unused-ignore]
from locust.contrib.csv_request_logger import CsvRequestLogger  # type: ignore[import-not-found, unused-ignore]
from locust.contrib.fasthttp import FastHttpSession  # type: ignore[import-not-found, unused-ignore]
from locust.exception import StopUser  # type: ignore[import-not-found, unused-ignore]

from server.bench.kickoff.mix import (
    BURST_ATTEMPTS,
    BURST_SIGN_IN,
    BURST_SIGNED_IN,
    EVENT_LIST,
    EVENT_PAGE,
    FACTOR,
    MASTER,
    PLAYLIST,
    POLL_SECONDS,
    RAMP_SECONDS,
    REFRESH,
    RELOAD_TICKS,
    SIGN_IN,
    SOCKET,
    VIEWER_RPS,
    peak_viewers,
    viewers_for,
)

TIMEOUT = 10.0  # seconds; a slower answer is an error
GZIP = {"Accept-Encoding": "gzip"}


def _number(name: str, default: float) -> float:
    return float(os.environ.get(name, default))


BASE_RPS = _number("KICKOFF_BASE_RPS", 3.0)
BASE_SECONDS = _number("KICKOFF_BASE_SECONDS", 10)
RAMP = _number("KICKOFF_RAMP_SECONDS", RAMP_SECONDS)
HOLD_SECONDS = _number("KICKOFF_HOLD_SECONDS", 15)
PEAK_FACTOR = _number("KICKOFF_FACTOR", FACTOR)
SIGNIN_SHARE = _number("KICKOFF_SIGNIN_SHARE", 0.05)
SOCKET_SHARE = _number("KICKOFF_SOCKET_SHARE", 0.2)
BURST_SIGNINS = int(_number("KICKOFF_BURST_SIGNINS", 0))
BURST_AT = _number("KICKOFF_BURST_AT", 8)
BURST_SPREAD = _number("KICKOFF_BURST_SPREAD", 2)
BURST_GRACE = 60.0  # seconds the shape waits past its end for the burst's last answers
BASE_USERS = viewers_for(BASE_RPS)
PEAK_USERS = peak_viewers(BASE_USERS, PEAK_FACTOR)


def _load_plan() -> dict[str, Any]:
    path = os.environ.get("KICKOFF_PLAN")
    if not path:
        raise SystemExit("KICKOFF_PLAN must name the plan file written by `python -m server.bench.kickoff`")
    with open(path, encoding="utf-8") as f:
        return json.load(f)


PLAN = _load_plan()
EVENT_ID: str = PLAN["event_id"]
ORIGIN: str = PLAN["origin"]
_accounts = PLAN["accounts"]  # one per viewer: a refresh token is spent on arrival
_arrivals = itertools.count()
_burst_accounts = itertools.cycle(PLAN.get("burst_accounts") or PLAN["accounts"])
_started_at: float | None = None  # time.time() when the shape started
_burst_pending = bool(BURST_SIGNINS)


def _content(response) -> dict:
    """The answer's `content`; fails the request when it is not the API's success envelope."""
    if response.status_code != 200:
        response.failure(f"HTTP {response.status_code}: {(response.text or '')[:200]}")
        return {}
    try:
        body = response.json()
    except ValueError:
        response.failure("not JSON")
        return {}
    if body.get("error"):
        response.failure(f"error envelope: {body.get('messageErrorCode')}")
        return {}
    return body.get("content") or {}


def _shed_wait(response) -> float | None:
    """Seconds to wait before asking again when the server shed the request (503 with
    Retry-After, as the sign-in queue answers when no hash could start in time); else None."""
    if response.status_code != 503:
        return None
    try:
        return max(0.0, float(response.headers.get("Retry-After", "")))
    except ValueError:
        return None


def _address(n: int, network: int = 10) -> dict:
    """The n-th viewer's own client address, as a proxy in front would report it: every
    viewer comes from 127.0.0.1 here, and one address would make the per-address sign-in limit
    one hot counter that every sign-in queues on (and trips after 30)."""
    return {"X-Forwarded-For": f"{network}.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}"}


def _one_in(n: int, share: float) -> bool:
    """Whether the n-th arrival is one of `share` of them: exact shares, spread evenly."""
    return int((n + 1) * share) > int(n * share)


def _login_body(account: dict) -> dict:
    return {
        "username": account["email"],
        "password": account["password"],
        "device_id": account["device_id"],
        "device_name": account["device_id"],
        "strategy": "refresh",
    }


class Viewer(FastHttpUser):
    wait_time = constant_pacing(POLL_SECONDS)
    connection_timeout = TIMEOUT
    network_timeout = TIMEOUT

    def on_start(self) -> None:
        arrival = next(_arrivals)
        if arrival >= len(_accounts):
            raise StopUser()  # the plan has fewer accounts than viewers: never reuse a spent token
        self.account = _accounts[arrival]
        self.forwarded = _address(arrival)
        self.access: str | None = None
        self.master: str | None = None
        self.playlist: str | None = None
        self.sio: Any = None
        self.tick = random.randrange(RELOAD_TICKS)  # stagger the reloads between viewers
        if _one_in(arrival, SIGNIN_SHARE):
            self.sign_in()
        else:
            self.refresh()
        if self.access is None:
            raise StopUser()
        self.event_page()
        self.master_playlist()
        self.event_list()
        if _one_in(arrival, SOCKET_SHARE):
            self.join_event_room()

    def on_stop(self) -> None:
        if self.sio is not None:
            self.sio.disconnect()

    @property
    def bearer(self) -> dict:
        return {"Authorization": f"Bearer {self.access}", **self.forwarded}

    def sign_in(self) -> None:
        with self.client.post(
            "/api/user/login", json=_login_body(self.account), headers=self.forwarded, name=SIGN_IN, catch_response=True
        ) as response:
            token_data = _content(response).get("tokenData") or {}
            self.access = token_data.get("access_token")
            if self.access is None and response.status_code == 200:
                response.failure("no tokenData (device limit?)")

    def refresh(self) -> None:
        # What webapp/src/session/refresh.ts sends when a returning viewer opens the page.
        body = {
            "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange",
            "subject_token": self.account["refresh_token"],
            "subject_token_type": "urn:ietf:params:oauth:token-type:refresh_token",
            "subject_issuer": "touchline",
            "requested_token_type": "urn:ietf:params:oauth:token-type:access_token",
            "device": {"id": self.account["device_id"], "name": self.account["device_id"]},
            "strategy": "refresh",
        }
        with self.client.post(
            "/api/oauth2/token", json=body, headers=self.forwarded, name=REFRESH, catch_response=True
        ) as response:
            self.access = _content(response).get("token")

    def event_page(self) -> None:
        with self.client.get(
            f"/api/event/get_by_id/id/{EVENT_ID}", headers=self.bearer, name=EVENT_PAGE, catch_response=True
        ) as response:
            event = _content(response).get("content") or {}
            stream = event.get("HLSStream")
            if response.status_code == 200 and not (stream and "?token=" in stream):
                response.failure(f"no signed stream URL: {stream!r}")
            elif stream:
                self.master = stream

    def master_playlist(self) -> None:
        # The player reads the master once and then polls one rendition's playlist, as hls.js does.
        if self.master is None:  # the event page failed (counted there)
            return
        with self.client.get(
            self.master, headers={**self.bearer, **GZIP}, name=MASTER, catch_response=True
        ) as response:
            if response.status_code != 200:
                response.failure(f"HTTP {response.status_code}")
                return
            uris = [line for line in (response.text or "").splitlines() if line and not line.startswith("#")]
            if not uris:
                response.failure("a master playlist without renditions")
                return
            # The token stays in the query (a browser would carry it in the cookie the master set).
            query = self.master.partition("?")[2]
            self.playlist = urljoin(self.master, uris[0]) + (f"?{query}" if query else "")

    def event_list(self) -> None:
        body = {"page": 0, "size": 10, "sort": "event_date", "order": "asc", "filters": {"status": ["live"]}}
        with self.client.post(
            "/api/event/list", json=body, headers=self.bearer, name=EVENT_LIST, catch_response=True
        ) as response:
            _content(response)

    def join_event_room(self) -> None:
        # python-socketio's own client, websocket only like the webapp; one connection per viewer.
        sio = socketio.Client(reconnection=False, websocket_extra_options={"origin": ORIGIN})
        with self.environment.events.request.measure("WS", SOCKET):
            sio.connect(
                self.host,
                transports=["websocket"],
                socketio_path="ws",
                auth={"token": self.access},
                headers=self.forwarded,
                wait_timeout=TIMEOUT,
            )
            ack = json.loads(sio.call("join-event-room", {"eventId": EVENT_ID}, timeout=TIMEOUT))
            if not ack.get("ok"):
                sio.disconnect()
                raise RuntimeError(f"join-event-room refused: {ack}")
        self.sio = sio

    @task
    def watch(self) -> None:
        if self.playlist is None:  # the arrival failed (counted there): nothing to play
            return
        with self.client.get(
            self.playlist, headers={**self.bearer, **GZIP}, name=PLAYLIST, catch_response=True
        ) as response:
            if response.status_code != 200:
                response.failure(f"HTTP {response.status_code}")
        self.tick += 1
        if self.tick % RELOAD_TICKS == 0:
            self.event_page()
        elif self.tick % RELOAD_TICKS == RELOAD_TICKS // 2:
            self.event_list()


class KickoffShape(LoadTestShape):
    """The base rate, then FACTOR times it within RAMP_SECONDS, held for HOLD_SECONDS."""

    def reset_time(self) -> None:
        global _started_at
        super().reset_time()
        _started_at = time.time()
        if BURST_SIGNINS:
            assert self.runner is not None  # locust sets it before starting the shape
            gevent.spawn(_burst, self.runner.environment)

    def tick(self) -> tuple[int, float] | None:
        t = self.get_run_time()
        if t < BASE_SECONDS:
            return BASE_USERS, max(1.0, BASE_USERS / 2)  # the base audience arrives over ~2 s
        end = BASE_SECONDS + RAMP + HOLD_SECONDS
        if t < end or (_burst_pending and t < end + BURST_GRACE):
            if RAMP <= 0:
                return PEAK_USERS, float(PEAK_USERS)
            return PEAK_USERS, max(1.0, (PEAK_USERS - BASE_USERS) / RAMP)
        return None


def _burst(environment) -> None:
    """BURST_SIGNINS password sign-ins, sent evenly over BURST_SPREAD seconds from BURST_AT on,
    each on its own connection (many browsers pressing "sign in" together). Sent faster than
    argon2 can verify them, so they queue; the report checks they are answered in the order sent.
    A sign-in shed with 503 and Retry-After is asked again after that wait (as the webapp does); each
    person's time from the first attempt to a token is logged as BURST_SIGNED_IN."""
    global _burst_pending
    gevent.sleep(BURST_AT)

    def connection() -> FastHttpSession:
        return FastHttpSession(
            environment.host,
            environment.events.request,
            user=None,
            connection_timeout=60.0,
            network_timeout=60.0,  # queued behind argon2 on purpose: measure the wait, not a timeout
            max_retries=0,
        )

    def one(n: int, account: dict) -> None:
        began = time.time()
        signed_in = False
        for _attempt in range(BURST_ATTEMPTS):
            # A connection of its own each time, as a browser's after such a wait: the server has
            # closed the idle one meanwhile (its keep-alive is shorter than most Retry-Afters).
            with connection().post(
                "/api/user/login",
                json=_login_body(account),
                headers=_address(n, network=11),
                name=BURST_SIGN_IN,
                catch_response=True,
            ) as response:
                wait = _shed_wait(response)
                if wait is None:
                    signed_in = bool(_content(response).get("tokenData"))
                else:
                    response.failure(f"shed: HTTP 503, Retry-After {wait:g} s")
            if wait is None:
                break
            gevent.sleep(wait)
        environment.events.request.fire(
            request_type="POST",
            name=BURST_SIGNED_IN,
            start_time=began,
            response_time=(time.time() - began) * 1000,
            response_length=0,
            exception=None if signed_in else RuntimeError("never signed in"),
            context={},
        )

    greenlets = []
    for n in range(BURST_SIGNINS):
        greenlets.append(gevent.spawn(one, n, next(_burst_accounts)))
        gevent.sleep(BURST_SPREAD / BURST_SIGNINS)
    gevent.joinall(greenlets)
    _burst_pending = False


@events.init.add_listener
def _log_requests(environment, **_kwargs) -> None:
    path = os.environ.get("KICKOFF_REQUEST_LOG")
    if path:
        CsvRequestLogger(path, flush_interval=1000).register(environment)


@events.quitting.add_listener
def _summarise(environment, **_kwargs) -> None:
    path = os.environ.get("KICKOFF_SUMMARY")
    if not path:
        return
    runner = environment.runner
    summary = {
        "started_at": _started_at,
        "base_users": BASE_USERS,
        "peak_users": PEAK_USERS,
        "viewer_rps": VIEWER_RPS,
        # locust's own warning: a generator above 90 % CPU delays requests and inflates latency.
        "generator_cpu_warning": bool(runner and runner.cpu_warning_emitted),
    }
    with open(path, "w", encoding="utf-8") as f:
        json.dump(summary, f)
