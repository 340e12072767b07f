"""Hot reads on PostgreSQL straight through psycopg, for read sessions and the session check.

Through SQLAlchemy's async session a one-row read by key cost about five times its own round trip
here (690 µs against 130 µs): a pool checkout that first pings the server (`pool_pre_ping`, so a
restarted database is survived), the session's and the connection's bookkeeping, and a greenlet
switch per statement. Catalogue pages and the session check ask such reads on every request. This
reader keeps a few autocommit connections of its own, compiles each statement once, and answers
plain rows. Instead of a ping before every read, a read that meets a broken connection drops the
idle ones too (a restarted server broke them all) and is asked once more on a new one: reads can be
asked twice. While the server is down a read fails at once (its connection is refused), which the
API answers with 503; psycopg_pool's waiting for its background connections would hold each such
request for its timeout instead, so the few lines of pooling are ours.

Never inside a write transaction: a write session must see its own uncommitted rows, which
another connection does not. A statement that writes (a SELECT over data-modifying WITH clauses)
commits on its own here; it is asked with `retry=False`, so a broken connection's error reaches
its caller, who cannot know whether it was committed.
"""

import asyncio
import re
import weakref
from collections import namedtuple
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

import psycopg
from psycopg.pq import TransactionStatus
from sqlalchemy import URL, Select
from sqlalchemy.engine import Dialect
from sqlalchemy.sql.compiler import SQLCompiler

POOL_SIZE = 8
# Statements are built once per shape (module constants, cached builders): the bound only guards
# against a statement built per call filling memory.
PREPARED_MAX = 512
_EXPANDING = re.compile(r"(NOT )?IN \(__\[POSTCOMPILE_(\w+)\]\)")


@dataclass(frozen=True)
class _Prepared:
    compiled: SQLCompiler
    binds: Mapping[str, Callable[[Any], Any] | None]
    expanding: frozenset[str]
    results: tuple[Callable[[Any], Any] | None, ...]
    row: type
    # Its text by the lists bound to IN that hold one value (see `sql`).
    texts: dict[frozenset[str], str] = field(default_factory=dict)

    def sql(self, singles: frozenset[str]) -> str:
        """The statement's text. A list bound to IN becomes one array parameter (psycopg adapts
        lists to arrays), `= ANY(...)`: one text for every length, which the server can keep
        prepared. A list of one value is compared with `=` instead, as PostgreSQL itself does
        with `IN (x)`: an index on the column then also gives the order, where `= ANY` of even
        one value is planned as a filter and a sort (a page of a 100,000-event catalogue read
        every row)."""
        text = self.texts.get(singles)
        if text is None:
            text = self.texts[singles] = _EXPANDING.sub(
                lambda m: _compare(m.group(2), negated=bool(m.group(1)), single=m.group(2) in singles),
                self.compiled.string,
            )
        return text


def _compare(name: str, *, negated: bool, single: bool) -> str:
    if single:
        return f"{'<>' if negated else '='} %({name})s"
    return f"{'<> ALL' if negated else '= ANY'}(%({name})s)"


def _prepare(statement: Select, dialect: Dialect) -> _Prepared:
    compiled = statement.compile(dialect=dialect)
    if compiled.insert_prefetch or compiled.update_prefetch:
        raise ValueError(f"a column default computed in Python is not run here: {compiled.string}")
    binds = {name: bind.type.dialect_impl(dialect).bind_processor(dialect) for name, bind in compiled.binds.items()}
    expanding = frozenset(name for name, bind in compiled.binds.items() if bind.expanding)
    columns = list(statement.selected_columns)
    results = tuple(column.type.dialect_impl(dialect).result_processor(dialect, None) for column in columns)
    keys = [column.key or f"c{n}" for n, column in enumerate(columns)]
    row = namedtuple("Row", keys, rename=True)  # type: ignore[misc]  # the fields are the statement's, known at run time
    prepared = _Prepared(compiled, binds, expanding, results, row)
    if "__[POSTCOMPILE_" in (sql := prepared.sql(frozenset())):
        raise ValueError(f"a parameter rendered at run time is not supported here: {sql}")
    return prepared


