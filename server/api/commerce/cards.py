"""Cards: tokenizing card details (the only call that carries a number) and the stored card."""

from ...payments import CardDetails
from ...services import ratelimit
from ...services.commerce import checkout
from ..http.context import signed_in, state
from ..http.database import db_session, db_write_session
from ..http.envelope import ok
from ..http.payments import payment_provider
from ..presenters import commerce as present

# Card testing (trying stolen numbers one after another) is what limits tokenizing per account.
TOKENIZE_LIMIT = ratelimit.Limit("card-tokenize", 20, 3600)


async def tokenize_card(body: dict):
    principal = await signed_in()
    async with db_write_session() as db:
        await ratelimit.hit(db, TOKENIZE_LIMIT, principal.user_id)
    details = CardDetails(
        number=body["number"],
        exp_month=body["exp_month"],
        exp_year=body["exp_year"],
        cvc=body["cvc"],
        holder=body.get("holder"),
    )
    token = await payment_provider().tokenize(details, owner_id=principal.user_id)
    return ok({"token": token.token, **token.card.as_contract()})


async def get_stored_card():
    principal = await signed_in()
    async with db_session() as db:
        card = await checkout.stored_card(db, principal.user_id)
    return ok(present.stored_card(card))


async def update_stored_card(body: dict):
    principal = await signed_in()
    provider = payment_provider()
    ref = await provider.store_card(body["card"]["token"], owner_id=principal.user_id)
    await checkout.save_stored_card(state("database"), principal.user_id, provider.name, ref)
    async with db_session() as db:
        card = await checkout.stored_card(db, principal.user_id)
    return ok(present.stored_card(card))


async def delete_stored_card():
    principal = await signed_in()
    await checkout.forget_stored_card(state("database"), principal.user_id)
    return ok(None)
