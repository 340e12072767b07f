"""Seed a database the way `touchline seed` does: migrate it to the newest schema, load the
fixtures catalogue (server.seed.loader.seed: sports, leagues, teams, events, highlights, stats,
programmes, official match tags; the games with ads get TOUCHLINE_ADS_VAST_URL) and, outside
production, the demo accounts of fixtures/users.yaml. Idempotent: a second run inserts nothing.

The CLI calls `seed_database` instead of opening the database itself (it reaches the database
only through the server's own modules)."""

import asyncio
from dataclasses import dataclass

from ..auth.passwords import Passwords
from ..db import Database
from ..migrate import upgrade
from ..settings import Settings
from .loader import SeedReport, seed
from .users import load_demo_users, seed_demo_users


@dataclass(frozen=True)
class Seeded:
    report: SeedReport  # rows of the catalogue inserted, updated and (with reset) deleted, per table
    demo_users: int  # demo accounts added: 0 in production, or when they exist already

    def summary(self) -> str:
        return self.report.summary() + (f"; demo accounts: +{self.demo_users}" if self.demo_users else "")


def seed_database(settings: Settings, *, reset: bool = False) -> Seeded:
    """Migrate `settings.database_url`, then seed it; `reset` deletes the catalogue and loads it
    again. Runs its own event loop (like the migrations): call it where none is running."""
    upgrade(settings.database_url)
    return asyncio.run(_seed(settings, reset=reset))


async def _seed(settings: Settings, *, reset: bool) -> Seeded:
    database = Database(settings.database_url)
    try:
        report = await seed(database.engine, reset=reset, vast_url=settings.ads_vast_url)
        demo_users = 0
        if settings.environment != "production":
            async with database.session() as db:
                demo_users = await seed_demo_users(
                    db, load_demo_users(settings.fixtures_dir), Passwords.from_settings(settings)
                )
        return Seeded(report, demo_users)
    finally:
        await database.dispose()
