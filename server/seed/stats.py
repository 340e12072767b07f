"""Synthetic stats-partner (vidswap) payloads: "game-scores" and "game-overview".

    scores   = {homeTeam: {name, shortName, score, periods: [int, ...]}, awayTeam: {...}}
    overview = {groups: [{name: 'Match stats', metrics: [{shortName, name, filterId,
                homeTeamValue: {text, number}, awayTeamValue: {text, number}}, ...]}]}

Numbers are drawn per sport so they hang together (shots on target never exceed shots,
basketball points come from made baskets, save % from the other side's shots). `played`
(0..1] is how much of a live game has been played; periods not yet started are absent.
Values whose text ends in % never exceed 100 (the product spec's rule).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any


def _number(value: float) -> float | int:
    value = round(value, 1)
    return int(value) if value == int(value) else value


def _value(value: float, percent: bool) -> dict:
    number = _number(value)
    return {"text": f"{number}%" if percent else str(number), "number": number}


def metric(short: str, name: str, filter_id: str, home: float, away: float, *, percent: bool = False) -> dict:
    if percent and not (0 <= home <= 100 and 0 <= away <= 100):
        raise ValueError(f"{name}: percentages must be within 0..100")
    return {
        "shortName": short,
        "name": name,
        "filterId": filter_id,
        "homeTeamValue": _value(home, percent),
        "awayTeamValue": _value(away, percent),
    }


def _pct(made: int, attempts: int) -> float:
    return 100.0 * made / attempts if attempts else 0.0


def _split(total: int, weights: list[float]) -> list[int]:
    """Share `total` out in proportion to weights, in whole numbers that add up exactly."""
    raw = [total * w / sum(weights) for w in weights]
    parts = [math.floor(r) for r in raw]
    by_remainder = sorted(range(len(raw)), key=lambda i: (parts[i] - raw[i], i))
    for i in by_remainder[: total - sum(parts)]:
        parts[i] += 1
    return parts


def _periods_from_times(times: list[float], length: float, count: int) -> list[int]:
    periods = [0] * count
    for t in times:
        periods[min(int(t // length), count - 1)] += 1
    return periods


def _football(rng: random.Random, played: float) -> tuple[list[int], list[int], list[dict]]:
    goal_weights = [25, 33, 24, 11, 5, 2]
    minute = 90 * played
    started = 1 if minute <= 45 else 2
    sides: list[dict[str, Any]] = []
    for _ in range(2):
        goals = sorted(rng.uniform(0, 90) for _ in range(rng.choices(range(6), goal_weights)[0]))
        scored = [g for g in goals if g <= minute]
        shots = max(len(scored) + 2, round(rng.randint(7, 20) * played))
        on_target = min(shots, max(len(scored), round(shots * rng.uniform(0.3, 0.55))))
        sides.append(
            {
                "periods": _periods_from_times(scored, 45, started),
                "shots": shots,
                "on_target": on_target,
                "corners": round(rng.randint(2, 10) * played),
                "fouls": round(rng.randint(7, 16) * played),
                "yellow": round(rng.choices(range(6), [15, 25, 25, 18, 10, 7])[0] * played),
                "passes": rng.uniform(68, 91),
                "offsides": round(rng.randint(0, 5) * played),
            }
        )
    home, away = sides
    possession = rng.randint(34, 66)
    metrics = [
        metric("POS", "Possession", "possession", possession, 100 - possession, percent=True),
        metric("SH", "Shots", "shots", home["shots"], away["shots"]),
        metric("SOT", "Shots on target", "shots_on_target", home["on_target"], away["on_target"]),
        metric("PA", "Pass accuracy", "pass_accuracy", home["passes"], away["passes"], percent=True),
        metric("COR", "Corners", "corners", home["corners"], away["corners"]),
        metric("FLS", "Fouls", "fouls", home["fouls"], away["fouls"]),
        metric("YC", "Yellow cards", "yellow_cards", home["yellow"], away["yellow"]),
        metric("OFF", "Offsides", "offsides", home["offsides"], away["offsides"]),
    ]
    return home["periods"], away["periods"], metrics


def _basketball(rng: random.Random, played: float) -> tuple[list[int], list[int], list[dict]]:
    def scaled(n: int) -> int:
        return round(n * played)

    sides = []
    for _ in range(2):
        side: dict[str, Any] = {}
        for key, low, high, rate_low, rate_high in (
            ("3P", 22, 40, 0.25, 0.45),
            ("2P", 40, 62, 0.42, 0.58),
            ("FT", 10, 28, 0.65, 0.90),
        ):
            attempts = scaled(rng.randint(low, high))
            side[key] = (min(attempts, round(attempts * rng.uniform(rate_low, rate_high))), attempts)
        for key, low, high in (("REB", 34, 52), ("AST", 16, 30), ("TO", 8, 18), ("STL", 4, 11), ("BLK", 2, 8)):
            side[key] = scaled(rng.randint(low, high))
        sides.append(side)
    if played >= 1 and _points(sides[0]) == _points(sides[1]):
        made, attempts = sides[0]["FT"]  # no draws in basketball: one more free throw decides it
        sides[0]["FT"] = (made + 1, attempts + 1)
    started = min(4, max(1, math.ceil(played * 4 - 1e-9)))
    weights = [rng.uniform(0.8, 1.2) for _ in range(started)]
    weights[-1] *= played * 4 - (started - 1)  # the quarter under way is only partly played
    home, away = sides

    def field_goals(side: dict) -> float:
        return _pct(side["3P"][0] + side["2P"][0], side["3P"][1] + side["2P"][1])

    metrics = [
        metric("FG%", "Field goals", "field_goal_pct", field_goals(home), field_goals(away), percent=True),
        metric("3P%", "Three-pointers", "three_point_pct", _pct(*home["3P"]), _pct(*away["3P"]), percent=True),
        metric("FT%", "Free throws", "free_throw_pct", _pct(*home["FT"]), _pct(*away["FT"]), percent=True),
        metric("REB", "Rebounds", "rebounds", home["REB"], away["REB"]),
        metric("AST", "Assists", "assists", home["AST"], away["AST"]),
        metric("TO", "Turnovers", "turnovers", home["TO"], away["TO"]),
        metric("STL", "Steals", "steals", home["STL"], away["STL"]),
        metric("BLK", "Blocks", "blocks", home["BLK"], away["BLK"]),
    ]
    return _split(_points(home), weights), _split(_points(away), weights), metrics


def _points(side: dict) -> int:
    return 3 * side["3P"][0] + 2 * side["2P"][0] + side["FT"][0]


def _ice_hockey(rng: random.Random, played: float) -> tuple[list[int], list[int], list[dict]]:
    minute = 60 * played
    started = min(3, int(minute // 20) + 1)
    goal_weights = [10, 22, 26, 20, 12, 6, 4]
    times = [sorted(rng.uniform(0, 60) for _ in range(rng.choices(range(7), goal_weights)[0])) for _ in range(2)]
    goals = [[t for t in side if t <= minute] for side in times]
    periods = [_periods_from_times(side, 20, started) for side in goals]
    if played >= 1 and len(goals[0]) == len(goals[1]):
        winner = rng.randrange(2)  # overtime winner: a fourth period with one goal
        periods[0].append(int(winner == 0))
        periods[1].append(int(winner == 1))
    shots = [max(len(g) + 3, round(rng.randint(22, 40) * played)) for g in goals]
    # Save % is what the goaltender stopped of the *other* side's shots.
    saves = [_pct(shots[1] - sum(periods[1]), shots[1]), _pct(shots[0] - sum(periods[0]), shots[0])]
    faceoffs = rng.uniform(38, 62)
    pp = [min(sum(p), rng.randint(0, 2)) for p in periods]
    metrics = [
        metric("SOG", "Shots on goal", "shots_on_goal", shots[0], shots[1]),
        metric("SV%", "Save percentage", "save_pct", saves[0], saves[1], percent=True),
        metric("FO%", "Faceoffs won", "faceoff_pct", faceoffs, 100 - faceoffs, percent=True),
        metric("PPG", "Power-play goals", "power_play_goals", pp[0], pp[1]),
        metric("HIT", "Hits", "hits", round(rng.randint(12, 34) * played), round(rng.randint(12, 34) * played)),
        metric(
            "BS",
            "Blocked shots",
            "blocked_shots",
            round(rng.randint(8, 22) * played),
            round(rng.randint(8, 22) * played),
        ),
        metric(
            "PIM",
            "Penalty minutes",
            "penalty_minutes",
            2 * round(rng.randint(1, 7) * played),
            2 * round(rng.randint(1, 7) * played),
        ),
    ]
    return periods[0], periods[1], metrics


def _set_points(rng: random.Random, target: int) -> tuple[int, int]:
    """(winner, loser) points of one finished set."""
    if rng.random() < 0.18:
        loser = rng.randint(target - 1, target + 5)
        return loser + 2, loser
    return target, rng.randint(target - 11, target - 2)


def _volleyball(rng: random.Random, played: float) -> tuple[list[int], list[int], list[dict], tuple[int, int]]:
    match_winner = rng.randrange(2)
    sets_total = 3 + rng.choices([0, 1, 2], [40, 35, 25])[0]
    # The loser's won sets come before the decider; the winner takes the last set.
    winners = [match_winner] * 3 + [1 - match_winner] * (sets_total - 3)
    last = winners.pop(0)
    rng.shuffle(winners)
    winners.append(last)
    home_points, away_points = [], []
    progress = played * sets_total  # in sets
    finished = min(len(winners), math.floor(progress + 1e-9))
    for n, winner in enumerate(winners):
        if n > 0 and n >= progress:
            break  # not started yet
        win, lose = _set_points(rng, 15 if n == 4 else 25)
        share = min(1.0, progress - n)
        win, lose = round(win * share), round(lose * share)
        home_points.append(win if winner == 0 else lose)
        away_points.append(lose if winner == 0 else win)
    sets_won = (sum(1 for w in winners[:finished] if w == 0), sum(1 for w in winners[:finished] if w == 1))

    def scaled(low: int, high: int) -> int:
        return round(rng.randint(low, high) * played)

    metrics = [
        metric("ATT%", "Attack efficiency", "attack_pct", rng.uniform(34, 56), rng.uniform(34, 56), percent=True),
        metric("ACE", "Aces", "aces", scaled(2, 9), scaled(2, 9)),
        metric("BLK", "Blocks", "blocks", scaled(5, 15), scaled(5, 15)),
        metric("SE", "Service errors", "service_errors", scaled(8, 22), scaled(8, 22)),
        metric("REC%", "Positive reception", "reception_pct", rng.uniform(38, 66), rng.uniform(38, 66), percent=True),
        metric("DIG", "Digs", "digs", scaled(28, 62), scaled(28, 62)),
    ]
    return home_points, away_points, metrics, sets_won


_SPORTS: dict[str, Callable] = {
    "football": _football,
    "basketball": _basketball,
    "ice-hockey": _ice_hockey,
    "volleyball": _volleyball,
}


def game_stats(
    sport_type: str, rng: random.Random, home: tuple[str, str], away: tuple[str, str], played: float = 1.0
) -> tuple[dict, dict]:
    """(game-scores, game-overview) for a game; home/away are (name, short name)."""
    played = min(1.0, max(0.02, played))
    home_periods, away_periods, metrics, *sets_won = _SPORTS.get(sport_type, _football)(rng, played)
    # Volleyball's score is sets won (periods hold the points per set); elsewhere it is the sum.
    home_score, away_score = sets_won[0] if sets_won else (sum(home_periods), sum(away_periods))
    scores = {
        "homeTeam": {"name": home[0], "shortName": home[1], "score": home_score, "periods": home_periods},
        "awayTeam": {"name": away[0], "shortName": away[1], "score": away_score, "periods": away_periods},
    }
    return scores, {"groups": [{"name": "Match stats", "metrics": metrics}]}
