"""The operator commands, run as an operator would (Typer's CliRunner, a fresh SQLite file)."""

import pytest
from typer.testing import CliRunner

from cli.main import app
from server.settings import get_settings

runner = CliRunner()


@pytest.fixture
def fresh_database(tmp_path, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path / 'cli.db'}")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def test_db_upgrade_reaches_head(fresh_database):
    result = runner.invoke(app, ["db", "upgrade"])
    assert result.exit_code == 0, result.output
    assert "database at head" in result.output


def test_seed_twice_inserts_nothing_the_second_time(fresh_database):
    first = runner.invoke(app, ["seed"])
    assert first.exit_code == 0, first.output
    second = runner.invoke(app, ["seed"])
    assert second.exit_code == 0, second.output
    assert "events: +0" not in first.output
    assert "events: +0" in second.output and "teams: +0" in second.output


def test_seed_shows_its_steps_on_a_progress_bar_on_stderr_and_the_summary_on_stdout(fresh_database):
    result = runner.invoke(app, ["seed"])
    assert result.exit_code == 0, result.output
    assert "Done" in result.stderr and "3/3" in result.stderr
    assert "events: +" in result.stdout and "3/3" not in result.stdout


def test_no_arguments_shows_help():
    result = runner.invoke(app, [])
    assert "seed" in result.output and "serve" in result.output
