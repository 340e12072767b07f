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


def test_by_default_hashing_leaves_one_core_to_everything_else():
    from server.auth.passwords import default_slots

    assert (default_slots(1), default_slots(2), default_slots(8)) == (1, 1, 7)


def test_a_hash_that_cannot_start_within_the_wait_is_refused_with_retry_after():
    from server.auth.passwords import PasswordsBusy

    passwords = Passwords(memory_kib=64 * 1024, time_cost=4, parallelism=1, workers=1, wait_seconds=0.01)

    async def burst():
        return await asyncio.gather(*(passwords.verify(None, "secret") for _ in range(3)), return_exceptions=True)

    outcomes = asyncio.run(burst())
    assert outcomes[0] is False  # the first had the slot at once
    assert all(isinstance(o, PasswordsBusy) for o in outcomes[1:])
    busy = outcomes[1]
    assert busy.status == 503 and busy.code == "service_unavailable"
    assert int(busy.headers["Retry-After"]) >= 1


def test_waiting_hashes_are_served_in_arrival_order():
    passwords = cheap(workers=1)
    finished: list[int] = []

    async def one(n: int) -> None:
        await passwords.hash(f"secret {n}")
        finished.append(n)

    async def burst():
        await asyncio.gather(*(one(n) for n in range(6)))

    asyncio.run(burst())
    assert finished == list(range(6))
