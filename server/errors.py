"""The typed errors services and handlers raise: a status and a machine-readable code.

No web framework here: services raise these, and the API layer turns them into the error
envelope (server/api/http/errors.py).
"""


class ApiError(Exception):
    """Raised by services and handlers; carries the status and the machine-readable code."""

    status = 400
    code = "bad_request"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        status: int | None = None,
        headers=None,
        details: list[dict] | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.code = code or self.code
        self.status = status or self.status
        self.headers = headers or {}
        self.details = details  # [{field, message}] for validation errors


class NotFound(ApiError):
    status = 404
    code = "not_found"


class Conflict(ApiError):
    status = 409
    code = "conflict"


class Unauthorized(ApiError):
    status = 401
    code = "unauthorized"


class Forbidden(ApiError):
    status = 403
    code = "forbidden"
