"""What services report, told to the socket's rooms.

Services return what happened (a settled payment's `Announcement`, an event's `Change`, the
`SessionsEnded` of a logout or a removed device) and never send anything themselves; their
callers (handlers, background jobs) pass it here once it is committed. Sending never raises: the
outcome stands either way, and clients see it when they next load what changed.
"""

import logging
from collections.abc import Iterable

from ..auth import standing
from ..auth.tokens import STAFF_ROLES
from ..db import Database
from ..services import status_notices
from ..services.commerce.settlement import Announcement
from ..services.event_admin import LIVE, Change
from ..services.media_jobs import JobView
from ..services.outage_credit import Credited
from ..services.sessions import SessionsEnded
from . import emitter, live_alerts, signals
from .emitter import Emitter

log = logging.getLogger(__name__)


async def announce_purchase_status(
    message: Announcement | None, out: Emitter | None = None, database: Database | None = None
) -> bool:
    """`user-purchase-status` to the viewer's room; False when nothing was sent. With `database`,
    its StatusNotice is marked sent once it went out (else the `notices` job sends it again)."""
    sent = await _send_status(message, out)
    if sent and database is not None and message is not None and message.notice_id is not None:
        await _mark_sent(database, [message.notice_id])
    return sent


async def announce_purchase_statuses(
    messages: Iterable[Announcement], out: Emitter | None = None, database: Database | None = None
) -> int:
    """Each message in turn; how many were sent."""
    told: list[str] = []
    sent = 0
    for message in messages:
        if await _send_status(message, out):
            sent += 1
            if message.notice_id is not None:
                told.append(message.notice_id)
    if database is not None:
        await _mark_sent(database, told)
    return sent


async def resend_unsent_statuses(database: Database, out: Emitter | None = None) -> int:
    """Send the notices whose deciding process never did (it died between commit and send):
    server.services.status_notices. How many were sent."""
    notices = await status_notices.unsent(database)
    messages = [
        Announcement(n.user_id, n.record_id, n.status, n.product_id, n.event_id, notice_id=n.id) for n in notices
    ]
    sent = await announce_purchase_statuses(messages, out, database)
    if notices:
        log.warning("user-purchase-status: sent %d of %d notices their deciding process did not", sent, len(notices))
    return sent


async def _send_status(message: Announcement | None, out: Emitter | None) -> bool:
    if message is None or message.user_id is None:
        return False
    try:
        return await (out or emitter.default).emit_user_purchase_status(
            message.user_id,
            purchase_id=message.record_id,
            status=message.status,
            product_id=message.product_id,
            event_id=message.event_id,
        )
    except Exception:
        log.exception("could not send user-purchase-status for %s", message.record_id)
        return False


async def _mark_sent(database: Database, ids: list[str]) -> None:
    try:
        await status_notices.mark_sent(database, ids)
    except Exception:  # the notices job sends them again: a duplicate, never a loss
        log.exception("could not mark %d status notices sent", len(ids))


async def announce_purchase_credited(credited: Credited, out: Emitter | None = None) -> bool:
    """A purchase was credited for its event's outage (committed): `user-purchase-credited` to the
    buyer's room; False when nothing was sent (an erased account, or the socket failed). Never
    raises: the credit stands."""
    if credited.user_id is None:
        return False
    try:
        return await (out or emitter.default).emit_user_purchase_credited(
            credited.user_id,
            purchase_id=credited.purchase_id,
            event_id=credited.event_id,
            kind=credited.kind,
            amount_minor=credited.amount_minor,
            currency=credited.currency,
        )
    except Exception:
        log.exception("could not send user-purchase-credited for %s", credited.purchase_id)
        return False


async def announce_change(change: Change, out: Emitter | None = None) -> None:
    """Tell the event's room what changed: `update-event` with the changed fields, and
    `event-url-change` when it went on air at a new stream; when it went live, its followers too."""
    target = out or emitter.default
    event_id = change.event.id
    try:
        if change.fields:
            await target.emit_update_event(event_id, change.fields)
        if change.on_air_at_new_url and change.event.hls_stream:
            await target.emit_event_url_change(event_id, change.event.hls_stream)
    except Exception:
        log.exception("could not tell the room of event %s about its change", event_id)
    if change.fields.get("status") == LIVE:  # its followers hear of it (server.realtime.live_alerts)
        live_alerts.default.soon(event_id)


async def announce_tags_change(event_id: str, tag_ids: list[str], change: str, out: Emitter | None = None) -> None:
    """Global tags of an event were saved or removed (committed): its room hears `tags-change`,
    and pages fetch its tags and key plays again. Never raises: the change stands."""
    if not tag_ids:
        return
    try:
        await (out or emitter.default).emit_tags_change(event_id, tag_ids, change)
    except Exception:
        log.exception("could not tell the room of event %s that its tags changed", event_id)


async def announce_ingest_state(
    event_id: str, state: str, previous: str, asset_id: str | None, out: Emitter | None = None
) -> None:
    """An event's live input changed state (preview, live, reconnecting, interrupted, finished):
    staff watching its ingest room hear `ingest-state-change`. Never raises: the feed goes on."""
    try:
        await (out or emitter.default).emit_ingest_state_change(
            event_id, state=state, previous=previous, asset_id=asset_id
        )
    except Exception:
        log.exception("could not tell staff that the ingest of event %s is %s", event_id, state)


async def announce_media_job(job: JobView, out: Emitter | None = None) -> None:
    """A job of the media library started, moved on or ended: staff watching its event's media
    room hear `media-job-change`. Never raises: the job goes on."""
    if job.event_id is None:
        return  # its event is gone: nobody watches its room
    payload = {
        "eventId": job.event_id,
        "jobId": job.id,
        "kind": job.kind,
        "state": job.state,
        "percent": job.percent,
        "etaSeconds": job.eta_seconds,
        "assetId": job.asset_id,
        "error": job.error,
    }
    try:
        await (out or emitter.default).emit_media_job_change(payload)
    except Exception:
        log.exception("could not tell staff that job %s is %s", job.id, job.state)


async def announce_catalogue_changed(out: Emitter | None = None) -> None:
    """The catalogue changed (committed): every process drops its cached anonymous answers,
    this one at once (server.realtime.signals)."""
    try:
        await (out or emitter.default).catalogue_changed()
    except Exception:  # this process's caches are dropped whatever happens to the signal
        signals.heard(signals.CATALOGUE_CHANGED)
        log.exception("could not tell the other processes that the catalogue changed")


async def announce_role_changed(user_id: str, role: str, out: Emitter | None = None) -> None:
    """An account's role changed (committed): this process asks the database again about its
    sessions, and when the role may not watch rooms its watching sockets are disconnected here and,
    with Redis, in every process (server.realtime.staff_watches)."""
    standing.default.forget_account(user_id)
    if role in STAFF_ROLES:
        return
    try:
        await (out or emitter.default).end_staff_watches(user_id)
    except Exception:
        log.exception("could not end the room watches of %s", user_id)


async def announce_sessions_ended(ended: SessionsEnded | None, out: Emitter | None = None) -> None:
    """Sign-in sessions ended (committed): this process's media routes refuse their streams at once,
    and their sockets are disconnected here and, with Redis, in every process, whose media routes
    then refuse them too (server.realtime.session_rooms). Call it after telling their devices
    (`remove-user-device`): a disconnected socket hears nothing more."""
    if not ended:
        return
    standing.default.ended(ended.session_ids)
    try:
        await (out or emitter.default).end_sessions(ended.session_ids)
    except Exception:
        log.exception("could not close the sockets of sessions %s", ", ".join(ended.session_ids))
