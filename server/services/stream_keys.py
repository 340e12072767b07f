"""Stream keys of events (issue 28 §2): staff make, rotate and revoke them; nginx-rtmp's
`on_publish` asks whether a key may publish (server/ingest/hooks.py).

An event has at most one key in force. Making a key when one is in force is refused (rotate it
instead): a key is shown once, so an operator who lost it rotates. Each key in force holds an SRT
listener port from TOUCHLINE_SRT_PORTS, freed when it is revoked (the database's unique index
keeps two keys off one port, whatever processes make them at once).

Publishing: a key in force and not expired, of an event that is not archived, with nobody
publishing on it, is accepted and its publisher recorded until `on_publish_done`; a second
publisher on a key that is live is refused, unless staff chose "take over" in the last
TAKE_OVER_SECONDS: then the second encoder is let in and the first dropped (the ingest keeps the
same recording, as for a reconnect). An expired key lets no encoder connect; one that is already
publishing goes on. A revoked key cuts its encoder off (server.ingest.live_inputs asks nginx to drop it).

nginx names a publisher by its stream name: the key itself over RTMP, or the key's bridge name
when the feed comes through the key's SRT listener (server.ingest.srt_listeners); both stand for the same
key, under the same rules. A bridge name publishes from this machine only, where the
listeners run: one that leaked lets nobody in from outside.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from ipaddress import ip_address
from urllib.parse import urlsplit

from sqlalchemy import ColumnElement, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..errors import ApiError, Conflict, NotFound
from ..media.sources import stream_keys as keys
from ..models import Event, StreamKey
from ..settings import Settings, get_settings

KEY_EXISTS = "stream_key_exists"
KEY_NOT_FOUND = "stream_key_not_found"
NO_PORT = "ingest_ports_exhausted"
INVALID_STATUS = "invalid_status"
NOT_PUBLISHING = "stream_key_not_publishing"
TAKE_OVER_SECONDS = 120


@dataclass(frozen=True)
class Issued:
    key: str  # shown once
    row: StreamKey


@dataclass(frozen=True)
class Urls:
    rtmp: str
    srt: str | None


def urls(settings: Settings, key: str, srt_port: int | None) -> Urls:
    host = _advertised_host(settings)
    srt = None
    if srt_port is not None:
        passphrase = keys.srt_passphrase(settings.secret_key, keys.key_hash(key))
        srt = keys.srt_url(host, srt_port, key, passphrase)
    return Urls(keys.rtmp_url(host, settings.rtmp_port, key), srt)


def _advertised_host(settings: Settings) -> str:
    """Where encoders reach the ingest: its address, or this server's public host name when the
    ingest listens on every interface."""
    try:
        unspecified = ip_address(settings.ingest_host).is_unspecified
    except ValueError:  # a host name
        unspecified = False
    return (urlsplit(settings.base_url).hostname or "127.0.0.1") if unspecified else settings.ingest_host


async def _event(db: AsyncSession, event_id: str) -> Event:
    event = await db.get(Event, event_id, with_for_update=True)
    if event is None or event.media_type != "event":
        raise NotFound("Event not found", code="event_not_found")
    return event


async def in_force(db: AsyncSession, event_id: str) -> StreamKey | None:
    return await db.scalar(
        select(StreamKey).where(StreamKey.event_id == event_id, StreamKey.revoked_at.is_(None)).limit(1)
    )


async def listed(db: AsyncSession, event_id: str) -> list[StreamKey]:
    """An event's keys, newest first (404 for an unknown event)."""
    if await db.get(Event, event_id) is None:
        raise NotFound("Event not found", code="event_not_found")
    return list(
        await db.scalars(
            select(StreamKey).where(StreamKey.event_id == event_id).order_by(StreamKey.created.desc(), StreamKey.id)
        )
    )


async def _free_port(db: AsyncSession, settings: Settings) -> int:
    taken = set(await db.scalars(select(StreamKey.srt_port).where(StreamKey.srt_port.is_not(None))))
    free = next((port for port in keys.port_range(settings.srt_ports) if port not in taken), None)
    if free is None:
        raise Conflict(
            f"Every SRT ingest port ({settings.srt_ports}) is taken: revoke a key of a finished event",
            code=NO_PORT,
        )
    return free


def _checked_expiry(expires_at: datetime | None, now: datetime) -> datetime | None:
    if expires_at is not None and expires_at <= now:
        raise ApiError("expiresAt is in the past: a key must work for a while", code="invalid_expiry")
    return expires_at


