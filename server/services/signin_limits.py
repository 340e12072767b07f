"""Who may try a password now: failures hold back the client that fails, not the account.

A budget per account alone let anyone lock any account: eleven wrong passwords made the right
one wait 15 minutes (issue 26 §7). The budgets now (server/settings.py, `TOUCHLINE_LOGIN_*`):

- every attempt per client address (`signin-address`, shared with federated sign-in);
- failures per client address, across accounts (`signin-address-failures`): one client spraying
  guesses over many accounts;
- failures per (account, client address) (`signin-client-failures`): one client guessing one
  account; a success from that client clears them;
- failures per account from every client (`signin-failures`), far higher: a guesser spread over
  many addresses. Past it only a *known device* (a device id already registered to the account)
  may try; any other client gets 429 with Retry-After until the failures decay, or the owner
  resets the password (which clears them);
- failures that claimed a known device, per account (`signin-known-device-failures`), as large:
  on the web a device id is the browser's user agent, which a guesser can copy, so claiming one
  buys a second budget of that size, not unlimited guesses.

So the right password from a client that has not been failing, or from a known device while
the account is under a spread-out attack, still signs in. Staff sign in the same way
(`touchline login` registers its device like any other). Every check happens before the
password hash is spent; failures are counted after it.
"""

import contextlib
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from ..models import Device, User
from ..settings import Settings
from . import ratelimit
from .ratelimit import Limit, TooManyRequests


@dataclass(frozen=True)
class SigninLimits:
    by_address: Limit
    address_failures: Limit
    client_failures: Limit
    account_failures: Limit
    known_device_failures: Limit

    @classmethod
    def of(cls, settings: Settings) -> "SigninLimits":
        by_address, account_failures = ratelimit.signin_limits(settings)
        return cls(
            by_address=by_address,
            address_failures=Limit(
                "signin-address-failures", settings.login_failures_per_address, settings.login_address_failure_window
            ),
            client_failures=Limit(
                "signin-client-failures", settings.login_failures_per_client, settings.login_client_failure_window
            ),
            account_failures=account_failures,
            known_device_failures=Limit(
                "signin-known-device-failures", settings.login_failures_per_account, settings.login_failure_window
            ),
        )


def _client(email: str, address: str) -> str:
    return f"{email}|{address}"


async def is_known_device(db: AsyncSession, user_id: str, device_id: str) -> bool:
    found = await db.execute(select(Device.id).where(Device.user_id == user_id, Device.device_id == device_id))
    return found.first() is not None


async def before_password(
    db: AsyncSession, limits: SigninLimits, *, email: str, address: str, user_id: str | None, device_id: str
) -> bool:
    """Raise TooManyRequests when this client may not try a password for `email` now; counts
    nothing. Returns whether the device is one of the account's (for `after_failure`)."""
    await ratelimit.check(db, limits.address_failures, address)
    await ratelimit.check(db, limits.client_failures, _client(email, address))
    # Asked for unknown accounts too: the same queries whether or not the address has an account.
    known = await is_known_device(db, user_id or "", device_id) and user_id is not None
    try:
        await ratelimit.check(db, limits.known_device_failures if known else limits.account_failures, email)
    except TooManyRequests as refused:
        wait = refused.headers.get("Retry-After", "")
        raise TooManyRequests(
            "Too many failed sign-ins for this account: sign in from a device you used before, reset "
            f"your password, or try again in {wait} seconds",
            headers=refused.headers,
        ) from None
    return known


async def after_failure(db: AsyncSession, limits: SigninLimits, *, email: str, address: str, known: bool) -> None:
    """Count a wrong password (or unknown account); commits. This attempt still gets its 401:
    the next one is refused before hashing."""
    counted = [
        (limits.address_failures, address),
        (limits.client_failures, _client(email, address)),
        (limits.known_device_failures if known else limits.account_failures, email),
    ]
    for limit, subject in counted:
        with contextlib.suppress(TooManyRequests):
            await ratelimit.hit(db, limit, subject, commit=False)
    await db.commit()


async def after_success(db: AsyncSession, limits: SigninLimits, *, email: str, address: str) -> None:
    """The client proved itself: its failures on this account no longer hold it back. The
    account's failures from everyone stay (an attack on it may go on); the caller commits."""
    await ratelimit.forget(db, limits.client_failures, _client(email, address))


async def forget_client_after_reset(db: AsyncSession, settings: Settings, user_id: str, address: str) -> None:
    """The owner reset the password from `address`: that client's failures on the account no
    longer hold it back (the reset cleared the account's own with `forget_account`); commits."""
    email = await db.scalar(select(User.email).where(User.id == user_id))
    if email:
        await ratelimit.forget(db, SigninLimits.of(settings).client_failures, _client(email, address))
        await db.commit()


async def forget_account(db: AsyncSession, settings: Settings, email: str) -> None:
    """The owner proved themselves (a password reset): failures from everywhere no longer hold
    the account back; the caller commits."""
    limits = SigninLimits.of(settings)
    await ratelimit.forget(db, limits.account_failures, email)
    await ratelimit.forget(db, limits.known_device_failures, email)
