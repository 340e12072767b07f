"""Calls a webapp makes when a viewer pays, for the commerce API tests."""

import uuid

from sqlalchemy import func, select

from server.models import PaymentCharge

GOOD_CARD = "4242424242424242"
DECLINED = "4000000000000002"
INSUFFICIENT_FUNDS = "4000000000009995"
EXPIRED = "4000000000000069"
ACTION_THEN_SUCCESS = "4000000000003220"
ACTION_THEN_DECLINE = "4000000000003063"


def new_key() -> str:
    return str(uuid.uuid4())


async def card_token(client, headers: dict, number: str = GOOD_CARD) -> str:
    answer = await client.post(
        "/api/commerce/card/tokenize",
        headers=headers,
        json={"number": number, "exp_month": 12, "exp_year": 2035, "cvc": "123", "holder": "Ada Lovelace"},
    )
    assert answer.status_code == 200, answer.text
    return answer.json()["content"]["token"]


async def buy_ppv(
    client,
    headers: dict,
    event_id: str,
    product_id: str,
    *,
    number: str = GOOD_CARD,
    key: str | None = None,
    token: str | None = None,
    save_card: bool = False,
):
    token = token or await card_token(client, headers, number)
    return await client.post(
        "/api/commerce/ppv/purchase",
        headers={**headers, "Idempotency-Key": key or new_key()},
        json={"event_id": event_id, "product_id": product_id, "card": {"token": token}, "save_card": save_card},
    )


async def subscribe(
    client, headers: dict, product_id: str, *, number: str = GOOD_CARD, key: str | None = None, save_card: bool = True
):
    token = await card_token(client, headers, number)
    return await client.post(
        "/api/commerce/subscription_checkout",
        headers={**headers, "Idempotency-Key": key or new_key()},
        json={"card": {"token": token}, "subscription_id": product_id, "save_card": save_card},
    )


async def charges_of(database, user_id: str) -> int:
    async with database.session() as db:
        return (
            await db.execute(select(func.count()).select_from(PaymentCharge).where(PaymentCharge.owner_id == user_id))
        ).scalar_one()


async def event_for(client, headers: dict | None, event_id: str) -> dict:
    answer = await client.get(f"/api/event/get_by_id/id/{event_id}", headers=headers or {})
    assert answer.status_code == 200, answer.text
    return answer.json()["content"]


async def signed_in_again(client, viewer: dict) -> dict:
    """The viewer's bearer header from a new sign-in on the same device (after moving the clock
    past the access token's lifetime)."""
    answer = await client.post(
        "/api/user/login",
        json={
            "username": viewer["email"],
            "password": viewer["password"],
            "device_id": viewer["device_id"],
            "device_name": viewer["device_id"],
            "strategy": "refresh",
        },
    )
    assert answer.status_code == 200, answer.text
    return {"Authorization": f"Bearer {answer.json()['content']['tokenData']['access_token']}"}
