"""Build the demo catalogue from fixtures/catalogue.yaml, relative to a `now`.

`build_catalogue(now)` returns plain row dicts keyed by column name, one list per table, in
insert order. Everything is drawn from `random.Random(SEED)` and the draws never depend on
`now`, so every run makes the same rows with the same ids (derived from slugs and external
ids); only the dates (and what is live at that moment: live scores, the programme guide)
move with `now`. That is what lets the loader upsert instead of duplicating.

Media: live games play their sport's live sample, archived ones a VOD as long as the game, the
sample looped for its `duration_s` (`/media/vod/<sample>/game-<seconds>.m3u8`, server.media.delivery.clips),
so the official match tags (server.seed.tags) lie within it; highlights and clips play their
range of that VOD (`/media/vod/<sample>/clip-<from>-<to>.m3u8`, the same timeline) and nothing
else of the game. Football games that are live or archived offer the panoramic view too
(`pano_stream`, the `football-pano` sample, game-length like the main stream once archived) when
`offers_pano` says so, and a few live and archived games carry the
VAST ad tag given to `build_catalogue` (`vast_url`: by default this server's test ad,
server.media.delivery.ads; None gives no game an ad). In both cases the first free live game and the first
free archived game always do, so every kind of viewer has one to watch.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Table

from ..media.delivery import urls as media_urls
from ..media.delivery.urls import DEFAULT_VAST_URL, clip_url, game_url, live_url
from ..models import (
    Base,
    BundleItem,
    EpgProgramme,
    Event,
    EventIdentity,
    EventStats,
    Identity,
    IdentityParent,
    MediaAsset,
    Product,
    Tag,
    Team,
    TeamIdentity,
)
from .assets import own_assets
from .fixtures import FIXTURES_DIR, CatalogueSpec, LeagueSpec, TeamSpec, load_catalogue, slugify, stable_id
from .products import build_products
from .stats import game_stats
from .tags import build_tags


@functools.cache
def poster_url(slug: str) -> str:
    """A poster's address with its content hash: served as immutable (server.media.delivery.urls.versioned)."""
    return media_urls.versioned(media_urls.poster_url(slug), FIXTURES_DIR / "posters" / f"{slug}.svg")


@functools.cache
def logo_url(slug: str) -> str:
    """A team logo's address with its content hash (server.media.delivery.urls.versioned)."""
    return media_urls.versioned(media_urls.logo_url(slug), FIXTURES_DIR / "logos" / f"{slug}.svg")


SEED = 20261122
LIVE_GAMES = 8
SOON_GAMES = 14  # upcoming within the next 24 hours
UPCOMING_GAMES = 70  # including the soon ones, up to 30 days ahead
ARCHIVED_GAMES = 262  # up to 120 days back
HIGHLIGHT_KINDS = ("auto", "recap", "condensed", "clip", "highlight")
FREE = "commerce_free_media"
# Shares of live and of archived games with an ad, besides the first free ones.
LIVE_AD_SHARE, ARCHIVED_AD_SHARE = 0.3, 0.1
# Samples with a panoramic view of the same play (scripts/sample_video.py): sample -> its pano.
PANO_SAMPLES = {"football": "football-pano"}
PANO_SHARE = 3  # one game in PANO_SHARE (by its external id), besides the first free ones
# (commerce_type, weight, possible commerce_modes)
COMMERCE: tuple[tuple[str, int, tuple[list[str], ...]], ...] = (
    ("commerce_free_media", 56, ([],)),
    ("commerce_members_media", 12, (["svod"], ["svod", "cvod"])),
    ("commerce_ppv_media", 12, (["ppv"], ["ppv", "svod"])),
    ("commerce_subscription-basic_media", 12, (["svod"], ["svod", "cvod"])),
    ("commerce_transactional_media", 8, (["ppv"], ["ppv", "svod"])),
)


@dataclass(frozen=True)
class SportRules:
    minutes: int  # broadcast length of a game
    kickoffs: tuple[tuple[int, int], ...]  # usual UTC kick-off times
    moments: tuple[str, ...]  # what a clip shows
    period: str  # how a clip names the moment's period: {n} period number, {m} minute


