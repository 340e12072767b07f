"""One computation per key at a time: later askers of a key being computed wait for that result.

At kickoff thousands of requests miss the same short-lived entry in the same millisecond (a
session's standing, a viewer's holdings, a catalogue page); without this each would query the
database. Errors reach every waiter and are not remembered. Futures belong to one event loop, so
askers on another loop (tests, threaded servers) compute on their own.
"""

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

T = TypeVar("T")


class SingleFlight(Generic[T]):
    def __init__(self) -> None:
        self._pending: dict[Hashable, asyncio.Future[T]] = {}
        self.joined = 0  # askers who waited for another's computation

    def __len__(self) -> int:
        return len(self._pending)

    async def run(self, key: Hashable, compute: Callable[[], Awaitable[T]]) -> T:
        loop = asyncio.get_running_loop()
        pending = self._pending.get(key)
        if pending is not None and pending.get_loop() is loop:
            self.joined += 1
            return await asyncio.shield(pending)
        pending = loop.create_future()
        self._pending[key] = pending
        try:
            value = await compute()
        except BaseException as exc:
            pending.set_exception(exc)
            pending.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            if self._pending.get(key) is pending:
                del self._pending[key]
        pending.set_result(value)
        return value
