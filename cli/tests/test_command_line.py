"""`touchline` follows the command-line conventions staff expect: a one-line description for
every command in the help, usage errors exit with 2, a server that cannot be reached is one line
naming the URL and how to set it, and no traceback ever reaches the terminal."""

import inspect
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from typer.core import TyperGroup
from typer.main import get_command
from typer.testing import CliRunner

from cli.main import app
from cli.tests.conftest import PASSWORD
from server.settings import get_settings

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
NOBODY = "f" * 24


def all_commands(command=None, path=()):
    """(path, command) for every command and group under `touchline`, hidden ones too."""
    command = command or get_command(app)
    for name, sub in getattr(command, "commands", {}).items():
        yield (*path, name), sub
        if isinstance(sub, TyperGroup):
            yield from all_commands(sub, (*path, name))


def description(command) -> str:
    """What `--help` shows beside the command's name: the first paragraph of its help."""
    return inspect.cleandoc(command.short_help or command.help or "").split("\n\n")[0].strip()


# --- help ----------------------------------------------------------------------------------------


COMMANDS = {" ".join(path): command for path, command in all_commands()}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_and_group_has_a_one_line_description(name):
    text = description(COMMANDS[name])
    assert text, f"`touchline {name}` has no description in the help"
    assert "\n" not in text, f"the description of `touchline {name}` runs over several lines: {text!r}"


def test_the_top_level_help_describes_serve_and_db():
    result = runner.invoke(app, ["--help"], env={"COLUMNS": "200"})
    lines = {line.strip("│ ").split(" ", 1)[0]: line for line in result.output.splitlines()}
    for name in ("serve", "db"):
        assert lines[name].strip("│ ") != name, lines[name]


# --- usage errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["keys", "create", "--role", "owner", "--name", "ci"],  # not one of the choices
        ["keys", "create", "--name", "ci"],  # a required option left out
        ["users", "find"],  # a required argument left out
        ["events", "list", "--no-such-option"],
        ["no-such-command"],
    ],
    ids=" ".join,
)
def test_usage_errors_exit_with_2(args):
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output


# --- unexpected errors -----------------------------------------------------------------------------


@pytest.fixture
def malformed_database_url(monkeypatch):
    """A database URL no driver takes: `touchline db upgrade` fails in SQLAlchemy, unexpectedly."""
    monkeypatch.setenv("DATABASE_URL", "nonsense://nowhere")
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def test_an_unexpected_exception_is_one_line_and_exit_code_1(malformed_database_url, monkeypatch):
    monkeypatch.delenv("TOUCHLINE_DEBUG", raising=False)
    result = runner.invoke(app, ["db", "upgrade"])
    assert result.exit_code == 1
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith("touchline: internal error: NoSuchModuleError: ")
    assert line.endswith("; run with TOUCHLINE_DEBUG=1 for the traceback")


def test_touchline_debug_lets_the_exception_through(malformed_database_url):
    result = runner.invoke(app, ["db", "upgrade"], env={"TOUCHLINE_DEBUG": "1"})
    assert result.exit_code == 1
    assert type(result.exception).__name__ == "NoSuchModuleError"


# --- as a terminal sees it: the real program, in a process of its own ---------------------------


def closed_port() -> int:
    """A port nothing listens on: bound, then closed."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def touchline_process(*args: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("TOUCHLINE_") and k not in ("REDIS_URL",)}
    return subprocess.run(
        [sys.executable, "-m", "cli.main", *args],
        cwd=ROOT,
        env={**clean, "TOUCHLINE_CONFIG_DIR": str(tmp_path), "COLUMNS": "300", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_process_never_prints_a_traceback(tmp_path):
    result = touchline_process("db", "upgrade", tmp_path=tmp_path, DATABASE_URL="nonsense://nowhere")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr + result.stdout
    assert len(result.stderr.splitlines()) == 1 and "internal error" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["users", "find", "ada"],
        ["events", "show", NOBODY],
        ["keys", "create", "--role", "support", "--name", "ci", "--json"],
        ["codes", "list"],
        ["socket", "emit", "update-event", "--room", f"event:{NOBODY}", "--data", '{"status": "live"}'],
        ["socket", "watch", "--room", f"event:{NOBODY}"],
    ],
    ids=lambda args: " ".join(args[:2]),
)
def test_a_server_that_cannot_be_reached_is_one_line_naming_its_url(args, tmp_path):
    url = f"http://127.0.0.1:{closed_port()}"
    result = touchline_process(
        *args,
        tmp_path=tmp_path,
        TOUCHLINE_API_URL=url,
        TOUCHLINE_STAFF_EMAIL="staff@example.com",
        TOUCHLINE_STAFF_PASSWORD=PASSWORD,
    )
    assert result.returncode == 1
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert f"Cannot reach the Touchline API at {url}" in line
    assert "--api-url" in line and "TOUCHLINE_API_URL" in line
    assert "Traceback" not in result.stderr


def test_a_staff_command_starts_without_the_consoles_or_the_clusters_modules():
    # Shell completion runs the program on every Tab: Textual and the ingest's server side (over a
    # second of CPU between them) load only for `touchline admin` and `touchline cluster`.
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, cli.main; print(' '.join(sys.modules))"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout.split()
    assert "cli.main" in loaded
    assert not [name for name in loaded if name == "textual" or name.startswith("server.ingest")]
