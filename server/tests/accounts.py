"""Signed-in users for tests: sign up and sign in through the API, like a client would."""

import itertools
import uuid
from typing import Any

PASSWORD = "correct horse battery staple"
_devices = itertools.count(1)


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
    **fields,
) -> dict:
    """Register an account; returns the sign-in content plus `email`, `password`, `device_id` and
    `headers` (the bearer header of the new session)."""
    email = email or new_email()
    device_id = device_id or new_device()
    answer = await client.post(
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
    assert answer.status_code == 200, answer.text
    content = answer.json()["content"]
    return {
        **content,
        "email": email,
        "password": password,
        "device_id": device_id,
        "headers": bearer(content["tokenData"]["access_token"]),
    }


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
