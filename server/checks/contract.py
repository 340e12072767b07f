"""`make contract`: Dredd and Schemathesis against a freshly migrated, seeded, running server.

Dredd proves every documented transaction of every operation happens (each
documented status, produced by the hooks in openapi/dredd/hooks.js with real seed ids);
Schemathesis proves conformance (`--checks all`, a bounded run with a fixed seed) over every
operation. A second Schemathesis run checks authorization with two real viewers: an operation
that declares a bearer must refuse requests without one (`ignored_auth`), and what one viewer
created must not be readable by the other (`object_level_authorization`).

The server runs in its own process with response validation on, exactly as `make run` starts
it, on a database of its own under var/contract (or `--database-url`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path

from sqlalchemy import func, select

from .. import clock
from ..api.http.contract_document import document
from ..api.http.routing import OPENAPI_PATH, operations
from ..auth.passwords import Passwords
from ..auth.providers.local_provider import local_openid_provider
from ..auth.providers.local_provider import settings_for as local_provider_settings
from ..db import Database
from ..ingest.hooks import PUBLISH_PATH
from ..media.assets.store import samples_dir, store_of
from ..media.sources.stream_keys import hook_secret
from ..migrate import upgrade
from ..models import Event, EventStats, Identity, User
from ..seed.fixtures import stable_id
from ..seed.loader import seed
from ..seed.users import load_demo_users, seed_demo_users
from ..settings import PROJECT_ROOT, Settings
from . import pg_database
from .pg_database import DEFAULT_SERVER_URL as DEFAULT_POSTGRESQL_SERVER

OPENAPI_DIR = PROJECT_ROOT / "openapi"
DREDD = OPENAPI_DIR / "node_modules" / ".bin" / "dredd"
HOOKS = OPENAPI_DIR / "dredd" / "hooks.js"
# Fixed so a failure in CI reproduces locally; override to explore (CONTRACT_SEED=random).
DEFAULT_SEED = 20261122
MAX_EXAMPLES = int(os.environ.get("CONTRACT_MAX_EXAMPLES", "100"))
# The PostgreSQL run repeats the conformance run with fewer examples: the coverage phase (every
# pattern's and bound's edge, NUL included) is the same, the random part smaller (~3 minutes).
POSTGRESQL_MAX_EXAMPLES = int(os.environ.get("CONTRACT_POSTGRESQL_MAX_EXAMPLES", "20"))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def _prepare_database(url: str) -> dict:
    """Seed (reset) a migrated database and pick the real ids the Dredd hooks put into requests."""
    database = Database(url)
    try:
        defaults = Settings()
        await seed(database.engine, reset=True, media=(store_of(defaults), samples_dir(defaults)))
        demo_users = load_demo_users(PROJECT_ROOT / "fixtures")
        async with database.session() as db:
            await seed_demo_users(db, demo_users, Passwords.from_settings(Settings()))
        async with database.session() as db:

            async def first(*where, order=None):
                order = Event.event_date.desc() if order is None else order
                return (await db.execute(select(Event.id).where(*where).order_by(order).limit(1))).scalar_one()

            game = await first(Event.media_type == "event", Event.status.in_(("live", "archived")))
            with_stats = (
                await db.execute(
                    select(Event.id).join(EventStats, EventStats.event_id == Event.id).order_by(Event.id).limit(1)
                )
            ).scalar_one()
            channel = await first(Event.status == "channel")
            # Staff event operations change the event they are given: one nobody else looks up.
            admin_event = await first(Event.media_type == "event", Event.status == "upcoming")
            clip = await first(Event.media_type != "event", Event.parent_event_id.is_not(None))
            # One any viewer may cut clips of (the authorization run's viewers make some). A game
            # with teams: which archived event is the latest depends on the hour the seed ran, and
            # Dredd's validator drops `nullable` where the answer nests Event in allOf (Continue
            # watching), so an event without teams would fail it some hours of the day.
            free_archived = await first(
                Event.media_type == "event",
                Event.status == "archived",
                Event.commerce_type == "commerce_free_media",
                Event.hls_stream.is_not(None),
                Event.home_team_id.is_not(None),
                Event.away_team_id.is_not(None),
            )
            # A live game anyone may play (catch up on), and one a signed-out caller may not. Its
            # stream began a while ago: the seed puts some kickoffs a few minutes after seeding,
            # and a stream that has not started has nothing to catch up on (409).
            begun = clock.now() - timedelta(minutes=5)
            free_live = next(
                row.id
                for row in await db.execute(
                    select(Event.id, Event.regions)
                    .where(
                        Event.media_type == "event",
                        Event.status == "live",
                        Event.commerce_type == "commerce_free_media",
                        Event.hls_stream.like("/media/%"),
                        func.coalesce(Event.game_start_date, Event.event_date) < begun,
                    )
                    .order_by(Event.event_date.desc())
                )
                if not row.regions  # watchable everywhere
            )
            paid_live = await first(
                Event.media_type == "event", Event.status == "live", Event.commerce_type != "commerce_free_media"
            )
            identity = (
                await db.execute(select(Identity.id).where(Identity.media_type == "identity_item").limit(1))
            ).scalar_one()
            viewer_email = next(u.email for u in demo_users if u.role == "viewer")
            viewer = (await db.execute(select(User.id).where(User.email == viewer_email))).scalar_one()
    finally:
        await database.dispose()
    return {
        "event": game,
        "eventWithStats": with_stats,
        "channel": channel,
        "clip": clip,
        "identity": identity,
        "viewer": viewer,
        "allAccess": stable_id("product", "svod:all-access"),
        "adminEvent": admin_event,
        "freeArchived": free_archived,
        "freeLive": free_live,
        "paidLive": paid_live,
    }


def _operations_index() -> dict:
    """'METHOD /path' -> {operationId, secured} for the hooks."""
    spec = document()
    index = {}
    for op in operations():
        operation = spec["paths"][op.path][op.method.lower()]
        secured = bool(operation.get("security", spec.get("security")))
        index[f"{op.method} {op.path}"] = {"operationId": op.operation_id, "secured": secured}
    return index


@contextmanager
def running_server(database_url: str, secret: str, log_path: Path, providers: dict[str, str]):
    port = free_port()
    # Confirmation mails land here too, for the hooks' sign-ups (Dredd, Schemathesis) to follow
    # the link; set in this process's environment so the hook processes inherit it.
    os.environ.setdefault("TOUCHLINE_MAIL_DROP_DIR", str(log_path.parent / "mail"))
    env = {
        **providers,
        **os.environ,
        "TOUCHLINE_ENVIRONMENT": "test",
        "TOUCHLINE_DATABASE_URL": database_url,
        "TOUCHLINE_INGEST_ENABLED": "false",
        "TOUCHLINE_SECRET_KEY": secret,
        "TOUCHLINE_RESPONSE_VALIDATION": "true",
        # Dredd and Schemathesis sign in hundreds of times from one address.
        "TOUCHLINE_LOGIN_ATTEMPTS_PER_ADDRESS": "1000000",
        "TOUCHLINE_LOGIN_FAILURES_PER_ACCOUNT": "1000000",
        "TOUCHLINE_LOGIN_FAILURES_PER_CLIENT": "1000000",
        "TOUCHLINE_LOGIN_FAILURES_PER_ADDRESS": "1000000",
        # ... and ask for (and use) password-reset links from it; the limit per mail address
        # stays on (openapi/dredd/requests/account.js produces its 429).
        "TOUCHLINE_PASSWORD_RESET_REQUESTS_PER_ADDRESS": "1000000",
        # ... and send analytics from it; the budget per sender stays on (requests/analytics.js).
        "TOUCHLINE_ANALYTICS_BATCHES_PER_ADDRESS": "1000000",
        # Dredd cancels outage credits it has just triggered: no round may start one in between
        # (the rounds are pytest's: server/tests/services/test_outage_credit.py).
        "TOUCHLINE_OUTAGE_INTERVAL_SECONDS": "0",
    }
    env.pop("TOUCHLINE_REDIS_URL", None)
    command = [
        sys.executable,
        "-m",
        "uvicorn",
        "server.app:asgi",
        "--factory",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--no-access-log",
        "--ws-per-message-deflate",
        "false",
        # As `touchline serve`: X-Forwarded-For from nobody (uvicorn believes 127.0.0.1 by default).
        "--no-proxy-headers",
        "--no-server-header",
    ]
    with log_path.open("w") as log:
        process = subprocess.Popen(command, cwd=PROJECT_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            base = f"http://127.0.0.1:{port}"
            _wait_healthy(f"{base}/api/health", process)
            yield base
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()


def _wait_healthy(url: str, process: subprocess.Popen, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the server exited with {process.returncode} before it was healthy")
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"the server was not healthy within {timeout:.0f} s")


def run_dredd(base: str, fixtures_path: Path) -> int:
    if not DREDD.exists():
        raise SystemExit("Dredd is not installed: run `npm ci` in openapi/ (make contract does it)")
    command = [
        str(DREDD),
        str(OPENAPI_PATH),
        f"{base}/api",
        "--hookfiles",
        str(HOOKS),
        "--language",
        "nodejs",
        "--loglevel",
        "error",
        "--reporter",
        "dot",
    ]
    env = {**os.environ, "TOUCHLINE_CONTRACT_FIXTURES": str(fixtures_path)}
    print("\n== Dredd: every documented transaction of every operation", flush=True)
    return subprocess.run(command, cwd=OPENAPI_DIR, env=env).returncode


# Seeded ids for the operations that look one up, so generated requests reach real data
# (the 400 and 404 answers for made-up ids are Dredd's and the pytest suite's to prove).
SCHEMATHESIS_IDS = {
    "get_event_by_id": "event",
    "get_clip_by_id": "clip",
    "get_identity_by_id": "identity",
    "get_event_stats": "eventWithStats",
    "get_channel_programme": "channel",
    "get_catch_up": "freeLive",
    "get_event_calendar": "event",
    "get_related_videos": "clip",
    "get_subscription_by_id": "allAccess",
    "list_event_assets": "event",
    "get_outage_credit": "paidLive",
    "get_event_qoe": "freeLive",
    "list_stream_keys": "event",
    # The demo viewer's account: staff look into it (the revoke calls are left to Dredd and pytest).
    "get_user": "viewer",
    "list_user_sessions": "viewer",
    "list_user_devices": "viewer",
    "list_user_purchases": "viewer",
    "list_user_contracts": "viewer",
    "list_user_follows": "viewer",
    # A seeded upcoming game, which they start, finish and edit (after Dredd, which makes its own).
    "update_event": "adminEvent",
    "go_live": "adminEvent",
    "finish_event": "adminEvent",
    "set_stream_url": "adminEvent",
}
# Schema-valid requests the server still refuses, each for a rule a schema cannot express.
# Page requests (allOf PageRequest) leave unknown keys allowed, which the contract cannot restrict
# further in OpenAPI 3.0; the one character rule refuses control characters in them all the same.
UNKNOWN_KEYS = "a key or text with control characters anywhere in the body, an unknown key's included, is a 400"
ACCEPTED_REFUSALS = {
    "emit_socket_message": "a payload that breaks its message's schema in asyncapi/asyncapi.yaml, or a room of "
    "the wrong kind, is a 400",
    "change_password": "a common, personal or one-character new password is a 400 (weak_password)",
    "create_clip": "a blank title or one with control characters, an endTime not after startTime or more than 10 "
    "minutes after it, or times outside the event's stream is a 400 (invalid_time_range for times)",
    "create_event": "a blank title, control characters, a value longer than its column (reference_id 80, "
    "gameType 20, vidswapId 40, URLs 500 characters), an endDate before event_date, one team "
    "at home and away, or a date no datetime holds is a 400; so is an address of this server naming no media "
    "(neither a shipped sample nor one of the event's assets)",
    "get_channel_programme": "a window whose `from` is after its `to` is a 400",
    "get_event_qoe": "a period whose `since` is not before its `until`, or longer than seven days, is a 400",
    "record_qoe_beacons": "beacons of an event that does not exist, a view of two events, more than 4 views, or an "
    "`at` no datetime holds is a 400; a view or an address past its budget gets 429",
    "list_events": "an `event_date` range whose start is after its end is a 400; so is " + UNKNOWN_KEYS,
    "list_clips": UNKNOWN_KEYS,
    "list_identities": UNKNOWN_KEYS,
    "record_analytics_events": "a property name that is not 1 to 40 letters, digits, '_', '.' or '-', a "
    "timestamp no datetime holds, a tenant other than the server's, an event or batch over its bytes or more "
    "than 4 anonymous ids is a 400; a sender past its budget gets 429",
    "redeem_access_code": "redemption attempts are limited per account: the demo viewer's many attempts get 429; "
    "a used-up code is a 409, an expired one a 410",
    "exchange_token": "an unknown or disabled sign-on provider is a 400 (provider_not_supported)",
    "ifa_callback": "a `redirect_uri` other than the server's own is a 400",
    "create_stream_key": "an expiresAt in the past is a 400 (invalid_expiry)",
    "rotate_stream_key": "an expiresAt in the past is a 400 (invalid_expiry)",
    "issue_access_codes": "both or neither of product_id and event_id, or an expires_at in the past, is a 400",
    "register_user": "profile text with control characters is a 400 (the profile rules); so is a common, "
    "personal or one-character password (weak_password)",
    "reset_password": "an unknown, used or expired reset token is a 400 (invalid_reset_token); so is a common, "
    "personal or one-character password (weak_password)",
    "verify_email": "an unknown, used or expired confirmation token is a 400 (invalid_verification_token)",
    "save_playback_position": "a position greater than the duration is a 400",
    "create_upload": "Upload-Metadata that is not `key base64` pairs of UTF-8 text without control characters, "
    "naming an event by its 24-hex id, is a 400; an empty file is a 422, one larger than "
    "TOUCHLINE_UPLOAD_MAX_BYTES a 413",
    "append_upload": "bytes at another offset than the upload's is a 409, past its length a 413; a complete file "
    "that is no video a 422",
    "attach_media_asset": "a title for an archive, or one with control characters, is a 400; an asset that is "
    "not ready, neither an upload nor a recording, or whose event is live is a 409",
    "cut_media_asset": "a range that is empty, longer than 30 minutes or past what was recorded, or a blank "
    "title, is a 400; an asset that is not ready, or neither a recording nor an upload, is a 409",
    "delete_media_asset": "an asset an event plays is a 409 unless forced; so is a live input on air",
    "save_tag": "an end before the start, a time beyond the video (or any tag on an upcoming event) is a 400 "
    "(invalid_time_range); so are text with control characters and a teamId no team has",
    "tokenize_card": "a card number failing the Luhn check, or an expiry month already past, is a 400 (invalid_card)",
    "set_stream_url": "a URL with control characters or longer than the 500 characters stored is a 400; so is an "
    "address of this server naming no media (neither a shipped sample nor one of the event's assets)",
    "update_clip": "a blank title or one with control characters is a 400",
    "update_event": "as create_event (the same field rules)",
    "update_tag": "as save_tag (the same time and field rules)",
    "update_profile": "a blank displayName, text with control characters, a date of birth in the future, "
    "more than 20 stored survey records or a boolean in `options` under another name than a setting's is a 400",
    "update_stored_card": "an unknown, used, expired or someone else's card token is a 400 (invalid_card_token)",
}

# Statuses some of those operations may also answer to a schema-valid request.
MORE_REFUSAL_STATUSES = {
    "redeem_access_code": (410,),  # codes listed by GET /admin/access_codes are reused: some have expired
    "create_upload": (413, 422),
    "append_upload": (413, 422, 423),
}


# Operations whose negative check also takes a 200, and why.
NO_NEGATIVE_CHECK = {
    # Schemathesis "breaks" the e-mail's character pattern by appending a character the pattern
    # allows ("x@y.test" becoming "x@y.test*"), then expects a 400; forgot_password answers 200 to
    # every well-formed request whether or not the address has an account, so it cannot tell.
    "forgot_password": "its mutations of the e-mail's pattern produce valid addresses",
}


# Random examples per operation where fewer find as much (the examples and coverage phases, with
# every pattern's and bound's edge, run in full for every operation). These hash or check a password
# (argon2, deliberately ~50 ms each, one request at a time per slot) on flat bodies of two or three
# strings, or create a whole event: a quarter of the examples costs a quarter of the time and leaves
# the same edges tried.
FEWER_EXAMPLES = {
    "register_user": 4,
    "login_user": 4,
    "change_password": 4,
    "reset_password": 4,
    "delete_device": 4,
    "delete_account": 4,
    "create_event": 4,
}


def schemathesis_config(ids: dict, examples: int = MAX_EXAMPLES) -> str:
    """The conformance run's configuration: `examples` random examples per operation (fewer for
    FEWER_EXAMPLES), real ids for path parameters, and the checks' accepted statuses."""
    blocks = [f"[generation]\nmax-examples = {examples}"]
    for operation_id, divisor in FEWER_EXAMPLES.items():
        blocks.append(
            f'[[operations]]\ninclude-operation-id = "{operation_id}"\n'
            f"generation.max-examples = {max(5, examples // divisor)}"
        )
    for operation_id, why in NO_NEGATIVE_CHECK.items():
        blocks.append(
            f'# {why}\n[[operations]]\ninclude-operation-id = "{operation_id}"\n'
            "[operations.checks.negative_data_rejection]\n"
            'expected-statuses = [200, 400, 401, 403, 404, 405, 406, 409, 415, 422, 428, 429, "5xx"]'
        )
    for operation_id, key in SCHEMATHESIS_IDS.items():
        blocks.append(f'[[operations]]\ninclude-operation-id = "{operation_id}"\nparameters = {{ id = "{ids[key]}" }}')
    for operation_id, why in ACCEPTED_REFUSALS.items():
        extra = "".join(f", {status}" for status in MORE_REFUSAL_STATUSES.get(operation_id, ()))
        blocks.append(
            f'# {why}\n[[operations]]\ninclude-operation-id = "{operation_id}"\n'
            "[operations.checks.positive_data_acceptance]\n"
            f'expected-statuses = ["2xx", "3xx", 400, 401, 403, 404, 409{extra}, 429, "5xx"]'
        )
    return "\n\n".join(blocks) + "\n"


