"""A match of the seed whose final score is known, loaded the way `touchline seed` loads it, for
the tests that look for that score in answers (spoiler-free mode, server/services/spoilers.py).

The match is the first free archived football game of the seed that did not end level and has a
"Highlights: Home 2-0 Away" highlight. It comes with its teams, stats, official tags (each goal
titled with the running score) and every highlight and clip cut from it. Two texts are added
that the seed itself does not write: the match's description ends with its result, as staff
write it after the final whistle, and the test catalogue's channel replays the highlight now, so
that every operation taking `spoilers` has a score to leave out.
"""

import functools
import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete

from server.models import EpgProgramme, Event, EventStats, Tag, Team, new_id
from server.seed.catalogue import SeedData, build_catalogue, table_of
from server.seed.loader import upsert


@dataclass(frozen=True)
class SeededMatch:
    game: dict
    highlight: dict  # "Highlights: Home 2-0 Away"
    cut_from_it: list[dict]  # every highlight and clip of the game, the one above included
    home_score: int
    away_score: int
    tags: list[dict]
    teams: list[dict]
    slot_id: str  # the channel's programme slot replaying the highlight

    def _name(self, side: str) -> str:
        return next(t["name"] for t in self.teams if t["id"] == self.game[f"{side}_team_id"])

    @property
    def home_name(self) -> str:
        return self._name("home")

    @property
    def away_name(self) -> str:
        return self._name("away")

    @property
    def score(self) -> re.Pattern[str]:
        """The final score in any form a text may give it: "2-0", "2 - 0", "2–0", "2—0" (not
        inside a longer number, such as a date's)."""
        return re.compile(rf"(?<!\d){self.home_score}\s*[-\u2013\u2014]\s*{self.away_score}(?!\d)")

    def shows_score(self, answer: Any) -> bool:
        """Whether the score is anywhere in a JSON answer (parsed), or in a text."""
        text = answer if isinstance(answer, str) else json.dumps(answer, ensure_ascii=False)
        return self.score.search(text) is not None


@functools.cache
def _seed() -> SeedData:
    return build_catalogue(datetime.now(UTC))


def _pick(data: SeedData) -> SeededMatch:
    stats = {s["event_id"]: s for s in data.event_stats}
    for highlight in data.events:
        if highlight["highlight_kind"] != "highlight":
            continue
        game = next(e for e in data.events if e["id"] == highlight["parent_event_id"])
        scores = stats[game["id"]]["scores"]
        home, away = scores["homeTeam"]["score"], scores["awayTeam"]["score"]
        if (
            game["sport_type"] == "football"
            and game["commerce_type"] == "commerce_free_media"
            and game["available_in_region"]
            and home != away
        ):
            result = f"Final score: {scores['homeTeam']['name']} {home}-{away} {scores['awayTeam']['name']}."
            return SeededMatch(
                game={**game, "description": f"{game['description']} {result}"},
                highlight=highlight,
                cut_from_it=[e for e in data.events if e["parent_event_id"] == game["id"]],
                home_score=home,
                away_score=away,
                tags=[t for t in data.tags if t["target_id"] == game["id"]],
                teams=[t for t in data.teams if t["id"] in (game["home_team_id"], game["away_team_id"])],
                slot_id=new_id(),
            )
    raise LookupError("the seed has no free football game with a scored highlight")


@asynccontextmanager
async def seeded_match(database, channel_id: str) -> AsyncIterator[SeededMatch]:
    """The match loaded (and gone again afterwards), its highlight replayed on `channel_id`."""
    data = _seed()
    match = _pick(data)
    stats = next(s for s in data.event_stats if s["event_id"] == match.game["id"])
    now = datetime.now(UTC)
    slot = {
        "id": match.slot_id,
        "channel_id": channel_id,
        "starts_at": now - timedelta(minutes=10),
        "ends_at": now + timedelta(minutes=20),
        "title": f"Replay: {match.highlight['title']}",
        "description": match.game["description"],
        "related_event_id": match.highlight["id"],
    }
    events = [match.game, *match.cut_from_it]
    async with database.engine.begin() as conn:
        await conn.run_sync(
            lambda sync: [
                upsert(sync, table, rows)
                for table, rows in (
                    (table_of(Team), match.teams),
                    (table_of(Event), events),
                    (table_of(EventStats), [stats]),
                    (table_of(Tag), match.tags),
                    (table_of(EpgProgramme), [slot]),
                )
            ]
        )
    try:
        yield match
    finally:
        async with database.engine.begin() as conn:
            await conn.execute(delete(EpgProgramme).where(EpgProgramme.id == match.slot_id))
            await conn.execute(delete(Tag).where(Tag.target_id == match.game["id"]))
            await conn.execute(delete(EventStats).where(EventStats.event_id == match.game["id"]))
            await conn.execute(delete(Event).where(Event.id.in_([e["id"] for e in match.cut_from_it])))
            await conn.execute(delete(Event).where(Event.id == match.game["id"]))
            await conn.execute(delete(Team).where(Team.id.in_([t["id"] for t in match.teams])))


# The spoiler-free API tests' modes: the flag left out or `show` carries everything; `hide` does not.
MODES = {"absent": {}, "show": {"spoilers": "show"}}
HIDE = {"spoilers": "hide"}


async def answer(client, method: str, path: str, params: dict, **request) -> dict:
    """The JSON of a 200 answer to `method path?params` (below /api)."""
    response = await client.request(method, "/api" + path, params=params, **request)
    assert response.status_code == 200, response.text
    return response.json()
