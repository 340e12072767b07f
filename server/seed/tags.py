"""Official match tags for the seeded archived games: their key moments on the timeline.

Derived from each game's seeded stats (server/seed/stats.py) so they agree with what the event
page shows: football and ice hockey get one goal tag per goal of the final score (each titled
with the running score, the last one the final score), football yellow cards as many as the
stats count and a few substitutions, ice hockey penalties from its penalty minutes; basketball
gets the score at the end of every quarter, volleyball the points of every set.

Positions are seconds from the start of the archived video, which runs from kick-off for the
game's `duration_s`: the broadcast is laid out as the sport's periods with breaks between them.
Each tag spans a few seconds before and after its moment. Ids are stable (the game's external id
and the tag's place in it) and every draw comes from a generator seeded by the game, so a
re-seed updates the same rows in place; tags are official, global and nobody's (`user_id` null).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from .fixtures import stable_id

SEED = 20261123
BEFORE_S, AFTER_S = 8, 14  # a tag covers the moment's build-up and aftermath


@dataclass(frozen=True)
class Layout:
    periods: int  # regular periods
    break_s: int  # between periods
    overtime_s: int = 0  # room kept after the last period for an overtime (ice hockey)
    match_minutes: int = 0  # game-clock minutes of a period, for titles (0: no clock in titles)


LAYOUTS = {
    "football": Layout(2, 15 * 60, match_minutes=45),
    "ice-hockey": Layout(3, 17 * 60, overtime_s=15 * 60, match_minutes=20),
    "basketball": Layout(4, 4 * 60),
    "volleyball": Layout(5, 3 * 60),
}


@dataclass(frozen=True)
class Side:
    team_id: str
    name: str
    short: str
    color: str


class _Game:
    def __init__(self, event: dict, stats: dict, home: Side, away: Side):
        self.event = event
        self.scores = stats["scores"]
        self.metrics = {m["filterId"]: m for m in stats["overview"]["groups"][0]["metrics"]}
        self.sides = (home, away)
        self.duration_s = event["duration_s"]
        self.layout = LAYOUTS[event["sport_type"]]
        self.rng = random.Random(f"{SEED}:{event['external_id']}")
        self.moments: list[tuple[float, dict]] = []
        regular = self.duration_s - self.layout.overtime_s - (self.layout.periods - 1) * self.layout.break_s
        self.period_s = max(60.0, regular / self.layout.periods)

    def period_start(self, n: int) -> float:
        return n * (self.period_s + self.layout.break_s)

    def clock(self, n: int, into: float) -> str:
        """How a title names the moment: the match minute (football), the period clock (hockey)."""
        minutes = self.layout.match_minutes * into / self.period_s
        if self.event["sport_type"] == "football":
            return f"{45 * n + min(45, int(minutes) + 1)}'"
        return f"P{n + 1} {int(minutes):02d}:{int(minutes * 60) % 60:02d}"

    def at_random(self, n: int, low: float = 0.02, high: float = 0.98) -> tuple[float, str]:
        into = self.rng.uniform(low, high) * self.period_s
        return self.period_start(n) + into, self.clock(n, into)

    def add(self, at: float, **fields) -> None:
        self.moments.append((at, fields))

    def player(self, side: int, subtype: str, title: str, at: float, number: int | None = None) -> None:
        team = self.sides[side]
        self.add(
            at,
            type="player",
            subtype=subtype,
            title=title,
            team_id=team.team_id,
            player_color=team.color,
            player_number=str(number if number is not None else self.rng.randint(2, 99)),
        )

    # sports --------------------------------------------------------------------------------------
    def goals(self) -> None:
        """One tag per goal in the periods the stats give each side (an overtime after the last)."""
        goals = []
        for side, key in enumerate(("homeTeam", "awayTeam")):
            for n, count in enumerate(self.scores[key]["periods"]):
                for _ in range(count):
                    if n < self.layout.periods:
                        at, clock = self.at_random(n)
                    else:  # overtime, after a break following the last period
                        start = self.period_start(self.layout.periods - 1) + self.period_s + 5 * 60
                        at = start + self.rng.uniform(0.05, 0.6) * (self.layout.overtime_s - 5 * 60)
                        clock = "OT"
                    goals.append((at, clock, side))
        score = [0, 0]
        home, away = self.sides
        for at, clock, side in sorted(goals):
            score[side] += 1
            self.player(
                side,
                "goal",
                f"Goal {clock} - {self.sides[side].name} ({home.short} {score[0]}-{score[1]} {away.short})",
                at,
            )

    def football(self) -> None:
        self.goals()
        for side, team in enumerate(self.sides):
            value = self.metrics.get("yellow_cards", {}).get("homeTeamValue" if side == 0 else "awayTeamValue", {})
            for _ in range(int(value.get("number", 0))):
                at, clock = self.at_random(self.rng.randrange(2), 0.1)
                self.player(side, "yellow_card", f"Yellow card {clock} - {team.name}", at)
            for _ in range(self.rng.randint(3, 5)):
                at, clock = self.at_random(1, 0.2, 0.95)
                number = self.rng.randint(12, 30)
                self.player(side, "substitution", f"Substitution {clock} - {team.name}, #{number} on", at, number)

    def ice_hockey(self) -> None:
        self.goals()
        for side, team in enumerate(self.sides):
            value = self.metrics.get("penalty_minutes", {}).get("homeTeamValue" if side == 0 else "awayTeamValue", {})
            for _ in range(int(value.get("number", 0)) // 2):  # two minutes a minor penalty
                at, clock = self.at_random(self.rng.randrange(3))
                self.player(side, "penalty", f"Penalty {clock} - {team.name}, 2 minutes", at)

    def basketball(self) -> None:
        home, away = self.sides
        total = [0, 0]
        quarters = list(zip(self.scores["homeTeam"]["periods"], self.scores["awayTeam"]["periods"], strict=True))
        for n, (h, a) in enumerate(quarters):
            total = [total[0] + h, total[1] + a]
            what = "Final" if n == len(quarters) - 1 else f"End of Q{n + 1}"
            self.add(
                self.period_start(n) + self.period_s - AFTER_S,
                type="game",
                subtype="period_end",
                title=f"{what}: {home.short} {total[0]}-{total[1]} {away.short}",
            )

    def volleyball(self) -> None:
        home, away = self.sides
        sets = list(zip(self.scores["homeTeam"]["periods"], self.scores["awayTeam"]["periods"], strict=True))
        won = [0, 0]
        # A match of fewer than five sets spreads them over the same broadcast.
        span = (self.duration_s - (len(sets) - 1) * self.layout.break_s) / max(1, len(sets))
        for n, (h, a) in enumerate(sets):
            winner = 0 if h > a else 1
            won[winner] += 1
            team = self.sides[winner]
            self.add(
                n * (span + self.layout.break_s) + span - AFTER_S,
                type="game",
                subtype="set_end",
                title=f"Set {n + 1} to {team.name}: {home.short} {h}-{a} {away.short} (sets {won[0]}-{won[1]})",
                team_id=team.team_id,
                player_color=team.color,
            )

    def rows(self, when: datetime) -> list[dict]:
        {
            "football": self.football,
            "ice-hockey": self.ice_hockey,
            "basketball": self.basketball,
            "volleyball": self.volleyball,
        }[self.event["sport_type"]]()
        rows = []
        limit_ms = self.duration_s * 1000
        for n, (at, fields) in enumerate(sorted(self.moments, key=lambda m: (m[0], m[1]["title"]))):
            moment_ms = min(round(at * 1000), limit_ms)
            start_ms = max(0, moment_ms - BEFORE_S * 1000)
            rows.append(
                {
                    "id": stable_id("tag", f"{self.event['external_id']}:{n}"),
                    "target_id": self.event["id"],
                    "user_id": None,
                    "start_ms": start_ms,
                    "end_ms": min(limit_ms, moment_ms + AFTER_S * 1000),
                    "time_pts": None,
                    "subtype": None,
                    "is_global": True,
                    "official": True,
                    "player_number": None,
                    "player_color": None,
                    "team_id": None,
                    "video_type": "vod",
                    "stream_name": "hd",
                    "mode": "sync",
                    "created": when,
                    "updated": when,
                    **fields,
                }
            )
        return rows


def build_tags(events: list[dict], event_stats: list[dict], teams: list[dict], now: datetime) -> list[dict]:
    """Official tags of every archived game with stats, in insert order."""
    stats_of = {s["event_id"]: s for s in event_stats}
    team_of = {t["id"]: Side(t["id"], t["name"], t["short_name"], t["color"]) for t in teams}
    rows: list[dict] = []
    for event in events:
        stats = stats_of.get(event["id"])
        if (
            event["media_type"] != "event"
            or event["status"] != "archived"
            or stats is None
            or not event["duration_s"]
            or event["sport_type"] not in LAYOUTS
            or event["home_team_id"] not in team_of
            or event["away_team_id"] not in team_of
        ):
            continue
        game = _Game(event, stats, team_of[event["home_team_id"]], team_of[event["away_team_id"]])
        # Loaded by staff after the final whistle (re-timed with the catalogue like every row).
        rows.extend(game.rows(min(event["end_date"] + timedelta(minutes=20), now)))
    return rows
