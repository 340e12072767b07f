"""Access codes: staff issue them in batches, each granting a product; viewers redeem them.

- A code is `prefix` + 12 random symbols from a 32-symbol alphabet without look-alike characters
  (60 bits from `secrets`), handed out in groups of four: `DERBY-7KQ4-M2XP-9HTW`. It is stored
  normalised (upper case, no spaces or dashes) under a unique index, which is what redemption
  matches, so viewers may type it in any case, with or without the dashes.
- A code may be redeemed by `uses` accounts, once each, until `expires_at`, unless revoked.
- Redemption is atomic: one conditional UPDATE takes a use
  (`redeemed_count < uses AND revoked_at IS NULL AND not expired`) and the redemption row
  (unique per code and account) and the grant are written in the same transaction, so however
  many redeem a single-use code at once, exactly one succeeds, on SQLite and PostgreSQL alike.
- A pay-per-view code creates a purchase (`redeemAccessCode`, price 0); a subscription or bundle
  code creates a contract that never renews. A viewer who already holds the product is refused
  before a use is taken.
- Revoking stops further redemptions; what was granted stays granted.
"""

import re
import secrets
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import ColumnElement, and_, insert, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from ... import clock
from ...db import Database, referenced, rows_changed
from ...errors import ApiError, Conflict, NotFound
from ...models import AccessCode, AccessCodeRedemption, Contract, Product, Purchase, new_id
from ...settings import Settings
from ..paging import Page, PageQuery, paginate
from ..ratelimit import Limit
from . import grants, products

# 32 symbols: digits and capitals without 0/O, 1/I (and so 5 bits a symbol).
ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
SYMBOLS = 12  # 60 bits
GROUP = 4
MAX_BATCH = 10_000
MAX_USES = 100_000
PREFIX = re.compile(r"[A-Z0-9]{0,12}")
IGNORED = re.compile(r"[\s-]+")
CODE_TEXT = re.compile(r"[A-Z0-9]{1,80}")
STATUSES = ("active", "used", "expired", "revoked")
ISSUE_ATTEMPTS = 3  # a batch is drawn again when a code collides (never expected: 60 bits)


class AccessCodeNotFound(NotFound):
    code = "access_code_not_found"


class AccessCodeExpired(ApiError):
    status = 410
    code = "access_code_expired"


class AlreadyRedeemed(Conflict):
    code = "already_redeemed"


def _not_found() -> AccessCodeNotFound:
    return AccessCodeNotFound("This code does not exist")


def _already_redeemed() -> AlreadyRedeemed:
    return AlreadyRedeemed("This code has already been redeemed")


def _expired() -> AccessCodeExpired:
    return AccessCodeExpired("This code has expired")


def _invalid(field: str, message: str) -> ApiError:
    return ApiError(message, code="validation_error", details=[{"field": field, "message": message}])


def redemption_limit(settings: Settings) -> Limit:
    """Redemption attempts per account (every attempt counts, so codes cannot be guessed)."""
    return Limit("access-code-redeem", settings.access_code_attempts, settings.access_code_window)


def normalise(text: str) -> str:
    """What redemption and the code filter match: upper case, without spaces and dashes."""
    return IGNORED.sub("", text).upper()


def new_code(prefix: str = "") -> tuple[str, str]:
    """(normalised code, code as handed out) with 60 random bits after `prefix`."""
    bits = secrets.randbits(5 * SYMBOLS)
    body = "".join(ALPHABET[(bits >> (5 * i)) & 31] for i in range(SYMBOLS))
    groups = [body[i : i + GROUP] for i in range(0, SYMBOLS, GROUP)]
    return prefix + body, "-".join(([prefix] if prefix else []) + groups)


def status_of(code: AccessCode, now: datetime) -> str:
    """revoked, else used (every use taken), else expired, else active."""
    if code.revoked_at is not None:
        return "revoked"
    if code.redeemed_count >= code.uses:
        return "used"
    if code.expires_at is not None and code.expires_at <= now:
        return "expired"
    return "active"


def _status_filter(status: str, now: datetime) -> ColumnElement[bool]:
    live = AccessCode.revoked_at.is_(None)
    left = AccessCode.redeemed_count < AccessCode.uses
    expired = and_(AccessCode.expires_at.is_not(None), AccessCode.expires_at <= now)
    return {
        "revoked": AccessCode.revoked_at.is_not(None),
        "used": and_(live, AccessCode.redeemed_count >= AccessCode.uses),
        "expired": and_(live, left, expired),
        "active": and_(live, left, or_(AccessCode.expires_at.is_(None), AccessCode.expires_at > now)),
    }[status]


def _utc(value: datetime | None) -> datetime | None:
    """In UTC; a time without an offset is taken as UTC."""
    if value is None:
        return None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