def schemathesis_command(config: Path, base: str, *, checks: str, phases: str, seed: str) -> list[str]:
    """`st run` over the contract against `base` with `config` (which sets the example counts:
    the command line's would override every operation's), a JUnit report and (unless `seed` is
    "random") a fixed seed. One worker: hypothesis describes strategies with ast.parse, which is
    not thread-safe on 3.11."""
    command = [
        str(Path(sys.executable).with_name("st")),
        "--config-file",
        str(config),
        "run",
        str(OPENAPI_PATH),
        "--url",
        f"{base}/api",
        "--checks",
        checks,
        "--workers",
        "1",
        "--phases",
        phases,
        "--generation-database",
        "none",
        "--no-color",
        "--report",
        "junit",
    ]
    return command + (["--seed", seed] if seed != "random" else [])


def run_schemathesis(
    base: str, index: dict, fixtures_path: Path, ids: dict, work: Path, *, examples: int = MAX_EXAMPLES, on: str = ""
) -> int:
    checked = sorted(op["operationId"] for op in index.values())
    seed = os.environ.get("CONTRACT_SEED", str(DEFAULT_SEED))
    config = work / "schemathesis.toml"
    config.write_text(schemathesis_config(ids, examples))
    command = schemathesis_command(config, base, checks="all", phases="examples,coverage,fuzzing", seed=seed)
    command += ["--report-dir", str(work / "schemathesis")]
    for operation_id in checked:
        command += ["--include-operation-id", operation_id]
    print(f"\n== Schemathesis{on}: {len(checked)} operations, --checks all", flush=True)
    # Bearer tokens come from server/checks/schemathesis_hooks.py: a fresh account for the
    # operations that end or change a session, the demo accounts otherwise.
    env = {
        **os.environ,
        "TOUCHLINE_CONTRACT_FIXTURES": str(fixtures_path),
        "SCHEMATHESIS_HOOKS": "server.checks.schemathesis_hooks",
    }
    return subprocess.run(command, cwd=PROJECT_ROOT, env=env).returncode


