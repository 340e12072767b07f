"""server.gc_policy: full collections on a timer while a server runs, CPython's schedule after."""

import asyncio
import gc

import pytest

from server import gc_policy

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_while_running_full_collections_only_come_from_the_timer():
    before = gc.get_threshold()
    full_collections = []

    def seen(phase, info):
        if phase == "stop" and info["generation"] == 2:
            full_collections.append(info)

    async with gc_policy.running(0.05):
        assert gc.get_threshold() == (gc_policy.YOUNG_THRESHOLD, before[1], gc_policy.NEVER)
        assert gc.get_freeze_count() > 0  # what existed at start-up is never walked again
        gc.callbacks.append(seen)
        try:
            await asyncio.sleep(0.3)
        finally:
            gc.callbacks.remove(seen)
    assert len(full_collections) >= 2
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


async def test_nested_servers_restore_the_schedule_only_when_the_last_one_stops():
    before = gc.get_threshold()
    async with gc_policy.running(60):
        async with gc_policy.running(60):
            pass
        assert gc.get_threshold()[2] == gc_policy.NEVER
    assert gc.get_threshold() == before


async def test_an_interval_of_zero_keeps_cpythons_schedule():
    before = gc.get_threshold()
    async with gc_policy.running(0):
        assert gc.get_threshold() == before and gc.get_freeze_count() == 0
