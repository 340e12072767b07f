"""API answers are never stored by a cache, unless their handler says otherwise.

Almost every answer depends on who asks: event answers carry the viewer's entitlements
(`availableForUser`) and stream URLs signed for them, accounts and purchases are the viewer's,
and even anonymous catalogue answers differ by region. A browser or proxy that stored one could
hand it to the next person, or replay a grant after it was withdrawn. So every /api response
gets `Cache-Control: private, no-store` when it has no Cache-Control of its own. (Sharing
anonymous answers is done inside the process instead: server.api.cache.)

One outermost ASGI layer of the Connexion stack covers handlers, validation and security errors
and Connexion's own 404/405/500 answers alike; it touches only the response-start message.
"""

NO_STORE = (b"cache-control", b"private, no-store")


class NoStoreMiddleware:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_no_store(message):
            if message["type"] == "http.response.start":
                headers = message.get("headers") or []
                if not any(key.lower() == b"cache-control" for key, _ in headers):
                    message = {**message, "headers": [*headers, NO_STORE]}
            await send(message)

        await self.app(scope, receive, send_no_store)