# Operations the authorization run leaves out: staff operations (the viewers are refused them,
# and the conformance run covers them with the staff account) and those that end or change the
# caller's session or account, which would sign a peer out for the rest of the run.
AUTHORIZATION_EXCLUDED = (
    "logout_user",
    "end_other_sessions",
    "delete_account",
    "change_password",
    "delete_device",
)
PEERS = ("viewer-a", "viewer-b")
PEER_PASSWORD = "authorization peer password"


def _call(base: str, method: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
    """One API call that must succeed; its `content`."""
    headers = {"Content-Type": "application/json", "Idempotency-Key": secrets.token_hex(16)}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"{base}/api{path}", data=data, headers=headers, method=method)
    with urllib.request.urlopen(request, timeout=20) as answer:
        return json.loads(answer.read())["content"]


def _test_card(base: str, token: str) -> dict:
    """A card token for the sandbox's card that always pays."""
    card = {"number": "4242424242424242", "exp_month": 12, "exp_year": 2040, "cvc": "123", "holder": "Peer"}
    return {"token": _call(base, "POST", "/commerce/card/tokenize", card, token)["token"]}


def verification_token(email: str) -> str:
    """The newest confirmation token mailed to `email` (the server's TOUCHLINE_MAIL_DROP_DIR)."""
    drop = Path(os.environ["TOUCHLINE_MAIL_DROP_DIR"])
    for _ in range(50):
        for path in sorted(drop.glob("*.json"), reverse=True):
            mail = json.loads(path.read_text())
            if mail["to"] == email.lower() and mail["kind"] == "email_verification":
                return re.search(r"/auth/verify/\?token=(\S+)", mail["text"]).group(1)  # type: ignore[union-attr]
        time.sleep(0.1)
    raise RuntimeError(f"no confirmation mail to {email} in {drop}")


