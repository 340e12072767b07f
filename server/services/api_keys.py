"""API keys for scripts: made by an admin with a role and an optional expiry, listed without
their secret, revoked at once; and the check of a presented secret.

The secret is returned once, by `create_key`; the database keeps its SHA-256 hash
(server.auth.api_keys). A revoked or expired key is refused on its next request.

A key acts for the account that made it, never above it: its effective role is the lowest of its
own role, its maker's current role and, for a key made by a key, that key's effective role (the
whole chain, read from the database on every use: nothing is cached, so a demotion, a deletion
or a revocation counts at once in every process). A maker who is no longer staff, or deleted,
leaves the key without a role; a key whose maker key is revoked or expired is refused; revoking a
key also revokes the keys it made, and theirs.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..auth import api_keys as secrets_of_keys
from ..auth.tokens import ROLES, STAFF_ROLES
from ..errors import ApiError, NotFound, Unauthorized
from ..models import ApiKey, User, new_id
from ..text_rules import control_message, has_control_characters
from .paging import Page, PageQuery, paginate

# "Last used" moves at most this often (saves a write per request of a busy script).
LAST_USED_RESOLUTION = timedelta(minutes=1)
# Keys made by keys are followed up this many makers at most (a longer chain is refused).
MAX_CHAIN = 16


class ApiKeyNotFound(NotFound):
    code = "api_key_not_found"

    def __init__(self) -> None:
        super().__init__("API key not found")


@dataclass(frozen=True)
class KeyView:
    key: ApiKey
    created_by_email: str | None

    @property
    def status(self) -> str:
        if self.key.revoked_at is not None:
            return "revoked"
        if self.key.expires_at is not None and self.key.expires_at <= clock.now():
            return "expired"
        return "active"


@dataclass(frozen=True)
class CreatedKey:
    view: KeyView
    secret: str


@dataclass(frozen=True)
class KeyHolder:
    """Who a valid key acts for: the key, its role and the account that made it."""

    key_id: str
    name: str
    prefix: str
    role: str  # the effective role: capped by the makers' (`viewer` when a maker is no longer staff)
    created_by: str | None


async def _creator_email(db: AsyncSession, user_id: str | None) -> str | None:
    if user_id is None:
        return None
    return (await db.execute(select(User.email).where(User.id == user_id))).scalar_one_or_none()


async def create_key(
    db: AsyncSession,
    *,
    name: str,
    role: str,
    expires_at: datetime | None,
    created_by: str | None,
    created_by_key: str | None = None,
) -> CreatedKey:
    """A new key; its secret is in the answer and nowhere else. `created_by_key`: the key that
    asked, when one did (the new key is capped by it and revoked with it). Commits."""
    if has_control_characters(name):
        message = control_message("name")
        raise ApiError(message, code="validation_error", details=[{"field": "name", "message": message}])
    if role not in STAFF_ROLES:
        raise ApiError(f"role must be one of {', '.join(STAFF_ROLES)}", code="validation_error")
    # An expiry already past makes a key that is refused from the start (as access codes do).
    now = clock.now()
    secret = secrets_of_keys.new_secret()
    key = ApiKey(
        id=new_id(),
        name=name,
        role=role,
        prefix=secrets_of_keys.prefix_of(secret),
        secret_hash=secrets_of_keys.hash_secret(secret),
        created_by=created_by,
        created_by_key=created_by_key,
        created=now,
        expires_at=expires_at,
    )
    db.add(key)
    await db.commit()
    return CreatedKey(KeyView(key, await _creator_email(db, created_by)), secret)


async def list_keys(db: AsyncSession, *, include_revoked: bool, query: PageQuery) -> Page[KeyView]:
    """Keys, newest first (without their secret, which is not stored)."""
    stmt = select(ApiKey, User.email).outerjoin(User, User.id == ApiKey.created_by)
    if not include_revoked:
        stmt = stmt.where(ApiKey.revoked_at.is_(None))
    stmt = stmt.order_by(ApiKey.created.desc(), ApiKey.id.desc())
    page = await paginate(db, stmt, query, scalars=False)
    return Page([KeyView(key, email) for key, email in page.entries], page.query, page.total, page.next_exists)


async def revoke_key(db: AsyncSession, key_id: str) -> KeyView:
    """Revoke a key and every key it made, theirs included (a second time changes nothing).
    Commits."""
    key = await db.get(ApiKey, key_id)
    if key is None:
        raise ApiKeyNotFound()
    now = clock.now()
    if key.revoked_at is None:
        key.revoked_at = now
    await _revoke_made_by(db, key.id, now)
    await db.commit()
    return KeyView(key, await _creator_email(db, key.created_by))


async def _revoke_made_by(db: AsyncSession, key_id: str, now: datetime) -> None:
    """Revoke the keys made by `key_id`, and by those, down the whole tree (the caller commits)."""
    seen, makers = {key_id}, [key_id]
    while makers:
        made = [
            k for k in (await db.scalars(select(ApiKey.id).where(ApiKey.created_by_key.in_(makers)))) if k not in seen
        ]
        if made:
            await db.execute(
                update(ApiKey).where(ApiKey.id.in_(made), ApiKey.revoked_at.is_(None)).values(revoked_at=now)
            )
        seen.update(made)
        makers = made


def _lower(role: str, other: str | None) -> str:
    """The lower of two roles (anything unknown counts as `viewer`)."""
    if role not in ROLES or other not in ROLES:
        return "viewer"
    return ROLES[min(ROLES.index(role), ROLES.index(other))]


async def _effective_role(db: AsyncSession, key: ApiKey, now: datetime) -> str:
    """`key`'s role capped by each maker up the chain: the accounts' current roles, the maker keys'
    own roles. Raises 401 when an account of the chain is gone or a maker key no longer works."""
    role, current, depth = key.role, key, 0
    while True:
        maker = (
            (await db.execute(select(User.role, User.deleted_at).where(User.id == current.created_by))).first()
            if current.created_by is not None
            else None
        )
        if maker is None or maker.deleted_at is not None:
            raise Unauthorized("This API key's account no longer exists", code="api_key_revoked")
        role = _lower(role, maker.role)
        if current.created_by_key is None:
            return role
        depth += 1
        parent = await db.get(ApiKey, current.created_by_key) if depth <= MAX_CHAIN else None
        if parent is None or parent.revoked_at is not None:
            raise Unauthorized("The API key that made this one was revoked", code="api_key_revoked")
        if parent.expires_at is not None and parent.expires_at <= now:
            raise Unauthorized("The API key that made this one has expired", code="api_key_expired")
        role, current = _lower(role, parent.role), parent


async def authenticate(db: AsyncSession, secret: str) -> KeyHolder:
    """The holder of a presented secret, or 401: unknown, revoked (`api_key_revoked`) or
    expired (`api_key_expired`). Records its use (at most once a minute). Commits."""
    if not secrets_of_keys.looks_like_key(secret):
        raise Unauthorized("Provided API key is not valid")
    candidates = (
        (await db.execute(select(ApiKey).where(ApiKey.prefix == secrets_of_keys.prefix_of(secret)))).scalars().all()
    )
    key = next((k for k in candidates if secrets_of_keys.matches(secret, k.secret_hash)), None)
    if key is None:
        raise Unauthorized("Provided API key is not valid")
    now = clock.now()
    if key.revoked_at is not None:
        raise Unauthorized("This API key was revoked", code="api_key_revoked")
    if key.expires_at is not None and key.expires_at <= now:
        raise Unauthorized("This API key has expired", code="api_key_expired")
    role = await _effective_role(db, key, now)
    await db.execute(
        update(ApiKey)
        .where(ApiKey.id == key.id, or_(ApiKey.last_used.is_(None), ApiKey.last_used < now - LAST_USED_RESOLUTION))
        .values(last_used=now)
    )
    await db.commit()
    return KeyHolder(key.id, key.name, key.prefix, role, key.created_by)


__all__ = [
    "ApiKeyNotFound",
    "CreatedKey",
    "KeyHolder",
    "KeyView",
    "authenticate",
    "create_key",
    "list_keys",
    "revoke_key",
]
