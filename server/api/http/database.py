"""The request's database sessions: the one module of the API layer that names SQLAlchemy.

Handlers open a session here and hand it to services; they never build SQL or commit. A service
that writes commits its own unit of work (see ARCHITECTURE.md, "Transactions").
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from connexion import request
from sqlalchemy.ext.asyncio import AsyncSession


@asynccontextmanager
async def db_session() -> AsyncIterator[AsyncSession]:
    """A session for reads, and for writes that need no lock taken up front."""
    async with request.state.database.session() as db:
        yield db


@asynccontextmanager
async def db_write_session() -> AsyncIterator[AsyncSession]:
    """A session for read-check-write sequences (see Database.write_session)."""
    async with request.state.database.write_session() as db:
        yield db
