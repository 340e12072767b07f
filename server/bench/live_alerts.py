"""`python -m server.bench.live_alerts`: the go-live alert fan-out to 5,000 followers, on one process.

A migrated SQLite database holds an upcoming match and 5,000 accounts following one of its teams
(one in ten opted in to go-live mails). The match goes live through the staff service, and the
time is taken from that commit to the last `followed-event-live` message handed on:
- socket: to this process's own socket server (python-socketio's in-process rooms);
- redis: through Redis, as a process of a cluster sends (a private redis-server; skipped when
  redis-server is not installed).
Mail is written to the outbox in the same transactions (no SMTP: it is kept, not delivered).
"""

import argparse
import asyncio
import contextlib
import shutil
import sys
import time
from pathlib import Path

from .servers import fresh_sqlite_database

DB_FILE = Path(__file__).resolve().parents[2] / "var" / "bench" / "live_alerts.db"
FOLLOWERS = 5000
TARGET_SECONDS = 5.0


def log(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


async def _prepare(url: str, followers: int) -> str:
    """An upcoming match whose home team `followers` accounts follow; its id."""
    from server import clock
    from server.db import Database
    from server.models import Event, Follow, Team, User, new_id

    database = Database(url)
    try:
        now = clock.now()
        async with database.write_session() as db:
            team = Team(name="Bench Rovers", short_name="BRO", sport_type="football", color="#123456")
            db.add(team)
            await db.flush()
            event = Event(
                media_type="event",
                title="Bench Rovers vs Bench United",
                event_date=now,
                external_id=new_id(),
                reference_id=new_id(),
                sport_type="football",
                status="upcoming",
                home_team_id=team.id,
            )
            db.add(event)
            ids = [new_id() for _ in range(followers)]
            for number, user_id in enumerate(ids):
                db.add(
                    User(
                        id=user_id,
                        email=f"fan{number}@bench.example",
                        display_name="Fan",
                        club_list=[],
                        options={"liveAlertMail": number % 10 == 0},
                        email_verified_at=now,
                    )
                )
            await db.flush()
            for user_id in ids:
                db.add(Follow(user_id=user_id, type="team", reference_id=team.id, created=now))
            await db.commit()
            return event.id
    finally:
        await database.dispose()


async def _fan_out(url: str, event_id: str, target) -> tuple[float, int, int]:
    """(seconds from the go-live commit to the last message, told, mailed)."""
    from server.db import Database
    from server.realtime.live_alerts import LiveAlerts
    from server.services import event_admin
    from server.settings import Settings

    settings = Settings(database_url=url)
    database = Database(url)
    alerts = LiveAlerts()
    alerts.bind(database, settings, None)
    try:
        async with database.write_session() as db:
            await event_admin.go_live(db, event_id, media=event_admin.Media.of(settings))
        began = time.perf_counter()
        report = await alerts.send(event_id, out=target)
        return time.perf_counter() - began, report.told, report.mailed
    finally:
        await alerts.stop()
        await database.dispose()


@contextlib.contextmanager
def _redis():
    from server.tests.realtime.support import RedisServer

    server = RedisServer(shutil.which("redis-server") or "redis-server").start()
    try:
        yield server.url
    finally:
        server.stop()


async def _run(kind: str, url: str, followers: int) -> tuple[float, int, int]:
    import socketio

    from server.realtime.emitter import Emitter, RedisEmitter

    event_id = await _prepare(url, followers)
    if kind == "socket":
        return await _fan_out(url, event_id, Emitter(socketio.AsyncServer(async_mode="asgi")))
    with _redis() as redis_url:
        emitter = RedisEmitter(redis_url)
        try:
            return await _fan_out(url, event_id, emitter)
        finally:
            await emitter.aclose()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m server.bench.live_alerts", description=__doc__.splitlines()[0])
    p.add_argument("--followers", type=int, default=FOLLOWERS)
    args = p.parse_args(argv)
    kinds = ["socket"] + (["redis"] if shutil.which("redis-server") else [])
    print(f"{'go-live alert fan-out':<36} {'followers':>9} {'told':>6} {'mailed':>6} {'seconds':>8} {'per s':>8}")
    worst = 0.0
    for kind in kinds:
        log(f"go-live alerts to {args.followers} followers through {kind}")
        url = fresh_sqlite_database(DB_FILE)  # (alembic runs an event loop of its own)
        seconds, told, mailed = asyncio.run(_run(kind, url, args.followers))
        assert told == args.followers, f"{told} of {args.followers} followers told"
        worst = max(worst, seconds)
        print(f"{kind:<36} {args.followers:9d} {told:6d} {mailed:6d} {seconds:8.2f} {told / seconds:8.0f}")
    verdict = "PASS" if worst < TARGET_SECONDS else "FAIL"
    print(f"go-live alert to {args.followers} followers in {worst:.2f} s (aim < {TARGET_SECONDS:.0f} s) {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
