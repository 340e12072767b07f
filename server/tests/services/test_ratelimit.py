"""Attempt limits count the last `window` seconds, not calendar windows, across processes."""

import asyncio
import math
import uuid
from datetime import timedelta

import pytest

from server import clock
from server.services import ratelimit
from server.services.ratelimit import Limit, TooManyRequests


def fresh_limit(limit: int = 10, window: int = 900) -> Limit:
    return Limit(f"test-{uuid.uuid4().hex[:10]}", limit, window)


def move_to_window_end(limit: Limit, seconds_before: float) -> None:
    """Move the clock to `seconds_before` the end of the current window (or the next one when
    the current one ends sooner)."""
    now = clock.now().timestamp()
    end = math.ceil(now / limit.window) * limit.window
    if end - now < seconds_before + 1:
        end += limit.window
    clock.advance(timedelta(seconds=end - seconds_before - now))


async def attempts(database, limit: Limit, subject: str, count: int) -> list[int]:
    """The statuses of `count` attempts one after another: 200 counted, 429 refused."""
    statuses = []
    for _ in range(count):
        async with database.session() as db:
            try:
                await ratelimit.hit(db, limit, subject)
                statuses.append(200)
            except TooManyRequests:
                statuses.append(429)
    return statuses


async def test_twenty_failures_across_a_window_boundary_are_refused_after_the_tenth(database):
    limit = fresh_limit(10, 900)
    move_to_window_end(limit, seconds_before=2)
    before = await attempts(database, limit, "ada@example.com", 10)
    clock.advance(timedelta(seconds=4))  # into the next window
    after = await attempts(database, limit, "ada@example.com", 10)
    assert before == [200] * 10
    assert after == [429] * 10


async def test_the_refusal_says_when_the_next_attempt_is_welcome(database):
    limit = fresh_limit(10, 900)
    move_to_window_end(limit, seconds_before=1)
    await attempts(database, limit, "bob@example.com", 10)
    clock.advance(timedelta(seconds=2))
    async with database.session() as db:
        with pytest.raises(TooManyRequests) as refused:
            await ratelimit.hit(db, limit, "bob@example.com")
    wait = int(refused.value.headers["Retry-After"])
    # Ten in the previous window: one more fits once they weigh nine, 10 % of the window (90 s)
    # after the boundary, 89 s from now.
    assert wait == 89
    clock.advance(timedelta(seconds=wait - 2))
    async with database.session() as db:
        with pytest.raises(TooManyRequests):
            await ratelimit.check(db, limit, "bob@example.com")  # asks without counting
    clock.advance(timedelta(seconds=3))
    assert await attempts(database, limit, "bob@example.com", 1) == [200]


async def test_refused_attempts_do_not_lengthen_the_wait(database):
    limit = fresh_limit(3, 60)
    move_to_window_end(limit, seconds_before=30)
    assert await attempts(database, limit, "dan", 3 + 100) == [200] * 3 + [429] * 100
    async with database.session() as db:
        with pytest.raises(TooManyRequests) as refused:
            await ratelimit.hit(db, limit, "dan")
    wait = int(refused.value.headers["Retry-After"])
    assert 0 < wait <= limit.window
    clock.advance(timedelta(seconds=wait))
    assert await attempts(database, limit, "dan", 1) == [200]


async def test_attempts_of_the_previous_window_count_less_as_it_slides_away(database):
    limit = fresh_limit(10, 900)
    move_to_window_end(limit, seconds_before=1)
    await attempts(database, limit, "cy@example.com", 10)
    clock.advance(timedelta(seconds=1 + 450))  # half way through the next window: 10 count as 5
    assert await attempts(database, limit, "cy@example.com", 6) == [200] * 5 + [429]


async def test_subjects_and_limits_are_counted_apart(database):
    limit, other = fresh_limit(2, 60), fresh_limit(2, 60)
    assert await attempts(database, limit, "a", 3) == [200, 200, 429]
    assert await attempts(database, limit, "b", 2) == [200, 200]
    assert await attempts(database, other, "a", 2) == [200, 200]


async def test_check_refuses_without_counting_and_forget_clears_the_count(database):
    limit = fresh_limit(3, 900)
    move_to_window_end(limit, seconds_before=1)
    await attempts(database, limit, "dee@example.com", 3)
    clock.advance(timedelta(seconds=2))
    async with database.session() as db:
        with pytest.raises(TooManyRequests):
            await ratelimit.check(db, limit, "dee@example.com")
        await ratelimit.check(db, limit, "someone-else@example.com")
        await ratelimit.forget(db, limit, "dee@example.com")
        await db.commit()
        await ratelimit.check(db, limit, "dee@example.com")


async def test_concurrent_attempts_from_many_connections_are_all_counted(database):
    limit = fresh_limit(10, 3600)
    move_to_window_end(limit, seconds_before=60)

    async def one() -> int:
        async with database.write_session() as db:
            try:
                await ratelimit.hit(db, limit, "racer")
                return 200
            except TooManyRequests:
                return 429

    statuses = await asyncio.gather(*(one() for _ in range(30)))
    assert sorted(statuses) == [200] * 10 + [429] * 20


async def test_counters_are_kept_while_the_next_window_reads_them_then_pruned(database):
    limit = fresh_limit(1, 60)
    move_to_window_end(limit, seconds_before=10)
    assert await attempts(database, limit, "eve", 1) == [200]
    clock.advance(timedelta(seconds=20))  # next window: still counts
    async with database.session() as db:
        await ratelimit.prune(db)
        await db.commit()
    assert await attempts(database, limit, "eve", 1) == [429]
    clock.advance(timedelta(seconds=130))  # two windows on: nothing left to read
    async with database.session() as db:
        await ratelimit.prune(db)
        await db.commit()
    assert await attempts(database, limit, "eve", 1) == [200]
