"""Engine and session factory for SQLite (embedded) and PostgreSQL (production)."""

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Any, TypeVar, cast

import psycopg
from sqlalchemy import (
    Connection,
    CursorResult,
    Engine,
    Executable,
    Result,
    Row,
    Select,
    create_engine,
    event,
    text,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, DisconnectionError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.compiler import SQLCompiler

from .db_pg_reads import PgReader


def unavailable(exc: BaseException) -> bool:
    """Whether `exc` says the database cannot serve right now (it restarts, the network to it is
    down, the pool is exhausted, a lock or a deadlock to retry), as opposed to a fault of the
    query: the first is a 503 to come back from, the second a bug."""
    if isinstance(exc, DisconnectionError | PoolTimeout):
        return True
    # Raised by psycopg itself on the reads that skip SQLAlchemy (server/db_pg_reads.py).
    if isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError):
        return True
    if not isinstance(exc, DBAPIError):
        return False
    if exc.connection_invalidated:
        return True
    cause = exc.orig
    # psycopg's OperationalError covers connection failures, an administrator's shutdown, a
    # cancelled statement, deadlocks and serialization failures; InterfaceError a closed connection.
    if isinstance(cause, psycopg.OperationalError | psycopg.InterfaceError):
        return True
    # SQLite's OperationalError is also "no such table": only a busy or unreachable file counts.
    return isinstance(cause, sqlite3.OperationalError) and any(
        words in str(cause) for words in ("locked", "busy", "unable to open", "disk I/O error")
    )


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    # WAL lets readers run beside a writer; the busy timeout waits instead of failing with
    # "database is locked"; SQLite leaves foreign keys off unless asked.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


# Read connections kept open on SQLite (server/db_inline.py), and as many more at a peak.
INLINE_READERS = 64


def make_inline_reader(database_url: str, *, echo: bool = False) -> AsyncEngine | None:
    """For SQLite files: an engine whose read-only connections run on the event loop's thread
    (server/db_inline.py); None elsewhere."""
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    from .db_inline import inline_reader

    # A read session holds its connection until the request's answer is built, so under load as
    # many are out as requests are under way; a connection beyond the pool's size would be opened
    # and closed per request, and SQLite reads the schema again on every new one. Kept ones cost a
    # little memory each (the page cache grows only as used).
    return create_async_engine(
        url,
        echo=echo,
        async_creator=inline_reader(url.database),
        pool_size=INLINE_READERS,
        max_overflow=INLINE_READERS,
    )


def make_sync_writer(database_url: str) -> Engine | None:
    """A synchronous engine for Database.write_transaction's writer thread (None for SQLite in
    memory, which another connection could not see)."""
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite":
        return create_engine(
            url.set(drivername="postgresql+psycopg"), pool_size=PG_WRITERS, max_overflow=0, pool_pre_ping=True
        )
    if not url.database or url.database == ":memory:":
        return None
    engine = create_engine(url.set(drivername="sqlite"), connect_args={"check_same_thread": False})
    event.listen(engine, "connect", _sqlite_pragmas)
    return engine


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


# Writer threads for Database.write_transaction: SQLite has one writer at a time anyway; on
# PostgreSQL a few batches run at once, each waiting on its round trips.
PG_WRITERS = 4
M = TypeVar("M")
W = TypeVar("W")


async def referenced(db: AsyncSession, model: type[M], ident: str) -> M:
    """A row a foreign key points at (products behind purchases, say): it cannot be missing, so
    its absence is a LookupError (an internal error), not a 404 for the viewer."""
    row = await db.get(model, ident)
    if row is None:
        raise LookupError(f"{model.__name__} {ident} is referenced but missing")
    return row


PG_READER = "pg_reader"


async def session_rows(db: AsyncSession, statement: Select[Any], parameters: dict[str, Any]) -> list[Any]:
    """The rows of a hot read (a page's keys, say) in `db`: in a read session on PostgreSQL
    straight through psycopg (server/db_pg_reads.py), else on the session's connection. Only for
    Core selects of plain columns; never needs the session's own uncommitted writes."""
    reader = db.info.get(PG_READER)
    if reader is not None:
        return await reader.rows(statement, parameters)
    return list((await (await db.connection()).execute(statement, parameters)).all())


