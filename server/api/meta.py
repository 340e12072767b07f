"""Handlers for the `meta` tag."""

import logging

from connexion import request
from sqlalchemy import text

from ..errors import ApiError
from ..realtime.health import fanout_status
from .context import db_session
from .envelope import ok

log = logging.getLogger(__name__)

# The customer configuration arrives with the webapp work.
PENDING = frozenset({"get_app_config"})


async def get_health():
    """Liveness plus a round trip to the database, for load balancers and start-up scripts."""
    try:
        async with db_session() as session:
            await session.execute(text("SELECT 1"))
    except Exception as exc:  # any driver error means "not ready", never a 500 page
        log.warning("health check: database unavailable: %s", exc)
        raise ApiError("Database unavailable", code="database_unavailable", status=503) from None
    report = {"status": "ok", "database": "ok"}
    sio = getattr(request.state, "socket", None)  # absent when the API runs without the socket
    if sio is not None:
        report["realtime"] = await fanout_status(sio)
        if report["realtime"]["status"] != "ok":
            report["status"] = "degraded"
    return ok(report)
