"""What a new password may be, after NIST SP 800-63B (5.1.1.2): at least 8 characters (the
contract), no composition rules, and none of the passwords an attacker tries first.

Refused, with the reason in the error's details:

- `repeated`: one character repeated (`aaaaaaaa`, eight spaces);
- `personal`: the account's e-mail address, its local part or the display name, or a password
  that contains one of them (pieces of 4 characters or more; compared without case, spaces or
  punctuation);
- `common`: what zxcvbn (Dropbox's estimator, on its lists of leaked passwords, words and names,
  keyboard walks, dates and sequences) guesses in fewer than 10^(2 * min_score + 1) tries: with
  the default score 2, fewer than a million, the order of a year of rate-limited online guesses.

Applied where a password is chosen: registration, password change and reset.
"""

import asyncio
import threading
from dataclasses import dataclass

from zxcvbn import zxcvbn

from ..errors import ApiError

# zxcvbn refuses longer input; the first 72 characters of a password are plenty to rate it.
RATED_LENGTH = 72
# A context piece this long or longer is refused inside a password too, not only on its own.
MIN_CONTAINED = 4
SERVICE_WORDS = ("touchline",)  # context zxcvbn should count as easy to guess

MESSAGES = {
    "repeated": "The password must not be one character repeated",
    "personal": "The password must not contain your e-mail address or name",
    "common": "This password is too common or too easy to guess: choose a longer or less common one",
}

# zxcvbn keeps the caller's words in a module-level dictionary while it rates a password: one
# rating at a time, so concurrent sign-ups never see each other's words.
_rating = threading.Lock()


class WeakPassword(ApiError):
    status = 400
    code = "weak_password"

    def __init__(self, reason: str, field: str) -> None:
        message = MESSAGES[reason]
        super().__init__(message, details=[{"field": field, "message": message, "reason": reason}])
        self.reason = reason


@dataclass(frozen=True)
class PasswordContext:
    """What is known about the account the password is for."""

    email: str | None
    display_name: str | None


def _squash(text: str) -> str:
    return "".join(c for c in text.casefold() if c.isalnum())


def _pieces(context: PasswordContext) -> list[str]:
    pieces = []
    if context.email:
        pieces += [context.email, context.email.partition("@")[0]]
    if context.display_name:
        pieces.append(context.display_name)
    return [p for p in (_squash(p) for p in pieces) if p]


def _is_personal(password: str, context: PasswordContext) -> bool:
    squashed = _squash(password)
    return any(squashed == p or (len(p) >= MIN_CONTAINED and p in squashed) for p in _pieces(context))


def _rate(password: str, words: list[str]) -> int:
    with _rating:
        return int(zxcvbn(password[:RATED_LENGTH], user_inputs=words)["score"])


def weakness(password: str, context: PasswordContext, *, min_score: int) -> str | None:
    """The reason `password` is refused (`repeated`, `personal`, `common`), or None."""
    if len(set(password)) <= 1:
        return "repeated"
    if _is_personal(password, context):
        return "personal"
    if min_score <= 0:
        return None
    words = [*SERVICE_WORDS, *_pieces(context)]
    if context.display_name:
        words += context.display_name.casefold().split()
    return "common" if _rate(password, words) < min_score else None


async def refuse_weak(password: str, context: PasswordContext, *, min_score: int, field: str = "password") -> None:
    """Raise WeakPassword (400 `weak_password`, `field` named in the details) for a refused password.

    Rating takes up to ~60 ms of CPU for a long password: it runs off the event loop."""
    reason = await asyncio.to_thread(weakness, password, context, min_score=min_score)
    if reason is not None:
        raise WeakPassword(reason, field)
