"""Search over what the search box promises: teams, leagues, categories, sports and events.

Every word of the query must match. A word matches a name word exactly, as its beginning, inside
it, or, when it is long enough, within a small edit distance (a typo); results rank in that
order. Team, league, category and sport names are few, so they are matched here in Python
against a snapshot of them, which also gives the vocabulary for typos (a symmetric-delete index:
a typo finds its words without comparing it with every word). Events are many: each word becomes
the word itself plus the vocabulary words it may be a typo of, plus the sports it names, and the
database finds the events through its index (FTS5 trigram table `event_search` on SQLite, a
pg_trgm GIN index on PostgreSQL; migration 0010).
"""

import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from sqlalchemy import (
    ColumnElement,
    Integer,
    Select,
    and_,
    bindparam,
    false,
    func,
    literal_column,
    not_,
    or_,
    select,
    table,
    text,
)
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

from ..errors import ApiError
from ..models import Event, Identity, Team
from .events import EventView, views_of
from .paging import Page, PageQuery

MAX_WORDS = 8
EXACT, PREFIX, INSIDE, FUZZY = 0, 1, 2, 3
# Whole words of names and queries: letters and digits of any script.
_WORD = re.compile(r"\w+", re.UNICODE)
# The most typo-alternatives one query word brings to the event query.
MAX_ALTERNATIVES = 12


def max_edits(word: str) -> int:
    """How many typos a word of this length may carry: none below 4 letters (too many words
    are one edit apart), one up to 7, two from 8."""
    return 0 if len(word) < 4 else 1 if len(word) <= 7 else 2


def edit_distance(a: str, b: str, limit: int) -> int:
    """Optimal string alignment distance (an adjacent swap is one edit); `limit + 1` once over it."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        best = current[0]
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                value = min(value, previous2[j - 2] + 1)
            current[j] = value
            best = min(best, value)
        if best > limit:
            return limit + 1
        previous2, previous = previous, current
    return previous[len(b)] if previous[len(b)] <= limit else limit + 1


def _deletes(word: str, edits: int) -> set[str]:
    out = {word}
    for n in range(1, min(edits, len(word) - 1) + 1):
        for positions in combinations(range(len(word)), n):
            out.add("".join(c for i, c in enumerate(word) if i not in positions))
    return out


class Vocabulary:
    """Name words, and which of them a typo may stand for (symmetric delete: a word and a typo
    within k edits share a string made by deleting at most k letters from each)."""

    def __init__(self, words: Iterable[str]) -> None:
        self.words = frozenset(w for w in words if len(w) >= 3)
        self._by_delete: dict[str, set[str]] = {}
        for word in self.words:
            for deleted in _deletes(word, 2):
                self._by_delete.setdefault(deleted, set()).add(word)

    def near(self, word: str) -> list[str]:
        """Vocabulary words within `max_edits(word)` of `word` (not `word` itself), nearest first."""
        limit = max_edits(word)
        if not limit:
            return []
        candidates: set[str] = set()
        for deleted in _deletes(word, limit):
            candidates |= self._by_delete.get(deleted, set())
        candidates.discard(word)
        scored = [(edit_distance(word, c, limit), c) for c in candidates]
        return [c for d, c in sorted(scored) if d <= limit]


def words_of(q: str) -> list[str]:
    if "\x00" in q:  # no database stores it (PostgreSQL refuses it in text), so nothing could match
        raise ApiError(
            "q must not contain NUL",
            code="validation_error",
            details=[{"field": "q", "message": "must not contain NUL"}],
        )
    words = list(dict.fromkeys(w for w in q.lower().split() if w))[:MAX_WORDS]
    if not words:
        raise ApiError(
            "q needs at least one word",
            code="validation_error",
            details=[{"field": "q", "message": "needs at least one word"}],
        )
    return words


def _name_words(*names: str | None) -> tuple[str, ...]:
    return tuple(dict.fromkeys(w for name in names if name for w in _WORD.findall(name.lower())))


@dataclass(frozen=True)
class Named:
    """A team, league, category or sport as search sees it."""

    id: str  # the sport type for a sport
    title: str
    words: tuple[str, ...]
    image: str | None = None
    sport_type: str | None = None
    short_title: str | None = None


@dataclass(frozen=True)
class Match:
    item: Named
    rank: int  # the worst of its words' matches: EXACT, PREFIX, INSIDE or FUZZY
    score: int  # the sum of them, to order within a rank


@dataclass
class Snapshot:
    stamp: tuple
    teams: list[Named]
    leagues: list[Named]
    categories: list[Named]
    sports: list[Named]
    vocabulary: Vocabulary


@dataclass
class Query:
    """One query's words, what each may be a typo of, and how each matches a name word.

    `typos` are the name words within reach of each word, for ranking names (a typo match ranks
    last). `event_typos` are those the event query adds: only for a word that is part of no name
    word, so a word typed right never pulls other teams' games into its events."""

    words: list[str]
    typos: dict[str, list[str]]
    event_typos: dict[str, list[str]] = field(default_factory=dict)
    _tiers: dict[tuple[str, str], int | None] = field(default_factory=dict)

    def tier(self, word: str, name_word: str) -> int | None:
        key = (word, name_word)
        if key not in self._tiers:
            if name_word == word:
                found: int | None = EXACT
            elif name_word.startswith(word):
                found = PREFIX
            elif word in name_word:
                found = INSIDE
            elif name_word in self.typos[word]:
                found = FUZZY
            else:
                found = None
            self._tiers[key] = found
        return self._tiers[key]

    def match(self, item: Named) -> Match | None:
        ranks = []
        for word in self.words:
            tiers = [t for t in (self.tier(word, w) for w in item.words) if t is not None]
            if not tiers:
                return None
            ranks.append(min(tiers))
        return Match(item, max(ranks), sum(ranks))

    def ranked(self, items: Sequence[Named], limit: int) -> list[Match]:
        found = [m for m in (self.match(item) for item in items) if m is not None]
        found.sort(key=lambda m: (m.rank, m.score, m.item.title.lower(), m.item.id))
        return found[:limit]


