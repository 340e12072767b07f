"""The kickoff load test's data: a seeded catalogue, viewer accounts, a fresh signed-in session
per viewer for every run, and the plan file the locustfile reads.

Accounts and sessions are written straight into the database so that a run measures refreshes
and sign-ins, not sign-ups: every account shares one argon2id hash of PASSWORD (a sign-in still
verifies it at full cost), and `issue_sessions` writes the rows `POST /api/user/login` would
(server.services.sessions), thousands in one transaction.
"""

import asyncio
import json
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from ..servers import analyzed

PASSWORD = "kickoff bench password 2026"
SECRET = "touchline-kickoff-bench-secret-0123456789abcdef"
# The socket handshake's Origin: one fixed origin the servers allow, whatever their port.
ORIGIN = "http://kickoff-bench.test"
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
PG_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/{name}"


@dataclass(frozen=True)
class Account:
    user_id: str
    email: str
    device_ref: str  # devices.id
    device_id: str  # what the browser sends


def server_env(database_url: str, redis_url: str | None = None) -> dict[str, str]:
    """The servers' settings: production-like (no access log, no response validation, the
    default sign-in limits). Each simulated viewer sends its own X-Forwarded-For, believed from
    127.0.0.1 as from the proxy in front of production (uvicorn's own default for run_server;
    `touchline cluster` sets it for its processes behind HAProxy)."""
    env = {
        "TOUCHLINE_ENVIRONMENT": "test",
        "TOUCHLINE_DATABASE_URL": database_url,
        "TOUCHLINE_INGEST_ENABLED": "false",  # no nginx-rtmp beside the measured servers
        "TOUCHLINE_SECRET_KEY": SECRET,
        "TOUCHLINE_RESPONSE_VALIDATION": "false",
        "TOUCHLINE_FORWARDED_ALLOW_IPS": "127.0.0.1",
        "TOUCHLINE_SOCKET_ALLOWED_ORIGINS": ORIGIN,
    }
    if redis_url:
        env["REDIS_URL"] = redis_url
    return env


def sqlite_database(path: Path) -> str:
    """A new migrated and seeded SQLite database at `path`; its URL."""
    from ..servers import fresh_sqlite_database

    url = fresh_sqlite_database(path)
    asyncio.run(_seed(url))
    return url


def postgres_database(name: str) -> str:
    """A new migrated and seeded PostgreSQL database `name` (an earlier one is dropped); its URL."""
    import psycopg
    from psycopg import sql

    from server.migrate import upgrade

    with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    url = PG_URL.format(name=name)
    upgrade(url)
    asyncio.run(_seed(url))
    return analyzed(url)


def drop_postgres_database(name: str) -> None:
    import psycopg
    from psycopg import sql

    with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


async def _seed(url: str) -> None:
    from server.db import Database
    from server.media.assets.store import samples_dir, store_of
    from server.seed.loader import seed
    from server.settings import Settings

    database = Database(url)
    settings = Settings()  # the media directory the servers it starts read (TOUCHLINE_MEDIA_DIR)
    try:
        # The events' asset directories too: without them their streams answer 404, unless an
        # earlier seed of the same catalogue happened to make them.
        await seed(database.engine, media=(store_of(settings), samples_dir(settings)))
    finally:
        await database.dispose()


def live_event(url: str) -> str:
    """A free live game of the seed with a live stream: every viewer may watch it, and its event
    answer carries a signed live playlist URL."""
    from sqlalchemy import select

    from server.db import Database
    from server.models import Event

    async def find() -> str:
        database = Database(url)
        try:
            async with database.session() as db:
                return (
                    await db.execute(
                        select(Event.id)
                        .where(
                            Event.status == "live",
                            Event.media_type == "event",
                            Event.commerce_type == "commerce_free_media",
                            Event.hls_stream.like("/media/live/%"),
                        )
                        .order_by(Event.event_date)
                        .limit(1)
                    )
                ).scalar_one()
        finally:
            await database.dispose()

    return asyncio.run(find())


def ensure_accounts(url: str, count: int) -> list[Account]:
    """At least `count` bench accounts, each with one device; returns the first `count`."""
    return asyncio.run(_ensure_accounts(url, count))


