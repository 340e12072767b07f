"""Alembic environment: async engine from Touchline settings, batch mode for SQLite."""

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from server.db import make_engine
from server.models import Base

config = context.config


def _database_url() -> str:
    url = config.attributes.get("database_url")
    if url:
        return url
    from server.settings import get_settings

    return get_settings().database_url


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite cannot ALTER most things
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_online() -> None:
    engine = make_engine(_database_url())
    async with engine.connect() as connection:
        await connection.run_sync(_run)
    await engine.dispose()


if context.is_offline_mode():
    raise SystemExit("offline migrations are not supported; run against a database")

connection = config.attributes.get("connection")
if connection is not None:
    _run(connection)
else:
    asyncio.run(_run_online())
