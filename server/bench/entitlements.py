"""`python -m server.bench.entitlements`: entitlement checks for a signed-in subscriber's event page.

A seeded SQLite catalogue, one viewer with an active "All Access" subscription (and a
pay-per-view purchase, so every holdings query returns rows), one subscription event.

- check: what every personalised answer does per request: load the viewer's holdings (three
  indexed queries) and decide for the event; 64 concurrent checks at a time, in one process.
- page: GET /api/event/get_by_id with the subscriber's bearer token through the whole server
  (session check, holdings, event, decision, signed stream URL), wrk with 64 connections.
"""

import argparse
import asyncio
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

from .load import run_wrk
from .servers import fresh_sqlite_database, run_server

DB_FILE = Path(__file__).resolve().parents[2] / "var" / "bench" / "entitlements.db"
TARGET_P99_MS = 5.0


def log(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


async def _prepare(url: str) -> tuple[str, str, str]:
    """(subscriber id, access token, subscription event id) in a freshly seeded database."""
    from sqlalchemy import select

    from server import clock
    from server.db import Database
    from server.models import Contract, Event, Product, Purchase, User, new_id
    from server.seed.loader import seed
    from server.services import sessions
    from server.services.commerce import grants
    from server.settings import Settings

    database = Database(url)
    await seed(database.engine)
    try:
        now = clock.now()
        async with database.write_session() as db:
            user = User(
                id=new_id(),
                email="subscriber@example.com",
                password_hash=None,
                display_name="Bench",
                club_list=[],
                options={},
                email_verified_at=clock.now(),  # not a sign-up: nothing to confirm
            )
            db.add(user)
            await db.flush()
            svod = (
                await db.execute(select(Product).where(Product.type == "svod", Product.identity_items == []).limit(1))
            ).scalar_one_or_none()
            if svod is None:
                svod = (await db.execute(select(Product).where(Product.title == "Touchline All Access"))).scalar_one()
            contract = grants.new_contract(svod, user.id, now)
            grants.activate_contract(contract, svod, now)
            db.add(contract)
            ppv = (await db.execute(select(Product).where(Product.type == "ppv").limit(1))).scalar_one()
            purchase = grants.new_purchase(ppv, user.id, now, status="init", payment_action="creditCardPay")
            db.add(purchase)
            await grants.complete_purchase(db, purchase, ppv, now + timedelta(seconds=1))
            event = (
                await db.execute(
                    select(Event.id)
                    .where(
                        Event.commerce_type == "commerce_subscription-basic_media",
                        Event.media_type == "event",
                        Event.status == "archived",
                    )
                    .limit(1)
                )
            ).scalar_one()
            await db.commit()
        settings = Settings(database_url=url)
        async with database.write_session() as db:
            result = await sessions.sign_in(
                db,
                user.id,
                sessions.DeviceIn("bench", "bench"),
                policy=sessions.Policy.from_settings(settings),
                provider="credentials",
            )
        assert (await _count(database, Contract)) >= 1 and (await _count(database, Purchase)) >= 1
        assert result.token_data is not None  # a new account's first device: under the limit
        return user.id, result.token_data["access_token"], event
    finally:
        await database.dispose()


async def _count(database, model) -> int:
    from sqlalchemy import func, select

    async with database.session() as db:
        return (await db.execute(select(func.count()).select_from(model))).scalar_one()


async def _checks(
    url: str, user_id: str, event_id: str, concurrency: int, rounds: int, cache_seconds: float
) -> tuple[list[float], float]:
    """Per-check latencies (ms) and checks per second, `concurrency` checks in flight, the way
    server.api.http.context.bind_viewer checks (through a HoldingsCache of `cache_seconds`)."""
    from server import clock
    from server.db import Database
    from server.services.access import Viewer, decide
    from server.services.commerce import holdings, products
    from server.services.events import get_event

    database = Database(url)
    try:
        async with database.session() as db:
            view = await get_event(db, event_id)
            identity_ids = await products.event_identity_ids(db, event_id)
        e = view.event
        cache = holdings.HoldingsCache(cache_seconds)

        async def one() -> float:
            began = time.perf_counter()
            held = cache.get(user_id)
            if held is None:
                async with database.session() as db:
                    held = await holdings.load(db, user_id, clock.now())
                cache.put(user_id, held)
            answer = decide(
                Viewer(user_id, held, "GB"),
                event_id=e.id,
                media_type=e.media_type,
                commerce_type=e.commerce_type,
                commerce_modes=e.commerce_modes,
                identity_ids=identity_ids,
                regions=e.regions,
                available_anywhere=e.available_in_region,
            )
            assert answer.available_for_user
            return (time.perf_counter() - began) * 1e3

        await asyncio.gather(*(one() for _ in range(concurrency)))  # warm the pool
        latencies: list[float] = []
        began = time.perf_counter()
        for _ in range(rounds):
            latencies += await asyncio.gather(*(one() for _ in range(concurrency)))
        return latencies, len(latencies) / (time.perf_counter() - began)
    finally:
        await database.dispose()


def _percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[int(q) - 1]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m server.bench.entitlements", description=__doc__.splitlines()[0])
    p.add_argument("--duration", type=int, default=10)
    p.add_argument("--connections", type=int, default=64)
    p.add_argument("--rounds", type=int, default=100)
    args = p.parse_args(argv)

    url = fresh_sqlite_database(DB_FILE)
    user_id, token, event_id = asyncio.run(_prepare(url))

    rows = []
    for label, seconds in (("cached", 2.0), ("cache off", 0.0)):
        log(f"entitlement checks ({label}): {args.connections} concurrent, {args.rounds} rounds")
        latencies, rate = asyncio.run(_checks(url, user_id, event_id, args.connections, args.rounds, seconds))
        rows.append((f"entitlement check, {label}", rate, statistics.median(latencies), _percentile(latencies, 99)))

    env = {"DATABASE_URL": url, "TOUCHLINE_RESPONSE_VALIDATION": "false"}
    with run_server("server.bench.servers:touchline_app", env) as server:
        log(f"event page: wrk {args.connections} connections, {args.duration}s")
        page = run_wrk(
            f"{server.base_url}/api/event/get_by_id/id/{event_id}",
            "event page (subscriber, sqlite)",
            headers={"Authorization": f"Bearer {token}"},
            duration=args.duration,
            connections=args.connections,
        )

    print(f"{'name':<36} {'per s':>9} {'p50 ms':>8} {'p99 ms':>8} {'errors':>6}")
    for name, rate, p50, p99 in rows:
        print(f"{name:<36} {rate:9.0f} {p50:8.2f} {p99:8.2f} {0:6d}")
    print(f"{page.name:<36} {page.requests_per_s:9.0f} {page.p50_ms:8.2f} {page.p99_ms:8.2f} {page.errors:6d}")
    p99 = rows[0][3]  # the production configuration (cache on)
    verdict = "PASS" if p99 < TARGET_P99_MS else "FAIL"
    print(
        f"entitlement check p99 {p99:.2f} ms at {args.connections} concurrent (target < {TARGET_P99_MS:.0f} ms) "
        f"{verdict}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
