"""Engine and session factory for SQLite (embedded) and PostgreSQL (production)."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    # WAL lets readers run beside a writer; the busy timeout waits instead of failing with
    # "database is locked"; SQLite leaves foreign keys off unless asked.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def make_engine(database_url: str, *, echo: bool = False) -> AsyncEngine:
    url = make_url(database_url)
    if url.get_backend_name() == "sqlite":
        if url.database and url.database != ":memory:":
            from pathlib import Path

            Path(url.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(url, echo=echo)
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    return create_async_engine(url, echo=echo, pool_size=10, max_overflow=20, pool_pre_ping=True)


class Database:
    """One engine per process; sessions are short-lived and one per request."""

    def __init__(self, database_url: str, *, echo: bool = False):
        self.url = database_url
        self.engine = make_engine(database_url, echo=echo)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False, class_=AsyncSession)

    @asynccontextmanager
    async def session(self) -> AsyncIterator[AsyncSession]:
        async with self.sessions() as session:
            yield session

    async def dispose(self) -> None:
        await self.engine.dispose()