def conninfo_of(url: URL) -> str:
    """libpq's connection string for a SQLAlchemy PostgreSQL URL."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


class _Connections:
    """Up to `size` connections in use at once, the idle ones kept for the next read. Bound to
    the event loop that made them (as psycopg's connections are)."""

    def __init__(self, conninfo: str, size: int):
        self._conninfo = conninfo
        self._idle: list[psycopg.AsyncConnection] = []
        self._slots = asyncio.Semaphore(size)

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[psycopg.AsyncConnection]:
        async with self._slots:
            if self._idle:
                conn = self._idle.pop()
            else:
                conn = await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True)
            reusable = False
            try:
                yield conn
                reusable = True
            except Exception:
                # A query's own fault leaves an autocommit connection idle and usable.
                reusable = not conn.broken and conn.info.transaction_status == TransactionStatus.IDLE
                raise
            finally:
                if reusable and not conn.closed:
                    self._idle.append(conn)
                else:
                    await conn.close()

    async def drop_idle(self) -> None:
        idle, self._idle = self._idle, []
        for conn in idle:
            await conn.close()


class PgReader:
    """Reads by key, on connections of their own; see the module's docstring."""

    def __init__(self, url: URL, dialect: Dialect, size: int = POOL_SIZE):
        self._conninfo = conninfo_of(url)
        self._dialect = dialect
        self._size = size
        self._pools: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Connections] = weakref.WeakKeyDictionary()
        self._prepared: dict[Select, _Prepared] = {}

    def _pool(self) -> _Connections:
        loop = asyncio.get_running_loop()
        pool = self._pools.get(loop)
        if pool is None:
            pool = self._pools[loop] = _Connections(self._conninfo, self._size)
        return pool

    def prepared(self, statement: Select) -> _Prepared:
        found = self._prepared.get(statement)
        if found is None:
            if len(self._prepared) >= PREPARED_MAX:
                self._prepared.clear()
            found = self._prepared[statement] = _prepare(statement, self._dialect)
        return found

    async def rows(
        self, statement: Select, parameters: dict[str, Any] | None = None, *, retry: bool = True
    ) -> list[Any]:
        """The rows of `statement`, each a named tuple of its selected columns' keys. With `retry`,
        a broken connection's read is asked once more on a new one."""
        prepared = self.prepared(statement)
        values: dict[str, Any] = {}
        singles = set()
        # Every bound value, the statement's own literals included.
        for name, value in (prepared.compiled.construct_params(parameters) or {}).items():
            process = prepared.binds.get(name)
            if name in prepared.expanding:
                values[name] = [process(item) if process else item for item in value]
                if len(value) == 1:
                    singles.add(name)
                    values[name] = values[name][0]
            else:
                values[name] = process(value) if process else value
        sql = prepared.sql(frozenset(singles))
        pool = self._pool()
        try:
            fetched = await self._fetch(pool, sql, values)
        except (psycopg.OperationalError, psycopg.InterfaceError) as exc:
            if isinstance(exc, psycopg.errors.QueryCanceled):
                raise
            # The connection broke (the server restarted, the network dropped it), and the idle
            # ones with it: once more on a new one. A server still down refuses that one too.
            await pool.drop_idle()
            if not retry:
                raise
            fetched = await self._fetch(pool, sql, values)
        return [_processed(prepared, raw) for raw in fetched]

    @staticmethod
    async def _fetch(pool: _Connections, sql: str, values: dict[str, Any]) -> Sequence[tuple[Any, ...]]:
        async with pool.connection() as conn:
            cursor = await conn.execute(sql, values)
            return await cursor.fetchall()

    async def close(self) -> None:
        """Closes the idle connections of the running event loop's pool (the others' close with
        their loops)."""
        pool = self._pools.pop(asyncio.get_running_loop(), None)
        if pool is not None:
            await pool.drop_idle()


def _processed(prepared: _Prepared, raw: tuple[Any, ...]) -> Any:
    return prepared.row(
        *(process(value) if process else value for process, value in zip(prepared.results, raw, strict=True))
    )