# --- issuing -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Batch:
    batch_id: str
    product_id: str
    uses: int
    expires_at: datetime | None
    codes: list[str]  # as handed out, in the order issued


async def _product_for(db: AsyncSession, product_id: str | None, event_id: str | None) -> Product:
    if (product_id is None) == (event_id is None):
        raise _invalid("product_id", "Give either product_id or event_id (exactly one of them)")
    if product_id is not None:
        return await products.get_product(db, product_id)
    product = (
        await db.execute(
            select(Product)
            .where(Product.type == "ppv", Product.event_id == event_id)
            .order_by(Product.on_sale.desc(), Product.created.desc(), Product.id)
            .limit(1)
        )
    ).scalar_one_or_none()
    if product is None:
        raise products.ProductNotFound("This event has no pay-per-view product")
    return product


async def issue(
    database: Database,
    *,
    count: int,
    product_id: str | None = None,
    event_id: str | None = None,
    uses: int = 1,
    expires_at: datetime | None = None,
    prefix: str | None = None,
    issued_by: str | None = None,
) -> Batch:
    """A batch of `count` codes granting `product_id` (or `event_id`'s pay-per-view product)."""
    prefix = prefix or ""
    expires_at = _utc(expires_at)
    now = clock.now()
    if not 1 <= count <= MAX_BATCH:
        raise _invalid("count", f"count must be between 1 and {MAX_BATCH}")
    if not 1 <= uses <= MAX_USES:
        raise _invalid("uses", f"uses must be between 1 and {MAX_USES}")
    if not PREFIX.fullmatch(prefix):
        raise _invalid("prefix", "prefix must be at most 12 capital letters and digits")
    if expires_at is not None and expires_at <= now:
        raise _invalid("expires_at", "expires_at must be in the future")
    batch_id = new_id()
    for attempt in range(1, ISSUE_ATTEMPTS + 1):
        async with database.write_session() as db:  # reads the product, then writes
            product = await _product_for(db, product_id, event_id)
            granted = product.id
            drawn: dict[str, str] = {}
            while len(drawn) < count:
                code, display = new_code(prefix)
                drawn[code] = display
            rows = [
                {
                    "id": new_id(),
                    "code": code,
                    "display_code": display,
                    "batch_id": batch_id,
                    "product_id": granted,
                    "uses": uses,
                    "redeemed_count": 0,
                    "expires_at": expires_at,
                    "revoked_at": None,
                    "created_by": issued_by,
                    "created": now,
                }
                for code, display in drawn.items()
            ]
            try:
                await db.execute(insert(AccessCode), rows)  # one multi-row INSERT per 1000 codes
                await db.commit()
            except IntegrityError:
                # A code that exists already (or the product went away): draw the batch again.
                await db.rollback()
                if attempt == ISSUE_ATTEMPTS:
                    raise
                continue
        return Batch(batch_id, granted, uses, expires_at, list(drawn.values()))
    raise AssertionError("unreachable")


# --- redeeming -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Redemption:
    code: str  # as handed out
    redeemed_at: datetime
    product: products.ProductView
    purchase: Purchase | None
    contract: Contract | None


def _refuse(code: AccessCode, now: datetime) -> None:
    status = status_of(code, now)
    if status == "revoked":
        raise _not_found()
    if status == "used":
        raise _already_redeemed()
    if status == "expired":
        raise _expired()


