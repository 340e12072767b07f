"""Idempotency keys for every call that moves money (the contract's `Idempotency-Key` rule).

    answer = await idempotent(database, user_id, key, "ppv_purchase", body, work)

`work` is an async callable returning `(status, body)`; it runs at most once per (user, key):

- the first call claims the key (one committed insert), runs `work` and records its answer;
- a retry with the same key, operation and body gets the recorded answer (`replayed=True`)
  without running `work`; an ApiError that `work` raised is recorded too and raised again;
- the same key with another body or operation raises Conflict `idempotency_key_reused` (409);
- concurrent calls with one key, from any process, on SQLite and PostgreSQL: the unique
  (user_id, key) row lets exactly one claim it; the others wait for its answer (polling, up
  to `wait` seconds) and return it. A call still running after that gets Conflict
  `idempotency_request_in_progress` (409), so the client retries later with the same key.

If `work` fails with anything but an ApiError, nothing was decided: the claim is released and a
retry runs `work` again. The claim's lease is renewed while `work` runs, so it lapses only when
its process has died (a crash, SIGKILL): a retry then takes the key over within LEASE and runs
`work` again, which must pick up what the dead attempt left (server.services.commerce.checkout).
Keys are kept for KEY_LIFETIME (24 h); `purge_expired` deletes older ones.
"""

import asyncio
import contextlib
import hashlib
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import orjson
from sqlalchemy import delete, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..db import Database, rows_changed
from ..errors import ApiError, Conflict
from ..models import IdempotencyKey, new_id

log = logging.getLogger(__name__)

KEY_LIFETIME = timedelta(hours=24)
# A claim not renewed for this long is presumed dead; a running call renews it every RENEW_EVERY.
# Short, so a viewer whose call died with its process is answered by a retry within seconds.
LEASE = timedelta(seconds=15)
RENEW_EVERY = LEASE / 3
MAX_KEY_LENGTH = 255

Work = Callable[[], Awaitable[tuple[int, Any]]]


class InvalidIdempotencyKey(ApiError):
    status = 400
    code = "validation_error"


@dataclass(frozen=True)
class Answer:
    status: int
    body: Any
    replayed: bool  # True when it is the recorded answer of an earlier call


def fingerprint(operation: str, body: Any) -> str:
    """SHA-256 of the canonical JSON (sorted keys, no spaces) of the operation and body."""
    canonical = orjson.dumps({"operation": operation, "body": body}, option=orjson.OPT_SORT_KEYS)
    return hashlib.sha256(canonical).hexdigest()


async def idempotent(
    database: Database, user_id: str, key: str, operation: str, body: Any, work: Work, *, wait: float = 10.0
) -> Answer:
    if not key or len(key) > MAX_KEY_LENGTH or not key.isprintable():
        raise InvalidIdempotencyKey(f"Idempotency-Key must be 1 to {MAX_KEY_LENGTH} printable characters")
    request_print = fingerprint(operation, body)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    pause = 0.01
    while True:
        claim, row = await _claim(database, user_id, key, operation, request_print)
        if claim is not None:
            break
        if row is None:  # _claim answers with our claim or with the row that holds the key
            raise LookupError(f"idempotency key {key}: neither claimed nor found")
        if row.fingerprint != request_print:
            raise Conflict("This Idempotency-Key was already used with another request", code="idempotency_key_reused")
        if row.response_status is not None:
            return _replay(row)
        if loop.time() >= deadline:
            raise Conflict(
                "A request with this Idempotency-Key is still being processed; retry later",
                code="idempotency_request_in_progress",
                headers={"Retry-After": "1"},
            )
        await asyncio.sleep(pause)
        pause = min(pause * 2, 0.2)

    try:
        async with _renewed(database, user_id, key, claim):
            status, answer = await work()
    except ApiError as exc:
        envelope = {"error": True, "message": exc.message, "messageErrorCode": exc.code}
        if exc.details:
            envelope["details"] = exc.details
        await _record(database, user_id, key, claim, exc.status, envelope)
        raise
    except BaseException:
        await asyncio.shield(_release(database, user_id, key, claim))
        raise
    answer = orjson.loads(orjson.dumps(answer))  # what the JSON column gives back on a replay
    await _record(database, user_id, key, claim, status, answer)
    return Answer(status=status, body=answer, replayed=False)


