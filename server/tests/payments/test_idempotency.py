"""Idempotency keys: one answer per key, never a second charge, on SQLite and PostgreSQL."""

import asyncio
from datetime import timedelta

import pytest
from sqlalchemy import func, select

from server import clock
from server.errors import ApiError, Conflict
from server.models import IdempotencyKey, PaymentCharge, new_id
from server.payments import idempotency
from server.payments.idempotency import KEY_LIFETIME, LEASE, fingerprint, idempotent, purge_expired

from .conftest import card


def purchase(sandbox, user_id, key, calls: list):
    """The work of a purchase: charge a fresh card, answer with the charge."""

    async def work():
        calls.append(key)
        token = await sandbox.tokenize(card(), owner_id=user_id)
        charge = await sandbox.charge(
            token.token, owner_id=user_id, amount_minor=1500, currency="EUR", reference=f"{user_id}:{key}"
        )
        return 200, {"chargeId": charge.id, "status": charge.status.value}

    return work


async def charges_of(database, user_id) -> int:
    async with database.session() as db:
        return await db.scalar(select(func.count()).select_from(PaymentCharge).where(PaymentCharge.owner_id == user_id))


def test_fingerprint_is_the_sha256_of_canonical_json_of_operation_and_body():
    assert fingerprint("buy", {"a": 1, "b": [1, 2]}) == fingerprint("buy", {"b": [1, 2], "a": 1})
    assert fingerprint("buy", {"a": 1}) != fingerprint("subscribe", {"a": 1})
    assert len(fingerprint("buy", {})) == 64


async def test_first_call_runs_the_work_and_records_its_answer(database, sandbox, user_id):
    calls: list[str] = []
    answer = await idempotent(
        database, user_id, "k1", "ppv_purchase", {"eventId": "e1"}, purchase(sandbox, user_id, "k1", calls)
    )
    assert answer.status == 200 and answer.body["status"] == "succeeded" and not answer.replayed
    async with database.session() as db:
        row = (await db.execute(select(IdempotencyKey).where(IdempotencyKey.user_id == user_id))).scalar_one()
    assert (row.response_status, row.response_body) == (200, answer.body)
    assert row.expires_at - row.created >= timedelta(hours=24)
    assert row.fingerprint == fingerprint("ppv_purchase", {"eventId": "e1"})


async def test_retry_with_same_key_and_body_returns_the_same_answer_without_a_second_charge(database, sandbox, user_id):
    calls: list[str] = []
    body = {"eventId": "e1", "card": {"token": "tok"}}
    first = await idempotent(database, user_id, "k1", "ppv_purchase", body, purchase(sandbox, user_id, "k1", calls))
    again = await idempotent(
        database, user_id, "k1", "ppv_purchase", dict(reversed(body.items())), purchase(sandbox, user_id, "k1", calls)
    )
    assert again.replayed and (again.status, again.body) == (first.status, first.body)
    assert len(calls) == 1
    assert await charges_of(database, user_id) == 1


async def test_same_key_with_another_body_is_a_409_idempotency_key_reused(database, sandbox, user_id):
    calls: list[str] = []
    await idempotent(
        database, user_id, "k1", "ppv_purchase", {"eventId": "e1"}, purchase(sandbox, user_id, "k1", calls)
    )
    for operation, body in (("ppv_purchase", {"eventId": "e2"}), ("subscription_checkout", {"eventId": "e1"})):
        with pytest.raises(Conflict) as refused:
            await idempotent(database, user_id, "k1", operation, body, purchase(sandbox, user_id, "k1", calls))
        assert refused.value.status == 409 and refused.value.code == "idempotency_key_reused"
    assert len(calls) == 1 and await charges_of(database, user_id) == 1


async def test_keys_belong_to_one_account(database, sandbox, user_id):
    from server.models import User

    async with database.session() as db:
        other = User(
            id=new_id(), email=f"other-{new_id()}@example.test", display_name="Other", club_list=[], options={}
        )
        db.add(other)
        await db.commit()
    calls: list[str] = []
    await idempotent(
        database, user_id, "shared", "ppv_purchase", {"eventId": "e1"}, purchase(sandbox, user_id, "shared", calls)
    )
    answer = await idempotent(
        database, other.id, "shared", "ppv_purchase", {"eventId": "e2"}, purchase(sandbox, other.id, "shared", calls)
    )
    assert not answer.replayed and len(calls) == 2


async def test_twenty_concurrent_calls_with_one_key_charge_once(database, sandbox, user_id):
    calls: list[str] = []
    answers = await asyncio.gather(
        *(
            idempotent(
                database, user_id, "race", "ppv_purchase", {"eventId": "e1"}, purchase(sandbox, user_id, "race", calls)
            )
            for _ in range(20)
        )
    )
    assert len(calls) == 1
    assert await charges_of(database, user_id) == 1
    assert len({answer.body["chargeId"] for answer in answers}) == 1
    assert sum(not answer.replayed for answer in answers) == 1


async def test_declined_payment_is_recorded_and_raised_again_on_retry(database, sandbox, user_id):
    calls: list[int] = []

    async def declined():
        calls.append(1)
        token = await sandbox.tokenize(card("4000000000000002"), owner_id=user_id)
        charge = await sandbox.charge(
            token.token, owner_id=user_id, amount_minor=1500, currency="EUR", reference=new_id()
        )
        raise charge.failure()

    for _ in range(2):
        with pytest.raises(ApiError) as refused:
            await idempotent(database, user_id, "k-declined", "ppv_purchase", {"eventId": "e1"}, declined)
        assert (refused.value.status, refused.value.code) == (402, "card_declined")
    assert len(calls) == 1 and await charges_of(database, user_id) == 1


