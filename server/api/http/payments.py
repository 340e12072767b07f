"""What the money-moving handlers share: the payment provider and the Idempotency-Key."""

from collections.abc import Awaitable, Callable
from functools import partial
from typing import Any

import orjson
from connexion import request
from starlette.background import BackgroundTask
from starlette.responses import Response

from ...payments import PaymentProvider, provider_for
from ...payments.idempotency import idempotent
from ...services import mail
from ...services.commerce.checkout import Outcome
from ...services.commerce.settlement import Announcement
from .context import settings, signed_in
from .envelope import ok


def payment_provider() -> PaymentProvider:
    return provider_for(settings(), request.state.database)


def mail_of(settled: Announcement | None) -> Callable[[], Awaitable[None]] | None:
    """The work that sends (with SMTP) the receipt or notice a settlement wrote, for `ok_then`."""
    if settled is None or not settled.mail_ids:
        return None
    return partial(mail.deliver, request.state.database, settings(), settled.mail_ids)


async def pay_once(
    operation: str,
    body: dict,
    pay: Callable[[str, str], Awaitable[Outcome]],
    show: Callable[[str, str], Awaitable[dict]],
):
    """A money-moving call, run at most once per Idempotency-Key (the contract makes the header
    required): `pay(user_id, key)` checks out, `show(user_id, record_id)` presents the purchase or
    contract. A retry with the same key and body gets the first answer, refusals included. The
    receipt of a paid checkout is sent (with SMTP) after the answer."""
    principal = await signed_in()
    key = request.headers["Idempotency-Key"]
    receipts: list[str] = []

    async def work() -> tuple[int, Any]:
        outcome = await pay(principal.user_id, key)
        receipts.extend(outcome.mail_ids)
        if outcome.failure is not None:
            raise outcome.failure  # recorded, and replayed to retries
        return outcome.status, ok(await show(principal.user_id, outcome.record_id))

    database = request.state.database
    answer = await idempotent(database, principal.user_id, key, operation, body, work)
    if not receipts:
        return answer.body, answer.status
    return Response(
        orjson.dumps(answer.body),
        status_code=answer.status,
        media_type="application/json",
        background=BackgroundTask(mail.deliver, database, settings(), receipts),
    )
