"""aiosqlite's connection API answered right here, on the event loop's thread, for reads.

aiosqlite runs each call in its own thread and wakes the loop with the answer: a hop per
statement that, under load, costs far more than the statement (an indexed read takes
microseconds). SQLAlchemy's aiosqlite dialect accepts any connection with aiosqlite's methods
(`async_creator`), so this one runs sqlite3 directly and its awaitables complete at once.

Only for reading: the connection is `query_only`, and waits at most READ_BUSY_MS for a lock (in
WAL mode readers are never blocked by writers; only a checkpoint that resets the log can make
one wait, briefly). Writes stay on aiosqlite, whose waits for the write lock happen off the loop.
"""

import asyncio
import sqlite3
from collections.abc import Callable
from typing import Any

READ_BUSY_MS = 100


class InlineCursor:
    def __init__(self, cursor: sqlite3.Cursor):
        self._cursor = cursor

    @property
    def description(self) -> Any:
        return self._cursor.description

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount

    @property
    def lastrowid(self) -> int | None:
        return self._cursor.lastrowid

    async def execute(self, sql: str, parameters: Any = ()) -> "InlineCursor":
        self._cursor.execute(sql, parameters)
        return self

    async def executemany(self, sql: str, parameters: Any) -> "InlineCursor":
        self._cursor.executemany(sql, parameters)
        return self

    async def fetchall(self) -> list[Any]:
        return self._cursor.fetchall()

    async def fetchone(self) -> Any:
        return self._cursor.fetchone()

    async def fetchmany(self, size: int = 1) -> list[Any]:
        return self._cursor.fetchmany(size)

    async def close(self) -> None:
        self._cursor.close()


class _RunNow:
    """aiosqlite's request queue, as SQLAlchemy's isolation-level setter uses it: run at once."""

    def __init__(self) -> None:
        pass

    def put_nowait(self, item: tuple[asyncio.Future[Any], Callable[[], Any]]) -> None:
        future, function = item
        try:
            future.set_result(function())
        except Exception as exc:
            future.set_exception(exc)


class InlineConnection:
    def __init__(self, connection: sqlite3.Connection):
        self._conn = connection
        self._tx = _RunNow()

    @property
    def isolation_level(self) -> str | None:
        return self._conn.isolation_level

    async def cursor(self) -> InlineCursor:
        return InlineCursor(self._conn.cursor())

    async def execute(self, sql: str, parameters: Any = ()) -> InlineCursor:
        return await (await self.cursor()).execute(sql, parameters)

    async def commit(self) -> None:
        self._conn.commit()

    async def rollback(self) -> None:
        self._conn.rollback()

    async def close(self) -> None:
        self._conn.close()

    async def create_function(self, *args: Any, **kwargs: Any) -> None:
        self._conn.create_function(*args, **kwargs)

    def stop(self) -> None:
        self._conn.close()


def inline_reader(path: str) -> Callable[..., Any]:
    """An `async_creator` for create_async_engine: read-only connections to the file `path`."""

    async def connect(*_args: Any, **_kwargs: Any) -> InlineConnection:
        connection = sqlite3.connect(path, check_same_thread=False)
        connection.execute("PRAGMA query_only=ON")
        connection.execute(f"PRAGMA busy_timeout={READ_BUSY_MS}")
        return InlineConnection(connection)

    return connect
