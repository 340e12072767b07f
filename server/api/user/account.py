"""Password (forgotten, reset, changed), ending other sessions, deleting the account.

Mail goes out after the answer (see server.api.background): the outbox row is committed first.
A forgotten-password request looks the address up only after answering, so the answer and its
timing are the same whether or not an account has that address.
"""

from ...auth import password_rules
from ...realtime import emitter
from ...realtime.announcements import announce_sessions_ended
from ...services import accounts, mail, password_context, password_reset, ratelimit, signin_limits, signup
from ...services.sessions import SessionsEnded
from ...settings import Settings
from ..http.background import Work, ok_then
from ..http.context import client_address, passwords, settings, signed_in, state
from ..http.database import db_session, db_write_session


def _reset_limits(current: Settings) -> tuple[ratelimit.Limit, ratelimit.Limit]:
    by_client = ratelimit.Limit(
        "password-reset-client", current.password_reset_requests_per_address, current.password_reset_address_window
    )
    by_email = ratelimit.Limit(
        "password-reset-email", current.password_reset_requests_per_email, current.password_reset_email_window
    )
    return by_client, by_email


def _client() -> str:
    return client_address() or "unknown"


def _deliver(*mails) -> Work | None:
    """Work that sends the queued ones of `mails` through SMTP."""
    ids = mail.queued_ids(mails)
    if not ids:
        return None
    database, current = state("database"), settings()

    async def deliver() -> None:
        await mail.deliver(database, current, ids)

    return deliver


def _tell_signed_out(user_id: str, devices: list[str]) -> Work | None:
    """Work that tells each device (over the socket) that it lost its session: its client signs out."""
    if not devices:
        return None

    async def tell() -> None:
        for device_id in devices:
            await emitter.emit_remove_user_device(user_id, device_id)

    return tell


def _end_sessions(ended: SessionsEnded) -> Work | None:
    """Work that ends the sessions' streams and sockets (after `_tell_signed_out`: a closed socket
    hears nothing)."""
    if not ended:
        return None

    async def end() -> None:
        await announce_sessions_ended(ended)

    return end


async def forgot_password(body: dict):
    current = settings()
    email = body["email"].strip().lower()
    by_client, by_email = _reset_limits(current)
    async with db_session() as db:
        await ratelimit.hit(db, by_client, _client(), commit=False)
        await ratelimit.hit(db, by_email, email)
    database = state("database")

    async def issue() -> None:
        async with database.session() as db:
            outbox = await password_reset.request_reset(db, current, email)
        if outbox is not None:  # test runs: out-of-process clients read the link from the drop
            signup.drop(current, outbox)
        await mail.deliver(database, current, mail.queued_ids([outbox]))

    return ok_then(None, issue)


async def reset_password(body: dict):
    token = body["token"]
    by_client, _ = _reset_limits(settings())
    async with db_session() as db:
        await ratelimit.hit(db, by_client, _client())
        owner = await password_context.of_reset_token(db, token)
    if owner is None:  # refused before spending a password hash on it
        raise password_reset.InvalidResetToken()
    await password_rules.refuse_weak(body["password"], owner, min_score=settings().password_min_score)
    password_hash = await passwords().hash(body["password"])
    async with db_write_session() as db:
        done = await password_reset.reset_password(db, settings(), token, password_hash)
    async with db_session() as db:
        await signin_limits.forget_client_after_reset(db, settings(), done.user_id, _client())
    return ok_then(
        None,
        _deliver(done.mail),
        _tell_signed_out(done.user_id, done.signed_out_devices),
        _end_sessions(done.ended),
    )


async def change_password(body: dict):
    principal = await signed_in()
    current = settings()
    attempts = ratelimit.Limit("password-change", current.password_change_attempts, current.password_change_window)
    async with db_session() as db:
        await ratelimit.hit(db, attempts, principal.user_id)
        stored = await accounts.password_hash_of(db, principal.user_id)
        owner = await password_context.of_account(db, principal.user_id)
    await password_rules.refuse_weak(
        body["new_password"], owner, min_score=current.password_min_score, field="new_password"
    )
    hasher = passwords()
    # Accounts without a password cost the same time (a dummy hash) and get the same answer.
    verified = await hasher.verify(stored, body["current_password"])
    if stored is None or not verified:  # an account without a password has none to give
        raise accounts.WrongPassword()
    new_hash = await hasher.hash(body["new_password"])
    async with db_write_session() as db:
        done = await accounts.change_password(
            db, current, principal.user_id, principal.session_id, verified_hash=stored, new_hash=new_hash
        )
    return ok_then({"otherSessions": done.other_sessions}, _deliver(done.mail))


async def end_other_sessions():
    principal = await signed_in()
    async with db_write_session() as db:
        ended, devices = await accounts.end_other_sessions(
            db, principal.user_id, principal.session_id, principal.device_ref
        )
    return ok_then(
        {"ended": len(ended.session_ids)}, _tell_signed_out(principal.user_id, devices), _end_sessions(ended)
    )


async def delete_account():
    principal = await signed_in()
    async with db_write_session() as db:
        done = await accounts.delete_account(db, settings(), principal.user_id, keep_device=principal.device_ref)

    async def unregister() -> None:
        await emitter.emit_unregister_user(principal.user_id)

    return ok_then(
        None,
        _deliver(done.mail),
        unregister,
        _tell_signed_out(principal.user_id, done.devices),
        _end_sessions(done.ended),
    )


__all__ = ["change_password", "delete_account", "end_other_sessions", "forgot_password", "reset_password"]