RULES = {
    "football": SportRules(
        115, ((12, 30), (15, 0), (17, 30), (19, 45)), ("goal", "penalty save", "free kick", "last-ditch tackle"), "{m}'"
    ),
    "basketball": SportRules(
        135,
        ((17, 0), (18, 30), (19, 30), (20, 0)),
        ("dunk", "three-pointer", "chase-down block", "buzzer-beater"),
        "Q{n}",
    ),
    "ice-hockey": SportRules(
        150, ((17, 0), (18, 0), (19, 0), (19, 30)), ("goal", "glove save", "power-play goal", "breakaway"), "P{n}"
    ),
    "volleyball": SportRules(
        120,
        ((15, 0), (17, 0), (18, 30), (20, 0)),
        ("ace", "monster block", "cross-court kill", "diving dig"),
        "set {n}",
    ),
}
# Clip lengths in seconds, by highlight kind.
KIND_SECONDS = {
    "auto": (60, 120),
    "recap": (180, 300),
    "condensed": (600, 1200),
    "highlight": (45, 90),
    "clip": (15, 40),
}


def table_of(model: type[Base]) -> Table:
    """A model's Table. DeclarativeBase types `__table__` as the wider FromClause (a class may be
    mapped to a join or subquery); every model here is mapped to a plain Table."""
    table = model.__table__
    assert isinstance(table, Table), f"{model.__name__} is not mapped to a Table"
    return table


@dataclass
class SeedData:
    """Row dicts per table. `tables()` gives them parents-first, the order to insert them."""

    now: datetime
    identities: list[dict] = field(default_factory=list)
    identity_parents: list[dict] = field(default_factory=list)
    teams: list[dict] = field(default_factory=list)
    team_identities: list[dict] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)
    event_identities: list[dict] = field(default_factory=list)
    event_stats: list[dict] = field(default_factory=list)
    epg_programmes: list[dict] = field(default_factory=list)
    products: list[dict] = field(default_factory=list)
    bundle_items: list[dict] = field(default_factory=list)
    tags: list[dict] = field(default_factory=list)  # official match tags of archived games
    media_assets: list[dict] = field(default_factory=list)  # the events' streams (server.seed.assets)

    def tables(self) -> list[tuple[Table, list[dict]]]:
        # Highlights point at their game (parent_event_id): games come first in `events`.
        return [
            (table_of(Identity), self.identities),
            (table_of(IdentityParent), self.identity_parents),
            (table_of(Team), self.teams),
            (table_of(TeamIdentity), self.team_identities),
            (table_of(Event), self.events),
            (table_of(MediaAsset), self.media_assets),
            (table_of(EventIdentity), self.event_identities),
            (table_of(EventStats), self.event_stats),
            (table_of(EpgProgramme), self.epg_programmes),
            (table_of(Product), self.products),
            (table_of(BundleItem), self.bundle_items),
            (table_of(Tag), self.tags),
        ]


def reference_id(slug: str, n: int) -> str:
    """'ref-<slug>-<n>' within the 40-character column, cut at a word boundary."""
    tail = f"-{n}"
    room = 40 - len("ref-") - len(tail)
    while len(slug) > room:
        slug = slug.rsplit("-", 1)[0] if "-" in slug else slug[:room]
    return f"ref-{slug}{tail}"


def _utc(now: datetime | None) -> datetime:
    if now is None:
        now = datetime.now(UTC)
    if now.tzinfo is None:
        raise ValueError("now must be timezone-aware")
    return now.astimezone(UTC).replace(microsecond=0)


def _floor(dt: datetime, minutes: int) -> datetime:
    return dt.replace(minute=dt.minute - dt.minute % minutes, second=0)


def _ceil(dt: datetime, minutes: int) -> datetime:
    floored = _floor(dt, minutes)
    return floored if floored == dt else floored + timedelta(minutes=minutes)


def _search_text(title: str, *teams: TeamSpec | None) -> str:
    parts = [title] + [f"{t.name} {t.short_name}" for t in teams if t]
    return " ".join(parts).lower()


def offers_pano(external_id: str) -> bool:
    """Whether a live or archived game of a sport with a panoramic sample offers it (about one in
    PANO_SHARE, decided by its external id: no draw, so no other row moves)."""
    return int(stable_id("pano", external_id), 16) % PANO_SHARE == 0