def rows_changed(result: Result[Any]) -> int:
    """How many rows an UPDATE or DELETE changed (its result is a CursorResult at run time;
    `AsyncSession.execute` is typed for SELECTs)."""
    return cast("CursorResult[Any]", result).rowcount or 0


# Statements compiled for pipelining, by statement and dialect: built once at import, compiled
# once, run often (the bound only guards against statements built per call).
_compiled: dict[tuple[ClauseElement, str], SQLCompiler] = {}
_COMPILED_MAX = 256


def run_pipelined(conn: Connection, statements: list[tuple[ClauseElement, dict[str, Any]]]) -> list[int]:
    """Run writes that do not depend on each other's results, in order, inside `conn`'s
    transaction; their rowcounts. On PostgreSQL they go out together and cost one round trip
    (psycopg's pipeline mode; SQLAlchemy's results do not know their rowcount there, so they run on
    the driver's cursors), elsewhere one by one. An error rolls back like any statement's."""
    if conn.dialect.name != "postgresql":
        return [conn.execute(cast("Executable", stmt), params).rowcount for stmt, params in statements]
    if not conn.in_transaction():
        conn.begin()  # else SQLAlchemy, which did not see these statements, would not commit them
    driver = conn.connection.driver_connection
    assert driver is not None
    cursors = []
    with driver.pipeline():
        for stmt, params in statements:
            key = (stmt, conn.dialect.name)
            compiled = _compiled.get(key)
            if compiled is None:
                if len(_compiled) >= _COMPILED_MAX:
                    _compiled.clear()
                compiled = _compiled[key] = cast("SQLCompiler", stmt.compile(dialect=conn.dialect))
            values = dict(compiled.construct_params(params) or {})
            for name, value in values.items():
                processor = compiled.binds[name].type.bind_processor(conn.dialect)
                values[name] = processor(value) if processor else value
            cursor = driver.cursor()
            cursor.execute(compiled.string, values)
            cursors.append(cursor)
    return [cursor.rowcount for cursor in cursors]


