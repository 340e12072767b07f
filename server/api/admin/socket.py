"""Socket messages sent by staff: any server-to-client message of asyncapi/asyncapi.yaml, to
one room, checked against its schema (`touchline socket emit` uses this without Redis)."""

import logging

import socketio

from ...errors import ApiError
from ...realtime.contract import ContractError
from ...realtime.emitter import Emitter, with_room_key
from ..http.context import staff, state
from ..http.envelope import ok

log = logging.getLogger(__name__)


def _validation_error(exc: ContractError) -> ApiError:
    # The contract names fields inside the payload; the API names them inside the body.
    details = [
        {"field": ".".join(filter(None, ("payload", d["field"]))), "message": d["message"]} for d in exc.details
    ] or [{"field": "room", "message": exc.message}]
    return ApiError(exc.message, code="validation_error", details=details)


async def emit_socket_message(body: dict):
    principal = await staff()
    sio: socketio.AsyncServer | None = state("socket")
    if sio is None:
        raise RuntimeError("this process runs the API without the socket server")
    name, room = body["event"], body["room"]
    payload = with_room_key(name, body["payload"], room)
    try:
        await Emitter(sio).emit(name, payload, room)
    except ContractError as exc:
        raise _validation_error(exc) from None
    log.info("staff %s sent %s to %s", principal.user_id, name, room)
    manager = "redis" if isinstance(sio.manager, socketio.AsyncRedisManager) else "in_process"
    return ok({"event": name, "room": room, "manager": manager})
