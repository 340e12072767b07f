"""Redeeming an access code: the viewer gets the product it grants (a purchase or a contract)."""

from ... import clock
from ...services import ratelimit
from ...services.commerce import access_codes
from ..http.context import bind_viewer, settings, signed_in, state
from ..http.database import db_session
from ..http.envelope import iso, ok
from ..presenters import commerce as present


async def redeem_access_code(body: dict):
    principal = await signed_in()
    async with db_session() as db:
        await ratelimit.hit(db, access_codes.redemption_limit(settings()), principal.user_id)
    result = await access_codes.redeem(state("database"), principal.user_id, body["code"])
    current = await bind_viewer(refresh=True)  # what the viewer holds just changed (and so its cache)
    original = present.product(result.product.product, current, items=result.product.items)
    contract = result.contract
    return ok(
        {
            "code": result.code,
            "redeemedAt": iso(result.redeemed_at),
            "product": original,
            "purchase": present.purchase(result.purchase, original) if result.purchase is not None else None,
            "contract": present.contract(
                contract,
                original,
                gives_access=contract.gives_access(clock.now()),
            )
            if contract is not None
            else None,
        }
    )
