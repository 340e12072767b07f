"""`touchline seed`: load the fixtures catalogue (idempotent)."""

import asyncio

import typer


def seed(reset: bool = typer.Option(False, "--reset", help="Delete the catalogue and load it again.")) -> None:
    """Load fixtures/ into the database: sports, leagues, teams, events, highlights, stats, programmes."""
    from server.db import Database
    from server.migrate import upgrade
    from server.seed.loader import seed as run_seed
    from server.settings import get_settings

    settings = get_settings()
    upgrade(settings.database_url)

    async def main():
        database = Database(settings.database_url)
        try:
            return await run_seed(database.engine, reset=reset)
        finally:
            await database.dispose()

    report = asyncio.run(main())
    typer.echo(report.summary())