async def _issue(
    db: AsyncSession, event: Event, settings: Settings, actor: str | None, now: datetime, expires_at: datetime | None
) -> Issued:
    key = keys.new_key()
    row = StreamKey(
        event_id=event.id,
        key_hash=keys.key_hash(key),
        hint=keys.hint(key),
        created_by=actor,
        srt_port=await _free_port(db, settings),
        expires_at=expires_at,
        created=now,
        updated=now,
    )
    db.add(row)
    try:
        await db.commit()
    except IntegrityError:  # another process took the port (or made a key) meanwhile
        await db.rollback()
        raise Conflict("Another stream key was made at the same moment: try again", code=KEY_EXISTS) from None
    return Issued(key, row)


async def create(
    db: AsyncSession, event_id: str, *, settings: Settings, actor: str | None, expires_at: datetime | None = None
) -> Issued:
    now = clock.now()
    _checked_expiry(expires_at, now)
    event = await _event(db, event_id)
    if event.status == "archived":
        raise Conflict("An archived event takes no live feed", code=INVALID_STATUS)
    if await in_force(db, event.id) is not None:
        raise Conflict("This event has a stream key already: rotate it for a new one", code=KEY_EXISTS)
    return await _issue(db, event, settings, actor, now, expires_at)


async def rotate(
    db: AsyncSession, event_id: str, *, settings: Settings, actor: str | None, expires_at: datetime | None = None
) -> Issued:
    """A new key in place of the one in force (revoked at once, its port handed on; its encoder
    is cut off)."""
    now = clock.now()
    _checked_expiry(expires_at, now)
    event = await _event(db, event_id)
    if event.status == "archived":
        raise Conflict("An archived event takes no live feed", code=INVALID_STATUS)
    current = await in_force(db, event.id)
    if current is not None:
        _revoke(current, now)
        await db.flush()
    return await _issue(db, event, settings, actor, now, expires_at)


async def revoke(db: AsyncSession, event_id: str) -> StreamKey:
    await _event(db, event_id)
    current = await in_force(db, event_id)
    if current is None:
        raise NotFound("This event has no stream key in force", code=KEY_NOT_FOUND)
    _revoke(current, clock.now())
    await db.commit()
    return current


def _revoke(row: StreamKey, now: datetime) -> None:
    row.revoked_at = now
    row.srt_port = None
    row.publisher = None
    row.publishing_since = None
    row.take_over_until = None
    row.updated = now


async def allow_take_over(db: AsyncSession, event_id: str) -> StreamKey:
    """For the next TAKE_OVER_SECONDS, a second encoder on the event's key is let in in place of
    the one publishing (a backup encoder, a venue switching trucks); the first is dropped then."""
    await _event(db, event_id)
    current = await in_force(db, event_id)
    if current is None:
        raise NotFound("This event has no stream key in force", code=KEY_NOT_FOUND)
    if current.publisher is None:
        raise Conflict("Nobody is publishing with this key: an encoder can connect as it is", code=NOT_PUBLISHING)
    now = clock.now()
    current.take_over_until = now + timedelta(seconds=TAKE_OVER_SECONDS)
    current.updated = now
    await db.commit()
    return current


def expired(row: StreamKey, now: datetime) -> bool:
    return row.expires_at is not None and row.expires_at <= now


def take_over_open(row: StreamKey, now: datetime) -> bool:
    return row.take_over_until is not None and row.take_over_until > now


# --- nginx-rtmp asks --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    accepted: bool
    reason: str
    event_id: str | None = None
    replaced: str | None = None  # the publisher a take-over let this one in in place of


def _named(name: str, secret_key: str | None) -> ColumnElement[bool] | None:
    """The condition on the key nginx's stream `name` stands for; None when `name` is neither a
    key nor a bridge name of this server."""
    if keys.looks_like_a_key(name):
        return StreamKey.key_hash == keys.key_hash(name)
    if (key_id := keys.bridged_key_id(secret_key or get_settings().secret_key, name)) is not None:
        return StreamKey.id == key_id
    return None


async def _locked(db: AsyncSession, name: str, secret_key: str | None) -> StreamKey | None:
    """The row of the key nginx's stream `name` stands for (whichever its state), locked: one hook
    call at a time per key."""
    where = _named(name, secret_key)
    return None if where is None else await db.scalar(select(StreamKey).where(where).with_for_update())


