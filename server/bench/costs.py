"""`python -m server.bench.costs`: what single operations cost, measured here rather than asserted
in the tests, where a wall-clock bound fails on a busy machine rather than on slow code (the tests
keep the functional part: the key derived once, every code stored).

- stream URL signing (server.media.delivery.signing): an event list signs up to 24 x 3 URLs per answer;
  `--signatures` URLs signed in a row, each of a stream of its own (a new token every time), aim
  under 1 ms each; and as many of one stream, whose token is handed out again (_RecentTokens);
- access codes (server.services.commerce.access_codes): one batch of 10,000 codes issued on a
  fresh SQLite database, aim under 10 s.

Wall-clock time on this machine, with the process's CPU time beside it: on a machine busy with
other work the first includes waiting for a core.
"""

import argparse
import asyncio
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .servers import fresh_sqlite_database

DB_FILE = Path(__file__).resolve().parents[2] / "var" / "bench" / "costs.db"
SIGNING_TARGET_MS = 1.0
CODES = 10_000
CODES_TARGET_S = 10.0


def log(msg: str) -> None:
    print(f"[bench] {msg}", file=sys.stderr, flush=True)


@dataclass
class Cost:
    name: str
    wall_s: float
    cpu_s: float


def measured(name: str, work: Callable[[], object]) -> Cost:
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return Cost(name, time.perf_counter() - wall, time.process_time() - cpu)


def signing(count: int, streams: int) -> Cost:
    """`count` VOD URLs signed in a row, as event lists sign them, of `streams` streams in turn."""
    from server.media.delivery.signing import sign_stream
    from server.media.delivery.urls import vod_url
    from server.settings import Settings

    settings = Settings(
        environment="test", secret_key="a-bench-secret-for-stream-tokens-32-bytes-or-more", stream_token_seconds=600
    )
    urls = [vod_url(f"bench-{n:06d}") for n in range(streams)]

    def sign_all() -> None:
        for n in range(count):
            sign_stream(urls[n % streams], settings=settings)

    sign_stream(vod_url("warm-up"), settings=settings)  # imports, the key
    return measured(f"sign {count} URLs, {streams} stream{'s' if streams > 1 else ''}", sign_all)


async def _ppv_product(url: str) -> str:
    from sqlalchemy import select

    from server.db import Database
    from server.models import Product
    from server.seed.loader import seed

    database = Database(url)
    try:
        await seed(database.engine)
        async with database.session() as db:
            return (await db.execute(select(Product.id).where(Product.type == "ppv").limit(1))).scalar_one()
    finally:
        await database.dispose()


async def _issue(url: str, product_id: str) -> None:
    from server.db import Database
    from server.services.commerce import access_codes

    database = Database(url)
    try:
        batch = await access_codes.issue(database, product_id=product_id, count=CODES)
        assert len(set(batch.codes)) == CODES
    finally:
        await database.dispose()


def issuing_codes() -> Cost:
    url = fresh_sqlite_database(DB_FILE)
    product_id = asyncio.run(_ppv_product(url))
    return measured(f"issue {CODES:,} access codes", lambda: asyncio.run(_issue(url, product_id)))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m server.bench.costs", description=__doc__.splitlines()[0])
    p.add_argument("--signatures", type=int, default=1000)
    args = p.parse_args(argv)

    log(f"signing {args.signatures} stream URLs")
    signed = signing(args.signatures, streams=args.signatures)
    reused = signing(args.signatures, streams=1)
    log(f"issuing {CODES:,} access codes on SQLite")
    issued = issuing_codes()

    print(f"{'name':<32} {'wall s':>8} {'cpu s':>8}")
    for cost in (signed, reused, issued):
        print(f"{cost.name:<32} {cost.wall_s:8.3f} {cost.cpu_s:8.3f}")
    per_url_ms = signed.wall_s / args.signatures * 1e3
    print(
        f"stream URL signing {per_url_ms:.3f} ms per URL (target < {SIGNING_TARGET_MS:.0f} ms) "
        f"{'PASS' if per_url_ms < SIGNING_TARGET_MS else 'FAIL'}"
    )
    print(
        f"{CODES:,} access codes in {issued.wall_s:.1f} s (target < {CODES_TARGET_S:.0f} s) "
        f"{'PASS' if issued.wall_s < CODES_TARGET_S else 'FAIL'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