async def _ensure_accounts(url: str, count: int) -> list[Account]:
    from sqlalchemy import select

    from server import clock
    from server.auth.passwords import Passwords
    from server.db import Database
    from server.models import Device, User, new_id
    from server.settings import Settings

    database = Database(url)
    try:
        async with database.session() as db:
            rows = (
                await db.execute(
                    select(User.id, User.email, Device.id, Device.device_id)
                    .join(Device, Device.user_id == User.id)
                    .where(User.email.like("kickoff-%@example.com"))
                    .order_by(User.email)
                )
            ).all()
            accounts = [Account(*row) for row in rows]
            missing = count - len(accounts)
            if missing > 0:
                password_hash = await Passwords.from_settings(Settings(secret_key=SECRET)).hash(PASSWORD)
                users, devices = [], []
                for n in range(len(accounts), count):
                    user = User(
                        id=new_id(),
                        email=f"kickoff-{n:06d}@example.com",
                        password_hash=password_hash,
                        display_name=f"Kickoff {n}",
                        club_list=[],
                        options={},
                        email_verified_at=clock.now(),  # not a sign-up: nothing to confirm
                    )
                    device_id = f"Mozilla/5.0 (X11; Linux x86_64) KickoffBench/{n}"
                    users.append(user)
                    devices.append(Device(id=new_id(), user_id=user.id, device_id=device_id, device_name=device_id))
                    accounts.append(Account(user.id, user.email or "", devices[-1].id, device_id))
                # The models declare no relationships, so the unit of work needs the parents first.
                db.add_all(users)
                await db.flush()
                db.add_all(devices)
                await db.commit()
        return accounts[:count]
    finally:
        await database.dispose()


def issue_sessions(url: str, accounts: list[Account]) -> list[str]:
    """A new signed-in session per account (on its device); returns each one's refresh token."""
    return asyncio.run(_issue_sessions(url, accounts))


async def _issue_sessions(url: str, accounts: list[Account]) -> list[str]:
    from server import clock
    from server.db import Database
    from server.models import AuthSession, RefreshToken, new_id
    from server.services.sessions import new_refresh_token, token_hash
    from server.settings import Settings

    settings = Settings(secret_key=SECRET)
    now = clock.now()
    expires = now + timedelta(seconds=settings.session_lifetime)
    tokens = []
    database = Database(url)
    try:
        sessions, refresh_tokens = [], []
        for account in accounts:
            session_id, token = new_id(), new_refresh_token()
            sessions.append(
                AuthSession(
                    id=session_id,
                    user_id=account.user_id,
                    device_ref=account.device_ref,
                    provider="credentials",
                    created=now,
                    updated=now,
                    expires_at=expires,
                    last_used=now,
                )
            )
            refresh_tokens.append(
                RefreshToken(
                    id=new_id(),
                    session_id=session_id,
                    token_hash=token_hash(token),
                    created=now,
                    expires_at=min(now + timedelta(seconds=settings.refresh_token_lifetime), expires),
                )
            )
            tokens.append(token)
        async with database.session() as db:
            db.add_all(sessions)
            await db.flush()
            db.add_all(refresh_tokens)
            await db.commit()
        return tokens
    finally:
        await database.dispose()


def write_plan(path: Path, url: str, event_id: str, viewers: int, burst: int = 0) -> None:
    """The plan for one locust run: `viewers` accounts with fresh refresh tokens, and `burst`
    further accounts for the sign-in burst."""
    accounts = ensure_accounts(url, viewers + burst)
    tokens = issue_sessions(url, accounts[:viewers])

    def entry(account: Account, token: str | None = None) -> dict:
        return {
            "email": account.email,
            "password": PASSWORD,
            "device_id": account.device_id,
            "refresh_token": token,
        }

    plan = {
        "event_id": event_id,
        "origin": ORIGIN,
        "accounts": [entry(a, t) for a, t in zip(accounts[:viewers], tokens, strict=True)],
        "burst_accounts": [entry(a) for a in accounts[viewers:]],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(plan))
