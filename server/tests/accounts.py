"""Signed-in users for tests: sign up and sign in through the API, like a client would."""

import itertools
import re
import uuid
from typing import Any

PASSWORD = "correct horse battery staple"
_devices = itertools.count(1)
LINK_TOKEN = re.compile(r"/auth/verify/\?token=(\S+)")


def new_email() -> str:
    return f"fan-{uuid.uuid4().hex[:12]}@example.com"


def new_device() -> str:
    return f"Mozilla/5.0 (X11; Linux x86_64) TestBrowser/{next(_devices)}.{uuid.uuid4().hex[:6]}"


def bearer(access_token: str) -> dict:
    return {"Authorization": f"Bearer {access_token}"}


async def sign_up(
    client,
    email: str | None = None,
    password: str = PASSWORD,
    device_id: str | None = None,
    display_name: str = "Test Fan",
    database=None,
    **fields,
) -> dict:
    """Register an account and open the confirmation link mailed to it, as its owner would;
    returns the sign-in content plus `email`, `password`, `device_id` and `headers` (the bearer
    header of the new session). `database` (where the link is read) is needed only when `client`
    calls a served app over the network rather than through conftest.with_state."""
    email = email or new_email()
    device_id = device_id or new_device()
    answer = await register(client, email, password, display_name=display_name, device_id=device_id, **fields)
    assert answer.status_code == 202, answer.text
    token = await verification_token(database or database_of(client), email)
    verified = await verify_email(client, token, device_id)
    assert verified.status_code == 200, verified.text
    content = verified.json()["content"]
    return {
        **content,
        "auth_data": verified.json()["auth_data"],
        "email": email,
        "password": password,
        "device_id": device_id,
        "headers": bearer(content["tokenData"]["access_token"]),
    }


async def register(
    client,
    email: str,
    password: str = PASSWORD,
    *,
    display_name: str = "Test Fan",
    device_id: str | None = None,
    **fields,
):
    """POST /api/user/register; returns the raw response."""
    device_id = device_id or new_device()
    return await client.post(
        "/api/user/register",
        json={
            "email": email,
            "password": password,
            "displayName": display_name,
            "device_id": device_id,
            "device_name": device_id,
            "strategy": "refresh",
            **fields,
        },
    )


async def verify_email(client, token: str, device_id: str | None = None):
    """POST /api/user/verify_email; returns the raw response."""
    device_id = device_id or new_device()
    return await client.post(
        "/api/user/verify_email",
        json={"token": token, "device_id": device_id, "device_name": device_id, "strategy": "refresh"},
    )


def database_of(client):
    """The database of a test client: one made with conftest.with_state, or one calling a served
    app that a test tagged with `client.touchline_database`."""
    tagged = getattr(client, "touchline_database", None)
    return tagged if tagged is not None else client._transport.app.state["database"]


async def verification_token(database, email: str) -> str:
    """The token of the newest confirmation link mailed to `email` (read from the outbox)."""
    from sqlalchemy import select

    from server.models import OutboxMail

    async with database.session() as db:
        text = await db.scalar(
            select(OutboxMail.text)
            .where(OutboxMail.to_address == email.lower(), OutboxMail.kind == "email_verification")
            .order_by(OutboxMail.created.desc(), OutboxMail.id.desc())
            .limit(1)
        )
    found = LINK_TOKEN.search(text or "")
    assert found, f"no confirmation link was mailed to {email}"
    return found.group(1)


async def sign_in(client, email: str, password: str = PASSWORD, device_id: str | None = None):
    """POST /api/user/login; returns the raw response."""
    device_id = device_id or new_device()
    return await client.post(
        "/api/user/login",
        json={
            "username": email,
            "password": password,
            "device_id": device_id,
            "device_name": device_id,
            "strategy": "refresh",
        },
    )


async def refresh(client, refresh_token: str, device_id: str | None = None):
    body: dict[str, Any] = {
        "grant_type": "urn:ietf:params:oauth:grant-type:token-exchange",
        "subject_token": refresh_token,
        "subject_token_type": "urn:ietf:params:oauth:token-type:refresh_token",
    }
    if device_id:
        body["device"] = {"id": device_id, "name": device_id}
    return await client.post("/api/oauth2/token", json=body)


async def create_user(database, *, role: str = "viewer", password: str = PASSWORD) -> str:
    """Insert an account straight into the database (staff accounts cannot sign up); returns its
    e-mail address. `database` is a server.db.Database."""
    from server import clock
    from server.auth.passwords import Passwords
    from server.models import User, new_id
    from server.settings import Settings

    email = new_email()
    password_hash = await Passwords.from_settings(Settings(environment="test")).hash(password)
    async with database.session() as db:
        db.add(
            User(
                id=new_id(),
                email=email,
                password_hash=password_hash,
                display_name=role.title(),
                role=role,
                club_list=[],
                options={},
                email_verified_at=clock.now(),
            )
        )
        await db.commit()
    return email


async def create_user_at(database_url: str, *, role: str = "viewer") -> str:
    """create_user() for a database this process has no Database object for."""
    from server.db import Database

    database = Database(database_url)
    try:
        return await create_user(database, role=role)
    finally:
        await database.dispose()
