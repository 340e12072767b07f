"""What the money-moving handlers share: the payment provider and the Idempotency-Key."""

from collections.abc import Awaitable, Callable
from typing import Any

from connexion import request

from ...payments import PaymentProvider, provider_for
from ...payments.idempotency import idempotent
from ...services.commerce.checkout import Outcome
from .context import settings, signed_in
from .envelope import ok


def payment_provider() -> PaymentProvider:
    return provider_for(settings(), request.state.database)


async def pay_once(
    operation: str,
    body: dict,
    pay: Callable[[str, str], Awaitable[Outcome]],
    show: Callable[[str, str], Awaitable[dict]],
):
    """A money-moving call, run at most once per Idempotency-Key (the contract makes the header
    required): `pay(user_id, key)` checks out, `show(user_id, record_id)` presents the purchase or
    contract. A retry with the same key and body gets the first answer, refusals included."""
    principal = await signed_in()
    key = request.headers["Idempotency-Key"]

    async def work() -> tuple[int, Any]:
        outcome = await pay(principal.user_id, key)
        if outcome.failure is not None:
            raise outcome.failure  # recorded, and replayed to retries
        return outcome.status, ok(await show(principal.user_id, outcome.record_id))

    answer = await idempotent(request.state.database, principal.user_id, key, operation, body, work)
    return answer.body, answer.status
