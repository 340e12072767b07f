"""What one client may send to POST /analytics/events, which anyone may call.

Unbounded, sixty anonymous batches grew the database by 60 MB in under a second (issue 26 §4).
Two bounds hold now, both after the batch is known to be valid:

- sizes: the contract's schema bounds counts and lengths (50 events, 20 properties, names of up
  to 40 characters, texts of up to 500); here each event and the whole batch are bounded in bytes
  as compact JSON in UTF-8 (TOUCHLINE_ANALYTICS_MAX_EVENT_BYTES, ..._MAX_BATCH_BYTES), and a
  batch, which one browser sends, carries at most MAX_ANONYMOUS_IDS anonymous ids;
- a budget of batches per window (server.services.ratelimit: shared by every process, 429 with
  Retry-After), counted per client address and per sender: the signed-in viewer, else each
  anonymous id the batch carries. The address budget is the one an attacker cannot walk around
  (anonymous ids are the client's own choice), so it is the larger, for viewers behind one NAT;
  an IPv6 address counts by its /64, which one subscriber usually holds whole.
"""

import ipaddress
import json
from collections.abc import Sequence

from sqlalchemy.ext.asyncio import AsyncSession

from ..errors import ApiError
from ..settings import Settings
from . import ratelimit

# A browser's batch holds its one id, or two around a sign-out (which starts a new id).
MAX_ANONYMOUS_IDS = 4


def _invalid(message: str) -> ApiError:
    return ApiError(message, code="validation_error")


def serialized_size(value: object) -> int:
    """Bytes of `value` as compact JSON in UTF-8 (a lone surrogate counts as its escape)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return len(text.encode("utf-8", "backslashreplace"))


def check_sizes(events: Sequence[dict], settings: Settings) -> None:
    """Refuse (400 validation_error) an event or a batch larger than the settings allow, and a
    batch of more anonymous ids than one browser has."""
    total = 0
    for raw in events:
        size = serialized_size(raw)
        if size > settings.analytics_max_event_bytes:
            raise _invalid(f"an event takes at most {settings.analytics_max_event_bytes} bytes as JSON")
        total += size
    if total > settings.analytics_max_batch_bytes:
        raise _invalid(f"a batch's events take at most {settings.analytics_max_batch_bytes} bytes as JSON")
    if len({raw["anonymousId"] for raw in events}) > MAX_ANONYMOUS_IDS:
        raise _invalid(f"a batch carries at most {MAX_ANONYMOUS_IDS} anonymous ids")


def budgets(settings: Settings) -> tuple[ratelimit.Limit, ratelimit.Limit]:
    """(batches per client address, batches per sender)."""
    window = settings.analytics_batch_window
    return (
        ratelimit.Limit("analytics-address", settings.analytics_batches_per_address, window),
        ratelimit.Limit("analytics-sender", settings.analytics_batches_per_sender, window),
    )


def address_subject(address: str | None) -> str:
    """The budget's key for a client address: an IPv6 address by its /64 network."""
    if not address:
        return "unknown"
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address  # not an IP (a test transport, a Unix socket): counted as it is
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, 64), strict=False))
    return str(parsed)


def senders(events: Sequence[dict], user_id: str | None) -> list[str]:
    """Whose budget a batch spends besides its address's: the viewer's, else each anonymous id's."""
    if user_id is not None:
        return [f"user:{user_id}"]
    return sorted({f"anonymous:{raw['anonymousId']}" for raw in events})


async def charge(
    db: AsyncSession, settings: Settings, events: Sequence[dict], *, address: str | None, user_id: str | None
) -> None:
    """Count the batch against its budgets, or raise TooManyRequests (429 with Retry-After).

    The caller commits (with the events it stores): a refused batch counts nowhere."""
    by_address, by_sender = budgets(settings)
    await ratelimit.hit(db, by_address, address_subject(address), commit=False)
    for sender in senders(events, user_id):
        await ratelimit.hit(db, by_sender, sender, commit=False)