class _Builder:
    def __init__(self, spec: CatalogueSpec, now: datetime, vast_url: str | None = DEFAULT_VAST_URL):
        self.spec = spec
        self.now = now
        self.vast_url = vast_url or None
        self.firsts: dict[tuple[str, str], str] = {}  # (feature, status) -> the first free game's id
        self.rng = random.Random(SEED)
        self.data = SeedData(now)
        self.midnight = now.replace(hour=0, minute=0, second=0)
        self.event_no = 0
        self.highlight_no = 0
        self.game_rows: list[dict] = []  # game event rows, for highlights and the programme guide
        self.meta: dict[str, tuple[LeagueSpec, TeamSpec, TeamSpec]] = {}

    # ids -----------------------------------------------------------------
    @staticmethod
    def sport_id(slug: str) -> str:
        return stable_id("identity", f"sport:{slug}")

    @staticmethod
    def league_id(slug: str) -> str:
        return stable_id("identity", f"league:{slug}")

    @staticmethod
    def team_id(slug: str) -> str:
        return stable_id("team", slug)

    # identities and teams --------------------------------------------------
    def identities_and_teams(self) -> None:
        born = self.now - timedelta(days=365)
        for sport in self.spec.sports:
            sid = self.sport_id(sport.slug)
            self.data.identities.append(
                self._identity(
                    sid,
                    "identity",
                    sport.title,
                    sport.short_title,
                    sport.sport_type,
                    sport.position,
                    False,
                    None,
                    sport.slug,
                    f"/category/{sid}",
                    sport.social,
                    born + timedelta(minutes=sport.position),
                )
            )
            for league in sport.leagues:
                lid = self.league_id(league.slug)
                self.data.identities.append(
                    self._identity(
                        lid,
                        "identity_item",
                        league.title,
                        league.short_title,
                        sport.sport_type,
                        league.position,
                        league.archived,
                        league.gender,
                        league.slug,
                        f"/league/{lid}",
                        league.social,
                        born + timedelta(hours=sport.position, minutes=league.position),
                    )
                )
                self.data.identity_parents.append({"child_id": lid, "parent_id": sid, "position": league.position})
        for n, team in enumerate(self.spec.teams.values()):
            tid = self.team_id(team.slug)
            created = born + timedelta(days=1, minutes=n)
            self.data.teams.append(
                {
                    "id": tid,
                    "name": team.name,
                    "short_name": team.short_name,
                    "city": team.city,
                    "sport_type": team.sport_type,
                    "logo": logo_url(team.slug),
                    "color": team.colors[0],
                    "secondary_color": team.colors[1],
                    "poster_h": poster_url(team.slug),
                    "poster_f": poster_url(team.slug),
                    "extended_content": _extended(poster_url(team.slug), f"/team/{tid}"),
                    "social_links": team.social,
                    "created": created,
                    "updated": created,
                }
            )
            sport = self.spec.sport_by_type(team.sport_type)
            links = [self.league_id(league.slug) for league in self.spec.leagues if team.slug in league.team_slugs]
            for identity_id in [*links, self.sport_id(sport.slug)]:
                self.data.team_identities.append({"team_id": tid, "identity_id": identity_id})

    @staticmethod
    def _identity(
        iid, media_type, title, short_title, sport_type, order, archived, gender, slug, target, social, created
    ) -> dict:
        return {
            "id": iid,
            "media_type": media_type,
            "title": title,
            "short_title": short_title,
            "sport_type": sport_type,
            "order": order,
            "archived": archived,
            "gender": gender,
            "poster_h": poster_url(slug),
            "poster_f": poster_url(slug),
            "extended_content": _extended(poster_url(slug), target),
            "social_links": social,
            "created": created,
            "updated": created,
        }

    # events ----------------------------------------------------------------
    def _event(self, *, title: str, status: str, event_date: datetime, ref_slug: str, **columns) -> dict:
        self.event_no += 1
        external_id = f"TL-EV-{self.event_no:06d}"
        row: dict[str, Any] = {
            "id": stable_id("event", external_id),
            "media_type": "event",
            "title": title,
            "description": None,
            "search_text": title.lower(),
            "event_date": event_date,
            "game_start_date": None,
            "end_date": None,
            "external_id": external_id,
            "reference_id": reference_id(ref_slug, self.event_no),
            "sport_type": None,
            "event_type": "game",
            "game_type": "game",
            "status": status,
            "sort_order": 0,
            "commerce_type": "commerce_free_media",
            "commerce_modes": [],
            "gender": None,
            "available_in_region": True,
            "hls_stream": None,
            "pano_stream": None,
            "poster_h": None,
            "mezzanine_video": None,
            "vast_url": None,
            "stats_enabled": False,
            "data_partner_id": None,
            "home_team_id": None,
            "away_team_id": None,
            "parent_event_id": None,
            "highlight_kind": None,
            "start_time_ms": None,
            "end_time_ms": None,
            "duration_s": None,
            "created": min(event_date, self.now),
            "updated": min(event_date, self.now),
        }
        row.update(columns)
        self.data.events.append(row)
        return row

    def _link(self, event_id: str, league: LeagueSpec | None, sport_slug: str | None) -> None:
        if league is not None:
            self.data.event_identities.append(
                {"event_id": event_id, "identity_id": self.league_id(league.slug), "identity_type": "identity_item"}
            )
        if sport_slug is not None:
            self.data.event_identities.append(
                {"event_id": event_id, "identity_id": self.sport_id(sport_slug), "identity_type": "identity"}
            )

    def channels(self) -> None:
        started = _floor(self.now, 60) - timedelta(days=1)
        for channel in self.spec.channels:
            sport = self.spec.sport_by_type(channel.sport_type) if channel.sport_type else None
            row = self._event(
                title=channel.title,
                status="channel",
                event_date=started,
                ref_slug=channel.slug,
                description=channel.description,
                sport_type=channel.sport_type,
                event_type="channel",
                game_type="other",
                commerce_type=channel.commerce_type,
                commerce_modes=list(channel.commerce_modes),
                hls_stream=live_url(channel.sample),
                poster_h=poster_url(channel.slug),
                created=self.now - timedelta(days=200),
                updated=self.now - timedelta(days=200),
            )
            self._link(row["id"], None, sport.slug if sport else None)

    def _commerce(self) -> tuple[str, list[str]]:
        kind, _, modes = self.rng.choices(COMMERCE, weights=[c[1] for c in COMMERCE])[0]
        return kind, list(self.rng.choice(modes))

    def games(self) -> None:
        leagues = [lg for lg in self.spec.leagues if not lg.archived]
        weights = [len(lg.team_slugs) * (0.5 if lg.is_cup else 1.0) for lg in leagues]
        # Live games go round the sports so every sport has one on air.
        by_sport = [[lg for lg in s.leagues if not lg.is_cup and not lg.archived] for s in self.spec.sports]
        live_leagues = [group[i] for i in range(max(map(len, by_sport))) for group in by_sport if i < len(group)]
        busy: set[tuple[str, int]] = set()  # (team, day): nobody plays twice a day
        plan = (
            ["live"] * LIVE_GAMES
            + ["soon"] * SOON_GAMES
            + ["upcoming"] * (UPCOMING_GAMES - SOON_GAMES)
            + ["archived"] * ARCHIVED_GAMES
        )
        archived_leagues = [lg for lg in self.spec.leagues if lg.archived]
        for n, kind in enumerate(plan):
            if kind == "live":
                league = live_leagues[n % len(live_leagues)]
            elif kind == "archived" and archived_leagues and n % 40 == 0:
                league = archived_leagues[(n // 40) % len(archived_leagues)]
            else:
                league = self.rng.choices(leagues, weights)[0]
            for _attempt in range(12):
                day = self._day(kind, league)
                free = [t for t in league.team_slugs if (t, day) not in busy]
                if len(free) >= 2:
                    break
            home_slug, away_slug = self.rng.sample(free if len(free) >= 2 else list(league.team_slugs), 2)
            busy.update({(home_slug, day), (away_slug, day)})
            self._game(kind, league, self.spec.teams[home_slug], self.spec.teams[away_slug], day)

    def _day(self, kind: str, league: LeagueSpec) -> int:
        """Day index of a game (drawn without looking at `now`)."""
        if kind in ("live", "soon"):
            return 0
        if kind == "upcoming":
            return self.rng.randint(1, 30)
        return -self.rng.randint(95 if league.archived else 0, 119)

    def _game(self, kind: str, league: LeagueSpec, home: TeamSpec, away: TeamSpec, day: int) -> None:
        rng = self.rng
        sport = self.spec.sport(league.sport)
        rules = RULES.get(sport.sport_type, RULES["football"])
        minutes = rules.minutes + rng.randint(-10, 15)
        slot = rng.choice(rules.kickoffs)
        ago, ahead, delay = rng.randint(15, 85), rng.uniform(0.75, 23.5), rng.randint(3, 10)
        if kind == "live":
            event_date = _floor(self.now - timedelta(minutes=ago), 5)
        elif kind == "soon":
            event_date = _ceil(self.now + timedelta(hours=ahead), 15)
        else:
            event_date = self.midnight + timedelta(days=day, hours=slot[0], minutes=slot[1])
            if kind == "archived" and event_date + timedelta(minutes=minutes + 10) > self.now:
                event_date -= timedelta(days=1)  # today's late games have not finished yet
        kickoff = event_date + timedelta(minutes=delay)
        status = "upcoming" if kind == "soon" else kind
        commerce_type, modes = self._commerce()
        vast = rng.random() < (LIVE_AD_SHARE if kind == "live" else ARCHIVED_AD_SHARE)
        blocked = rng.random() < 0.05
        title = f"{home.name} vs {away.name}"
        row = self._event(
            title=title,
            status=status,
            event_date=event_date,
            ref_slug=f"{home.slug}-{away.slug}",
            search_text=_search_text(title, home, away),
            game_start_date=kickoff,
            sport_type=sport.sport_type,
            gender=league.gender,
            commerce_type=commerce_type,
            commerce_modes=modes,
            poster_h=poster_url(league.slug),
            home_team_id=self.team_id(home.slug),
            away_team_id=self.team_id(away.slug),
            created=min(event_date, self.now) - timedelta(days=rng.randint(3, 21), hours=rng.randint(0, 23)),
        )
        row["updated"] = row["created"]
        if status in ("live", "archived"):
            played = 1.0 if status == "archived" else (self.now - kickoff).total_seconds() / 60 / minutes
            # Own generator: how much of a live game is played depends on `now`, and so may the
            # number of draws; keeping them off self.rng keeps every later row independent of `now`.
            stats_rng = random.Random(f"{SEED}:{row['external_id']}")
            scores, overview = game_stats(
                sport.sport_type, stats_rng, (home.name, home.short_name), (away.name, away.short_name), played
            )
            self.data.event_stats.append({"event_id": row["id"], "scores": scores, "overview": overview})
            row.update(stats_enabled=True, data_partner_id=f"vs-{self.event_no:06d}")
        if status == "live":
            row["hls_stream"] = live_url(sport.sample)
        elif status == "archived":
            end = kickoff + timedelta(minutes=minutes)
            row.update(
                hls_stream=game_url(sport.sample, minutes * 60),
                end_date=end,
                duration_s=minutes * 60,
                # A few old games are region-locked, so that rule has data to act on.
                available_in_region=not (blocked and day < -60),
            )
        if status in ("live", "archived"):
            if self.vast_url and (self._first_free("ads", row) or vast):
                row["vast_url"] = self.vast_url
            pano = PANO_SAMPLES.get(sport.sample)
            if pano and (self._first_free("pano", row) or offers_pano(row["external_id"])):
                row["pano_stream"] = live_url(pano) if status == "live" else game_url(pano, row["duration_s"])
        self._link(row["id"], league, sport.slug)
        self.game_rows.append(row)
        self.meta[row["id"]] = (league, home, away)

    def _first_free(self, feature: str, row: dict) -> bool:
        """True for the first free game of its status to ask for `feature` (then for it alone)."""
        if row["commerce_type"] != FREE or not row["available_in_region"]:
            return False
        key = (feature, row["status"])
        return self.firsts.setdefault(key, row["id"]) == row["id"]

    def specials(self) -> None:
        for special in self.spec.specials:
            league = self.spec.league(special.league)
            sport = self.spec.sport(league.sport)
            start = self.now + timedelta(hours=special.offset_hours)
            start = _floor(start, 5) if special.status != "upcoming" else _ceil(start, 15)
            columns = {}
            if special.status == "archived":
                columns = {
                    "hls_stream": game_url(sport.sample, special.minutes * 60),
                    "end_date": start + timedelta(minutes=special.minutes),
                    "duration_s": special.minutes * 60,
                }
            elif special.status == "live":
                columns = {"hls_stream": live_url(sport.sample)}
            row = self._event(
                title=special.title,
                status=special.status,
                event_date=start,
                ref_slug=slugify(special.title),
                description=special.description,
                sport_type=sport.sport_type,
                event_type=special.event_type,
                game_type="other",
                gender=league.gender,
                poster_h=poster_url(league.slug),
                **columns,
            )
            self._link(row["id"], league, sport.slug)

    # descriptions need every game of a league in date order ----------------
    def describe_games(self) -> None:
        rounds: dict[str, int] = {}
        for row in sorted(self.game_rows, key=lambda r: (r["event_date"], r["external_id"])):
            league, home, away = self.meta[row["id"]]
            per_round = max(1, len(league.team_slugs) // 2)
            rounds[league.slug] = rounds.get(league.slug, 0) + 1
            stage = f"round {(rounds[league.slug] - 1) // per_round + 1}"
            venue = f"{home.city} {self.spec.sport(league.sport).venue}"
            verb = {"live": "are hosting", "upcoming": "host", "archived": "hosted"}[row["status"]]
            row["description"] = f"{league.title}, {stage}. {home.name} {verb} {away.name} at {venue}."

    # highlights and clips --------------------------------------------------
    def highlights(self) -> None:
        archived = [g for g in self.game_rows if g["status"] == "archived"]
        for i, game in enumerate(archived):
            if self.rng.random() >= 0.85 and i >= len(HIGHLIGHT_KINDS):
                continue
            kinds = self.rng.sample(HIGHLIGHT_KINDS, self.rng.randint(1, 4))
            if i < len(HIGHLIGHT_KINDS) and HIGHLIGHT_KINDS[i] not in kinds:
                kinds[0] = HIGHLIGHT_KINDS[i]  # every kind is guaranteed to exist
            for kind in kinds:
                self._highlight(game, kind)

    def _highlight(self, game: dict, kind: str) -> None:
        rng = self.rng
        league, home, away = self.meta[game["id"]]
        rules = RULES.get(game["sport_type"], RULES["football"])
        game_ms = game["duration_s"] * 1000
        length = rng.randint(*KIND_SECONDS[kind])
        start_ms = rng.randint(0, game_ms - length * 1000)
        published = min(game["end_date"] + timedelta(minutes=rng.randint(5, 90)), self.now - timedelta(minutes=1))
        stats = next((s["scores"] for s in self.data.event_stats if s["event_id"] == game["id"]), None)
        score = f"{stats['homeTeam']['score']}-{stats['awayTeam']['score']}" if stats else "vs"
        team = rng.choice((home, away))
        period = rules.period.format(n=rng.randint(1, 4 if "Q" in rules.period else 3), m=rng.randint(2, 90))
        title = {
            "auto": f"Key moments: {home.name} vs {away.name}",
            "recap": f"Recap: {home.name} vs {away.name}",
            "condensed": f"Condensed game: {home.name} vs {away.name}",
            "highlight": f"Highlights: {home.name} {score} {away.name}",
            "clip": f"{team.name} {rng.choice(rules.moments)}, {period}",
        }[kind]
        self.highlight_no += 1
        external_id = f"TL-HL-{self.highlight_no:06d}"
        sample = self.spec.sport(league.sport).sample
        row = dict(
            game,
            # Its range of the game's VOD (the same timeline), which is all its token opens.
            hls_stream=clip_url(sample, start_ms, start_ms + length * 1000),
            id=stable_id("event", external_id),
            external_id=external_id,
            reference_id=reference_id(kind, self.highlight_no),
            media_type="clip" if kind == "clip" else "highlight",
            highlight_kind=kind,
            status="archived" if kind == "clip" else "vod",
            title=title,
            description=f"{league.title}: {home.name} v {away.name}, {kind} ({length // 60}:{length % 60:02d}).",
            search_text=_search_text(title, home, away),
            event_date=published,
            game_start_date=None,
            end_date=None,
            commerce_type="commerce_free_media",
            commerce_modes=[],
            vast_url=None,
            pano_stream=None,  # an edited package: no panoramic camera of its own
            stats_enabled=False,
            data_partner_id=None,
            parent_event_id=game["id"],
            start_time_ms=start_ms,
            end_time_ms=start_ms + length * 1000,
            duration_s=length,
            created=published,
            updated=published,
        )
        self.data.events.append(row)
        self._link(row["id"], league, league.sport)

    # channel programme guides ----------------------------------------------
    def programmes(self) -> None:
        start = _floor(self.now, 60) - timedelta(days=1)
        end = start + timedelta(days=3)
        channel_rows = [e for e in self.data.events if e["status"] == "channel"]
        for channel_row, channel in zip(channel_rows, self.spec.channels, strict=True):
            pool = [g for g in self.game_rows if channel.sport_type in (None, g["sport_type"])]
            at, slot_no = start, 0
            while at < end:
                minutes = self.rng.choice((30, 45, 60, 60, 90, 120))
                pick, show = self.rng.random(), self.rng.choice(channel.shows)
                slot_end = at + timedelta(minutes=minutes)
                title, description, related = self._slot(at, slot_end, pool, pick, show)
                slot_no += 1
                self.data.epg_programmes.append(
                    {
                        "id": stable_id("epg", f"{channel.slug}:{slot_no}"),
                        "channel_id": channel_row["id"],
                        "starts_at": at,
                        "ends_at": slot_end,
                        "title": title,
                        "description": description,
                        "related_event_id": related,
                    }
                )
                at = slot_end

    def _slot(self, at: datetime, slot_end: datetime, pool: list[dict], pick: float, show: str):
        """A programme slot: a game that fits the time when there is one, else a studio show."""
        if pick < 0.6 and pool:
            if at <= self.now < slot_end:
                on_air = [g for g in pool if g["status"] == "live"]
                if on_air:
                    game = on_air[int(pick * 1000) % len(on_air)]
                    return f"Live: {game['title']}", game["description"], game["id"]
            elif at > self.now:
                starting = [g for g in pool if g["status"] == "upcoming" and at <= g["event_date"] < slot_end]
                if starting:
                    return f"Live: {starting[0]['title']}", starting[0]["description"], starting[0]["id"]
            finished = [g for g in pool if g["status"] == "archived" and g["end_date"] <= at]
            if finished:
                game = finished[int(pick * 1000) % len(finished)]
                return f"Replay: {game['title']}", game["description"], game["id"]
        return show, f"{show}: news, analysis and guests.", None

    def sort_orders(self) -> None:
        groups: dict[str, list[dict]] = {}
        for row in self.data.events:
            groups.setdefault(row["media_type"] if row["status"] != "channel" else "channel", []).append(row)
        for rows in groups.values():
            for n, row in enumerate(sorted(rows, key=lambda r: (r["event_date"], r["external_id"])), start=1):
                row["sort_order"] = n


def _extended(poster: str, target: str) -> dict:
    return {"PosterF": [{"url": poster, "targetUrl": target, "target": "_self"}], "MobilePosterF": []}


def build_catalogue(
    now: datetime | None = None, spec: CatalogueSpec | None = None, *, vast_url: str | None = DEFAULT_VAST_URL
) -> SeedData:
    """The whole demo catalogue as row dicts, deterministic for a given `now` (and `vast_url`:
    the ad tag of the games that carry ads; None or empty: no ads)."""
    builder = _Builder(spec or load_catalogue(), _utc(now), vast_url)
    builder.identities_and_teams()
    builder.channels()
    builder.games()
    builder.specials()
    builder.describe_games()
    builder.highlights()
    builder.programmes()
    builder.sort_orders()
    data = builder.data
    data.products, data.bundle_items = build_products(
        builder.spec, data.events, data.event_identities, builder.league_id, data.now
    )
    data.tags = build_tags(data.events, data.event_stats, data.teams, data.now)
    data.media_assets = own_assets(data.events, data.now)
    return data
