"""A sign-in burst queues for the password hash slots in arrival order; one that cannot start its
hash within TOUCHLINE_ARGON2_WAIT_SECONDS is told to come back (503 with Retry-After) instead of
waiting without end, and everything else keeps being served."""

import asyncio

import httpx

from server.tests.accounts import new_device, new_email
from server.tests.conftest import with_state


def busy_client(api, database, settings, **changes):
    # Slow hashes (64 MiB, t=4) for unknown accounts: the dummy hash uses these parameters.
    slow = settings.model_copy(update={"argon2_memory_kib": 64 * 1024, "argon2_time_cost": 4, **changes})
    app = with_state(api, {"database": database, "settings": slow})
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://touchline.test")


def login(client, email: str):
    device = new_device()
    body = {"username": email, "password": "not the password", "device_id": device, "device_name": device}
    return client.post("/api/user/login", json=body)


async def test_sign_ins_beyond_what_the_slots_serve_in_the_wait_get_503_with_retry_after(api, database, settings):
    async with busy_client(api, database, settings, argon2_slots=1, argon2_wait_seconds=0.01) as client:
        answers = await asyncio.gather(*(login(client, new_email()) for _ in range(4)))
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [401, 503, 503, 503]
    busy = next(a for a in answers if a.status_code == 503)
    assert busy.json()["messageErrorCode"] == "service_unavailable" and busy.json()["error"] is True
    assert int(busy.headers["retry-after"]) >= 1


async def test_sign_ins_that_get_a_slot_within_the_wait_are_all_served(api, database, settings):
    async with busy_client(api, database, settings, argon2_slots=1, argon2_wait_seconds=30) as client:
        answers = await asyncio.gather(*(login(client, new_email()) for _ in range(4)))
    assert [a.status_code for a in answers] == [401] * 4


async def test_other_requests_are_served_while_sign_ins_queue(api, database, settings, catalogue):
    async with busy_client(api, database, settings, argon2_slots=1, argon2_wait_seconds=30) as client:
        burst = [asyncio.create_task(login(client, new_email())) for _ in range(6)]
        await asyncio.sleep(0)
        config = await client.get("/api/config")
        unfinished = sum(not task.done() for task in burst)
        await asyncio.gather(*burst)
    assert config.status_code == 200
    assert unfinished >= 1  # the page's other calls did not wait for the queue of sign-ins
