"""Stream keys of events (issue 28 §2): list (support), make, rotate, revoke (admin). A key is in
an answer once, when it is made; never in a list, a log line or the audit log."""

import logging

from ...models import StreamKey
from ...services import stream_keys
from ..http.audit import note_target
from ..http.context import settings, staff
from ..http.database import db_session, db_write_session
from ..http.envelope import iso, ok

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
    }


def issued(answer: stream_keys.Issued) -> dict:
    urls = stream_keys.urls(settings(), answer.key, answer.row.srt_port)
    return ok({"key": answer.key, "rtmp_url": urls.rtmp, "srt_url": urls.srt, "streamKey": present(answer.row)})


async def list_stream_keys(id_: str):
    await staff()
    async with db_session() as db:
        rows = await stream_keys.listed(db, id_)
    return ok({"keys": [present(row) for row in rows]})


async def _issued_by(id_: str, make, verb: str) -> dict:
    principal = await staff()
    note_target(id_)
    async with db_write_session() as db:
        answer = await make(db, id_, settings=settings(), actor=principal.user_id)
    log.info("staff %s %s the stream key of event %s (…%s)", principal.user_id, verb, id_, answer.row.hint)
    return issued(answer)


async def create_stream_key(id_: str):
    return await _issued_by(id_, stream_keys.create, "made")


async def rotate_stream_key(id_: str):
    return await _issued_by(id_, stream_keys.rotate, "rotated")


async def revoke_stream_key(id_: str):
    principal = await staff()
    note_target(id_)
    async with db_write_session() as db:
        row = await stream_keys.revoke(db, id_)
    log.info("staff %s revoked the stream key of event %s (…%s)", principal.user_id, id_, row.hint)
    return ok(present(row))
