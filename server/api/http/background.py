"""Answers that leave work to do after they are sent (mail delivery, address-dependent work).

`ok_then(content, work...)` answers with the success envelope at once; each `work()` then runs
in the same process once the answer went out (Starlette background tasks), one after another.
A failure there is logged: the answer has been sent already, and the state the work needs was
committed before (the outbox keeps every mail, whatever happens to its delivery).
"""

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from starlette.background import BackgroundTask
from starlette.responses import Response

from ...services import mail
from .context import settings, state
from .envelope import ok

log = logging.getLogger(__name__)

Work = Callable[[], Awaitable[None]]


def ok_then(content: Any, *work: Work | None) -> Response:
    todo = [w for w in work if w is not None]
    body = orjson.dumps(ok(content))
    return Response(body, media_type="application/json", background=BackgroundTask(_run, todo) if todo else None)


async def _run(work: list[Work]) -> None:
    for item in work:
        try:
            await item()
        except Exception:  # the answer is gone already: log, and let the next piece run
            log.exception("work after the answer failed: %s", getattr(item, "__qualname__", item))


def deliver_mail(*mails: Any) -> Work | None:
    """Work that sends the queued ones of `mails` (outbox rows, or None) through SMTP."""
    ids = mail.queued_ids(mails)
    if not ids:
        return None
    database, current = state("database"), settings()

    async def deliver() -> None:
        await mail.deliver(database, current, ids)

    return deliver
