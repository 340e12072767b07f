import asyncio

import pytest

from server.single_flight import SingleFlight


def test_concurrent_askers_of_one_key_share_one_computation():
    flight: SingleFlight[int] = SingleFlight()
    computed = 0

    async def compute() -> int:
        nonlocal computed
        computed += 1
        await asyncio.sleep(0.01)
        return 42

    async def askers():
        return await asyncio.gather(*(flight.run("k", compute) for _ in range(5)))

    assert asyncio.run(askers()) == [42] * 5
    assert computed == 1 and flight.joined == 4 and len(flight) == 0


def test_every_waiter_gets_the_error_and_the_next_asker_computes_again():
    flight: SingleFlight[int] = SingleFlight()
    calls = 0

    async def failing() -> int:
        nonlocal calls
        calls += 1
        await asyncio.sleep(0.01)
        raise LookupError("gone")

    async def askers():
        return await asyncio.gather(*(flight.run("k", failing) for _ in range(3)), return_exceptions=True)

    outcomes = asyncio.run(askers())
    assert all(isinstance(o, LookupError) for o in outcomes) and calls == 1
    with pytest.raises(LookupError):
        asyncio.run(flight.run("k", failing))
    assert calls == 2


def test_different_keys_are_computed_apart():
    flight: SingleFlight[str] = SingleFlight()

    async def askers():
        async def echo(key: str) -> str:
            await asyncio.sleep(0)
            return key

        return await asyncio.gather(flight.run("a", lambda: echo("a")), flight.run("b", lambda: echo("b")))

    assert asyncio.run(askers()) == ["a", "b"]
