"""Engine and session factory for SQLite (embedded) and PostgreSQL (production)."""

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, TypeVar, cast

from sqlalchemy import CursorResult, Result, event, text
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


M = TypeVar("M")


async def referenced(db: AsyncSession, model: type[M], ident: str) -> M:
    """A row a foreign key points at (products behind purchases, say): it cannot be missing, so
    its absence is a LookupError (an internal error), not a 404 for the viewer."""
    row = await db.get(model, ident)
    if row is None:
        raise LookupError(f"{model.__name__} {ident} is referenced but missing")
    return row


def rows_changed(result: Result[Any]) -> int:
    """How many rows an UPDATE or DELETE changed (its result is a CursorResult at run time;
    `AsyncSession.execute` is typed for SELECTs)."""
    return cast("CursorResult[Any]", result).rowcount or 0


class Database:
    """One engine per process; sessions are short-lived and one per request."""

    def __init__(self, database_url: str, *, echo: bool = False):
        self.url = database_url
        self.engine = make_engine(database_url, echo=echo)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False, class_=AsyncSession)
        self._sqlite_writer = asyncio.Lock()

    @asynccontextmanager
    async def session(self) -> AsyncIterator[AsyncSession]:
        async with self.sessions() as session:
            yield session

    @asynccontextmanager
    async def write_session(self) -> AsyncIterator[AsyncSession]:
        """A session whose transaction takes the write lock up front on SQLite (BEGIN IMMEDIATE).

        A deferred SQLite transaction that reads and then writes fails with "database is locked"
        when another writer got there first; taking the lock at the start makes such
        read-check-write sequences (device limit, token rotation, code redemption) wait their turn.
        On PostgreSQL use row locks (`with_for_update`) or conditional updates instead.
        """
        if not self.is_sqlite:
            async with self.sessions() as session:
                yield session
            return
        # Writers of this process queue here instead of in SQLite's busy handler, which sleeps
        # in steps of up to 100 ms; other processes still wait through busy_timeout.
        async with self._sqlite_writer, self.sessions() as session:
            await session.execute(text("BEGIN IMMEDIATE"))
            yield session

    async def ping(self) -> None:
        """One round trip to the database; raises the driver's error when it cannot be reached."""
        async with self.sessions() as db:
            await db.execute(text("SELECT 1"))

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    async def dispose(self) -> None:
        await self.engine.dispose()
