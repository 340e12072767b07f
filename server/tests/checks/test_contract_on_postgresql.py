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


def test_main_runs_schemathesis_on_postgresql_in_a_process_beside_the_other_checks(monkeypatch, tmp_path, capsys):
    runs: list[tuple[str, str | None]] = []
    started: list[tuple[list[str], list[str]]] = []

    class PostgresqlRun:
        """Stands for the second process: remembers its command and the database it was given."""

        def __init__(self, command, cwd, stdout, stderr):
            url = command[command.index("--database-url") + 1]
            started.append((command, databases_named(url.rsplit("/", 1)[1])))
            stdout.write(b"the PostgreSQL run's report\n")

        def wait(self):
            assert runs, "the checks on SQLite ran while the PostgreSQL run was under way"
            return 3

    def check_database(database_url, work, only):
        runs.append((database_url.split(":", 1)[0], only))
        return {"Dredd": 0, "Schemathesis": 0}

    monkeypatch.setattr(contract, "PROJECT_ROOT", tmp_path)
    monkeypatch.setattr(contract, "check_database", check_database)
    monkeypatch.setattr(contract, "_operations_index", dict)
    monkeypatch.setattr(contract.subprocess, "Popen", PostgresqlRun)
    if not pg_database.server_reachable(SERVER):
        pytest.skip("no PostgreSQL server at 127.0.0.1:5432")
    assert contract.main([]) == 1  # the PostgreSQL run's exit code counts
    assert runs == [("sqlite+aiosqlite", None)]
    [(command, existing)] = started
    assert command[command.index("--only") + 1] == "schemathesis" and "--work" in command
    assert len(existing) == 1 and databases_named(existing[0]) == []  # made for the run, dropped afterwards
    output = capsys.readouterr().out
    assert "the PostgreSQL run's report" in output and "Schemathesis on PostgreSQL: FAILED (exit 3)" in output


def test_the_postgresql_process_runs_schemathesis_alone_in_its_own_directory(monkeypatch, tmp_path):
    calls = []

    def check_database(url, work, only):
        calls.append((url, work, only))
        return {"Schemathesis": 1}

    monkeypatch.setattr(contract, "check_database", check_database)
    url = "postgresql+psycopg://postgres@127.0.0.1:5432/touchline_contract_x"
    assert contract.main(["--database-url", url, "--only", "schemathesis", "--work", str(tmp_path)]) == 1
    assert calls == [(url, tmp_path, "schemathesis")]


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
