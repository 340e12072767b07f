"""fixtures/catalogue.yaml, read and checked: the hand-written half of the seed data.

The seed builder and the artwork generator both start here, so a name, slug or colour is
written once. Ids are derived from slugs (`stable_id`), which is what makes re-seeding an
upsert instead of a duplicate.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

FIXTURES_DIR = Path(__file__).resolve().parents[2] / "fixtures"
CATALOGUE_YAML = FIXTURES_DIR / "catalogue.yaml"
GENDERS = ("male", "female", "mixed")
_HEX_COLOUR = re.compile(r"^#[0-9a-f]{6}$")
_PLACEHOLDER = re.compile(r"^(team|club|league|channel|sport)\s*\d+$", re.I)


def slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower().replace("'", "")).strip("-")


def stable_id(kind: str, key: str) -> str:
    """24 hex characters like new_id(), but the same for the same thing on every run."""
    return hashlib.sha1(f"touchline:{kind}:{key}".encode()).hexdigest()[:24]


def social_links(handle: str, overrides: dict | None = None, *, youtube: bool = False) -> dict[str, str]:
    links = {
        "facebook": f"https://example.com/facebook/{handle}",
        "instagram": f"https://example.com/instagram/{handle}",
        "twitter": f"https://example.com/twitter/{handle}",
        "web": f"https://{handle}.example.com/",
    }
    if youtube:
        links["youtube"] = f"https://example.com/youtube/{handle}"
    links.update(overrides or {})
    return links


@dataclass(frozen=True)
class TeamSpec:
    slug: str
    name: str
    short_name: str
    city: str
    colors: tuple[str, str]
    social: dict
    sport_type: str
    league: str  # the league that lists it; cups add more memberships


@dataclass(frozen=True)
class LeagueSpec:
    slug: str
    title: str
    short_title: str
    gender: str
    colors: tuple[str, str]
    social: dict
    sport: str  # sport slug
    position: int  # 1-based order within its sport
    team_slugs: tuple[str, ...]
    is_cup: bool
    archived: bool


@dataclass(frozen=True)
class SportSpec:
    slug: str
    title: str
    short_title: str | None
    sport_type: str
    sample: str
    colors: tuple[str, str]
    social: dict
    venue: str
    position: int
    leagues: tuple[LeagueSpec, ...]


@dataclass(frozen=True)
class ChannelSpec:
    slug: str
    title: str
    sport_type: str | None
    sample: str
    colors: tuple[str, str]
    commerce_type: str
    commerce_modes: tuple[str, ...]
    description: str
    shows: tuple[str, ...]


@dataclass(frozen=True)
class SpecialSpec:
    title: str
    event_type: str
    league: str
    status: str
    offset_hours: float
    minutes: int
    description: str


@dataclass(frozen=True)
class CatalogueSpec:
    sports: tuple[SportSpec, ...]
    teams: dict[str, TeamSpec] = field(hash=False)
    channels: tuple[ChannelSpec, ...]
    specials: tuple[SpecialSpec, ...]

    @property
    def leagues(self) -> list[LeagueSpec]:
        return [league for sport in self.sports for league in sport.leagues]

    def league(self, slug: str) -> LeagueSpec:
        found = next((league for league in self.leagues if league.slug == slug), None)
        if found is None:
            raise KeyError(f"no league {slug!r} in the catalogue")
        return found

    def sport(self, slug: str) -> SportSpec:
        return next(s for s in self.sports if s.slug == slug)

    def sport_by_type(self, sport_type: str) -> SportSpec:
        return next(s for s in self.sports if s.sport_type == sport_type)


def _colours(raw, where: str) -> tuple[str, str]:
    colours = tuple(str(c).lower() for c in raw or ())
    if len(colours) != 2 or not all(_HEX_COLOUR.match(c) for c in colours):
        raise ValueError(f"{where}: colors must be two '#rrggbb' values, got {raw!r}")
    return colours


def _check_name(name: str, where: str) -> str:
    if not name or _PLACEHOLDER.match(name.strip()):
        raise ValueError(f"{where}: {name!r} looks like a placeholder name")
    return name


def parse_catalogue(doc: dict) -> CatalogueSpec:
    teams: dict[str, TeamSpec] = {}
    sports: list[SportSpec] = []
    for s_pos, raw_sport in enumerate(doc["sports"], start=1):
        sport_slug = raw_sport.get("slug") or slugify(raw_sport["title"])
        leagues: list[LeagueSpec] = []
        for l_pos, raw in enumerate(raw_sport["leagues"], start=1):
            slug = raw.get("slug") or slugify(raw["title"])
            where = f"league {slug}"
            if raw.get("gender") not in GENDERS:
                raise ValueError(f"{where}: gender must be one of {GENDERS}")
            own = []
            for raw_team in raw.get("teams", []):
                name = _check_name(raw_team["name"], "team")
                team_slug = raw_team.get("slug") or slugify(name)
                if team_slug in teams:
                    raise ValueError(f"duplicate team slug {team_slug}")
                if not 2 <= len(raw_team["short_name"]) <= 6:
                    raise ValueError(f"team {team_slug}: short_name should be a short form")
                teams[team_slug] = TeamSpec(
                    slug=team_slug,
                    name=name,
                    short_name=raw_team["short_name"],
                    city=raw_team["city"],
                    colors=_colours(raw_team.get("colors"), f"team {team_slug}"),
                    social=social_links(raw_team.get("handle") or team_slug.replace("-", ""), raw_team.get("social")),
                    sport_type=raw_sport["sport_type"],
                    league=slug,
                )
                own.append(team_slug)
            members = tuple(raw.get("members", ()))
            if own and members:
                raise ValueError(f"{where}: list teams or members, not both")
            leagues.append(
                LeagueSpec(
                    slug=slug,
                    title=_check_name(raw["title"], where),
                    short_title=raw["short_title"],
                    gender=raw["gender"],
                    colors=_colours(raw.get("colors"), where),
                    social=social_links(raw.get("handle") or slug.replace("-", ""), raw.get("social"), youtube=True),
                    sport=sport_slug,
                    position=l_pos,
                    team_slugs=tuple(own) or members,
                    is_cup=bool(members),
                    archived=bool(raw.get("archived", False)),
                )
            )
        sports.append(
            SportSpec(
                slug=sport_slug,
                title=raw_sport["title"],
                short_title=raw_sport.get("short_title"),
                sport_type=raw_sport["sport_type"],
                sample=raw_sport["sample"],
                colors=_colours(raw_sport.get("colors"), f"sport {sport_slug}"),
                social=social_links(
                    raw_sport.get("handle") or sport_slug.replace("-", ""), raw_sport.get("social"), youtube=True
                ),
                venue=raw_sport.get("venue", "Stadium"),
                position=s_pos,
                leagues=tuple(leagues),
            )
        )
    for sport in sports:
        for league in sport.leagues:
            for member in league.team_slugs:
                team = teams.get(member)
                if team is None or team.sport_type != sport.sport_type:
                    raise ValueError(f"league {league.slug}: unknown {sport.sport_type} team {member!r}")
            if len(league.team_slugs) < 2:
                raise ValueError(f"league {league.slug} needs at least two teams")
    channels = tuple(
        ChannelSpec(
            slug=raw.get("slug") or slugify(raw["title"]),
            title=_check_name(raw["title"], "channel"),
            sport_type=raw.get("sport_type"),
            sample=raw["sample"],
            colors=_colours(raw.get("colors"), f"channel {raw['title']}"),
            commerce_type=raw["commerce_type"],
            commerce_modes=tuple(raw.get("commerce_modes", ())),
            description=raw["description"],
            shows=tuple(raw["shows"]),
        )
        for raw in doc.get("channels", [])
    )
    specials = tuple(SpecialSpec(**raw) for raw in doc.get("specials", []))
    slugs = (
        [s.slug for s in sports]
        + [x.slug for s in sports for x in s.leagues]
        + list(teams)
        + [c.slug for c in channels]
    )
    duplicates = sorted({s for s in slugs if slugs.count(s) > 1})
    if duplicates:
        # Posters share one directory, so every slug must be unique across kinds.
        raise ValueError(f"slugs used twice: {duplicates}")
    spec = CatalogueSpec(tuple(sports), teams, channels, specials)
    for special in specials:
        spec.league(special.league)  # raises KeyError on a typo
    return spec


@lru_cache(maxsize=4)
def _load(path: str, mtime: float) -> CatalogueSpec:
    return parse_catalogue(yaml.safe_load(Path(path).read_text()))


def load_catalogue(path: Path = CATALOGUE_YAML) -> CatalogueSpec:
    path = Path(path)
    return _load(str(path), path.stat().st_mtime)
