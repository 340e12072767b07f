"""What services report, told to the socket's rooms.

Services return what happened (a settled payment's `Announcement`, an event's `Change`) and never
send anything themselves; their callers (handlers, background jobs) pass it here once it is
committed. Sending never raises: the outcome stands either way, and clients see it when they next
load what changed.
"""

import logging
from collections.abc import Iterable

from ..services.commerce.settlement import Announcement
from ..services.event_admin import Change
from . import emitter
from .emitter import Emitter

log = logging.getLogger(__name__)


async def announce_purchase_status(message: Announcement | None, out: Emitter | None = None) -> bool:
    """`user-purchase-status` to the viewer's room; False when nothing was sent."""
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


async def announce_purchase_statuses(messages: Iterable[Announcement], out: Emitter | None = None) -> int:
    """Each message in turn; how many were sent."""
    sent = 0
    for message in messages:
        sent += await announce_purchase_status(message, out)
    return sent


async def announce_change(change: Change, out: Emitter | None = None) -> None:
    """Tell the event's room what changed: `update-event` with the changed fields, and
    `event-url-change` when it went on air at a new stream."""
    target = out or emitter.default
    event_id = change.event.id
    try:
        if change.fields:
            await target.emit_update_event(event_id, change.fields)
        if change.on_air_at_new_url and change.event.hls_stream:
            await target.emit_event_url_change(event_id, change.event.hls_stream)
    except Exception:
        log.exception("could not tell the room of event %s about its change", event_id)
