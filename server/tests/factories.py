"""Small, explicit catalogue builders for tests (the seed data is tested on its own)."""

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sqlalchemy.ext.asyncio import AsyncSession

from server.media.assets.store import MediaStore, samples_dir
from server.models import (
    EpgProgramme,
    Event,
    EventIdentity,
    EventStats,
    Identity,
    IdentityParent,
    Team,
    TeamIdentity,
    new_id,
)
from server.seed.assets import give_sample_assets
from server.settings import Settings

_counter = iter(range(1, 10**9))


def sport(title: str, sport_type: str, order: int) -> Identity:
    return Identity(id=new_id(), media_type="identity", title=title, sport_type=sport_type, order=order)


def league(db: AsyncSession, title: str, parent: Identity, position: int, **kw) -> Identity:
    item = Identity(
        id=new_id(), media_type="identity_item", title=title, sport_type=parent.sport_type, order=position, **kw
    )
    db.add(item)
    db.add(IdentityParent(child_id=item.id, parent_id=parent.id, position=position))
    return item


def team(db: AsyncSession, name: str, short: str, color: str, *leagues: Identity) -> Team:
    t = Team(
        id=new_id(),
        name=name,
        short_name=short,
        color=color,
        sport_type=leagues[0].sport_type,
        logo=f"/media/logos/{short.lower()}.svg",
    )
    db.add(t)
    for parent in leagues:
        db.add(TeamIdentity(team_id=t.id, identity_id=parent.id))
    return t


def event(
    db: AsyncSession,
    title: str,
    *,
    status: str,
    when: datetime,
    league_: Identity | None = None,
    category: Identity | None = None,
    home: Team | None = None,
    away: Team | None = None,
    media_type: str = "event",
    parent: Event | None = None,
    **kw,
) -> Event:
    n = next(_counter)
    identity = league_ or category
    e = Event(
        id=new_id(),
        media_type=media_type,
        title=title,
        search_text=" ".join(filter(None, [title, home.name if home else None, away.name if away else None])).lower(),
        event_date=when,
        external_id=f"TL-T-{n:06d}",
        reference_id=f"ref-test-{n}",
        sport_type=identity.sport_type if identity else kw.pop("sport_type", None),
        status=status,
        home_team_id=home.id if home else None,
        away_team_id=away.id if away else None,
        parent_event_id=parent.id if parent else None,
        game_type="game" if home else "other",
        **kw,
    )
    db.add(e)
    own_media(db, e)
    if league_ is not None:
        db.add(EventIdentity(event_id=e.id, identity_id=league_.id, identity_type="identity_item"))
    if category is not None:
        db.add(EventIdentity(event_id=e.id, identity_id=category.id, identity_type="identity"))
    return e


def own_media(db: AsyncSession, e: Event) -> None:
    """Streams given as a sample's URL (`/media/live/football.m3u8`) play through an asset of the
    event's own, as the seed and the staff API make them (server.seed.assets)."""
    settings = Settings()
    give_sample_assets(db, MediaStore(settings.media_dir), samples_dir(settings), e)


@dataclass
class Catalogue:
    now: datetime
    ids: dict[str, str] = field(default_factory=dict)

    def __getitem__(self, key: str) -> str:
        return self.ids[key]


