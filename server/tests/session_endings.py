"""Every way a sign-in session ends, through the API as clients and staff end it: the stream and
socket tests run each of them against a viewer's session (`fan`, a `sign_up` result)."""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import jwt

from server import clock
from server.tests.accounts import bearer, new_device, refresh, sign_in
from server.tests.mailbox import client_at, request_reset, staff_headers

NEW_PASSWORD = "a new and longer passphrase"


@dataclass
class Context:
    client: Any  # the API client
    api: Any
    database: Any
    settings: Any


Ending = Callable[[Context, dict], Awaitable[None]]


def session_of(fan: dict) -> str:
    return jwt.decode(fan["tokenData"]["access_token"], options={"verify_signature": False})["sid"]


def user_of(fan: dict) -> str:
    return fan["profile"]["userId"]


async def _elsewhere(ctx: Context, fan: dict) -> dict:
    """The same account signed in on another device: its bearer headers."""
    answer = await sign_in(ctx.client, fan["email"], fan["password"], new_device())
    assert answer.status_code == 200, answer.text
    return bearer(answer.json()["content"]["tokenData"]["access_token"])


async def _ok(answer) -> dict:
    assert answer.status_code == 200, answer.text
    return answer.json()["content"]


async def logout(ctx: Context, fan: dict) -> None:
    await _ok(await ctx.client.post("/api/user/logout", headers=fan["headers"]))


async def device_removal(ctx: Context, fan: dict) -> None:
    """The viewer removes this device from another one."""
    laptop = await _elsewhere(ctx, fan)
    await _ok(await ctx.client.post("/api/user/delete_device", headers=laptop, json={"deviceId": fan["device_id"]}))


async def password_change(ctx: Context, fan: dict) -> None:
    """The viewer changes the password on another device and ends the other sessions, as the
    client offers right after (`otherSessions`)."""
    laptop = await _elsewhere(ctx, fan)
    body = {"current_password": fan["password"], "new_password": NEW_PASSWORD}
    changed = await _ok(await ctx.client.post("/api/user/change_password", headers=laptop, json=body))
    assert changed["otherSessions"] >= 1
    assert (await _ok(await ctx.client.post("/api/user/end_other_sessions", headers=laptop)))["ended"] >= 1


async def password_reset(ctx: Context, fan: dict) -> None:
    async with client_at(ctx.api, ctx.database, ctx.settings) as visitor:
        token = await request_reset(visitor, ctx.database, fan["email"])
        await _ok(await visitor.post("/api/user/password/reset", json={"token": token, "password": NEW_PASSWORD}))


async def refresh_token_reuse(ctx: Context, fan: dict) -> None:
    """The session's refresh token comes back after it was rotated, past the grace window: it
    leaked, and the session ends."""
    leaked = fan["tokenData"]["refresh_token"]
    assert (await refresh(ctx.client, leaked, fan["device_id"])).status_code == 200
    clock.advance(timedelta(seconds=ctx.settings.refresh_grace_seconds + 1))
    again = await refresh(ctx.client, leaked, fan["device_id"])
    assert again.status_code == 401 and again.json()["messageErrorCode"] == "refresh_token_failed", again.text


async def account_deletion(ctx: Context, fan: dict) -> None:
    await _ok(await ctx.client.post("/api/user/delete_account", headers=fan["headers"]))


async def staff_session_revocation(ctx: Context, fan: dict) -> None:
    staff = await staff_headers(ctx.client, ctx.database, ctx.settings)
    path = f"/api/admin/users/{user_of(fan)}/sessions/{session_of(fan)}/revoke"
    await _ok(await ctx.client.post(path, headers=staff))


async def staff_device_removal(ctx: Context, fan: dict) -> None:
    staff = await staff_headers(ctx.client, ctx.database, ctx.settings)
    [device] = [d for d in fan["devices"] if d["deviceId"] == fan["device_id"]]
    await _ok(await ctx.client.post(f"/api/admin/users/{user_of(fan)}/devices/{device['_id']}/revoke", headers=staff))


ENDINGS: dict[str, Ending] = {
    "logout": logout,
    "device removal": device_removal,
    "password change": password_change,
    "password reset": password_reset,
    "refresh token reuse": refresh_token_reuse,
    "account deletion": account_deletion,
    "staff session revocation": staff_session_revocation,
    "staff device removal": staff_device_removal,
}


def count_standing_questions(monkeypatch) -> list[str | None]:
    """The sessions the standing belief asks the database about from now on, in order."""
    from server.auth import standing

    asked: list[str | None] = []
    real = standing.ask_database

    async def counted(database, user_id, session_id):
        asked.append(session_id)
        return await real(database, user_id, session_id)

    monkeypatch.setattr(standing, "ask_database", counted)
    return asked
