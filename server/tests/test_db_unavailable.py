"""Which database errors are "come back in a moment" (503) and which are faults (500)."""

import sqlite3

import psycopg
import pytest
from sqlalchemy.exc import DisconnectionError, IntegrityError, OperationalError, ProgrammingError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from server.db import unavailable


def wrapped(error_class, cause: Exception, *, invalidated: bool = False):
    return error_class("SELECT 1", {}, cause, connection_invalidated=invalidated)


@pytest.mark.parametrize(
    "exc",
    [
        wrapped(OperationalError, psycopg.OperationalError("connection refused")),
        wrapped(OperationalError, psycopg.errors.AdminShutdown("terminating connection")),
        wrapped(OperationalError, psycopg.errors.DeadlockDetected("deadlock detected")),
        wrapped(OperationalError, psycopg.InterfaceError("the connection is closed")),
        wrapped(OperationalError, sqlite3.OperationalError("database is locked")),
        wrapped(ProgrammingError, Exception("whatever"), invalidated=True),
        DisconnectionError("gone"),
        PoolTimeout("QueuePool limit reached"),
        psycopg.OperationalError("connection refused"),
        psycopg.errors.AdminShutdown("terminating connection"),
    ],
    ids=[
        "refused",
        "admin shutdown",
        "deadlock",
        "closed connection",
        "sqlite locked",
        "invalidated",
        "disconnect",
        "pool",
        "direct read refused",
        "direct read shut down",
    ],
)
def test_an_unreachable_or_busy_database_is_unavailable(exc):
    assert unavailable(exc)


@pytest.mark.parametrize(
    "exc",
    [
        wrapped(OperationalError, sqlite3.OperationalError("no such table: events")),
        wrapped(IntegrityError, psycopg.errors.UniqueViolation("duplicate key")),
        wrapped(ProgrammingError, psycopg.errors.UndefinedColumn("column x does not exist")),
        ValueError("not a database error"),
        psycopg.errors.UndefinedColumn("column x does not exist"),
    ],
    ids=["missing table", "duplicate key", "bad column", "other", "direct read bad column"],
)
def test_a_fault_of_the_query_or_the_code_is_not_unavailable(exc):
    assert not unavailable(exc)
