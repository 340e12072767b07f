"""Shell completion of event ids and e-mail addresses, asked of the server.

    touchline events show 65a<Tab>        ids of the newest events starting with 65a (titles as help)
    touchline outbox list --to ada<Tab>   e-mail addresses of accounts starting with ada

Each callback signs in like the command would (the staff options typed so far, the variables,
the stored `touchline login`) and gives up after COMPLETION_TIMEOUT_S: a shell waits for it on
every Tab. Whatever goes wrong (no server, no credentials, a refusal) completes nothing: a
completion never prints an error or a traceback into the line being typed.
"""

import asyncio
from collections.abc import Awaitable, Callable

import typer

from ..admin_client import AdminClient
from .staff_options import shared_options

COMPLETION_TIMEOUT_S = 1.5
# One page of the newest events, of the accounts best matching: what a list on a Tab can show.
PAGE_SIZE = 100

Completions = list[tuple[str, str]]  # (value, help shown beside it by zsh and fish)


def _asked(ctx: typer.Context, ask: Callable[[AdminClient], Awaitable[Completions]]) -> Completions:
    async def call() -> Completions:
        async with shared_options(ctx).client(timeout=COMPLETION_TIMEOUT_S) as api:
            return await asyncio.wait_for(ask(api), COMPLETION_TIMEOUT_S)

    try:
        return asyncio.run(call())
    except Exception:  # completion is a convenience: never an error on the staff's prompt
        return []


def event_ids(ctx: typer.Context, incomplete: str) -> Completions:
    """Ids of the newest events that start with what was typed, with their titles."""
    prefix = incomplete.strip().lower()

    async def ask(api: AdminClient) -> Completions:
        page = await api.get("/admin/events", {"page": 0, "size": PAGE_SIZE})
        return [(e["_id"], e["title"]) for e in page["entries"] if e["_id"].startswith(prefix)]

    return _asked(ctx, ask)


def emails(ctx: typer.Context, incomplete: str) -> Completions:
    """E-mail addresses of accounts that start with what was typed, with their names (Typer
    keeps only the values that start with the typed text as it is: addresses are lower case)."""
    prefix = incomplete.strip().lower()

    async def ask(api: AdminClient) -> Completions:
        # The search matches part of an address; every address has an @.
        page = await api.get("/admin/users", {"q": prefix or "@", "page": 0, "size": PAGE_SIZE})
        return [
            (e["email"], e["displayName"])
            for e in page["entries"]
            if e["email"] and e["email"].lower().startswith(prefix)
        ]

    return _asked(ctx, ask)
