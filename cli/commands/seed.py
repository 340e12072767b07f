"""`touchline seed`: load the fixtures catalogue (idempotent)."""

import asyncio

import typer


def seed(reset: bool = typer.Option(False, "--reset", help="Delete the catalogue and load it again.")) -> None:
    """Load fixtures/ into the database: sports, leagues, teams, events, highlights, stats,
    programmes, official match tags, and (outside production) the demo accounts of fixtures/users.yaml."""
    from server.auth.passwords import Passwords
    from server.db import Database
    from server.migrate import upgrade
    from server.seed.loader import seed as run_seed
    from server.seed.users import load_demo_users, seed_demo_users
    from server.settings import get_settings

    settings = get_settings()
    upgrade(settings.database_url)

    async def main():
        database = Database(settings.database_url)
        try:
            report = await run_seed(database.engine, reset=reset)
            users = 0
            if settings.environment != "production":
                async with database.session() as session:
                    users = await seed_demo_users(
                        session, load_demo_users(settings.fixtures_dir), Passwords.from_settings(settings)
                    )
            return report, users
        finally:
            await database.dispose()

    report, users = asyncio.run(main())
    typer.echo(report.summary() + (f"; demo accounts: +{users}" if users else ""))
