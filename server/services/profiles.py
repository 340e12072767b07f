"""The viewer's own profile: personal fields, favourite categories and clubs, settings and survey
progress."""

from datetime import date

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..errors import ApiError, NotFound, Unauthorized
from ..models import Identity, Team, User
from ..text_rules import control_message, has_control_characters
from .account_lock import lock_account

# Wire name -> column of the free-text fields; blank text is stored as "not given" (null).
TEXT_FIELDS = {"countryName": "country_name", "phone": "phone", "postalCode": "postal_code", "city": "city"}
# `options` holds the viewer's settings under these names (their type), and survey records under
# any other name.
SETTINGS = {"spoilerFree": bool, "liveAlertMail": bool}
# The contract caps `options` at 20 survey records besides the settings; the stored map keeps the
# same cap so the profile always fits its schema.
MAX_SURVEY_RECORDS = 20
MAX_SURVEY_KEY_LENGTH = 64


def _invalid(message: str, field: str | None = None) -> ApiError:
    details = [{"field": field, "message": message}] if field else None
    return ApiError(message, code="validation_error", details=details)


async def get_profile(db: AsyncSession, user_id: str) -> User:
    user = await db.scalar(select(User).where(User.id == user_id, User.deleted_at.is_(None)))
    if user is None:
        raise Unauthorized("Your session has ended, please sign in again")
    return user


async def update_profile(db: AsyncSession, user_id: str, changes: dict) -> User:
    """Applies any subset of the profile fields and survey records, then commits.

    `db` comes from `Database.write_session()`; the account lock keeps two concurrent updates
    of different survey records from losing one of them."""
    user = await lock_account(db, user_id)
    await apply_profile(db, user, changes)
    await db.commit()
    return user


async def apply_profile(db: AsyncSession, user: User, changes: dict) -> None:
    """Check and set the fields of `changes` on `user` without committing (a sign-up checks a
    would-be account this way before it knows whether the address is free)."""
    if "displayName" in changes:
        user.display_name = _display_name(changes["displayName"])
    for field, column in TEXT_FIELDS.items():
        if field in changes:
            setattr(user, column, _text(field, changes[field]))
    if "gender" in changes:
        user.gender = changes["gender"]
    if "dateOfBirth" in changes:
        user.date_of_birth = _date_of_birth(changes["dateOfBirth"])
    if "identity" in changes:
        user.identity_id = await _identity(db, changes["identity"], "identity")
    if "identityItem" in changes:
        user.identity_item_id = await _identity(db, changes["identityItem"], "identity_item")
    if "clubList" in changes:
        user.club_list = await _club_list(db, changes["clubList"])
    if "options" in changes:
        user.options = _merged_options(user.options or {}, changes["options"])


def _text(field: str, value: str | None) -> str | None:
    """Trimmed text, null when blank. Control characters are refused (server/text_rules.py)."""
    text = (value or "").strip()
    if has_control_characters(text):
        raise _invalid(control_message(field), field)
    return text or None


def _display_name(value: str) -> str:
    name = _text("displayName", value)
    if not name:
        raise _invalid("displayName must not be blank", "displayName")
    return name


def _date_of_birth(value: str | None) -> date | None:
    if value is None:
        return None
    try:
        born = date.fromisoformat(value)
    except ValueError:
        raise _invalid("dateOfBirth must be a date (YYYY-MM-DD)") from None
    if born > clock.now().date():
        raise _invalid("dateOfBirth must not be in the future")
    return born


async def _identity(db: AsyncSession, ident: str | None, media_type: str) -> str | None:
    """`identity` must name a main category and `identityItem` a sub-category."""
    if ident is None:
        return None
    found = await db.scalar(select(Identity.id).where(Identity.id == ident, Identity.media_type == media_type))
    if found is None:
        raise NotFound("Identity not found", code="identity_not_found")
    return ident


async def _club_list(db: AsyncSession, clubs: list[str]) -> list[str]:
    """Every `{type}|{id}` entry must name an existing item of that type (the contract checks the form)."""
    wanted = [tuple(club.split("|", 1)) for club in clubs]
    team_ids = {ident for kind, ident in wanted if kind == "team"}
    identity_ids = {ident for kind, ident in wanted if kind != "team"}
    known: set[tuple[str, str]] = set()
    if team_ids:
        known |= {("team", ident) for ident in await db.scalars(select(Team.id).where(Team.id.in_(team_ids)))}
    if identity_ids:
        rows = await db.execute(select(Identity.media_type, Identity.id).where(Identity.id.in_(identity_ids)))
        known |= {(kind, ident) for kind, ident in rows}
    for kind, ident in wanted:
        if (kind, ident) not in known:
            raise NotFound(f"Club not found: {kind}|{ident}", code="identity_not_found")
    return list(clubs)


def _merged_options(current: dict, entries: dict) -> dict:
    """Settings and survey records replace those with the same key; the others stay."""
    for key, value in entries.items():
        if key in SETTINGS:
            if not isinstance(value, SETTINGS[key]):
                raise _invalid(f"options.{key} must be a {SETTINGS[key].__name__}", f"options.{key}")
            continue
        if not _text("options", key) or len(key) > MAX_SURVEY_KEY_LENGTH:
            raise _invalid(f"options keys are survey names of 1 to {MAX_SURVEY_KEY_LENGTH} characters")
        # The contract lets any entry be a boolean only so its client type can hold a setting.
        if not isinstance(value, dict):
            raise _invalid(f"options.{key} must be a survey record", f"options.{key}")
        _text("surveyName", value["surveyName"])
    merged = {**current, **entries}
    if sum(key not in SETTINGS for key in merged) > MAX_SURVEY_RECORDS:
        raise _invalid(f"options holds at most {MAX_SURVEY_RECORDS} survey records")
    return merged