async def build_catalogue(db: AsyncSession) -> Catalogue:
    now = datetime.now(UTC).replace(microsecond=0)
    football, basketball = sport("Football", "football", 1), sport("Basketball", "basketball", 2)
    db.add_all([football, basketball])
    await db.flush()
    npd = league(db, "Northern Premier Division", football, 2, short_title="NPD")
    cup = league(db, "Coastal Cup", football, 1)
    cbl = league(db, "Coastal Basketball League", basketball, 1, gender="female")
    old = league(db, "Old Winter League", football, 3, archived=True)
    await db.flush()
    mariners = team(db, "Harbor City Mariners", "HCM", "#0b3d91", npd, football)
    rovers = team(db, "Riverside Rovers", "RIV", "#c8102e", npd, football)
    hawks = team(db, "Eastfield Hawks", "EFH", "#2e7d32", npd, cup, football)
    tigers = team(db, "Bayview Tigers", "BAY", "#ff8f00", cbl, basketball)
    bears = team(db, "Summit Bears", "SUM", "#4e342e", cbl, basketball)
    await db.flush()
    live = event(
        db,
        "Harbor City Mariners vs Riverside Rovers",
        status="live",
        when=now - timedelta(minutes=30),
        league_=npd,
        category=football,
        home=mariners,
        away=rovers,
        hls_stream="/media/live/football.m3u8",
    )
    upcoming = event(
        db,
        "Riverside Rovers vs Eastfield Hawks",
        status="upcoming",
        when=now + timedelta(days=2),
        league_=npd,
        category=football,
        home=rovers,
        away=hawks,
        commerce_type="commerce_ppv_media",
        commerce_modes=["ppv"],
    )
    archived = event(
        db,
        "Eastfield Hawks vs Harbor City Mariners",
        status="archived",
        when=now - timedelta(days=3),
        league_=cup,
        category=football,
        home=hawks,
        away=mariners,
        stats_enabled=True,
        data_partner_id="vs-1",
        hls_stream="/media/vod/football/index.m3u8",
    )
    hoops = event(
        db,
        "Bayview Tigers vs Summit Bears",
        status="archived",
        when=now - timedelta(days=10),
        league_=cbl,
        category=basketball,
        home=tigers,
        away=bears,
        commerce_type="commerce_members_media",
        gender="female",
        hls_stream="/media/vod/basketball/index.m3u8",
    )
    channel = event(
        db,
        "Touchline Sports 24",
        status="channel",
        when=now - timedelta(days=30),
        event_type="channel",
        sport_type="football",
        hls_stream="/media/live/football.m3u8",
    )
    training = event(
        db,
        "Mariners open training",
        status="upcoming",
        when=now + timedelta(days=5),
        category=football,
        event_type="training",
    )
    await db.flush()
    recap = event(
        db,
        "Recap: Hawks vs Mariners",
        status="archived",
        when=now - timedelta(days=3),
        media_type="highlight",
        parent=archived,
        highlight_kind="recap",
        start_time_ms=0,
        end_time_ms=180000,
        sport_type="football",
    )
    goal = event(
        db,
        "Goal: Mariners equalise",
        status="archived",
        when=now - timedelta(days=3, minutes=-1),
        media_type="clip",
        parent=archived,
        highlight_kind="clip",
        start_time_ms=2_400_000,
        end_time_ms=2_430_000,
        sport_type="football",
    )
    dunk = event(
        db,
        "Dunk of the night",
        status="archived",
        when=now - timedelta(days=10),
        media_type="highlight",
        parent=hoops,
        highlight_kind="auto",
        sport_type="basketball",
    )
    db.add(
        EventStats(
            event_id=archived.id,
            scores={
                "homeTeam": {"name": hawks.name, "score": 1, "periods": [0, 1]},
                "awayTeam": {"name": mariners.name, "score": 1, "periods": [1, 0]},
            },
            overview={
                "groups": [
                    {
                        "name": "Match stats",
                        "metrics": [
                            {
                                "shortName": "POS",
                                "name": "Possession",
                                "filterId": "possession",
                                "homeTeamValue": {"text": "54%", "number": 54},
                                "awayTeamValue": {"text": "46%", "number": 46},
                            }
                        ],
                    }
                ]
            },
        )
    )
    for hour in range(-3, 4):
        start = now.replace(minute=0, second=0) + timedelta(hours=hour)
        db.add(
            EpgProgramme(
                channel_id=channel.id,
                starts_at=start,
                ends_at=start + timedelta(hours=1),
                title=f"Slot {hour}",
                related_event_id=archived.id if hour == 0 else None,
            )
        )
    await db.commit()
    ids = {
        "football": football.id,
        "basketball": basketball.id,
        "npd": npd.id,
        "cup": cup.id,
        "cbl": cbl.id,
        "old": old.id,
        "mariners": mariners.id,
        "rovers": rovers.id,
        "hawks": hawks.id,
        "tigers": tigers.id,
        "bears": bears.id,
        "live": live.id,
        "upcoming": upcoming.id,
        "archived": archived.id,
        "hoops": hoops.id,
        "channel": channel.id,
        "training": training.id,
        "recap": recap.id,
        "goal": goal.id,
        "dunk": dunk.id,
    }
    return Catalogue(now, ids)