# --- the snapshot of names -----------------------------------------------------------------------

# Per database: names change rarely and are read by every search; a cheap stamp (counts and last
# changes of the two tables) tells when to read them again, so every process sees a change at once.
_snapshots: dict[str, Snapshot] = {}


def _database_of(db: AsyncSession) -> str:
    bind = db.bind
    engine = bind.engine if isinstance(bind, AsyncConnection) else bind
    return str(engine.url) if engine is not None else ""


def _stamp_query() -> Select:
    def of(model: type[Team] | type[Identity]) -> tuple:
        return (
            select(func.count()).select_from(model).scalar_subquery(),
            select(func.max(model.updated)).scalar_subquery(),
        )

    return select(*of(Team), *of(Identity))


_STAMP = _stamp_query()


def _sport_title(sport_type: str) -> str:
    return sport_type.replace("-", " ").title()


async def _read_snapshot(db: AsyncSession, stamp: tuple) -> Snapshot:
    teams = [
        Named(t.id, t.name, _name_words(t.name, t.short_name, t.city), t.logo, t.sport_type, t.short_name)
        for t in await db.scalars(select(Team).order_by(Team.name))
    ]
    identities = list(await db.scalars(select(Identity).order_by(Identity.title)))
    leagues = [
        Named(i.id, i.title, _name_words(i.title, i.short_title), i.poster_h, i.sport_type, i.short_title)
        for i in identities
        if i.media_type == "identity_item" and not i.archived
    ]
    categories = [
        Named(i.id, i.title, _name_words(i.title, i.short_title), i.poster_h, i.sport_type, i.short_title)
        for i in identities
        if i.media_type == "identity" and not i.archived
    ]
    titles: dict[str, str] = {}
    for i in identities:
        if i.media_type == "identity" and i.sport_type:
            titles.setdefault(i.sport_type, i.title)
    for sport_type in {t.sport_type for t in teams if t.sport_type} | {
        i.sport_type for i in identities if i.sport_type
    }:
        titles.setdefault(sport_type, _sport_title(sport_type))
    sports = [
        Named(sport, title, _name_words(sport, title), sport_type=sport)
        for sport, title in sorted(titles.items(), key=lambda s: s[1])
    ]
    words = {w for group in (teams, leagues, categories, sports) for item in group for w in item.words}
    return Snapshot(stamp, teams, leagues, categories, sports, Vocabulary(words))


async def snapshot(db: AsyncSession) -> Snapshot:
    stamp = tuple((await db.execute(_STAMP)).one())
    key = _database_of(db)
    current = _snapshots.get(key)
    if current is None or current.stamp != stamp:
        current = _snapshots[key] = await _read_snapshot(db, stamp)
    return current


