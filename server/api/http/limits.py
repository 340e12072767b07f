"""Request bodies are bounded before anything reads them.

Connexion reads a whole body into memory to validate it, so a client could make the server hold
any amount it sends. This layer, the outermost of the API's stack after `no_store`, answers 413
`payload_too_large` in the error envelope:

- at once when `Content-Length` says the body is larger than `TOUCHLINE_MAX_BODY_BYTES`, without
  reading any of it;
- as soon as a body without a length (chunked) passes the limit while it arrives.

One kind of body is not read here: a tus upload's bytes (`application/offset+octet-stream`,
server/api/admin/uploads.py), which may be gigabytes and are streamed to disk by their handler.
It goes on unread, counted as it is read, and refused past `stream_max_bytes`
(TOUCHLINE_UPLOAD_MAX_BYTES); the handler bounds it by the upload's own length besides.

A body within the limit is read here and handed on whole, so what comes after never sees more
than the limit. A body sent without a `Content-Type` is read as JSON, which is what Connexion's
validation assumes for such a body (every operation of the contract takes JSON); one sent with a
Content-Type goes on with it in its canonical spelling (media_types.py). An empty body goes on
without one: whatever a client labels nothing with, it is no body (an optional one may be left out).
"""

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import orjson

from .media_types import canonical_content_type

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

JSON = b"application/json"
STREAMED = b"application/offset+octet-stream"


class BodyTooLarge(Exception):
    pass


def body_limit(max_bytes: int, stream_max_bytes: int | None = None) -> Callable[[ASGIApp], ASGIApp]:
    """The layer for Connexion's middleware list (which builds each layer from the app alone)."""

    def build(app: ASGIApp) -> ASGIApp:
        return BodyLimitMiddleware(app, max_bytes, stream_max_bytes)

    return build


class BodyLimitMiddleware:
    def __init__(self, app: ASGIApp, max_bytes: int, stream_max_bytes: int | None = None):
        self.app = app
        self.max_bytes = max_bytes
        self.stream_max_bytes = stream_max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length: int | None = None
        chunked = has_type = streamed = False
        for key, value in scope["headers"]:
            if key == b"content-length":
                length = int(value) if value.isdigit() else None  # the server refuses bad lengths itself
            elif key == b"transfer-encoding":
                chunked = True
            elif key == b"content-type":
                has_type = True
                streamed = value.split(b";")[0].strip().lower() == STREAMED
        if length is None and not chunked:
            await self.app(scope, receive, send)  # no body (HTTP/1.1 framing)
            return
        if streamed and self.stream_max_bytes is not None:
            if length is not None and length > self.stream_max_bytes:
                await self._refuse(send, self.stream_max_bytes)
                return
            await self.app(scope, _counted(receive, self.stream_max_bytes), send)
            return
        if length is not None and length > self.max_bytes:
            await self._refuse(send, self.max_bytes)
            return
        try:
            body = await self._read(receive)
        except BodyTooLarge:
            await self._refuse(send, self.max_bytes)
            return
        if body is None:
            return  # the client went away before the body was complete: nobody to answer
        if has_type and not body:
            # An empty body has no type to speak of; some clients (aiohttp) label an empty POST
            # application/octet-stream, which an operation with an optional JSON body would refuse.
            scope = {**scope, "headers": [(k, v) for k, v in scope["headers"] if k != b"content-type"]}
        elif has_type:
            headers = [
                (key, canonical_content_type(value) if key == b"content-type" else value)
                for key, value in scope["headers"]
            ]
            scope = {**scope, "headers": headers}
        elif body:
            scope = {**scope, "headers": [*scope["headers"], (b"content-type", JSON)]}
        await self.app(scope, _replay(body, receive), send)

    async def _read(self, receive: Receive) -> bytes | None:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # http.disconnect
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                raise BodyTooLarge()
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    async def _refuse(self, send: Send, max_bytes: int) -> None:
        body = orjson.dumps(
            {
                "error": True,
                "message": f"The request body is larger than {max_bytes} bytes",
                "messageErrorCode": "payload_too_large",
            }
        )
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", JSON),
                    (b"content-length", str(len(body)).encode()),
                    # The rest of the body is never read: the connection cannot carry another request.
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _replay(body: bytes, receive: Receive) -> Receive:
    """The body in one message, then whatever the client does next (a disconnect)."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def _counted(receive: Receive, max_bytes: int) -> Receive:
    """`receive` that ends the body as a disconnect once more than `max_bytes` arrived (a
    chunked body has no length to refuse up front): the handler keeps what came within it."""
    seen = 0

    async def counted() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > max_bytes:
                return {"type": "http.disconnect"}
        return message

    return counted