async def test_unexpected_failure_releases_the_key_so_a_retry_runs_again(database, user_id):
    async def broken():
        raise RuntimeError("network gone")

    with pytest.raises(RuntimeError):
        await idempotent(database, user_id, "k-broken", "ppv_purchase", {"eventId": "e1"}, broken)

    async def works():
        return 200, {"ok": True}

    answer = await idempotent(database, user_id, "k-broken", "ppv_purchase", {"eventId": "e1"}, works)
    assert answer == answer.__class__(status=200, body={"ok": True}, replayed=False)


async def test_call_still_running_after_the_wait_gets_409_in_progress(database, user_id):
    started, release = asyncio.Event(), asyncio.Event()

    async def slow():
        started.set()
        await release.wait()
        return 200, {"done": True}

    first = asyncio.create_task(idempotent(database, user_id, "k-slow", "op", {"a": 1}, slow))
    await started.wait()
    with pytest.raises(Conflict) as busy:
        await idempotent(database, user_id, "k-slow", "op", {"a": 1}, slow, wait=0.1)
    assert busy.value.code == "idempotency_request_in_progress" and busy.value.headers["Retry-After"]
    release.set()
    assert (await first).body == {"done": True}


async def test_claim_of_a_crashed_call_is_taken_over_after_its_lease(database, user_id):
    never = asyncio.Event()

    async def hangs():
        await never.wait()

    crashed = asyncio.create_task(idempotent(database, user_id, "k-crash", "op", {"a": 1}, hangs))
    await asyncio.sleep(0.2)
    crashed.cancel()  # the claim is released on cancel; put it back as a dead process leaves it
    with pytest.raises(asyncio.CancelledError):
        await crashed
    async with database.write_session() as db:
        db.add(
            IdempotencyKey(
                user_id=user_id,
                key="k-crash",
                operation="op",
                fingerprint=fingerprint("op", {"a": 1}),
                claim="dead",
                locked_until=clock.now() + timedelta(minutes=2),
                expires_at=clock.now() + KEY_LIFETIME,
            )
        )
        await db.commit()

    async def works():
        return 201, {"ok": True}

    with pytest.raises(Conflict):
        await idempotent(database, user_id, "k-crash", "op", {"a": 1}, works, wait=0)
    clock.advance(timedelta(minutes=2))
    answer = await idempotent(database, user_id, "k-crash", "op", {"a": 1}, works, wait=0)
    assert (answer.status, answer.replayed) == (201, False)


async def test_a_running_call_renews_its_claim_so_it_is_not_taken_over_after_the_lease(database, user_id, monkeypatch):
    monkeypatch.setattr(idempotency, "RENEW_EVERY", timedelta(milliseconds=20))
    started, release = asyncio.Event(), asyncio.Event()

    async def slow():
        if started.is_set():
            return 200, {"ran": "twice"}
        started.set()
        clock.advance(LEASE * 2)  # longer than the lease: only the renewals keep the claim
        await release.wait()
        return 200, {"done": True}

    first = asyncio.create_task(idempotent(database, user_id, "k-long", "op", {"a": 1}, slow))
    try:
        await started.wait()
        await asyncio.sleep(0.2)  # a few renewals
        with pytest.raises(Conflict) as busy:
            await idempotent(database, user_id, "k-long", "op", {"a": 1}, slow, wait=0)
        assert busy.value.code == "idempotency_request_in_progress"
    finally:
        release.set()
    assert (await first).body == {"done": True}


async def test_keys_are_kept_24_hours_then_may_be_used_afresh(database, user_id):
    def answer_with(value):
        async def work():
            return 200, {"value": value}

        return work

    await idempotent(database, user_id, "k-old", "op", {"a": 1}, answer_with(1))
    clock.advance(timedelta(hours=23, minutes=59))
    replay = await idempotent(database, user_id, "k-old", "op", {"a": 1}, answer_with(2))
    assert replay.replayed and replay.body == {"value": 1}
    clock.advance(timedelta(minutes=1))
    fresh = await idempotent(database, user_id, "k-old", "op", {"a": 2}, answer_with(3))
    assert not fresh.replayed and fresh.body == {"value": 3}


async def test_purge_deletes_only_expired_keys(database, user_id):
    async def work():
        return 200, {}

    await idempotent(database, user_id, "k-purge", "op", {}, work)
    clock.advance(KEY_LIFETIME)
    await idempotent(database, user_id, "k-kept", "op", {}, work)
    async with database.write_session() as db:
        assert await purge_expired(db) >= 1
        await db.commit()
        keys = set((await db.execute(select(IdempotencyKey.key).where(IdempotencyKey.user_id == user_id))).scalars())
    assert keys == {"k-kept"}


@pytest.mark.parametrize("key", ["", "x" * 256, "line\nbreak"])
async def test_malformed_keys_are_refused(database, user_id, key):
    async def work():
        return 200, {}

    with pytest.raises(ApiError) as refused:
        await idempotent(database, user_id, key, "op", {}, work)
    assert refused.value.status == 400
