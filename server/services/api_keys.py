"""API keys for scripts: made by an admin with a role and an optional expiry, listed without
their secret, revoked at once; and the check of a presented secret.

The secret is returned once, by `create_key`; the database keeps its SHA-256 hash
(server.auth.api_keys). A revoked or expired key is refused on its next request.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..auth import api_keys as secrets_of_keys
from ..auth.tokens import STAFF_ROLES
from ..errors import ApiError, NotFound, Unauthorized
from ..models import ApiKey, User, new_id
from .paging import Page, PageQuery, paginate

# "Last used" moves at most this often (saves a write per request of a busy script).
LAST_USED_RESOLUTION = timedelta(minutes=1)


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
    role: str
    created_by: str | None


async def _creator_email(db: AsyncSession, user_id: str | None) -> str | None:
    if user_id is None:
        return None
    return (await db.execute(select(User.email).where(User.id == user_id))).scalar_one_or_none()


async def create_key(
    db: AsyncSession, *, name: str, role: str, expires_at: datetime | None, created_by: str | None
) -> CreatedKey:
    """A new key; its secret is in the answer and nowhere else. Commits."""
    if any(ord(c) < 32 for c in name):
        message = "name must not contain control characters"
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
    """Revoke a key (a second time changes nothing). Commits."""
    key = await db.get(ApiKey, key_id)
    if key is None:
        raise ApiKeyNotFound()
    if key.revoked_at is None:
        key.revoked_at = clock.now()
        await db.commit()
    return KeyView(key, await _creator_email(db, key.created_by))


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
    await db.execute(
        update(ApiKey)
        .where(ApiKey.id == key.id, or_(ApiKey.last_used.is_(None), ApiKey.last_used < now - LAST_USED_RESOLUTION))
        .values(last_used=now)
    )
    await db.commit()
    return KeyHolder(key.id, key.name, key.prefix, key.role, key.created_by)


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