def query_of(q: str, vocabulary: Vocabulary) -> Query:
    words = words_of(q)
    typos = {word: vocabulary.near(word)[:MAX_ALTERNATIVES] for word in words}
    # A word that is (part of) a name word is taken as meant by the event query.
    event_typos = {word: [] if any(word in w for w in vocabulary.words) else typos[word] for word in words}
    return Query(words, typos, event_typos)


# --- events ----------------------------------------------------------------------------------------


def _like_escape(word: str) -> str:
    return word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _contains(word: str) -> ColumnElement[bool]:
    return Event.search_text.like(f"%{_like_escape(word)}%", escape="\\")


def _fts_phrase(word: str) -> str:
    return '"' + word.replace('"', '""') + '"'


# SQLite reads the events a query's words are in one of three ways, by how many they are (a
# count of at most COMMON + 1 from the trigram table tells): at most FEW, by their rowids, then
# sorted; at most COMMON, by walking the date index newest first, each entry's rowid checked
# against the trigram table's matches, until the page is full; more, by the same walk checking
# each row's text, which stops early because so many rows match. On 100,000 events none reads
# more than a few hundred rows or a few thousand index entries (server/bench/search.py).
FEW = 200
COMMON = 1000
_ROWID: ColumnElement[int] = literal_column("events.rowid")


@dataclass(frozen=True)
class _Word:
    """What one query word matches in events: text (the word, or words it may be a typo of)
    anywhere in the search text, or the event's sport."""

    texts: tuple[str, ...]
    sports: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Condition:
    where: ColumnElement[bool]
    by_rowid: bool = False  # a short list of rowids: read those, not the date index


async def _condition(db: AsyncSession, words: Sequence[_Word], name: str) -> _Condition | None:
    """Events every word matches; None when the index says no event can. `name` names the
    condition's parameter (two conditions may meet in one statement)."""
    filters = []
    phrases = []
    for word in words:
        matches = or_(*(_contains(t) for t in word.texts))
        if word.sports:
            matches = or_(matches, Event.sport_type.in_(word.sports))
        elif all(len(t) >= 3 for t in word.texts):
            phrases.append("(" + " OR ".join(_fts_phrase(t) for t in word.texts) + ")")
        filters.append(matches)
    where = and_(*filters)
    if db.bind.dialect.name != "sqlite" or not phrases:
        # PostgreSQL's trigram index serves these LIKEs itself.
        return _Condition(where)
    # The trigram table finds any part of a word of three letters or more; first, how many.
    expression = " AND ".join(phrases)
    found = (await db.execute(_PROBE, {"fts": expression, "most": COMMON + 1})).scalar_one()
    if not found:
        return None
    if found > COMMON:
        return _Condition(where)
    # A bound parameter named after the condition: two conditions may meet in one statement.
    match = literal_column("event_search").op("MATCH")(bindparam(name, expression))
    matching: Select[tuple[int]] = (
        select(literal_column("rowid", Integer)).select_from(table("event_search")).where(match)
    )
    return _Condition(and_(_ROWID.in_(matching), where), by_rowid=found <= FEW)


_PROBE = text("SELECT count(*) FROM (SELECT rowid FROM event_search WHERE event_search MATCH :fts LIMIT :most)")


def _sports_named(query: Query, sports: Sequence[Named], tiers: tuple[int, ...]) -> dict[str, tuple[str, ...]]:
    """For each word, the sports it names by itself at these tiers ("football", "foot", "fotball")."""
    named: dict[str, tuple[str, ...]] = {}
    for word in query.words:
        one = Query([word], {word: query.event_typos[word]})
        # Not by a part inside a name ("ball" names no sport), nor by the beginning of one or two letters.
        wanted = [t for t in tiers if t != INSIDE and (t != PREFIX or len(word) >= 3)]
        named[word] = tuple(m.item.id for m in one.ranked(sports, len(sports)) if m.rank in wanted)
    return named


def _events(condition: _Condition, statuses: Sequence[str]) -> Select:
    # `|| ''` keeps SQLite off the date index when a short list of rowids is the way in.
    media_type = Event.media_type.concat("") if condition.by_rowid else Event.media_type
    stmt = select(Event.id, Event.updated).where(media_type == "event", condition.where)
    if statuses:
        stmt = stmt.where(Event.status.in_(statuses))
    return stmt.order_by(Event.event_date.desc(), Event.id.desc())


