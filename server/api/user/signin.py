"""Sign-up, sign-in (with the device limit and its ticket), sign-out and devices."""

from ...auth import password_rules
from ...auth.tokens import verify_limit_ticket
from ...errors import Unauthorized
from ...realtime import emitter
from ...realtime.announcements import announce_sessions_ended
from ...services import accounts, ratelimit, sessions, signin_limits, signup
from ...services.sessions import DeviceIn
from ..http.background import deliver_mail, ok_then
from ..http.context import client_address, passwords, session_policy, settings, signed_in
from ..http.database import db_session, db_write_session
from ..http.envelope import ok
from ..presenters.account import device as present_device
from ..presenters.account import login_response

CREDENTIALS = "credentials"
REGISTRATION_PROFILE_FIELDS = (
    "countryName",
    "phone",
    "postalCode",
    "city",
    "gender",
    "dateOfBirth",
    "identity",
    "identityItem",
    "clubList",
)


def _limits():
    return ratelimit.signin_limits(settings())


def _device(body: dict) -> DeviceIn:
    return DeviceIn(device_id=body["device_id"], device_name=body["device_name"])


def _invalid_credentials() -> Unauthorized:
    return Unauthorized("Wrong username or password", code="invalid_credentials")


async def register_user(body: dict):
    """The same answer (202 `verification_sent`) and the same work whether or not the address has
    an account: a password hash and one mail (a verification link, or a note to the owner)."""
    email = body["email"].strip().lower()
    by_address, _ = _limits()
    async with db_session() as db:
        await ratelimit.hit(db, by_address, client_address() or "unknown")
    # Before anything depends on whether the address is taken: this refusal tells nothing.
    await password_rules.refuse_weak(
        body["password"],
        password_rules.PasswordContext(email, body["displayName"]),
        min_score=settings().password_min_score,
    )
    password_hash = await passwords().hash(body["password"])
    # displayName and the optional profile fields go through the profile rules (trimming,
    # control characters, references, dates), for a taken address as for a new one.
    profile = {key: body[key] for key in ("displayName", *REGISTRATION_PROFILE_FIELDS) if key in body}
    current = settings()
    async with db_write_session() as db:
        outbox = await signup.register(
            db, current, email=email, password_hash=password_hash, display_name=body["displayName"], profile=profile
        )
    signup.drop(current, outbox)
    answer = ok_then({"status": "verification_sent"}, deliver_mail(outbox))
    answer.status_code = 202
    return answer


async def login_user(body: dict):
    email = body["username"].strip().lower()
    address = client_address() or "unknown"
    limits = signin_limits.SigninLimits.of(settings())
    async with db_session() as db:
        await ratelimit.hit(db, limits.by_address, address)
        user = await accounts.find_for_sign_in(db, email)
        # Failures hold back the client that made them; past the account's own budget, only
        # its known devices (server/services/signin_limits.py).
        known = await signin_limits.before_password(
            db, limits, email=email, address=address, user_id=user.id if user else None, device_id=body["device_id"]
        )
    # Unknown users are verified against a dummy hash: the same time and the same answer.
    verified = await passwords().verify(user.password_hash if user else None, body["password"])
    if user is None or not verified:
        async with db_session() as db:
            await signin_limits.after_failure(db, limits, email=email, address=address, known=known)
        raise _invalid_credentials()
    if user.email_verified_at is None:  # never a password before confirmation; stay safe anyway
        raise _invalid_credentials()
    async with db_write_session() as db:
        await signin_limits.after_success(db, limits, email=email, address=address)
        result = await sessions.sign_in(
            db, user.id, _device(body), policy=session_policy(), provider=CREDENTIALS, client_address=client_address()
        )
    return login_response(result)


async def complete_login(body: dict):
    claims = verify_limit_ticket(body["limit_ticket"], secret=settings().secret_key)
    if claims is None:
        raise sessions.LimitTicketInvalid()
    by_address, _ = _limits()
    async with db_session() as db:
        await ratelimit.hit(db, by_address, client_address() or "unknown")
    async with db_write_session() as db:
        result = await sessions.complete_with_ticket(
            db,
            claims.ticket_id,
            claims.user_id,
            _device(body),
            policy=session_policy(),
            client_address=client_address(),
        )
    return login_response(result)


async def logout_user():
    principal = await signed_in()
    async with db_session() as db:
        ended = await sessions.sign_out(db, principal.session_id)
    await announce_sessions_ended(ended)  # its streams and sockets end now, not with its token
    return ok(None)


async def check_current_device(body: dict):
    principal = await signed_in()
    register = body.get("register_new") == "register"
    async with db_write_session() as db:
        enabled, devices = await sessions.check_device(
            db, principal.user_id, _device(body), register=register, policy=session_policy()
        )
    return ok({"devices": [present_device(d) for d in devices], "enabled": enabled, "limit": settings().device_limit})


async def get_devices():
    principal = await signed_in()
    async with db_session() as db:
        devices = await sessions.list_devices(db, principal.user_id)
    return ok({"devices": [present_device(d) for d in devices], "limit": settings().device_limit})


async def delete_device(body: dict):
    # The device-limit page sends its limit ticket as the bearer token instead of an access token.
    principal = await signed_in(allow_limit_ticket=True)
    async with db_write_session() as db:
        removed, devices, ended = await sessions.remove_own_device(db, principal.user_id, body["deviceId"])
    await emitter.emit_remove_user_device(principal.user_id, removed.device_id)
    await announce_sessions_ended(ended)  # after telling the device: its sockets then close
    return ok({"devices": [present_device(d) for d in devices], "limit": settings().device_limit})
