"""Bulk synthetic games for benchmarks: `fill_events(database_url, count)`.

Creates the tables if missing, seeds the demo catalogue if there is none, then tops the
synthetic games (external ids TL-BK-nnnnnnn) up to exactly `count`: idempotent by count, and
a fill that was interrupted resumes where it stopped (each batch commits). Row i is drawn from
its own `Random(f"{SEED}:bulk:{i}")`, so the same i is the same game whichever run makes it.

Sync on purpose: benchmark scripts call it before starting a server, and a sync engine with
executemany inserts is the fastest portable path (100k games in seconds on SQLite).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import create_engine, func, insert, select
from sqlalchemy.engine import Connection, make_url

from ..media.assets.store import MediaStore, samples_dir
from ..media.delivery.urls import game_url, live_url
from ..models import Base, Event, EventIdentity, Identity, IdentityParent, MediaAsset, Team, TeamIdentity
from ..settings import Settings
from . import assets
from .catalogue import COMMERCE, SEED, build_catalogue, table_of
from .fixtures import load_catalogue, stable_id
from .loader import write_seed

BULK_PREFIX = "TL-BK-"
ARCHIVED_SECONDS = 7500  # an archived game's length, and its VOD's
BATCH = 5000
# Async drivers the app uses -> the sync driver for the same database.
_SYNC_DRIVERS = {
    "sqlite+aiosqlite": "sqlite",
    "postgresql+asyncpg": "postgresql+psycopg",
    "postgresql+psycopg_async": "postgresql+psycopg",
}


def sync_url(database_url: str) -> str:
    url = make_url(database_url)
    return url.set(drivername=_SYNC_DRIVERS.get(url.drivername, url.drivername)).render_as_string(hide_password=False)


@dataclass(frozen=True)
class _League:
    id: str
    poster: str | None
    sport_id: str
    sport_type: str
    gender: str | None
    teams: tuple[tuple[str, str, str], ...]  # (id, name, short name)


def _leagues(conn: Connection) -> list[_League]:
    samples = {s.sport_type: s.sample for s in load_catalogue().sports}
    rows = conn.execute(
        select(Identity.id, Identity.poster_h, Identity.sport_type, Identity.gender, IdentityParent.parent_id)
        .join(IdentityParent, IdentityParent.child_id == Identity.id)
        .where(Identity.media_type == "identity_item", Identity.archived.is_(False))
        .order_by(Identity.id)
    ).all()
    leagues = []
    for league_id, poster, sport_type, gender, sport_id in rows:
        teams = tuple(
            conn.execute(
                select(Team.id, Team.name, Team.short_name)
                .join(TeamIdentity, TeamIdentity.team_id == Team.id)
                .where(TeamIdentity.identity_id == league_id)
                .order_by(Team.id)
            )
            .tuples()
            .all()
        )
        if len(teams) >= 2 and sport_type in samples:
            leagues.append(_League(league_id, poster, sport_id, sport_type, gender, teams))
    return leagues


def _row(i: int, league_pick: list[_League], now: datetime, samples: dict[str, str]) -> tuple[dict, list[dict]]:
    rng = random.Random(f"{SEED}:bulk:{i}")
    league = rng.choice(league_pick)
    (home_id, home, home_short), (away_id, away, away_short) = rng.sample(league.teams, 2)
    roll = rng.random()
    status = "archived" if roll < 0.85 else "upcoming" if roll < 0.99 else "live"
    if status == "archived":
        event_date = now - timedelta(days=rng.uniform(0.2, 730))
    elif status == "upcoming":
        event_date = now + timedelta(days=rng.uniform(0.05, 60))
    else:
        event_date = now - timedelta(minutes=rng.uniform(5, 85))
    event_date = event_date.replace(second=0, microsecond=0)
    commerce_type, _, modes = rng.choices(COMMERCE, weights=[c[1] for c in COMMERCE])[0]
    sample = samples[league.sport_type]
    title = f"{home} vs {away}"
    external_id = f"{BULK_PREFIX}{i + 1:07d}"
    event_id = stable_id("event", external_id)
    row = {
        "id": event_id,
        "media_type": "event",
        "title": title,
        "description": f"Synthetic game #{i + 1}.",
        "search_text": f"{title} {home} {home_short} {away} {away_short}".lower(),
        "event_date": event_date,
        "game_start_date": event_date + timedelta(minutes=5),
        "end_date": event_date + timedelta(minutes=125) if status == "archived" else None,
        "external_id": external_id,
        "reference_id": f"ref-bulk-{i + 1}",
        "sport_type": league.sport_type,
        "event_type": "game",
        "game_type": "game",
        "status": status,
        "sort_order": i + 1,
        "commerce_type": commerce_type,
        "commerce_modes": list(rng.choice(modes)),
        "gender": league.gender,
        "available_in_region": True,
        "hls_stream": game_url(sample, ARCHIVED_SECONDS)
        if status == "archived"
        else live_url(sample)
        if status == "live"
        else None,
        "pano_stream": None,
        "poster_h": league.poster,
        "mezzanine_video": None,
        "vast_url": None,
        "stats_enabled": False,
        "data_partner_id": None,
        "home_team_id": home_id,
        "away_team_id": away_id,
        "parent_event_id": None,
        "highlight_kind": None,
        "start_time_ms": None,
        "end_time_ms": None,
        "duration_s": ARCHIVED_SECONDS if status == "archived" else None,
        "created": min(event_date, now),
        "updated": min(event_date, now),
    }
    links = [
        {"event_id": event_id, "identity_id": league.id, "identity_type": "identity_item"},
        {"event_id": event_id, "identity_id": league.sport_id, "identity_type": "identity"},
    ]
    return row, links


def bulk_count(conn: Connection) -> int:
    return conn.execute(
        select(func.count()).select_from(Event).where(Event.external_id.like(f"{BULK_PREFIX}%"))
    ).scalar_one()


def fill_events(database_url: str, count: int, *, now: datetime | None = None, media_dir: Path | None = None) -> int:
    """Top the synthetic games up to `count`. Returns how many were inserted (0 if already there).
    Each game's stream is an asset of its own in the store at `media_dir` (default: the
    settings')."""
    now = (now or datetime.now(UTC)).astimezone(UTC)
    defaults = Settings()
    store, sample_dir = MediaStore(media_dir or defaults.media_dir), samples_dir(defaults)
    engine = create_engine(sync_url(database_url))
    try:
        Base.metadata.create_all(engine)
        with engine.begin() as conn:
            if not conn.scalar(select(func.count()).select_from(Team)):
                catalogue = build_catalogue(now)
                assets.link(store, sample_dir, catalogue.media_assets)
                write_seed(conn, catalogue)
            existing = bulk_count(conn)
            leagues = _leagues(conn)
        if existing >= count:
            return 0
        samples = {s.sport_type: s.sample for s in load_catalogue().sports}
        for start in range(existing, count, BATCH):
            events, links = [], []
            for i in range(start, min(start + BATCH, count)):
                row, row_links = _row(i, leagues, now, samples)
                events.append(row)
                links.extend(row_links)
            media = assets.own_assets(events, now)
            assets.link(store, sample_dir, media)
            with engine.begin() as conn:  # one commit per batch: an interrupted fill resumes
                conn.execute(insert(table_of(Event)), events)
                if media:
                    conn.execute(insert(table_of(MediaAsset)), media)
                conn.execute(insert(table_of(EventIdentity)), links)
        return count - existing
    finally:
        engine.dispose()
