"""Health: liveness, the database, the socket's fan-out and socket counts, for balancers and start-up scripts."""

import logging
from typing import Any

from connexion import request

from ...errors import ApiError
from ...realtime import census
from ...realtime.health import fanout_status
from ..http.context import state
from ..http.envelope import ok

log = logging.getLogger(__name__)


async def get_health():
    """Liveness plus a round trip to the database, for load balancers and start-up scripts."""
    try:
        await state("database").ping()
    except Exception as exc:  # any driver error means "not ready", never a 500 page
        log.warning("health check: database unavailable: %s", exc)
        raise ApiError("Database unavailable", code="database_unavailable", status=503) from None
    report: dict[str, Any] = {"status": "ok", "database": "ok"}
    sio = getattr(request.state, "socket", None)  # absent when the API runs without the socket
    if sio is not None:
        report["realtime"] = await fanout_status(sio)
        if report["realtime"]["status"] != "ok":
            report["status"] = "degraded"
        sockets = await census.count(sio)
        report["sockets"] = {"scope": sockets.scope, "connected": sockets.connected, "processes": sockets.processes}
    return ok(report)
