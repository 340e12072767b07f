"""Stream keys of events (issue 28 §2): list (support), make, rotate, revoke, allow a take-over
(admin). A key is in an answer once, when it is made; never in a list, a log line or the audit log."""

import logging

from ... import clock
from ...models import StreamKey
from ...services import stream_keys
from ..http.audit import note_target
from ..http.context import settings, staff
from ..http.database import db_session, db_write_session
from ..http.envelope import iso, ok
from ..http.instants import instant_field

log = logging.getLogger(__name__)


def present(row: StreamKey) -> dict:
    return {
        "_id": row.id,
        "event": row.event_id,
        "hint": row.hint,
        "srtPort": row.srt_port,
        "publishing": row.publisher is not None,
        "created": iso(row.created),
        "createdBy": row.created_by,
        "revokedAt": iso(row.revoked_at),
        "lastPublishedAt": iso(row.last_published_at),
        "expiresAt": iso(row.expires_at),
        "takeOverUntil": iso(row.take_over_until) if stream_keys.take_over_open(row, clock.now()) else None,
    }


def issued(answer: stream_keys.Issued) -> dict:
    urls = stream_keys.urls(settings(), answer.key, answer.row.srt_port)
    return ok({"key": answer.key, "rtmp_url": urls.rtmp, "srt_url": urls.srt, "streamKey": present(answer.row)})


async def list_stream_keys(id_: str):
    await staff()
    async with db_session() as db:
        rows = await stream_keys.listed(db, id_)
    return ok({"keys": [present(row) for row in rows]})


async def _issued_by(id_: str, body: dict | None, make, verb: str) -> dict:
    principal = await staff()
    note_target(id_)
    expires_at = instant_field("expiresAt", (body or {}).get("expiresAt"))
    async with db_write_session() as db:
        answer = await make(db, id_, settings=settings(), actor=principal.user_id, expires_at=expires_at)
    log.info("staff %s %s the stream key of event %s (…%s)", principal.user_id, verb, id_, answer.row.hint)
    return issued(answer)


async def create_stream_key(id_: str, body: dict | None = None):
    return await _issued_by(id_, body, stream_keys.create, "made")


async def rotate_stream_key(id_: str, body: dict | None = None):
    return await _issued_by(id_, body, stream_keys.rotate, "rotated")


async def _changed_by(id_: str, change, done: str) -> dict:
    principal = await staff()
    note_target(id_)
    async with db_write_session() as db:
        row = await change(db, id_)
    log.info("staff %s %s of event %s (…%s)", principal.user_id, done, id_, row.hint)
    return ok(present(row))


async def revoke_stream_key(id_: str):
    return await _changed_by(id_, stream_keys.revoke, "revoked the stream key")


async def allow_stream_key_take_over(id_: str):
    return await _changed_by(id_, stream_keys.allow_take_over, "let a second encoder take over the stream key")
