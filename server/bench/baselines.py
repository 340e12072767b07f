"""Reference apps the event list is compared against.

Both serve the same JSON body of a given size, so the ratios isolate framework and
database cost from payload size. The size comes from BENCH_BODY_BYTES because uvicorn
imports the factories in a subprocess.
"""

import json
import os

import connexion

DEFAULT_BODY_BYTES = 5000
_PREFIX = '{"content":{"pad":"'
_SUFFIX = '"},"error":false,"message":""}'


def body_of_size(size: int) -> bytes:
    """A valid JSON success envelope of exactly `size` bytes (padded string)."""
    pad = size - len(_PREFIX) - len(_SUFFIX)
    if pad < 0:
        raise ValueError(f"body size must be >= {len(_PREFIX) + len(_SUFFIX)}")
    return (_PREFIX + "x" * pad + _SUFFIX).encode()


def _size_from_env() -> int:
    return int(os.environ.get("BENCH_BODY_BYTES", DEFAULT_BODY_BYTES))


def bare_asgi_app(size: int | None = None):
    """Raw ASGI callable: the ceiling of what uvicorn can serve on this machine."""
    body = body_of_size(size or _size_from_env())
    start = {
        "type": "http.response.start",
        "status": 200,
        "headers": [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
        ],
    }
    done = {"type": "http.response.body", "body": body}

    async def app(scope, receive, send):
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                else:
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] == "http":
            await send(start)
            await send(done)

    return app


# The payload the Connexion handler returns; parsed once so each request pays for
# Connexion's JSON encoding like a real handler would, not for parsing.
_payload: dict | None = None


async def ping(limit: int = 10):
    # async on purpose: AsyncApp runs a plain `def` handler in a thread pool, which alone
    # cost ~40 % of throughput here; the real handlers are async (SQLAlchemy asyncio).
    return _payload, 200


def _spec() -> dict:
    # One validated GET with one optional query parameter: the smallest operation that
    # still runs routing, security, parameter parsing and request validation.
    return {
        "openapi": "3.0.3",
        "info": {"title": "bench", "version": "1"},
        "servers": [{"url": "/api"}],
        "paths": {
            "/ping": {
                "get": {
                    "operationId": f"{__name__}.ping",
                    "parameters": [
                        {
                            "name": "limit",
                            "in": "query",
                            "required": False,
                            "schema": {"type": "integer", "minimum": 1, "default": 10},
                        }
                    ],
                    "responses": {
                        "200": {
                            "description": "fixed body",
                            "content": {"application/json": {"schema": {"type": "object"}}},
                        }
                    },
                }
            }
        },
    }


def connexion_app(size: int | None = None) -> connexion.AsyncApp:
    """Trivial Connexion AsyncApp with default middlewares, response validation off."""
    global _payload
    _payload = json.loads(body_of_size(size or _size_from_env()))
    app = connexion.AsyncApp(__name__)
    app.add_api(_spec(), validate_responses=False)
    return app