def register_peers(base: str) -> list[dict]:
    """Two fresh viewers (not the demo viewer, whom the conformance run uses), each with the
    sandbox's paying test card stored, so the run's purchases and subscriptions go through and
    give each of them things of their own, which the other must not read."""
    peers = []
    for name in PEERS:
        email = f"{name}-{secrets.token_hex(4)}@example.com"
        device = f"schemathesis-{name}"
        account = {"email": email, "password": PEER_PASSWORD, "device_id": device, "device_name": device}
        _call(base, "POST", "/user/register", {**account, "displayName": name})
        confirm = {"token": verification_token(email), "device_id": device, "device_name": device}
        token = _call(base, "POST", "/user/verify_email", confirm)
        token = token["tokenData"]["access_token"]
        _call(base, "POST", "/commerce/card/update", {"card": _test_card(base, token)}, token)
        peers.append({"name": name, "email": email})
    return peers


def wfc_document(base: str, peers: list[dict]) -> dict:
    """A Web Fuzzing Commons auth document: each peer signs in through POST /api/user/login
    (again every few minutes, before its access token expires) and sends its bearer."""
    return {
        "auth": [
            {
                "name": peer["name"],
                "loginEndpointAuth": {
                    "externalEndpointURL": f"{base}/api/user/login",
                    "verb": "POST",
                    "contentType": "application/json",
                    "payloadRaw": json.dumps(
                        {
                            "username": peer["email"],
                            "password": PEER_PASSWORD,
                            "device_id": f"schemathesis-{peer['name']}",
                            "device_name": f"schemathesis-{peer['name']}",
                        }
                    ),
                    "token": {
                        "extractFrom": "body",
                        "extractSelector": "/content/tokenData/access_token",
                        "sendIn": "header",
                        "sendName": "Authorization",
                        "sendTemplate": "Bearer {token}",
                    },
                },
            }
            for peer in peers
        ]
    }


