"""How the socket fan-out of this process is doing, for GET /api/health."""

import asyncio

import socketio

PING_TIMEOUT_S = 1.0


async def fanout_status(sio: socketio.AsyncServer) -> dict[str, str]:
    """`in_process` is always ok. With Redis: `down` when this process's listener has stopped
    (messages from other processes no longer arrive), `degraded` when Redis does not answer."""
    manager = sio.manager
    if not isinstance(manager, socketio.AsyncRedisManager):
        return {"manager": "in_process", "status": "ok"}
    if not getattr(sio, "manager_initialized", True):
        # python-socketio subscribes when the first client connects; until then there is
        # nobody in this process to deliver to, so nothing is missed.
        return {"manager": "redis", "status": "ok"}
    listener = getattr(manager, "thread", None)
    if listener is None or listener.done():
        return {"manager": "redis", "status": "down"}
    try:
        await asyncio.wait_for(manager.redis.ping(), PING_TIMEOUT_S)
    except Exception:  # any client error means Redis is not serving us right now
        return {"manager": "redis", "status": "degraded"}
    return {"manager": "redis", "status": "ok"}
