"""`touchline login` and `touchline logout`: a staff sign-in kept for later commands.

`login` asks for the password (never an argument: it would stay in the shell's history and the
process list), signs in through the API and keeps the tokens in the user's configuration
directory with mode 600 (cli/credentials.py). Later staff commands use them and refresh them;
when the refresh is refused they say the sign-in expired. `logout` ends the session on the
server (when it can) and removes the file. Scripts keep using TOUCHLINE_API_KEY or
TOUCHLINE_STAFF_EMAIL / TOUCHLINE_STAFF_PASSWORD.
"""

import asyncio
from typing import Annotated

import typer

from .. import credentials
from ..admin_client import DEFAULT_API_URL, DEVICE_ID, AdminApiError, AdminClient, StaffCredentials, run
from ..terminal_text import echo

STAFF_ROLES = ("support", "admin")


async def _sign_in(api_url: str, email: str, password: str) -> credentials.StoredLogin:
    async with AdminClient(api_url, StaffCredentials(email, password)) as api:
        content = await api.sign_in()
        role = (content.get("profile") or {}).get("role")
        if role not in STAFF_ROLES:
            await api.post("/user/logout")
            raise AdminApiError(f"{email} is not a staff account (its role is {role})", "forbidden_role", 403)
        tokens = content["tokenData"]
        return credentials.StoredLogin(
            api_url=api.base_url,
            email=email,
            role=role,
            access_token=tokens["access_token"],
            refresh_token=tokens.get("refresh_token"),
            device_id=DEVICE_ID,
        )


def login(
    api_url: Annotated[
        str, typer.Option("--api-url", envvar="TOUCHLINE_API_URL", help="Base URL of the Touchline server.")
    ] = DEFAULT_API_URL,
    email: Annotated[
        str | None,
        typer.Option("--email", envvar="TOUCHLINE_STAFF_EMAIL", help="The staff account (asked if not given)."),
    ] = None,
) -> None:
    """Sign in as staff; later commands use this sign-in until `touchline logout`."""
    address = email or typer.prompt("E-mail")
    password = typer.prompt("Password", hide_input=True)
    stored = run(_sign_in(api_url, address.strip(), password))
    path = credentials.save(stored)
    echo(f"Signed in to {stored.api_url} as {stored.email} ({stored.role}). Kept in {path}.")


async def _sign_out(stored: credentials.StoredLogin) -> bool:
    """End the session on the server; False when it could not (expired, unreachable)."""
    try:
        async with AdminClient(stored.api_url, None, stored=stored) as api:
            await api.post("/user/logout")
    except AdminApiError:
        return False
    return True


def logout() -> None:
    """End the stored staff sign-in, on the server too when it still stands."""
    stored = credentials.load()
    if stored is None:
        credentials.remove()
        typer.echo("Not signed in.")
        return
    ended = asyncio.run(_sign_out(stored))
    credentials.remove()
    how = "ended" if ended else "forgotten here (the server could not end it: expired, or unreachable)"
    echo(f"Signed out of {stored.api_url}: the session of {stored.email} is {how}.")
