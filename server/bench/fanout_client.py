"""One load-generator process of the fan-out benchmark: N websocket clients in one event room.

Each client speaks just enough Socket.IO 5 / Engine.IO 4 (what socket.io-client sends over a
websocket): open packet, namespace CONNECT (`40`), `join-event-room` with an ack id
(`420[...]` -> `430[...]`), pong for every ping, and it records when each `event-url-change`
arrives. The same client runs against the Touchline server and the bare baseline server.

Talks to the coordinator (server.bench.fanout) through stdin/stdout, one JSON object a line:
  -> {"ready": connected, "failed": n, "errors": [...]}     once every client joined (or failed)
  -> {"round": r, "received": n}                           when all connected clients got round r
  <- "collect"  -> {"arrivals": {round: [monotonic seconds, ...]}, "closed": n}
  <- "quit"     closes every connection and exits
Times are time.monotonic() (CLOCK_MONOTONIC: one clock for every process of the machine).
"""

import argparse
import asyncio
import json
import sys
import time
from collections import defaultdict
from urllib.parse import parse_qs, urlsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

MESSAGE = "event-url-change"


def say(**fields) -> None:
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


def round_of(event_url: str) -> int:
    return int(parse_qs(urlsplit(event_url).query)["round"][0])


class Clients:
    def __init__(self, url: str, event_id: str, count: int):
        self.url = url
        self.event_id = event_id
        self.count = count
        self.arrivals: dict[int, list[float]] = defaultdict(list)
        self.connections: list[ClientConnection] = []
        self.readers: list[asyncio.Task] = []
        self.errors: list[str] = []
        self.failed = 0
        self.closed = 0
        self.announced: set[int] = set()

    async def open_one(self, slots: asyncio.Semaphore, timeout: float) -> None:
        async with slots:
            try:
                ws = await asyncio.wait_for(self._handshake(), timeout)
            except Exception as exc:  # counted and reported, never fatal for the others
                self.failed += 1
                if len(self.errors) < 5:
                    self.errors.append(f"{type(exc).__name__}: {exc}")
                return
        self.connections.append(ws)
        self.readers.append(asyncio.ensure_future(self._read(ws)))

    async def _handshake(self) -> ClientConnection:
        # Browsers offer per-message deflate; the server decides (Touchline turns it off).
        # Engine.IO sends text frames: decode=True returns them as str, as recv() does by default.
        ws = await connect(self.url, max_size=2**20, open_timeout=None, ping_interval=None)
        opened = await ws.recv(decode=True)
        if not opened.startswith("0"):
            raise RuntimeError(f"expected the Engine.IO open packet, got {opened[:80]!r}")
        await ws.send("40")
        while not (answer := await ws.recv(decode=True)).startswith("40"):
            if answer == "2":
                await ws.send("3")
            elif answer.startswith("44"):
                raise RuntimeError(f"namespace refused: {answer[:200]}")
        await ws.send("420" + json.dumps(["join-event-room", {"eventId": self.event_id}]))
        while not (ack := await ws.recv(decode=True)).startswith("430"):
            if ack == "2":
                await ws.send("3")
        if not json.loads(json.loads(ack[3:])[0]).get("ok"):  # the ack is one argument: JSON text
            raise RuntimeError(f"join-event-room refused: {ack[:200]}")
        return ws

    async def _read(self, ws) -> None:
        try:
            async for frame in ws:
                if frame == "2":
                    await ws.send("3")
                elif frame.startswith("42"):
                    now = time.monotonic()
                    name, payload = json.loads(frame[2:])[:2]
                    if name == MESSAGE:
                        self._arrived(round_of(payload["eventUrl"]), now)
        except ConnectionClosed:
            pass
        finally:
            self.closed += 1

    def _arrived(self, round_: int, at: float) -> None:
        got = self.arrivals[round_]
        got.append(at)
        if len(got) >= len(self.connections) and round_ not in self.announced:
            self.announced.add(round_)
            say(round=round_, received=len(got))

    async def close(self) -> None:
        for reader in self.readers:
            reader.cancel()
        await asyncio.gather(*(ws.close() for ws in self.connections), return_exceptions=True)


async def main(args: argparse.Namespace) -> None:
    clients = Clients(args.url, args.event, args.count)
    slots = asyncio.Semaphore(args.concurrency)
    await asyncio.gather(*(clients.open_one(slots, args.timeout) for _ in range(args.count)))
    say(ready=len(clients.connections), failed=clients.failed, errors=clients.errors)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := (await reader.readline()).decode().strip():
        if line == "collect":
            say(arrivals={str(r): times for r, times in clients.arrivals.items()}, closed=clients.closed)
        elif line == "quit":
            break
    await clients.close()


def cli(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m server.bench.fanout_client")
    p.add_argument("--url", required=True, help="ws://127.0.0.1:PORT/ws/?EIO=4&transport=websocket")
    p.add_argument("--event", required=True)
    p.add_argument("--count", type=int, required=True)
    p.add_argument("--concurrency", type=int, default=50, help="handshakes in flight")
    p.add_argument("--timeout", type=float, default=60, help="seconds per handshake")
    args = p.parse_args(argv)
    try:
        import uvloop

        uvloop.run(main(args))
    except ImportError:
        asyncio.run(main(args))


if __name__ == "__main__":
    cli()