async def may_publish(db: AsyncSession, name: str, publisher: str, *, secret_key: str | None = None) -> Decision:
    """Whether the stream `name` (a key, or a key's SRT bridge name) may publish now, for
    `publisher` (nginx's client id and the encoder's address); records the publisher when it may.
    `secret_key` checks bridge names (the server's, by default). `db` is a write session; commits."""
    if not keys.looks_like_a_key(name) and not _from_this_machine(publisher):
        return Decision(False, "not a stream key")
    row = await _locked(db, name, secret_key)
    if row is None:
        return Decision(False, "unknown key" if keys.looks_like_a_key(name) else "not a stream key")
    if row.revoked_at is not None:
        return Decision(False, "revoked key", row.event_id)
    now = clock.now()
    if expired(row, now):
        return Decision(False, "expired key", row.event_id)
    event = await db.get(Event, row.event_id)
    if event is None or event.status == "archived":
        return Decision(False, "the event is over", row.event_id)
    replaced = None
    if row.publisher is not None and row.publisher != publisher:
        if not take_over_open(row, now):
            return Decision(False, "another encoder is publishing with this key", row.event_id)
        replaced, row.take_over_until = row.publisher, None  # one take-over per staff action
    row.publisher, row.publishing_since, row.last_published_at, row.updated = publisher, now, now, now
    await db.commit()
    return Decision(True, "took over" if replaced else "accepted", row.event_id, replaced)


def _from_this_machine(publisher: str) -> bool:
    """Whether the publisher (`clientid@address`) connected over loopback."""
    try:
        return ip_address(publisher.rpartition("@")[2]).is_loopback
    except ValueError:
        return False


async def publish_done(db: AsyncSession, name: str, publisher: str, *, secret_key: str | None = None) -> bool:
    """The encoder `publisher` of the stream `name` left: the key is free for the next one. False
    when another encoder publishes with the key now (one that took over from this one)."""
    row = await _locked(db, name, secret_key)
    if row is None or row.publisher is None:
        return True
    if row.publisher != publisher:
        return False
    row.publisher, row.publishing_since, row.updated = None, None, clock.now()
    await db.commit()
    return True


async def publishers(db: AsyncSession) -> dict[str, str]:
    """The publisher of each event an encoder publishes for now (keys in force, events not
    archived): what every process of a cluster reads to follow feeds whose hooks it did not answer."""
    rows = await db.execute(
        select(StreamKey.event_id, StreamKey.publisher)
        .join(Event, Event.id == StreamKey.event_id)
        .where(StreamKey.revoked_at.is_(None), StreamKey.publisher.is_not(None), Event.status != "archived")
    )
    return {event_id: publisher for event_id, publisher in rows if publisher is not None}


async def forget_publisher(db: AsyncSession, event_id: str, publisher: str) -> bool:
    """nginx no longer has `publisher` though it never said it left (it restarted): the key is
    free for the next encoder. False when the key has another publisher now. Commits."""
    row = await db.scalar(
        select(StreamKey)
        .where(StreamKey.event_id == event_id, StreamKey.revoked_at.is_(None), StreamKey.publisher == publisher)
        .with_for_update()
    )
    if row is None:
        return False
    row.publisher, row.publishing_since, row.updated = None, None, clock.now()
    await db.commit()
    return True


async def names_in_force(db: AsyncSession, names: list[str], *, secret_key: str | None = None) -> set[str]:
    """Which of the streams `names` (keys or bridge names) stand for a key that is not revoked."""
    kept = set()
    for name in names:
        where = _named(name, secret_key)
        if where is not None and await db.scalar(select(StreamKey.id).where(where, StreamKey.revoked_at.is_(None))):
            kept.add(name)
    return kept


# --- SRT listeners ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SrtInput:
    """A key in force that takes SRT on its port (server.ingest.srt_listeners runs a listener per input)."""

    key_id: str
    key_hash: str
    port: int


async def srt_inputs(db: AsyncSession) -> list[SrtInput]:
    """Keys in force, of events not archived, holding an SRT port."""
    rows = await db.execute(
        select(StreamKey.id, StreamKey.key_hash, StreamKey.srt_port)
        .join(Event, Event.id == StreamKey.event_id)
        .where(StreamKey.revoked_at.is_(None), StreamKey.srt_port.is_not(None), Event.status != "archived")
        .order_by(StreamKey.srt_port)
    )
    return [SrtInput(key_id, key_hash, port) for key_id, key_hash, port in rows if port is not None]