async def redeem(database: Database, user_id: str, text: str) -> Redemption:
    """Redeem the code `text` for `user_id` (the caller counts the attempt against the limit)."""
    normalised = normalise(text)
    if not CODE_TEXT.fullmatch(normalised):
        raise _not_found()
    now = clock.now()
    async with database.write_session() as db:
        code = (await db.execute(select(AccessCode).where(AccessCode.code == normalised))).scalar_one_or_none()
        if code is None or code.revoked_at is not None:
            raise _not_found()
        code_id, display = code.id, code.display_code
        # The viewer's own requests queue here, so the checks below stay true until the commit.
        await grants.lock_buyer(db, user_id)
        mine = await db.execute(
            select(AccessCodeRedemption.id).where(
                AccessCodeRedemption.code_id == code_id, AccessCodeRedemption.user_id == user_id
            )
        )
        if mine.first() is not None:
            raise _already_redeemed()
        _refuse(code, now)
        product = await referenced(db, Product, code.product_id)
        await grants.refuse_if_held(db, user_id, product, now)  # before a use is taken

        taken = await db.execute(
            update(AccessCode)
            .where(
                AccessCode.id == code_id,
                AccessCode.redeemed_count < AccessCode.uses,
                AccessCode.revoked_at.is_(None),
                or_(AccessCode.expires_at.is_(None), AccessCode.expires_at > now),
            )
            .values(redeemed_count=AccessCode.redeemed_count + 1)
            .execution_options(synchronize_session=False)
        )
        if rows_changed(taken) != 1:  # someone else took the last use (or it was revoked) meanwhile
            await db.refresh(code)
            _refuse(code, now)
            raise _already_redeemed()
        db.add(AccessCodeRedemption(id=new_id(), code_id=code_id, user_id=user_id, redeemed_at=now))
        try:
            await db.flush()
        except IntegrityError:  # the same account, in a request that slipped past the lock
            await db.rollback()
            raise _already_redeemed() from None

        purchase = contract = None
        if grants.bought_as_contract(product):
            contract = grants.new_contract(product, user_id, now, access_code=display)
            grants.activate_contract(contract, product, now)
            db.add(contract)
        else:
            purchase = grants.new_purchase(
                product, user_id, now, status="success", payment_action="redeemAccessCode", access_code=display
            )
            await grants.complete_purchase(db, purchase, product, now)
            db.add(purchase)
        try:
            await db.flush()
        except IntegrityError:  # a holding contract the checks above did not count as access
            await db.rollback()
            raise Conflict(
                "You already have this product",
                code="already_subscribed" if contract is not None else "already_purchased",
            ) from None
        view = (await products.with_items(db, [product]))[0]
        await db.commit()
    return Redemption(display, now, view, purchase, contract)


# --- staff: listing and revoking -----------------------------------------------------------------


@dataclass(frozen=True)
class CodeView:
    code: AccessCode
    event_id: str | None  # the granted product's event
    redemptions: tuple[AccessCodeRedemption, ...]
    status: str


@dataclass(frozen=True)
class Filters:
    product_id: str | None = None
    event_id: str | None = None
    batch_id: str | None = None
    status: str | None = None
    code: str | None = None  # the code or its beginning, in any case, with or without dashes


async def _views(db: AsyncSession, rows: list[tuple[AccessCode, str | None]], now: datetime) -> list[CodeView]:
    redeemed: dict[str, list[AccessCodeRedemption]] = defaultdict(list)
    if rows:
        found = await db.execute(
            select(AccessCodeRedemption)
            .where(AccessCodeRedemption.code_id.in_([code.id for code, _ in rows]))
            .order_by(AccessCodeRedemption.redeemed_at, AccessCodeRedemption.id)
        )
        for redemption in found.scalars():
            redeemed[redemption.code_id].append(redemption)
    return [CodeView(code, event_id, tuple(redeemed.get(code.id, ())), status_of(code, now)) for code, event_id in rows]


async def list_codes(db: AsyncSession, filters: Filters, query: PageQuery) -> Page[CodeView]:
    """Codes matching every filter given, newest first."""
    now = clock.now()
    statement = select(AccessCode, Product.event_id).join(Product, Product.id == AccessCode.product_id)
    if filters.product_id:
        statement = statement.where(AccessCode.product_id == filters.product_id)
    if filters.event_id:
        statement = statement.where(Product.event_id == filters.event_id)
    if filters.batch_id:
        statement = statement.where(AccessCode.batch_id == filters.batch_id)
    if filters.status:
        if filters.status not in STATUSES:
            raise _invalid("status", f"status is one of {', '.join(STATUSES)}")
        statement = statement.where(_status_filter(filters.status, now))
    if filters.code and normalise(filters.code):
        statement = statement.where(AccessCode.code.startswith(normalise(filters.code), autoescape=True))
    page = await paginate(db, statement.order_by(AccessCode.created.desc(), AccessCode.id.desc()), query, scalars=False)
    page.entries = await _views(db, [tuple(row) for row in page.entries], now)
    return page


async def _code_row(db: AsyncSession, code_id: str) -> tuple[AccessCode, str | None]:
    row = (
        await db.execute(
            select(AccessCode, Product.event_id)
            .join(Product, Product.id == AccessCode.product_id)
            .where(AccessCode.id == code_id)
        )
    ).first()
    if row is None:
        raise AccessCodeNotFound("Access code not found")
    return row[0], row[1]


async def get(db: AsyncSession, code_id: str) -> CodeView:
    """One code with its state and redemptions."""
    code, event_id = await _code_row(db, code_id)
    return (await _views(db, [(code, event_id)], clock.now()))[0]


async def revoke(db: AsyncSession, code_id: str) -> CodeView:
    """Revoke a code (again: nothing changes). Purchases and contracts it gave stay."""
    code, event_id = await _code_row(db, code_id)
    if code.revoked_at is None:
        code.revoked_at = clock.now()
        await db.commit()
    return (await _views(db, [(code, event_id)], clock.now()))[0]
