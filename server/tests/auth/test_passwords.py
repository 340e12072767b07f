import asyncio

from server.auth.passwords import Passwords


def cheap(workers: int = 1) -> Passwords:
    return Passwords(memory_kib=1024, time_cost=1, parallelism=1, workers=workers)


async def verify_many(passwords: Passwords, password_hash: str, count: int) -> list[bool]:
    return list(await asyncio.gather(*(passwords.verify(password_hash, "secret") for _ in range(count))))


def test_one_hasher_serves_bursts_on_two_event_loops_in_turn():
    # A burst bigger than the slots makes callers wait, which binds a semaphore to its loop.
    passwords = cheap(workers=1)
    password_hash = asyncio.run(passwords.hash("secret"))
    assert asyncio.run(verify_many(passwords, password_hash, 4)) == [True] * 4
    assert asyncio.run(verify_many(passwords, password_hash, 4)) == [True] * 4


def test_unknown_user_and_wrong_password_are_refused():
    passwords = cheap()
    password_hash = asyncio.run(passwords.hash("secret"))
    assert asyncio.run(passwords.verify(None, "secret")) is False
    assert asyncio.run(passwords.verify(password_hash, "wrong")) is False
