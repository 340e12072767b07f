"""A PostgreSQL database of a check's own: made with a unique name, dropped afterwards.

`make contract` runs Schemathesis against PostgreSQL as well as SQLite (issue 26 §9: NUL in
text answered 500 only on PostgreSQL). The name is unique per run, so two runs on one server
(two CI jobs, a developer's and CI's) never share or drop each other's database, and it is
dropped with FORCE even when the check fails or is interrupted.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg import sql
from sqlalchemy.engine import make_url

DEFAULT_SERVER_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"


def _connection_string(url: str, database: str) -> str:
    """A libpq connection string for `database` on the server of the SQLAlchemy `url`."""
    return make_url(url).set(drivername="postgresql", database=database).render_as_string(hide_password=False)


def server_reachable(server_url: str, timeout: int = 3) -> bool:
    try:
        with psycopg.connect(_connection_string(server_url, "postgres"), connect_timeout=timeout):
            return True
    except psycopg.OperationalError:
        return False


@contextmanager
def fresh_database(server_url: str, prefix: str = "touchline_contract") -> Iterator[str]:
    """Yields the SQLAlchemy URL of a new, empty database on the server of `server_url`."""
    name = f"{prefix}_{secrets.token_hex(6)}"
    admin = _connection_string(server_url, "postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield make_url(server_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
