"""Staff upload videos for an event over tus 1.0 (issue 29 §1): creation (POST), the offset (HEAD),
the bytes from an offset (PATCH) and termination (DELETE). The protocol's rules are here; the
rows are server.services.uploads', the bytes server.media.sources.upload_files'.

A PATCH body is streamed to disk as it arrives (server/api/http/limits.py lets
`application/offset+octet-stream` through unread, bounded by TOUCHLINE_UPLOAD_MAX_BYTES), so a
server's memory stays flat whatever the file's size. The PATCH that brings the last byte checks
the file and either hands it to the transcoding queue or removes it with a clear refusal.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import logging
from collections.abc import AsyncIterator

from connexion import request
from connexion.lifecycle import ConnexionResponse
from starlette.requests import ClientDisconnect

from ...errors import ApiError, NotFound
from ...media.assets.store import store_of
from ...media.sources import upload_files
from ...models import new_id
from ...services import uploads
from ...services.media_publishing import ATTACH_AS
from ...text_rules import has_control_characters
from ...transcoding import runner
from ..http.audit import note_detail, note_target
from ..http.context import header, settings, staff
from ..http.database import db_session, db_write_session
from ..http.envelope import iso, ok

log = logging.getLogger(__name__)

TUS_VERSION = "1.0.0"  # the only one (the contract's Tus-Resumable enum refuses others with a 400)
TUS = {"Tus-Resumable": TUS_VERSION}
ID_LENGTH = 24
UPLOADS_PATH = "/api/admin/uploads"


def _tus_error(message: str, code: str, status: int, **headers: str) -> ApiError:
    return ApiError(message, code=code, status=status, headers={**TUS, **headers})


def parse_metadata(text: str) -> dict[str, str]:
    """tus `Upload-Metadata`: comma-separated `key base64(value)` pairs (a key alone is an empty
    value). 400 for anything else, or values that are not UTF-8 text."""
    pairs: dict[str, str] = {}
    for item in text.split(","):
        key, _, encoded = item.strip().partition(" ")
        if not key or key in pairs:
            raise _tus_error(
                "Upload-Metadata is not a list of distinct `key base64` pairs", "invalid_upload_metadata", 400
            )
        try:
            value = base64.b64decode(encoded.strip(), validate=True).decode()
        except (binascii.Error, UnicodeDecodeError):
            raise _tus_error(
                f"Upload-Metadata's {key[:40]!r} is not base64 of UTF-8 text", "invalid_upload_metadata", 400
            ) from None
        if has_control_characters(value):
            raise _tus_error(f"Upload-Metadata's {key[:40]!r} has control characters", "invalid_upload_metadata", 400)
        pairs[key] = value
    return pairs


def _text(value: str | None, limit: int = 200) -> str | None:
    value = (value or "").strip()
    return value[:limit] or None


def present(upload, offset: int) -> dict:
    body = {
        "_id": upload.id,
        "event": upload.event_id,
        "length": upload.length,
        "offset": offset,
        "expires": iso(upload.expires_at),
    }
    if upload.filename:
        body["filename"] = upload.filename
    if upload.title:
        body["title"] = upload.title
    return body


async def create_upload():
    principal = await staff()
    length = int(header("Upload-Length") or "0")
    metadata = parse_metadata(header("Upload-Metadata") or "")
    event_id = metadata.get("event", "")
    if len(event_id) != ID_LENGTH or not all(c in "0123456789abcdef" for c in event_id):
        raise _tus_error("Upload-Metadata names no event (`event <base64 id>`)", "invalid_upload_metadata", 400)
    attach_as = metadata.get("as")
    if attach_as is not None and attach_as not in ATTACH_AS:
        raise _tus_error(f"Upload-Metadata's `as` is one of {', '.join(ATTACH_AS)}", "invalid_upload_metadata", 400)
    note_target(event_id)
    config = settings()
    if config.media_budget_mb:
        used = await asyncio.to_thread(store_of(config).used_bytes)
        if used + length > config.media_budget_mb * 1024 * 1024:
            raise _tus_error("The media storage is full", "media_budget_exceeded", 507)
    files = upload_files.UploadFiles(config.media_dir)
    async with db_write_session() as db:
        upload = await uploads.begin(
            db,
            event_id=event_id,
            length=length,
            filename=_text(metadata.get("filename")),
            title=_text(metadata.get("title")),
            created_by=principal.user_id,
            attach_as=attach_as,
            max_bytes=config.upload_max_bytes,
            retention_hours=config.upload_retention_hours,
        )
        await asyncio.to_thread(files.start, upload.id)
        await db.commit()
    note_detail({"upload": upload.id, "bytes": length})
    log.info("staff %s began upload %s (%d bytes) for event %s", principal.user_id, upload.id, length, event_id)
    headers = {**TUS, "Location": f"{UPLOADS_PATH}/{upload.id}", "Upload-Offset": "0"}
    return ok({"upload": present(upload, 0)}), 201, headers


async def get_upload_offset(id_: str):
    await staff()
    async with db_session() as db:
        upload = await uploads.find(db, id_)
    offset = upload_files.UploadFiles(settings().media_dir).offset(upload.id)
    if offset is None:
        raise NotFound("No upload has this id (finished, cancelled or expired)", code=uploads.UPLOAD_NOT_FOUND)
    headers = {**TUS, "Upload-Offset": str(offset), "Upload-Length": str(upload.length), "Cache-Control": "no-store"}
    return ConnexionResponse(status_code=200, headers=headers)


async def _body() -> AsyncIterator[bytes]:
    """The request's bytes as they arrive; they end where the client went away (what arrived is kept)."""
    try:
        async for chunk in request.stream():
            if chunk:
                yield chunk
    except ClientDisconnect:
        return