async def purge_expired(db: AsyncSession) -> int:
    """Delete keys past their lifetime; the caller commits."""
    result = await db.execute(delete(IdempotencyKey).where(IdempotencyKey.expires_at <= clock.now()))
    return rows_changed(result)


def _replay(row: IdempotencyKey) -> Answer:
    body, status = row.response_body, row.response_status
    if status is None:
        raise LookupError(f"idempotency key {row.key} has no answer to replay yet")
    if status >= 400 and isinstance(body, dict) and body.get("error") is True:
        raise ApiError(
            body.get("message", ""),
            code=body.get("messageErrorCode"),
            status=status,
            details=body.get("details"),
        )
    return Answer(status=status, body=body, replayed=True)


async def _claim(
    database: Database, user_id: str, key: str, operation: str, request_print: str
) -> tuple[str | None, IdempotencyKey | None]:
    """(our claim, None) when this call is to run the work, else (None, the key's row)."""
    now = clock.now()
    claim = secrets.token_hex(16)
    fresh = {
        "operation": operation,
        "fingerprint": request_print,
        "claim": claim,
        "locked_until": now + LEASE,
        "response_status": None,
        "response_body": None,
        "created": now,
        "expires_at": now + KEY_LIFETIME,
    }
    async with database.write_session() as db:
        insert = postgresql.insert if db.bind.dialect.name == "postgresql" else sqlite.insert
        inserted = await db.execute(
            insert(IdempotencyKey)
            .values(id=new_id(), user_id=user_id, key=key, **fresh)
            .on_conflict_do_nothing(index_elements=[IdempotencyKey.user_id, IdempotencyKey.key])
            .returning(IdempotencyKey.id)
        )
        if inserted.scalar_one_or_none() is not None:
            await db.commit()
            return claim, None
        row = (
            await db.execute(select(IdempotencyKey).where(IdempotencyKey.user_id == user_id, IdempotencyKey.key == key))
        ).scalar_one()
        expired = row.expires_at <= now
        abandoned = row.response_status is None and row.locked_until <= now and row.fingerprint == request_print
        if not (expired or abandoned):
            return None, row
        # Take the key over, unless another call did so first (the claim it saw has changed).
        values = fresh if expired else {"claim": claim, "locked_until": now + LEASE}
        taken = await db.execute(
            update(IdempotencyKey)
            .where(IdempotencyKey.id == row.id, IdempotencyKey.claim == row.claim)
            .values(**values)
        )
        await db.commit()
        if rows_changed(taken) == 1:
            return claim, None
    async with database.session() as db:
        return None, (
            await db.execute(select(IdempotencyKey).where(IdempotencyKey.user_id == user_id, IdempotencyKey.key == key))
        ).scalar_one()


@contextlib.asynccontextmanager
async def _renewed(database: Database, user_id: str, key: str, claim: str) -> AsyncIterator[None]:
    """Keep the claim's lease from lapsing while the block runs."""

    async def renew() -> None:
        while True:
            await asyncio.sleep(RENEW_EVERY.total_seconds())
            try:
                async with database.write_session() as db:
                    await db.execute(
                        update(IdempotencyKey)
                        .where(
                            IdempotencyKey.user_id == user_id, IdempotencyKey.key == key, IdempotencyKey.claim == claim
                        )
                        .values(locked_until=clock.now() + LEASE)
                    )
                    await db.commit()
            except Exception as exc:  # the work fails on its own if the database is gone; try again later
                log.warning("idempotency key %s: cannot renew its lease: %s", key, exc)

    renewing = asyncio.ensure_future(renew())
    try:
        yield
    finally:
        renewing.cancel()
        await asyncio.wait([renewing])  # unlike awaiting it, never swallows our own cancellation


async def _record(database: Database, user_id: str, key: str, claim: str, status: int, body: Any) -> None:
    async with database.write_session() as db:
        await db.execute(
            update(IdempotencyKey)
            .where(IdempotencyKey.user_id == user_id, IdempotencyKey.key == key, IdempotencyKey.claim == claim)
            .values(response_status=status, response_body=body)
        )
        await db.commit()


async def _release(database: Database, user_id: str, key: str, claim: str) -> None:
    async with database.write_session() as db:
        await db.execute(
            delete(IdempotencyKey).where(
                IdempotencyKey.user_id == user_id,
                IdempotencyKey.key == key,
                IdempotencyKey.claim == claim,
                IdempotencyKey.response_status.is_(None),
            )
        )
        await db.commit()
