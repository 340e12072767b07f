"""How the socket fan-out of this process is doing, for GET /api/health."""

import socketio

from .fanout import SupervisedRedisManager

PING_TIMEOUT_S = 1.0


async def fanout_status(sio: socketio.AsyncServer) -> dict[str, str]:
    """`in_process` is always ok. With Redis (server.realtime.fanout): `down` when this process
    does not receive what other processes publish (its listener is not subscribed: not started,
    reconnecting, stuck), `degraded` when it receives but cannot publish right now (messages
    from here wait in the backlog, or Redis does not answer a ping), else `ok`."""
    manager = sio.manager
    if not isinstance(manager, socketio.AsyncRedisManager):
        return {"manager": "in_process", "status": "ok"}
    if not isinstance(manager, SupervisedRedisManager):
        listener = getattr(manager, "thread", None)
        return {"manager": "redis", "status": "down" if listener is None or listener.done() else "ok"}
    status = manager.health()
    if status == "ok" and not await manager.ping(PING_TIMEOUT_S):
        status = "degraded"
    return {"manager": "redis", "status": status}
