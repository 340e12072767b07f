"""Linking provider identities to accounts (server.services.federation), on SQLite and PostgreSQL."""

import asyncio
import uuid

from sqlalchemy import select

from server import clock
from server.auth.providers import Identity
from server.models import FederatedIdentity, User, new_id
from server.services import federation
from server.services.federation import FALLBACK_DISPLAY_NAME, display_name_for


def identity(provider: str = "google", **kw) -> Identity:
    return Identity(provider=provider, subject=kw.pop("subject", f"sub-{uuid.uuid4().hex}"), **kw)


def email() -> str:
    return f"fan-{uuid.uuid4().hex[:12]}@example.com"


async def link(database, who: Identity, display_name: str | None = None) -> federation.Linked:
    async with database.write_session() as db:
        linked = await federation.link(db, who, display_name=display_name)
        await db.commit()
    return linked


async def user(database, user_id: str) -> User:
    async with database.session() as db:
        return await db.get(User, user_id)


async def existing_account(database, address: str, *, verified: bool = True) -> str:
    async with database.session() as db:
        account = User(
            id=new_id(),
            email=address,
            password_hash="x",
            display_name="Existing Fan",
            club_list=[],
            options={},
            created=clock.now(),
            updated=clock.now(),
            email_verified_at=clock.now() if verified else None,
        )
        db.add(account)
        await db.commit()
        return account.id


async def test_the_first_sign_in_creates_an_account_and_the_next_one_finds_it(database):
    who = identity(name="Jane Fan")
    first = await link(database, who)
    second = await link(database, who)
    assert first.is_register is True and second.is_register is False
    assert first.user_id == second.user_id
    created = await user(database, first.user_id)
    assert created.display_name == "Jane Fan" and created.password_hash is None


async def test_the_same_subject_at_two_providers_is_two_accounts(database):
    subject = f"sub-{uuid.uuid4().hex}"
    google = await link(database, identity("google", subject=subject))
    apple = await link(database, identity("apple", subject=subject))
    assert google.user_id != apple.user_id


async def test_a_verified_email_links_the_existing_account_with_that_address(database):
    address = email()
    account = await existing_account(database, address)
    linked = await link(database, identity(email=address, email_verified=True), display_name="Ignored Name")
    assert linked == federation.Linked(account, False)
    assert (await user(database, account)).display_name == "Existing Fan", "an existing account keeps its name"
    assert (await link(database, identity("ifa", email=address, email_verified=True))).user_id == account


async def test_an_unverified_email_never_reaches_an_existing_account(database):
    address = email()
    account = await existing_account(database, address)
    linked = await link(database, identity("facebook", email=address, email_verified=False))
    assert linked.is_register is True and linked.user_id != account
    assert (await user(database, linked.user_id)).email is None, "the unproven address is not claimed"


async def test_a_new_account_gets_the_verified_address(database):
    address = email()
    linked = await link(database, identity(email=address, email_verified=True))
    assert linked.is_register is True
    assert (await user(database, linked.user_id)).email == address


async def test_the_link_remembers_the_address_the_provider_last_gave(database):
    who = identity("facebook", email=email())
    linked = await link(database, who)
    newer = email()
    await link(database, Identity(**{**who.__dict__, "email": newer}))
    async with database.session() as db:
        links = select(FederatedIdentity).where(FederatedIdentity.user_id == linked.user_id)
        rows = (await db.execute(links)).scalars().all()
    assert [r.email for r in rows] == [newer]


async def test_after_the_account_was_deleted_the_identity_starts_a_new_one(database):
    who = identity()
    first = await link(database, who)
    async with database.session() as db:
        account = await db.get(User, first.user_id)
        account.deleted_at = clock.now()
        await db.commit()
    again = await link(database, who)
    assert again.is_register is True and again.user_id != first.user_id


async def test_concurrent_first_sign_ins_of_one_identity_make_one_account(database):
    who = identity(email=email(), email_verified=True)
    results = await asyncio.gather(*(link(database, who) for _ in range(5)))
    assert len({r.user_id for r in results}) == 1
    assert sum(r.is_register for r in results) == 1


def test_the_display_name_sent_by_the_client_is_trimmed():
    assert display_name_for(identity(name="Provider Name"), "  Jane Doe \n") == "Jane Doe"


def test_apple_first_and_last_name_make_the_display_name():
    # The Apple SDK hands the name to the browser once; the client sends "first last".
    first, last = "Jane", "Appleseed"
    assert display_name_for(identity("apple"), f" {first} {last} ") == "Jane Appleseed"
    assert display_name_for(identity("apple", given_name="Jane", family_name="Appleseed"), None) == "Jane Appleseed"
    assert display_name_for(identity("apple", given_name="Jane"), "   ") == "Jane"


def test_without_a_name_the_provider_claims_then_the_email_then_a_default_are_used():
    assert display_name_for(identity(name="Claimed Name", given_name="X"), None) == "Claimed Name"
    assert display_name_for(identity(email="goal.keeper@example.com"), "") == "goal.keeper"
    assert display_name_for(identity(), None) == FALLBACK_DISPLAY_NAME


def test_a_long_display_name_is_cut_to_the_column():
    assert display_name_for(identity(), "x" * 150 + " y") == "x" * 100


async def test_a_verified_address_joins_an_account_whose_address_was_confirmed(database):
    address = email()
    account = await existing_account(database, address)
    linked = await link(database, identity(email=address, email_verified=True))
    assert (linked.user_id, linked.is_register) == (account, False)


async def test_a_verified_address_never_joins_an_unconfirmed_sign_up_it_gets_a_new_account(database):
    address = email()
    squatter = await existing_account(database, address, verified=False)
    linked = await link(database, identity(email=address, email_verified=True))
    assert linked.user_id != squatter and linked.is_register is True
    mine, theirs = await user(database, linked.user_id), await user(database, squatter)
    assert (mine.email, mine.password_hash) == (address, None) and mine.email_verified_at is not None
    assert theirs.email is None and theirs.password_hash is None and theirs.deleted_at is not None