def authorization_config(document: Path, ids: dict, ppv: dict, *, examples: int) -> str:
    """The run's configuration: the peers, and request bodies that succeed, so each viewer makes
    things of their own (a clip of a free archived game, a pay-per-view purchase and an All Access
    subscription with the stored card) whose reads are then replayed as the other viewer."""
    bodies = {
        "create_clip": {
            "body.event_id": ids["freeArchived"],
            "body.title": "A goal",
            "body.startTime": 2,
            "body.endTime": 8,
        },
        "purchase_ppv_by_stored_cc": {"body.event_id": ppv["event_id"], "body.product_id": ppv["_id"]},
        "subscribe_by_stored_cc": {"body.subscription_id": ids["allAccess"]},
    }
    blocks = [
        f"[generation]\nmax-examples = {examples}\n",
        # Every request as the first viewer; the check replays its reads as the other.
        f"[auth.wfc]\npath = {json.dumps(str(document))}\nuser = {json.dumps(PEERS[0])}\nrefresh_interval = 300\n"
        f"peers = {json.dumps(list(PEERS))}\n",
    ]
    for operation_id, parameters in bodies.items():
        values = ", ".join(f"{json.dumps(key)} = {json.dumps(value)}" for key, value in parameters.items())
        blocks.append(f'[[operations]]\ninclude-operation-id = "{operation_id}"\nparameters = {{ {values} }}\n')
    return "\n".join(blocks)


