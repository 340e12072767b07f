"""`touchline billing …`: the renewal job, run directly against the configured database.

The servers run the same job on their schedule (TOUCHLINE_RENEWAL_INTERVAL_SECONDS); running it
here at the same time is safe: every contract's outcome is applied once and the provider never
charges one period twice. The viewers hear of renewals through `user-purchase-status` when a
Redis URL is set (REDIS_URL, as the servers use); without one those messages are skipped.
"""

import asyncio
import json
from typing import Annotated

import typer

app = typer.Typer(help="Subscription billing.", no_args_is_help=True)


@app.command("renew")
def renew(
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Charge and change nothing; count what would.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the counts as JSON.")] = False,
) -> None:
    """Charge the stored cards of contracts at their period end; a refused renewal makes the
    contract past due, and expired once its grace period ends. Canceled contracts expire."""
    from server.settings import get_settings

    settings = get_settings()
    report, note = asyncio.run(_run(settings, dry_run))
    if as_json:
        typer.echo(json.dumps({**report.as_contract(), "errors": report.errors, "announced": report.announced}))
    else:
        typer.echo(_summary(report))
    if note:
        typer.echo(note, err=as_json)
    if report.errors:
        raise typer.Exit(1)


async def _run(settings, dry_run: bool):
    from server.db import Database
    from server.payments import provider_for
    from server.realtime.emitter import external_emitter
    from server.services.commerce import renewals

    database = Database(settings.database_url)
    try:
        provider = provider_for(settings, database)
        if dry_run:
            return await renewals.run(database, provider, dry_run=True, out=None), None
        if not settings.redis_url:
            report = await renewals.run(database, provider, out=None)
            note = (
                (
                    "No Redis URL (REDIS_URL): viewers were not told on the socket; "
                    "they see the outcome when they next load their subscriptions."
                )
                if report.due
                else None
            )
            return report, note
        async with external_emitter(settings.redis_url) as out:
            return await renewals.run(database, provider, out=out), None
    finally:
        await database.dispose()


def _summary(report) -> str:
    prefix = "Dry run (nothing charged or changed): " if report.dry_run else ""
    lines = [
        f"{prefix}{report.due} contract(s) due: {report.renewed} renewed, {report.past_due} past due, "
        f"{report.expired} expired, {report.processing} processing."
    ]
    if report.processing:
        lines.append("Processing renewals are finished by a running server (settlement).")
    if report.errors:
        lines.append(f"{report.errors} contract(s) could not be handled now (see the log); run again later.")
    return "\n".join(lines)
