"""How a sign-in through an identity provider fails (contract: 401, 502, and 400 for a token kind)."""

from ...errors import ApiError, Unauthorized

LOGIN_FAILED = "Login Failed"


class LoginFailed(Unauthorized):
    """The provider refused the sign-in, or its token did not pass our checks (spec §8)."""

    code = "login_failed"

    def __init__(self, reason: str):
        super().__init__(f"{LOGIN_FAILED}: {reason}")
        self.reason = reason


class ProviderUnavailable(ApiError):
    """The provider could not be reached, or answered something that is not its protocol."""

    status = 502
    code = "provider_unavailable"

    def __init__(self, reason: str):
        super().__init__("The sign-in provider is not answering, try again later")
        self.reason = reason


class UnsupportedToken(ApiError):
    """A token kind this provider cannot be asked about (e.g. an access token for Apple, or for
    any provider that cannot say which application the token was issued to). The code is RFC
    8693's (§2.2.2) for a subject_token_type the server is unwilling to accept."""

    code = "unsupported_token_type"
