"""A staff command that stands alone rather than in a staff group (`touchline qoe EVENT_ID`, where a
group would read EVENT_ID as a command's name). It declares the shared options of
staff_options.py (ApiUrl, StaffEmail, StaffPassword, Json, ApiKey) as parameters of its own, so
they go before or after its argument as with every staff command, and reads them here, from its
context: in the command and in shell completion alike (where no callback runs)."""

import asyncio
from typing import Any

import typer

from .staff_completion import COMPLETION_TIMEOUT_S, PAGE_SIZE, Completions
from .staff_options import SHARED, StaffOptions


def options_in(ctx: typer.Context) -> StaffOptions:
    """The staff options given to the command of `ctx` (the variables' values when not given)."""
    values: dict[str, Any] = {name: ctx.params.get(name) for name in SHARED}
    values["as_json"] = bool(values["as_json"])
    return StaffOptions(**values)


def event_ids(ctx: typer.Context, incomplete: str) -> Completions:
    """Ids of the newest events that start with what was typed, with their titles (as
    staff_completion.event_ids does for the commands of staff groups): nothing, never an error,
    when the server cannot say."""
    prefix = incomplete.strip().lower()

    async def ask() -> Completions:
        async with options_in(ctx).client(timeout=COMPLETION_TIMEOUT_S) as api:
            page = await asyncio.wait_for(
                api.get("/admin/events", {"page": 0, "size": PAGE_SIZE}), COMPLETION_TIMEOUT_S
            )
        return [(e["_id"], e["title"]) for e in page["entries"] if e["_id"].startswith(prefix)]

    try:
        return asyncio.run(ask())
    except Exception:  # completion is a convenience: never an error on the staff's prompt
        return []