async def _rows(
    db: AsyncSession, condition: _Condition | None, statuses: Sequence[str], offset: int, limit: int
) -> list:
    if condition is None or limit <= 0:
        return []
    return list((await db.execute(_events(condition, statuses).offset(offset).limit(limit))).all())


async def _count(db: AsyncSession, condition: _Condition | None, statuses: Sequence[str]) -> int:
    if condition is None:
        return 0
    counted = _events(condition, statuses).order_by(None).subquery()
    return (await db.execute(select(func.count()).select_from(counted))).scalar_one()


async def _search_events(
    db: AsyncSession, query: Query, sports: Sequence[Named], statuses: Sequence[str], page: PageQuery
) -> Page[EventView]:
    """A page of the events every word matches: those matching every word as typed first, then
    those found through a typo, each part most recent first."""
    as_typed_sports = _sports_named(query, sports, (EXACT, PREFIX))
    typo_sports = _sports_named(query, sports, (EXACT, PREFIX, FUZZY))
    as_typed = await _condition(db, [_Word((w,), as_typed_sports[w]) for w in query.words], "as_typed")
    rows = await _rows(db, as_typed, statuses, page.offset, page.size + 1)
    if len(rows) <= page.size and any(query.event_typos.values()):
        anyway = await _condition(
            db, [_Word((w, *query.event_typos[w]), typo_sports[w]) for w in query.words], "with_typos"
        )
        if anyway is not None:
            # The pages go on into the typos' events once those as typed are all shown.
            before = page.offset + len(rows) if rows or not page.offset else await _count(db, as_typed, statuses)
            if as_typed is not None:
                typed = not_(func.coalesce(as_typed.where, false()))
                anyway = _Condition(and_(anyway.where, typed), anyway.by_rowid)
            rows += await _rows(db, anyway, statuses, max(0, page.offset - before), page.size + 1 - len(rows))
    next_exists = len(rows) > page.size
    rows = rows[: page.size]
    views = await views_of(db, [(row.id, row.updated) for row in rows])
    return Page(views, page, None, next_exists)


async def search_events(db: AsyncSession, q: str, statuses: Sequence[str], page: PageQuery) -> Page[EventView]:
    """Events whose title or team names hold every word (or a word it may be a typo of), or whose
    sport a word names; most recent first, those found through a typo after those as typed."""
    names = await snapshot(db)
    return await _search_events(db, query_of(q, names.vocabulary), names.sports, statuses, page)


# --- everything ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SportMatch:
    sport_type: str
    title: str
    count: int


@dataclass
class SearchResults:
    teams: list[Named]
    leagues: list[Named]
    categories: list[Named]
    sports: list[SportMatch]
    events: Page[EventView]


# Per database: (when, events per sport). Counting every event of a sport costs as much as a
# search; a sport's count may lag its events by this long.
COUNTS_SECONDS = 30.0
_counts: dict[str, tuple[float, dict[str, int]]] = {}


async def _event_counts(db: AsyncSession) -> dict[str, int]:
    key = _database_of(db)
    cached = _counts.get(key)
    if cached is not None and time.monotonic() - cached[0] < COUNTS_SECONDS:
        return cached[1]
    rows = await db.execute(
        select(Event.sport_type, func.count())
        .where(Event.media_type == "event", Event.sport_type.is_not(None))
        .group_by(Event.sport_type)
    )
    counts = {sport: count for sport, count in rows.tuples() if sport is not None}
    _counts[key] = (time.monotonic(), counts)
    return counts


async def search_all(db: AsyncSession, q: str, size: int, events_page: PageQuery) -> SearchResults:
    """Teams, leagues, categories and sports whose names hold every word (best matches first, at
    most `size` of each), and the first page of events (`search_events`)."""
    names = await snapshot(db)
    query = query_of(q, names.vocabulary)
    sports = query.ranked(names.sports, size)
    counts = await _event_counts(db) if sports else {}
    events = await _search_events(db, query, names.sports, (), events_page)
    return SearchResults(
        teams=[m.item for m in query.ranked(names.teams, size)],
        leagues=[m.item for m in query.ranked(names.leagues, size)],
        categories=[m.item for m in query.ranked(names.categories, size)],
        sports=[SportMatch(m.item.id, m.item.title, counts.get(m.item.id, 0)) for m in sports],
        events=events,
    )
