"""Seed a database the way `touchline seed` does: migrate it to the newest schema, load the
fixtures catalogue (server.seed.loader.seed: sports, leagues, teams, events, highlights, stats,
programmes, official match tags; the games with ads get TOUCHLINE_ADS_VAST_URL) and, outside
production, the demo accounts of fixtures/users.yaml. Idempotent: a second run inserts nothing.

The CLI calls `seed_database` instead of opening the database itself (it reaches the database
only through the server's own modules)."""

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from ..auth.passwords import Passwords
from ..db import Database
from ..media.assets.store import samples_dir, store_of
from ..migrate import upgrade
from ..settings import Settings
from .assets import adopt_sample_streams
from .loader import SeedReport, seed
from .users import load_demo_users, seed_demo_users


@dataclass(frozen=True)
class Seeded:
    report: SeedReport  # rows of the catalogue inserted, updated and (with reset) deleted, per table
    demo_users: int  # demo accounts added: 0 in production, or when they exist already

    def summary(self) -> str:
        return self.report.summary() + (f"; demo accounts: +{self.demo_users}" if self.demo_users else "")


# The steps `seed_database` reports to its `step` callback, in order (the CLI's progress bar).
STEPS = ("Migrating the database", "Loading the catalogue", "Adding the demo accounts")


def seed_database(settings: Settings, *, reset: bool = False, step: Callable[[str], None] | None = None) -> Seeded:
    """Migrate `settings.database_url`, then seed it; `reset` deletes the catalogue and loads it
    again. Runs its own event loop (like the migrations): call it where none is running.
    `step(name)` is called as each of STEPS begins (the demo accounts' only outside production)."""
    report = step or (lambda name: None)
    report(STEPS[0])
    upgrade(settings.database_url)
    return asyncio.run(_seed(settings, reset=reset, step=report))


async def _seed(settings: Settings, *, reset: bool, step: Callable[[str], None]) -> Seeded:
    database = Database(settings.database_url)
    try:
        step(STEPS[1])
        media = (store_of(settings), samples_dir(settings))
        report = await seed(database.engine, reset=reset, vast_url=settings.ads_vast_url, media=media)
        async with database.write_session() as db:
            adopted = await adopt_sample_streams(db, *media)
        report.adopted = adopted
        demo_users = 0
        if settings.environment != "production":
            step(STEPS[2])
            async with database.session() as db:
                demo_users = await seed_demo_users(
                    db, load_demo_users(settings.fixtures_dir), Passwords.from_settings(settings)
                )
        return Seeded(report, demo_users)
    finally:
        await database.dispose()
