"""The request's database sessions: the one module of the API layer that names SQLAlchemy.

Handlers open a session here and hand it to services; they never build SQL or commit. A service
that writes commits its own unit of work (see ARCHITECTURE.md, "Transactions").
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from connexion.context import scope
from sqlalchemy.ext.asyncio import AsyncSession

from ...db import Database


def request_state() -> dict:
    """The request's copy of what the lifespan set up (`request.state` in Starlette's words)."""
    return scope["state"]


def database() -> Database:
    """The process's database, for services that open their own sessions (waits between them)."""
    return request_state()["database"]


@asynccontextmanager
async def db_session() -> AsyncIterator[AsyncSession]:
    """A session for reads, and for writes that need no lock taken up front."""
    async with request_state()["database"].session() as db:
        yield db


@asynccontextmanager
async def db_read_session() -> AsyncIterator[AsyncSession]:
    """A session that only reads (the catalogue): on SQLite without a thread hop per statement."""
    async with request_state()["database"].read_session() as db:
        yield db


@asynccontextmanager
async def db_write_session() -> AsyncIterator[AsyncSession]:
    """A session for read-check-write sequences (see Database.write_session)."""
    async with request_state()["database"].write_session() as db:
        yield db