def run_authorization(base: str, work: Path, ids: dict, staff_token: str) -> int:
    document = work / "peers.wfc.json"
    document.write_text(json.dumps(wfc_document(base, register_peers(base)), indent=2))
    [ppv] = _call(base, "GET", "/admin/products?type=ppv&size=1", token=staff_token)["entries"]
    config = work / "authorization.toml"
    config.write_text(authorization_config(document, ids, ppv, examples=max(10, MAX_EXAMPLES // 4)))
    command = schemathesis_command(
        config,
        base,
        checks="not_a_server_error,ignored_auth,object_level_authorization",
        phases="examples,coverage,fuzzing,stateful",
        seed=os.environ.get("CONTRACT_SEED", str(DEFAULT_SEED)),
    )
    command += ["--exclude-path-regex", "^/admin/", "--report-dir", str(work / "schemathesis-authorization")]
    for operation_id in AUTHORIZATION_EXCLUDED:
        command += ["--exclude-operation-id", operation_id]
    print(f"\n== Schemathesis: authorization with two viewers ({', '.join(PEERS)})", flush=True)
    env = {key: value for key, value in os.environ.items() if key != "SCHEMATHESIS_HOOKS"}
    return subprocess.run(command, cwd=PROJECT_ROOT, env=env).returncode


def _providers(ifa_issuer: str | None) -> dict[str, str]:
    """Sign-on settings for the contract server: ifa on a real local OpenID provider (so the
    popup callback runs for real), and google pointing at a closed port (its 502)."""
    if ifa_issuer is None:
        raise SystemExit("oidc-provider-mock did not start: the ifa transactions cannot run")
    closed = f"http://127.0.0.1:{free_port()}"
    return {
        **local_provider_settings(ifa_issuer),
        "TOUCHLINE_GOOGLE_CLIENT_ID": "contract-google-client",
        "TOUCHLINE_GOOGLE_ISSUER": closed,
    }


def sign_in_demo_accounts(base: str) -> dict:
    """Sign the demo accounts in through the API: their access tokens and details, as `viewer`,
    `staff` (the admin account: every admin operation) and `support`."""
    accounts = {}
    for demo in load_demo_users(PROJECT_ROOT / "fixtures"):
        key = {"admin": "staff", "support": "support"}.get(demo.role, "viewer")
        if key in accounts:
            continue
        body = json.dumps(
            {
                "username": demo.email,
                "password": demo.password,
                "device_id": f"contract-{key}",
                "device_name": f"contract-{key}",
                "strategy": "refresh",
            }
        ).encode()
        request = urllib.request.Request(
            f"{base}/api/user/login", data=body, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            content = json.loads(answer.read())["content"]
        accounts[key] = {
            "email": demo.email,
            "password": demo.password,
            "userId": content["profile"]["userId"],
            "token": content["tokenData"]["access_token"],
        }
    return accounts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", help="Run against this database instead of a fresh SQLite file.")
    parser.add_argument(
        "--only", choices=("dredd", "schemathesis", "authorization"), help="Run one of the three checks."
    )
    parser.add_argument(
        "--postgresql-url",
        default=os.environ.get("CONTRACT_POSTGRESQL_URL", DEFAULT_POSTGRESQL_SERVER),
        help="The PostgreSQL server on which Schemathesis runs a second time, in a database of its own "
        "(made and dropped by the run).",
    )
    parser.add_argument("--no-postgresql", action="store_true", help="Leave out the PostgreSQL run.")
    parser.add_argument("--work", type=Path, help=argparse.SUPPRESS)  # the PostgreSQL run's own files
    args = parser.parse_args(argv)

    if args.work is not None:  # the PostgreSQL run, started by the main run beside its own checks
        return max(check_database(args.database_url, args.work, args.only).values(), default=0)
    work = PROJECT_ROOT / "var" / "contract"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    database_url = args.database_url or f"sqlite+aiosqlite:///{work / 'touchline.db'}"
    # SQLite stores what PostgreSQL refuses (NUL in text): Schemathesis runs on both, the second
    # time with fewer examples; not when --database-url already chose one.
    on_postgresql = args.only in (None, "schemathesis") and not args.no_postgresql and args.database_url is None
    if on_postgresql and not pg_database.server_reachable(args.postgresql_url):
        print(f"\nPostgreSQL is not reachable at {args.postgresql_url} (--no-postgresql leaves that run out)")
        results = check_database(database_url, work, args.only)
        results["Schemathesis on PostgreSQL"] = 1
    elif on_postgresql:
        with pg_database.fresh_database(args.postgresql_url) as pg_url:
            results = _beside_postgresql_run(
                pg_url, work / "postgresql", lambda: check_database(database_url, work, args.only)
            )
    else:
        results = check_database(database_url, work, args.only)

    print(f"\n{len(_operations_index())} operations checked")
    for tool, code in results.items():
        print(f"  {tool}: {'passed' if code == 0 else f'FAILED (exit {code})'}")
    if any(results.values()):
        print(f"server logs: {(work / 'server.log').relative_to(PROJECT_ROOT)}, ", end="")
        print(f"{(work / 'postgresql' / 'server.log').relative_to(PROJECT_ROOT)}")
    return 1 if any(results.values()) else 0


def _beside_postgresql_run(pg_url: str, work: Path, checks: Callable[[], dict[str, int]]) -> dict[str, int]:
    """`checks()` while Schemathesis runs on PostgreSQL in a process of its own (each run keeps about
    one core busy; CI has two), its output kept in a file and shown once both have ended."""
    work.mkdir(parents=True, exist_ok=True)
    log_path = work / "schemathesis.out"
    command = [sys.executable, "-m", "server.checks.contract", "--database-url", pg_url, "--only", "schemathesis"]
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [*command, "--work", str(work)], cwd=PROJECT_ROOT, stdout=log, stderr=subprocess.STDOUT
        )
        try:
            results = checks()
        finally:
            code = process.wait()
    print("\n== Schemathesis on PostgreSQL (run beside the checks above)", flush=True)
    sys.stdout.write(log_path.read_text(errors="replace"))
    return {**results, "Schemathesis on PostgreSQL": code}


def check_database(database_url: str, work: Path, only: str | None) -> dict[str, int]:
    """Migrate and seed `database_url`, serve it and run the checks (`only` one of them) with
    their files under `work`; each check's exit code by its name."""
    work.mkdir(parents=True, exist_ok=True)
    secret = secrets.token_urlsafe(32)
    on_postgresql = database_url.startswith("postgresql")

    upgrade(database_url)  # runs its own event loop
    ids = asyncio.run(_prepare_database(database_url))
    index = _operations_index()
    fixtures_path = work / "fixtures.json"

    results: dict[str, int] = {}
    with (
        local_openid_provider(free_port(), work / "ifa-provider.log") as ifa_issuer,
        running_server(database_url, secret, work / "server.log", _providers(ifa_issuer)) as base,
    ):
        accounts = sign_in_demo_accounts(base)
        fixtures_path.write_text(
            json.dumps(
                {
                    "ids": ids,
                    "operations": index,
                    "base": base,
                    "accounts": accounts,
                    "tokens": {key: account["token"] for key, account in accounts.items()},
                    "deviceLimit": Settings().device_limit,
                    # nginx-rtmp's publish hook, as nginx calls it (openapi/dredd/requests/events-admin.js).
                    "ingestHook": f"{base}{PUBLISH_PATH}?hook={hook_secret(secret)}",
                },
                indent=2,
            )
        )
        if only in (None, "dredd"):
            results["Dredd"] = run_dredd(base, fixtures_path)
        if only in (None, "schemathesis"):
            examples, on = (POSTGRESQL_MAX_EXAMPLES, " on PostgreSQL") if on_postgresql else (MAX_EXAMPLES, "")
            results["Schemathesis"] = run_schemathesis(base, index, fixtures_path, ids, work, examples=examples, on=on)
        if only in (None, "authorization"):
            # Signed in again: the runs before it may outlast an access token.
            staff_token = sign_in_demo_accounts(base)["staff"]["token"]
            results["Schemathesis authorization"] = run_authorization(base, work, ids, staff_token)
    return results


if __name__ == "__main__":
    sys.exit(main())
