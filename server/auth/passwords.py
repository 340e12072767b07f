"""Argon2id password hashing, off the event loop, a bounded number of hashes at a time.

Each hash holds ~19 MiB for ~30 ms of one core. At kickoff thousands of viewers sign in at once,
so hashing is bounded twice: at most `slots` hashes run at a time (by default one core fewer
than the machine has, so the event loop keeps a core for everyone else's requests), and a sign-in
that cannot start its hash within `wait_seconds` gets `PasswordsBusy` (503 with Retry-After)
rather than queueing without end. Waiters are served in arrival order (an asyncio semaphore
wakes its waiters first come, first served). Unknown users are checked against a dummy hash so
they cost the same time as a wrong password.
"""

import asyncio
import math
import os
import time
import weakref
from collections.abc import Callable
from functools import cached_property
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from ..errors import ApiError
from ..settings import Settings

DEFAULT_WAIT_SECONDS = 3.0
T = TypeVar("T")
MAX_RETRY_AFTER = 30


class PasswordsBusy(ApiError):
    """No hash could start in time: the client should come back after Retry-After seconds."""

    status = 503
    code = "service_unavailable"


def default_slots(cores: int | None = None) -> int:
    """One core fewer than the machine has, at least one."""
    return max(1, (cores or os.cpu_count() or 1) - 1)


class Passwords:
    def __init__(
        self,
        memory_kib: int,
        time_cost: int,
        parallelism: int,
        *,
        workers: int | None = None,
        wait_seconds: float = DEFAULT_WAIT_SECONDS,
    ):
        self.hasher = PasswordHasher(memory_cost=memory_kib, time_cost=time_cost, parallelism=parallelism)
        self.slots = workers or default_slots()
        self.wait_seconds = wait_seconds
        self._hash_seconds = 0.05  # a running estimate of one hash, for Retry-After
        # One semaphore per event loop: a semaphore binds to the loop that first waits on it, and
        # one process may run several loops (tests, threaded servers).
        self._slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
            weakref.WeakKeyDictionary()
        )
        self._waiting = 0

    @classmethod
    def from_settings(cls, settings: Settings) -> "Passwords":
        return cls(
            settings.argon2_memory_kib,
            settings.argon2_time_cost,
            settings.argon2_parallelism,
            workers=settings.argon2_slots or None,
            wait_seconds=settings.argon2_wait_seconds,
        )

    @property
    def parameters(self) -> dict:
        p = self.hasher
        return {
            "algorithm": "argon2id",
            "memory_kib": p.memory_cost,
            "time_cost": p.time_cost,
            "parallelism": p.parallelism,
            "slots": self.slots,
        }

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        slots = self._slots.get(loop)
        if slots is None:
            slots = self._slots[loop] = asyncio.Semaphore(self.slots)
        return slots

    def retry_after(self) -> int:
        """Seconds until the queue ahead of a new sign-in has likely drained."""
        drain = (self._waiting + 1) * self._hash_seconds / self.slots
        return max(1, min(MAX_RETRY_AFTER, math.ceil(drain)))

    async def _run(self, work: Callable[..., T], *args: object) -> T:
        semaphore = self._semaphore()
        self._waiting += 1
        try:
            async with asyncio.timeout(self.wait_seconds):
                await semaphore.acquire()
        except TimeoutError:
            raise PasswordsBusy(
                "Too many sign-ins at once, please try again in a moment",
                headers={"Retry-After": str(self.retry_after())},
            ) from None
        finally:
            self._waiting -= 1
        try:
            began = time.perf_counter()
            result = await asyncio.to_thread(work, *args)
            self._hash_seconds = 0.8 * self._hash_seconds + 0.2 * (time.perf_counter() - began)
            return result
        finally:
            semaphore.release()

    @cached_property
    def _dummy_hash(self) -> str:
        return self.hasher.hash("touchline-dummy-password-for-unknown-users")

    async def hash(self, password: str) -> str:
        return await self._run(self.hasher.hash, password)

    async def verify(self, password_hash: str | None, password: str) -> bool:
        """True when `password` matches; a missing hash (unknown user, federated account) costs
        the same time and is False."""
        target = password_hash or self._dummy_hash
        ok = await self._run(self._verify, target, password)
        return ok and password_hash is not None

    def _verify(self, password_hash: str, password: str) -> bool:
        try:
            return self.hasher.verify(password_hash, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, password_hash: str) -> bool:
        return self.hasher.check_needs_rehash(password_hash)
