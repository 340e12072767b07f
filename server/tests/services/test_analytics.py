"""server.services.analytics: the bounds hold without the contract's validation too."""

import pytest

from server.errors import ApiError
from server.services import analytics
from server.settings import Settings

SETTINGS = Settings(environment="test")


def raw(**extra) -> dict:
    return {
        "type": "track",
        "name": "survey_submitted",
        "tenant": "touchline",
        "anonymousId": "anon-0987654321",
        "timestamp": "2026-11-24T19:30:00+01:00",
        "properties": {"rating": 4},
        **extra,
    }


async def test_a_batch_is_stored_in_utc(database):
    async with database.session() as db:
        assert await analytics.record_events(db, [raw()], settings=SETTINGS, user_id=None, address="192.0.2.1") == 1


@pytest.mark.parametrize(
    "events",
    [
        [],
        [raw()] * 51,
        [raw(properties={"": 1})],
        [raw(timestamp="24/11/2026")],
        [raw(tenant="another-club")],
        [raw(properties={f"p{n}": "x" * 500 for n in range(20)})],
    ],
    ids=["empty", "too many", "blank property name", "not a timestamp", "another tenant", "too large"],
)
async def test_refusals(database, events):
    async with database.session() as db:
        with pytest.raises(ApiError) as refused:
            await analytics.record_events(db, events, settings=SETTINGS, user_id=None, address="192.0.2.1")
    assert refused.value.status == 400 and refused.value.code == "validation_error"
