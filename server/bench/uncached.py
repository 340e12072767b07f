"""`python -m server.bench.uncached`: uncached catalogue reads (`TOUCHLINE_CATALOGUE_CACHE_SECONDS=0`,
every request asks the database) of this tree against an earlier revision, on SQLite and on
PostgreSQL, in one run on this machine.

The kickoff issue asks for at least three times the rate of its day. The earlier revision (by
default the last one before that work) is checked out into var/bench/, its own migrations and
bulk filler make its database, and both servers run the same way from the same virtualenv (its
code must still run with today's packages). Rounds alternate the trees, and the median of each
side is compared, so a busy moment of the machine does not favour either.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from .load import LoadResult
from .servers import _REPO_ROOT, analyzed, run_server
from .signed_in import LIST_BODY, REQUESTS_LUA, _check, _lua, _wrk_script

# The last revision before the kickoff issue's work.
BASELINE = "c65c32e5102b4b902da4f4436698cbf36bc0cad3"
VAR = Path(_REPO_ROOT) / "var" / "bench"
PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
TARGET = 3.0
EVENTS = 2000


def log(msg: str) -> None:
    print(f"[bench uncached] {msg}", file=sys.stderr, flush=True)


def checkout(revision: str) -> Path:
    """`revision`'s tree under var/bench (a detached worktree, made again each run)."""
    tree = VAR / "baseline-tree"
    subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=_REPO_ROOT, capture_output=True)
    shutil.rmtree(tree, ignore_errors=True)
    subprocess.run(["git", "worktree", "prune"], cwd=_REPO_ROOT, check=True, capture_output=True)
    subprocess.run(
        ["git", "worktree", "add", "--detach", "--force", str(tree), revision],
        cwd=_REPO_ROOT,
        check=True,
        capture_output=True,
    )
    return tree


def _in_tree(tree: Path, code: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, check=True, capture_output=True)


def prepare(tree: Path, side: str, database: str, events: int) -> str:
    """A database made by `tree`'s own migrations and filled by its own bulk filler; its URL."""
    if database == "sqlite":
        path = VAR / f"uncached-{side}.db"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        url = f"sqlite+aiosqlite:///{path}"
    else:
        import psycopg

        name = f"touchline_bench_uncached_{side}"
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            conn.execute(f"CREATE DATABASE {name}")
        url = f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    _in_tree(tree, f"from server.migrate import upgrade; upgrade({url!r})")
    _in_tree(tree, f"from server.seed.bulk import fill_events; fill_events({url!r}, {events})")
    return analyzed(url)  # both sides alike


def measure(tree: Path, url: str, args: argparse.Namespace, label: str) -> dict[str, LoadResult]:
    env = {
        "PYTHONPATH": str(tree),
        "DATABASE_URL": url,
        "TOUCHLINE_CATALOGUE_CACHE_SECONDS": "0",
        "TOUCHLINE_RESPONSE_VALIDATION": "false",
    }
    out: dict[str, LoadResult] = {}
    with run_server("server.bench.servers:touchline_app", env, cwd=str(tree)) as server:
        listed = _check(server.port, "POST", "/api/event/list", LIST_BODY)["content"]["entries"]
        page = f"/api/event/get_by_id/id/{listed[0]['_id']}"
        for name, method, path, body in (
            ("event page", "GET", page, None),
            ("event list", "POST", "/api/event/list", LIST_BODY),
        ):
            script = REQUESTS_LUA % ('""', _lua(method), _lua(path), _lua(body))
            out[name] = _wrk_script(server.base_url + path, f"{name} ({label})", script, args.duration, 64)
    return out


def median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m server.bench.uncached", description=__doc__.splitlines()[0])
    p.add_argument("--baseline", default=os.environ.get("BENCH_BASELINE_REV", BASELINE))
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--duration", type=int, default=8)
    p.add_argument("--events", type=int, default=EVENTS)
    args = p.parse_args(argv)
    VAR.mkdir(parents=True, exist_ok=True)
    trees = {"baseline": checkout(args.baseline), "today": Path(_REPO_ROOT)}
    lines = [
        f"cores: {os.cpu_count()}; baseline {args.baseline[:12]}; {args.rounds} rounds, alternating; "
        f"{args.events} events; cache off",
        f"{'read':<24} {'baseline req/s':>15} {'today req/s':>12} {'x':>6}  target x{TARGET:g}",
    ]
    report: dict[str, dict[str, float]] = {}
    for database in ("sqlite", "postgres"):
        urls = {side: prepare(tree, side, database, args.events) for side, tree in trees.items()}
        rates: dict[str, dict[str, list[float]]] = {side: {} for side in trees}
        for round_ in range(args.rounds):
            order = list(trees) if round_ % 2 == 0 else list(reversed(trees))
            for side in order:
                log(f"{database}, round {round_ + 1}: {side}")
                for name, result in measure(trees[side], urls[side], args, f"{side}, {database}").items():
                    if result.errors:
                        raise RuntimeError(f"{result.name}: {result.errors} errors")
                    rates[side].setdefault(name, []).append(result.requests_per_s)
        for name in rates["today"]:
            before, after = median(rates["baseline"][name]), median(rates["today"][name])
            ratio = after / before
            report[f"{name} ({database})"] = {"baseline": before, "today": after, "ratio": ratio}
            verdict = "PASS" if ratio >= TARGET else "FAIL"
            lines.append(f"{name + f' ({database})':<24} {before:15.0f} {after:12.0f} {ratio:6.2f}  {verdict}")
    (VAR / "uncached.json").write_text(json.dumps(report, indent=2))
    print("\n== Uncached catalogue reads, today against the kickoff issue's day\n" + "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
