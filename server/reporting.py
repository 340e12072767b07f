"""Error reporting (Sentry): API answers of 500 and above, when TOUCHLINE_SENTRY_DSN is set.

Without a DSN nothing is set up and nothing is sent. With one, the SDK starts without its
automatic integrations (no logging, no framework hooks: what is reported is decided here), and
two places report: the API's handler of unexpected errors sends the exception itself
(`report_exception`), and `ServerErrorReporting`, around the API, sends a message for any other
answer of 500 or more (a 503 from a health check, a 500 an error handler produced), once per
request.
"""

import contextvars
import logging

import sentry_sdk

from .settings import Settings

log = logging.getLogger(__name__)

# Breadcrumbs kept with an event (spec §9's error-reporting default).
MAX_BREADCRUMBS = 25

# The request being answered: {"reported": bool}. A mutable holder, so an error handler that runs
# in a worker thread (with a copy of the context) still marks it.
_current: contextvars.ContextVar[dict | None] = contextvars.ContextVar("touchline_error_report", default=None)


def configure(settings: Settings) -> bool:
    """Starts the SDK when a DSN is configured; answers whether reporting is on."""
    if not settings.sentry_dsn:
        return False
    sentry_sdk.init(
        dsn=settings.sentry_dsn,
        environment=settings.sentry_environment or settings.environment,
        max_breadcrumbs=MAX_BREADCRUMBS,
        default_integrations=False,
        auto_enabling_integrations=False,
        send_default_pii=False,
        traces_sample_rate=None,
    )
    return True


def enabled() -> bool:
    client = sentry_sdk.get_client()
    return client.is_active() and bool(client.dsn)


def report_exception(exc: BaseException) -> None:
    """Reports an exception that became an answer of 500 (once per request)."""
    if not enabled():
        return
    holder = _current.get()
    if holder is not None:
        holder["reported"] = True
    sentry_sdk.capture_exception(exc)


class ServerErrorReporting:
    """ASGI middleware: an HTTP answer of 500 or more that no exception report covered is
    reported as a message naming the status, method and path (never the query or the body)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or not enabled():
            await self.app(scope, receive, send)
            return
        holder: dict = {"reported": False}
        token = _current.set(holder)

        async def watching(message):
            if message["type"] == "http.response.start" and message["status"] >= 500 and not holder["reported"]:
                holder["reported"] = True
                with sentry_sdk.new_scope() as report:
                    report.set_tag("http.status_code", str(message["status"]))
                    report.set_tag("http.method", scope.get("method", ""))
                    sentry_sdk.capture_message(
                        f"{message['status']} answered to {scope.get('method', '')} {scope.get('path', '')}",
                        level="error",
                    )
            await send(message)

        try:
            await self.app(scope, receive, watching)
        finally:
            _current.reset(token)
