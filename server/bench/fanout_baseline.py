"""The physical baseline of the fan-out benchmark: a bare `websockets` server that answers the
same handshake as Touchline's socket (Engine.IO open, namespace CONNECT, join-event-room ack)
and broadcasts one prepared frame to every member of the room with websockets.broadcast.

It does what any websocket server must do for a fan-out and nothing else: no Socket.IO
server, no ASGI, no rooms manager, no validation. `GET /emit?eventId=...&round=N` (plain HTTP
on the same port) broadcasts `event-url-change`; `GET /health` answers 200.

    python -m server.bench.fanout_baseline --port 8765
"""

import argparse
import asyncio
import http
import json
import secrets
from collections import defaultdict
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.server import broadcast, serve

OPEN = "0" + json.dumps({"sid": "", "upgrades": [], "pingInterval": 25000, "pingTimeout": 20000, "maxPayload": 16384})


class Baseline:
    def __init__(self):
        self.rooms: dict[str, set] = defaultdict(set)

    async def handle(self, ws) -> None:
        await ws.send(OPEN)
        joined: list[str] = []
        try:
            async for frame in ws:
                if frame.startswith("40"):
                    await ws.send("40" + json.dumps({"sid": secrets.token_hex(10)}))
                elif frame.startswith("42"):
                    digits = frame[2 : frame.index("[")]
                    name, payload = json.loads(frame[2 + len(digits) :])[:2]
                    if name == "join-event-room":
                        room = f"event:{payload['eventId']}"
                        self.rooms[room].add(ws)
                        joined.append(room)
                        ack = json.dumps({"ok": True, "room": room})
                        await ws.send(f"43{digits}" + json.dumps([ack]))
                elif frame == "3":
                    pass  # pong
        finally:
            for room in joined:
                self.rooms[room].discard(ws)

    def control(self, connection, request):
        """Plain HTTP requests (no Upgrade header) are the controls; the rest is websocket."""
        if "Upgrade" in request.headers:
            return None
        url = urlsplit(request.path)
        if url.path == "/emit":
            query = parse_qs(url.query)
            event_id, round_ = query["eventId"][0], query["round"][0]
            payload = {"eventId": event_id, "eventUrl": f"/media/live/{event_id}/index.m3u8?round={round_}"}
            members = self.rooms.get(f"event:{event_id}", set())
            broadcast(members, "42" + json.dumps(["event-url-change", payload]))
            return connection.respond(http.HTTPStatus.OK, f"{len(members)}\n")
        if url.path == "/health":
            return connection.respond(http.HTTPStatus.OK, "ok\n")
        return connection.respond(http.HTTPStatus.NOT_FOUND, "not found\n")


async def main(port: int) -> None:
    baseline = Baseline()
    async with serve(
        baseline.handle,
        "127.0.0.1",
        port,
        process_request=baseline.control,
        compression=None,
        max_size=16384,
        backlog=2048,
    ):
        await asyncio.Future()


def cli(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m server.bench.fanout_baseline")
    p.add_argument("--port", type=int, required=True)
    args = p.parse_args(argv)
    try:
        import uvloop

        uvloop.run(main(args.port))
    except ImportError:
        asyncio.run(main(args.port))


if __name__ == "__main__":
    cli()