async def append_upload(id_: str):
    await staff()
    note_target(id_)
    offset = int(header("Upload-Offset") or "0")
    async with db_session() as db:
        upload = await uploads.find(db, id_)
    files = upload_files.UploadFiles(settings().media_dir)
    try:
        # The file stays this request's until it is queued or refused: a second PATCH or a DELETE
        # meanwhile is refused (423), so a complete upload is queued once.
        with files.writing(upload.id) as handle:
            written = await files.append(handle, offset, upload.length, _body())
            headers = {**TUS, "Upload-Offset": str(written)}
            if written == upload.length:
                job_id, asset_id = await _complete(upload, files)
                headers |= {"Upload-Job": job_id, "Upload-Asset": asset_id}
    except FileNotFoundError:
        raise _tus_error(
            "No upload has this id (finished, cancelled or expired)", uploads.UPLOAD_NOT_FOUND, 404
        ) from None
    except upload_files.Busy:
        raise _tus_error("Another request is writing this upload now", "upload_busy", 423) from None
    except upload_files.OffsetMismatch as mismatch:
        raise _tus_error(
            f"The upload is at offset {mismatch.actual}, not {offset}",
            "upload_offset_mismatch",
            409,
            **{"Upload-Offset": str(mismatch.actual)},
        ) from None
    except upload_files.TooLong:
        raise _tus_error("The request carries more bytes than the upload declared", uploads.TOO_LARGE, 413) from None
    return ConnexionResponse(status_code=204, headers=headers)


async def _complete(upload, files: upload_files.UploadFiles) -> tuple[str, str]:
    """Check the complete file; queue it, or remove it and refuse it."""
    try:
        checked = await upload_files.check_video(files.part(upload.id))
    except upload_files.Refused as refused:
        await _forget(upload.id, files)
        note_detail({"upload": upload.id, "refused": refused.code})
        raise _tus_error(refused.reason, refused.code, 422) from None
    job_id = new_id()
    async with db_write_session() as db:
        current = await uploads.find(db, upload.id)
        job = await uploads.complete(db, current, job_id=job_id, duration_ms=round(checked.duration_seconds * 1000))
        await asyncio.to_thread(files.keep_as_source, upload.id, job_id)
        await db.commit()
    note_detail({"upload": upload.id, "job": job_id, "asset": job.asset_id})
    log.info("upload %s complete: job %s queued", upload.id, job_id)
    transcoding = runner.current()
    if transcoding is not None:
        transcoding.wake()
    assert job.asset_id is not None  # just made
    return job_id, job.asset_id


async def _forget(upload_id: str, files: upload_files.UploadFiles) -> None:
    async with db_write_session() as db:
        await uploads.forget(db, upload_id)
        await db.commit()
    await asyncio.to_thread(files.remove_part, upload_id)


async def delete_upload(id_: str):
    await staff()
    note_target(id_)
    async with db_session() as db:
        upload = await uploads.find(db, id_)
    files = upload_files.UploadFiles(settings().media_dir)
    try:
        with files.writing(upload.id):  # not while a PATCH writes it
            await _forget(upload.id, files)
    except FileNotFoundError:
        await _forget(upload.id, files)
    except upload_files.Busy:
        raise _tus_error("Another request is writing this upload now", "upload_busy", 423) from None
    return ConnexionResponse(status_code=204, headers=dict(TUS))
