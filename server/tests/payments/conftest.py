from datetime import timedelta

import pytest

from server import clock
from server.models import User, new_id
from server.payments import CardDetails, SandboxProvider


@pytest.fixture
async def user_id(database) -> str:
    """A fresh account for each test, so tests never share tokens, keys or charges."""
    async with database.session() as db:
        user = User(id=new_id(), email=f"payer-{new_id()}@example.test", display_name="Payer", club_list=[], options={})
        db.add(user)
        await db.commit()
        return user.id


@pytest.fixture
def sandbox(database) -> SandboxProvider:
    return SandboxProvider(database, action_delay=timedelta(seconds=5))


def card(
    number: str = "4242424242424242",
    *,
    exp_month: int = 12,
    exp_year: int | None = None,
    cvc: str = "123",
    holder: str | None = "Ada Lovelace",
) -> CardDetails:
    return CardDetails(
        number=number, exp_month=exp_month, exp_year=exp_year or clock.now().year + 3, cvc=cvc, holder=holder
    )
