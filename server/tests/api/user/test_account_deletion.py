"""Deleting an account: POST /user/delete_account signs out everywhere and erases personal data."""

import asyncio

import pytest
from sqlalchemy import func, select

from server import clock
from server.models import (
    AuthSession,
    Base,
    Device,
    FederatedIdentity,
    Follow,
    LimitTicket,
    PasswordReset,
    RefreshToken,
    User,
    WatchlistItem,
    new_id,
)
from server.seed.catalogue import table_of
from server.services.accounts import DELETED_DISPLAY_NAME, ERASURE
from server.tests.accounts import PASSWORD, new_device, refresh, sign_in, sign_up
from server.tests.mailbox import client_at, mails_to, recording_socket, request_reset, user_row

OK = {"content": None, "error": False, "message": ""}


@pytest.fixture
async def visitor(api, database, settings):
    async with client_at(api, database, settings) as http:
        yield http


async def count(database, model, user_id: str) -> int:
    async with database.session() as db:
        return (await db.execute(select(func.count()).select_from(model).where(model.user_id == user_id))).scalar_one()


async def refresh_tokens_of(database, user_id: str) -> int:
    async with database.session() as db:
        return (
            await db.execute(
                select(func.count())
                .select_from(RefreshToken)
                .join(AuthSession, AuthSession.id == RefreshToken.session_id)
                .where(AuthSession.user_id == user_id)
            )
        ).scalar_one()


async def give_personal_data(database, catalogue, user_id: str) -> None:
    """What the account owns besides its profile: a linked provider, follows, a watchlist entry."""
    async with database.session() as db:
        db.add(
            FederatedIdentity(
                id=new_id(),
                user_id=user_id,
                provider="google",
                subject=f"google-{new_id()}",
                email="ada.private@example.com",
            )
        )
        db.add(
            Follow(
                id=new_id(), user_id=user_id, type="identity_item", reference_id=catalogue["npd"], created=clock.now()
            )
        )
        db.add(
            Follow(id=new_id(), user_id=user_id, type="team", reference_id=catalogue["mariners"], created=clock.now())
        )
        db.add(WatchlistItem(user_id=user_id, event_id=catalogue["archived"], created=clock.now()))
        await db.commit()


async def test_delete_account_erases_the_profile_and_everything_the_account_owns(visitor, database, catalogue):
    account = await sign_up(
        visitor,
        display_name="Ada Lovelace",
        countryName="United Kingdom",
        city="London",
        phone="+44 20 7946 0000",
        postalCode="SW1A 1AA",
        gender="female",
        dateOfBirth="1990-12-10",
        identity=catalogue["football"],
        identityItem=catalogue["npd"],
    )
    user_id = account["profile"]["userId"]
    await give_personal_data(database, catalogue, user_id)
    await request_reset(visitor, database, account["email"])  # an unused reset link
    await sign_in(visitor, account["email"])  # a second device and session

    answer = await visitor.post("/api/user/delete_account", headers=account["headers"])
    assert answer.status_code == 200 and answer.json() == OK

    user = await user_row(database, user_id)
    assert user is not None, "the row stays for purchase and contract records"
    assert user.deleted_at is not None
    assert (user.email, user.password_hash, user.display_name) == (None, None, DELETED_DISPLAY_NAME)
    assert [
        user.city,
        user.gender,
        user.date_of_birth,
        user.phone,
        user.country_name,
        user.postal_code,
        user.identity_id,
        user.identity_item_id,
        user.last_sign_in,
    ] == [None] * 9
    assert (user.club_list, user.options) == ([], {})
    for model in (FederatedIdentity, Device, AuthSession, Follow, WatchlistItem, PasswordReset, LimitTicket):
        assert await count(database, model, user_id) == 0, model.__name__
    assert await refresh_tokens_of(database, user_id) == 0


async def test_a_deleted_account_can_no_longer_sign_in_or_refresh(visitor):
    account = await sign_up(visitor)
    other_device = new_device()
    elsewhere = (await sign_in(visitor, account["email"], device_id=other_device)).json()["content"]
    await visitor.post("/api/user/delete_account", headers=account["headers"])

    for headers in (account["headers"], {"Authorization": f"Bearer {elsewhere['tokenData']['access_token']}"}):
        refused = await visitor.get("/api/user/get_devices", headers=headers)
        assert refused.status_code == 401 and refused.json()["messageErrorCode"] == "unauthorized"
    for tokens, device in ((account["tokenData"], account["device_id"]), (elsewhere["tokenData"], other_device)):
        refused = await refresh(visitor, tokens["refresh_token"], device)
        assert refused.status_code == 401 and refused.json()["messageErrorCode"] == "refresh_token_failed"
    login = await sign_in(visitor, account["email"], PASSWORD)
    assert login.status_code == 401 and login.json()["messageErrorCode"] == "invalid_credentials"


async def test_delete_account_mails_the_old_address_before_erasing_it(visitor, database):
    account = await sign_up(visitor)
    await visitor.post("/api/user/delete_account", headers=account["headers"])
    [mail] = await mails_to(database, account["email"], "account_deleted")
    assert mail.subject == "Your Touchline account was deleted"
    assert mail.status == "kept"


async def test_an_account_without_an_address_is_deleted_without_a_mail(visitor, database):
    account = await sign_up(visitor)  # like a federated account whose provider shared no address
    async with database.session() as db:
        (await db.get(User, account["profile"]["userId"])).email = None
        await db.commit()
    assert (await visitor.post("/api/user/delete_account", headers=account["headers"])).status_code == 200
    assert await mails_to(database, account["email"]) == []
    assert (await user_row(database, account["profile"]["userId"])).deleted_at is not None


async def test_the_address_of_a_deleted_account_can_sign_up_again(visitor):
    account = await sign_up(visitor)
    await visitor.post("/api/user/delete_account", headers=account["headers"])
    again = await sign_up(visitor, email=account["email"])
    assert again["profile"]["userId"] != account["profile"]["userId"]


async def test_two_concurrent_deletions_delete_once(visitor, database):
    account = await sign_up(visitor)
    answers = await asyncio.gather(
        *(visitor.post("/api/user/delete_account", headers=account["headers"]) for _ in range(2))
    )
    assert sorted(a.status_code for a in answers) == [200, 401]
    assert len(await mails_to(database, account["email"], "account_deleted")) == 1


async def test_delete_account_tells_the_other_devices_to_sign_out(visitor):
    account = await sign_up(visitor)
    other_device = new_device()
    await sign_in(visitor, account["email"], device_id=other_device)
    with recording_socket() as socket:
        await visitor.post("/api/user/delete_account", headers=account["headers"])
    room = f"user:{account['profile']['userId']}"
    assert sorted(socket.sent, key=lambda m: m[0]) == [
        ("remove-user-device", {"deviceId": other_device}, room),
        ("unregister-user", {"userId": account["profile"]["userId"]}, room),
    ]


async def test_delete_account_needs_a_signed_in_caller(visitor):
    answer = await visitor.post("/api/user/delete_account")
    assert answer.status_code == 401 and answer.json()["messageErrorCode"] == "unauthorized"


def test_the_erasure_covers_every_table_that_points_at_an_account():
    """A table added later with a column referring to users.id must say what deletion does to it."""
    referring = {
        table.name
        for table in Base.metadata.sorted_tables
        for column in table.columns
        for key in column.foreign_keys
        if key.column.table.name == "users" and table.name != "users"
    }
    erased = {table_of(step.model).name for step in ERASURE}
    assert referring <= erased, f"add these tables to server.services.accounts.ERASURE: {sorted(referring - erased)}"
