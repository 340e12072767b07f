"""Argon2id password hashing, off the event loop and at most one hash per core at a time.

Each hash holds ~19 MiB for ~30 ms: the semaphore bounds memory and CPU during a login burst
(extra requests wait their turn instead of piling up threads). Unknown users are checked
against a dummy hash so they cost the same time as a wrong password.
"""

import asyncio
import os
import weakref
from functools import cached_property

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from ..settings import Settings


class Passwords:
    def __init__(self, memory_kib: int, time_cost: int, parallelism: int, *, workers: int | None = None):
        self.hasher = PasswordHasher(memory_cost=memory_kib, time_cost=time_cost, parallelism=parallelism)
        self._workers = workers or os.cpu_count() or 1
        # One semaphore per event loop: a semaphore binds to the loop that first waits on it, and
        # one process may run several loops (tests, threaded servers).
        self._slots: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
            weakref.WeakKeyDictionary()
        )

    @classmethod
    def from_settings(cls, settings: Settings) -> "Passwords":
        return cls(settings.argon2_memory_kib, settings.argon2_time_cost, settings.argon2_parallelism)

    @property
    def parameters(self) -> dict:
        p = self.hasher
        return {
            "algorithm": "argon2id",
            "memory_kib": p.memory_cost,
            "time_cost": p.time_cost,
            "parallelism": p.parallelism,
        }

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        slots = self._slots.get(loop)
        if slots is None:
            slots = self._slots[loop] = asyncio.Semaphore(self._workers)
        return slots

    @cached_property
    def _dummy_hash(self) -> str:
        return self.hasher.hash("touchline-dummy-password-for-unknown-users")

    async def hash(self, password: str) -> str:
        async with self._semaphore():
            return await asyncio.to_thread(self.hasher.hash, password)

    async def verify(self, password_hash: str | None, password: str) -> bool:
        """True when `password` matches; a missing hash (unknown user, federated account) costs
        the same time and is False."""
        target = password_hash or self._dummy_hash
        async with self._semaphore():
            ok = await asyncio.to_thread(self._verify, target, password)
        return ok and password_hash is not None

    def _verify(self, password_hash: str, password: str) -> bool:
        try:
            return self.hasher.verify(password_hash, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, password_hash: str) -> bool:
        return self.hasher.check_needs_rehash(password_hash)
