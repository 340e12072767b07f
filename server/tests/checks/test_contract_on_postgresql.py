"""`make contract` runs Schemathesis on PostgreSQL too (issue 26 §9), in a database of its own."""

import psycopg
import pytest

from server.checks import contract, pg_database

SERVER = pg_database.DEFAULT_SERVER_URL


def databases_named(prefix: str) -> list[str]:
    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres") as conn:
        rows = conn.execute("SELECT datname FROM pg_database WHERE datname LIKE %s", (f"{prefix}%",))
        return [name for (name,) in rows]


@pytest.fixture
def postgresql_server():
    if not pg_database.server_reachable(SERVER):
        pytest.skip("no PostgreSQL server at 127.0.0.1:5432")
    return SERVER


def test_each_run_gets_a_fresh_database_of_a_unique_name_dropped_afterwards(postgresql_server):
    with (
        pg_database.fresh_database(postgresql_server, prefix="touchline_h8test") as first,
        pg_database.fresh_database(postgresql_server, prefix="touchline_h8test") as second,
    ):
        assert first != second
        assert sorted(databases_named("touchline_h8test")) == sorted(url.rsplit("/", 1)[1] for url in (first, second))
    assert databases_named("touchline_h8test") == []


def test_the_database_is_dropped_when_the_check_fails(postgresql_server):
    with pytest.raises(RuntimeError), pg_database.fresh_database(postgresql_server, prefix="touchline_h8fail"):
        assert len(databases_named("touchline_h8fail")) == 1
        raise RuntimeError("the check broke")
    assert databases_named("touchline_h8fail") == []


def test_main_runs_schemathesis_a_second_time_on_postgresql(monkeypatch, tmp_path):
    runs = []

    def check_database(database_url, work, only):
        runs.append((database_url.split(":", 1)[0], only, databases_named(database_url.rsplit("/", 1)[1])))
        return {"Schemathesis": 0} if only == "schemathesis" else {"Dredd": 0, "Schemathesis": 0}

    monkeypatch.setattr(contract, "PROJECT_ROOT", tmp_path)
    monkeypatch.setattr(contract, "check_database", check_database)
    monkeypatch.setattr(contract, "_operations_index", dict)
    if not pg_database.server_reachable(SERVER):
        pytest.skip("no PostgreSQL server at 127.0.0.1:5432")
    assert contract.main([]) == 0
    [(sqlite, everything, _), (postgresql, only, existing)] = runs
    assert (sqlite, everything) == ("sqlite+aiosqlite", None)
    assert (postgresql, only) == ("postgresql+psycopg", "schemathesis") and len(existing) == 1
    assert databases_named(existing[0]) == []  # dropped afterwards


def test_main_leaves_postgresql_out_when_asked_or_when_one_database_is_chosen(monkeypatch, tmp_path):
    runs = []

    def check_database(url, work, only):
        runs.append(url)
        return {"Dredd": 0}

    monkeypatch.setattr(contract, "PROJECT_ROOT", tmp_path)
    monkeypatch.setattr(contract, "check_database", check_database)
    monkeypatch.setattr(contract, "_operations_index", dict)
    assert contract.main(["--no-postgresql"]) == 0
    assert contract.main(["--only", "dredd"]) == 0
    assert contract.main(["--database-url", "sqlite+aiosqlite:///elsewhere.db"]) == 0
    assert all(url.startswith("sqlite") for url in runs) and len(runs) == 3


def test_an_unreachable_postgresql_fails_the_run_clearly(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(contract, "PROJECT_ROOT", tmp_path)
    monkeypatch.setattr(contract, "check_database", lambda url, work, only: {"Dredd": 0})
    monkeypatch.setattr(contract, "_operations_index", dict)
    assert contract.main(["--postgresql-url", "postgresql+psycopg://postgres@127.0.0.1:9/postgres"]) == 1
    assert "PostgreSQL is not reachable" in capsys.readouterr().out