class Database:
    """One engine per process; sessions are short-lived and one per request."""

    def __init__(self, database_url: str, *, echo: bool = False):
        self.url = database_url
        self.engine = make_engine(database_url, echo=echo)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False, class_=AsyncSession)
        self._sqlite_writer = asyncio.Lock()
        self._reader = make_inline_reader(database_url, echo=echo)
        self.readers = async_sessionmaker(self._reader, expire_on_commit=False) if self._reader else None
        # On PostgreSQL, hot reads go straight through psycopg (server/db_pg_reads.py); read
        # sessions carry the reader, for the statements that ask it (`session_rows`).
        self._pg_reader = None if self.is_sqlite else PgReader(self.engine.url, self.engine.dialect)
        if self._pg_reader is not None:
            self.readers = async_sessionmaker(
                self.engine, expire_on_commit=False, class_=AsyncSession, info={PG_READER: self._pg_reader}
            )
        self._writer = make_sync_writer(database_url)
        self._writer_thread: ThreadPoolExecutor | None = None
        self._waiting_writes: list[tuple[Callable[[Connection], Any], asyncio.Future[Any]]] = []
        self._draining: set[asyncio.Task[None]] = set()
        self._writers = 1 if self.is_sqlite else PG_WRITERS

    @asynccontextmanager
    async def session(self) -> AsyncIterator[AsyncSession]:
        async with self.sessions() as session:
            yield session

    @asynccontextmanager
    async def read_session(self) -> AsyncIterator[AsyncSession]:
        """A session for reads only (catalogue pages). On SQLite its statements run on the event
        loop's thread (server/db_inline.py): no thread hop per statement; elsewhere a session."""
        async with (self.readers or self.sessions)() as session:
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

    async def commit_statement(self, statement: Select[Any], parameters: dict[str, Any]) -> list[Any] | None:
        """PostgreSQL: one statement that writes (a SELECT over data-modifying WITH clauses) in a
        transaction of its own, straight through psycopg (server/db_pg_reads.py): one round trip
        instead of a write transaction's four. Its rows; None on SQLite, or when its connection
        broke, in which case it may or may not have been committed: the caller goes the general
        way, which must cope with either."""
        if self._pg_reader is None:
            return None
        try:
            return await self._pg_reader.rows(statement, parameters, retry=False)
        except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
            if isinstance(exc, psycopg.errors.QueryCanceled):
                raise
            return None

    async def read_rows(self, statement: Executable, parameters: dict[str, Any] | None = None) -> list[Row[Any]]:
        """The rows of a small read by key (a session's standing, say), asked on every request:
        on SQLite on the event loop's thread (server/db_inline.py), else over the async engine.
        If the SQLite file is busy for longer than a read may wait on the loop (a checkpoint),
        it is read through aiosqlite. On PostgreSQL straight through psycopg (server/db_pg_reads.py)."""
        if self._pg_reader is not None:
            return await self._pg_reader.rows(cast("Select[Any]", statement), parameters)
        if self._reader is not None:
            try:
                async with self._reader.connect() as conn:
                    return list((await conn.execute(statement, parameters)).all())
            except OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise
        async with self.engine.connect() as conn:
            return list((await conn.execute(statement, parameters)).all())

    async def write_transaction(self, work: Callable[[Connection], W]) -> W:
        """`work(connection)` in a write transaction: committed when it returns, rolled back when
        it raises. `work` runs Core statements on a synchronous connection.

        The works waiting at a moment are run together by a writer thread, in one hop and one
        transaction; one that raises undoes only itself (`_write_batch`). A
        short transaction run from the event loop pays a hop per statement (aiosqlite's thread,
        or psycopg's awaited round trips) and on SQLite waits its turn under the process's writer
        lock: token refreshes at kickoff queued there. On SQLite the batch holds that lock too
        and starts with BEGIN IMMEDIATE. A batch is as slow as its slowest work: keep works to a
        few statements by key.
        """
        if self._writer is None:  # SQLite in memory
            async with self.engine.begin() as conn:
                return await conn.run_sync(work)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting_writes.append((work, future))
        if sum(not task.done() for task in self._draining) < self._writers:
            task = asyncio.create_task(self._drain_writes())
            self._draining.add(task)
            task.add_done_callback(self._draining.discard)
        return await future

    async def _drain_writes(self) -> None:
        if self._writer_thread is None:
            self._writer_thread = ThreadPoolExecutor(max_workers=self._writers, thread_name_prefix="db-writer")
        loop = asyncio.get_running_loop()
        # On SQLite beside write_session's writers, never interleaved.
        async with self._sqlite_writer if self.is_sqlite else contextlib.nullcontext():
            while self._waiting_writes:
                batch, self._waiting_writes = self._waiting_writes, []
                try:
                    outcomes = await loop.run_in_executor(
                        self._writer_thread, self._write_batch, [work for work, _ in batch]
                    )
                except Exception as exc:  # BEGIN or COMMIT failed: nothing of the batch was written
                    outcomes = [(False, exc)] * len(batch)
                for (_, future), (done, value) in zip(batch, outcomes, strict=True):
                    if not future.done():
                        future.set_result(value) if done else future.set_exception(value)

    def _write_batch(self, works: list[Callable[[Connection], Any]]) -> list[tuple[bool, Any]]:
        """Run `works` in one transaction. A work that raises is answered with its error and the
        transaction is rolled back and run again without it (works only read and write the
        database, so running one again is the same as running it once)."""
        assert self._writer is not None
        outcomes: dict[int, tuple[bool, Any]] = {}
        with self._writer.connect() as conn:
            while len(outcomes) < len(works):
                if self.is_sqlite:
                    conn.exec_driver_sql("BEGIN IMMEDIATE")
                answers: dict[int, tuple[bool, Any]] = {}
                try:
                    for index, work in enumerate(works):
                        if index in outcomes:
                            continue
                        try:
                            answers[index] = (True, work(conn))
                        except Exception as exc:
                            outcomes[index] = (False, exc)
                            break
                    else:
                        conn.commit()
                        outcomes.update(answers)
                        continue
                except BaseException:
                    conn.rollback()
                    raise
                conn.rollback()  # one failed: the others run again without it
        return [outcomes[index] for index in range(len(works))]

    async def ping(self) -> None:
        """One round trip to the database; raises the driver's error when it cannot be reached."""
        async with self.sessions() as db:
            await db.execute(text("SELECT 1"))

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    async def dispose(self) -> None:
        await self.engine.dispose()
        if self._pg_reader is not None:
            await self._pg_reader.close()
        if self._reader is not None:
            await self._reader.dispose()
        if self._writer_thread is not None:
            self._writer_thread.shutdown(wait=True)
            self._writer_thread = None
        if self._writer is not None:
            self._writer.dispose()
