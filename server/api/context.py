"""Per-request access to the app's shared objects (set up by the lifespan in server.app)."""

from contextlib import asynccontextmanager

from connexion import request
from sqlalchemy.ext.asyncio import AsyncSession

from ..services.access import ANONYMOUS, Viewer
from ..settings import Settings


def settings() -> Settings:
    return request.state.settings


@asynccontextmanager
async def db_session():
    session: AsyncSession
    async with request.state.database.session() as session:
        yield session


def viewer() -> Viewer:
    """The signed-in viewer; anonymous until the accounts work binds tokens to requests."""
    return getattr(request.state, "viewer", None) or ANONYMOUS
