"""Every failure leaves the API as the error envelope `{error, message, messageErrorCode}`.

Connexion answers with application/problem+json by default; the product's clients read the
envelope, so the handlers installed here cover the typed errors of server/errors.py, Connexion's
problems, Starlette's HTTP exceptions and anything unexpected.
"""

import functools
import logging
import re
import time
from collections import defaultdict

import orjson
from connexion.exceptions import ProblemException
from connexion.lifecycle import ConnexionRequest, ConnexionResponse
from starlette.exceptions import HTTPException

from ... import reporting
from ...db import unavailable
from ...errors import ApiError
from .routing import operations

log = logging.getLogger(__name__)

# Codes for the statuses Connexion and Starlette raise on their own.
STATUS_CODES = {
    400: "validation_error",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "payload_too_large",
    415: "unsupported_media_type",
    429: "too_many_requests",
}


def envelope(status: int, message: str, code: str, *, details=None, headers=None) -> ConnexionResponse:
    body = {"error": True, "message": message, "messageErrorCode": code}
    if not details and code == "validation_error":
        details = [{"message": message}]  # the contract: validation failures always carry details
    if details:
        body["details"] = details
    return ConnexionResponse(
        status_code=status,
        body=orjson.dumps(body),
        content_type="application/json",
        headers=dict(headers or {}),
    )


def _api_error(_request: ConnexionRequest, exc: ApiError) -> ConnexionResponse:
    return envelope(exc.status, exc.message, exc.code, details=exc.details, headers=exc.headers)


def _problem(_request: ConnexionRequest, exc: ProblemException) -> ConnexionResponse:
    status = exc.status or 500
    if status >= 500 and status != 501:
        log.error("problem %s: %s", status, exc.detail)
        reporting.report_exception(exc)
        return envelope(500, "An error occurred", "internal_error")
    message = exc.detail or exc.title or "Request failed"
    details = None
    if status == 400:
        field = getattr(exc.detail, "field", None)  # server.api.validation.FieldError
        details = [{"field": field, "message": exc.detail.reason} if field else {"message": message}]
        message = str(message)
    return envelope(status, message, STATUS_CODES.get(status, "bad_request"), details=details, headers=exc.headers)


@functools.lru_cache(maxsize=1)
def _methods_by_path() -> tuple[tuple[re.Pattern, str], ...]:
    """(path pattern under /api, its `Allow` value) for every path of the contract."""
    methods: dict[str, set[str]] = defaultdict(set)
    for operation in operations():
        method = operation.method
        methods[operation.path].update({method, "HEAD"} if method == "GET" else {method})
    return tuple(
        (re.compile("/api" + re.sub(r"\\\{[^/]*?\\\}", "[^/]+", re.escape(path)) + "$"), ", ".join(sorted(allowed)))
        for path, allowed in methods.items()
    )


def _allow(path: str, fallback: str | None) -> str | None:
    """Every method of the path: the router answers 405 from the first route whose path matches,
    which lists only that route's method when a path has several operations."""
    return next((allowed for pattern, allowed in _methods_by_path() if pattern.match(path)), fallback)


def _http(request: ConnexionRequest, exc: HTTPException) -> ConnexionResponse:
    status = exc.status_code
    if status >= 500:
        return envelope(500, "An error occurred", "internal_error")
    message = exc.detail if isinstance(exc.detail, str) and exc.detail else "Request failed"
    headers = exc.headers
    if status == 404:
        message = "Not found"
    elif status == 405:
        message = "Method not allowed"
        allow = _allow(request.scope["path"], (headers or {}).get("Allow"))
        headers = {**(headers or {}), "Allow": allow} if allow else headers
    return envelope(status, message, STATUS_CODES.get(status, "bad_request"), headers=headers)


def _unicode(_request: ConnexionRequest, _exc: UnicodeDecodeError) -> ConnexionResponse:
    details = [{"field": "body", "message": "is not valid UTF-8"}]
    return envelope(400, "The request body is not valid UTF-8", "validation_error", details=details)


# While the database is away (a restart, a failover) clients come back after this long.
DATABASE_RETRY_AFTER_S = 2
DATABASE_UNAVAILABLE = "The service is briefly unavailable, please try again in a moment"
# One log line per interval, not one per request, while the database is away.
_DATABASE_LOG_EVERY_S = 5.0
_database_logged_at = 0.0


def _database_unavailable(exc: Exception) -> ConnexionResponse:
    global _database_logged_at
    now = time.monotonic()
    if now - _database_logged_at >= _DATABASE_LOG_EVERY_S:
        _database_logged_at = now
        log.warning("database unavailable: %s", str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    return envelope(
        503, DATABASE_UNAVAILABLE, "database_unavailable", headers={"Retry-After": str(DATABASE_RETRY_AFTER_S)}
    )


def _unexpected(_request: ConnexionRequest, exc: Exception) -> ConnexionResponse:
    if unavailable(exc):
        return _database_unavailable(exc)
    log.exception("unhandled error", exc_info=exc)
    reporting.report_exception(exc)
    return envelope(500, "An error occurred", "internal_error")


def install(app) -> None:
    """Register the envelope handlers on a Connexion app."""
    app.add_error_handler(ApiError, _api_error)
    app.add_error_handler(ProblemException, _problem)
    app.add_error_handler(HTTPException, _http)
    app.add_error_handler(UnicodeDecodeError, _unicode)
    app.add_error_handler(Exception, _unexpected)
