"""Shell completion of event ids and e-mail addresses asks the server; with no server or no
credentials it completes nothing, quickly, and never prints an error into the line being typed.

The completions are asked the way bash asks them (`_TOUCHLINE_COMPLETE=complete_bash`, the words
typed so far in COMP_WORDS), so the whole path runs: Typer's completion, the staff options typed
so far, the admin API."""

import json
import shlex
import socket
import time

import pytest
from typer.testing import CliRunner

from cli.main import app
from cli.tests.conftest import PASSWORD

runner = CliRunner()
CLEAN_ENV = {
    "TOUCHLINE_API_URL": None,
    "TOUCHLINE_API_KEY": None,
    "TOUCHLINE_STAFF_EMAIL": None,
    "TOUCHLINE_STAFF_PASSWORD": None,
}


def signed_in(server) -> dict[str, str]:
    return {
        "TOUCHLINE_API_URL": server.url,
        "TOUCHLINE_STAFF_EMAIL": server.staff,
        "TOUCHLINE_STAFF_PASSWORD": PASSWORD,
    }


def completions(line: str, **env: str | None) -> list[str]:
    """What bash offers for the last word of `line` (a line ending in a space completes a new word)."""
    words = shlex.split(line)
    current = len(words) if line.endswith(" ") else len(words) - 1
    result = runner.invoke(
        app,
        [],
        prog_name="touchline",
        env={
            **CLEAN_ENV,
            **env,
            "_TOUCHLINE_COMPLETE": "complete_bash",
            "COMP_WORDS": line,
            "COMP_CWORD": str(current),
        },
    )
    assert result.exit_code == 0, result.output
    return result.stdout.split()


@pytest.fixture(scope="module")
def server(live_server):
    """The live server, once signed in to: its first sign-in starts its password hashing, which
    takes longer than a completion waits."""
    result = runner.invoke(app, ["users", "find", "nobody"], env={**CLEAN_ENV, **signed_in(live_server)})
    assert result.exit_code == 0, result.output
    return live_server


@pytest.fixture(scope="module")
def events(server) -> list[str]:
    """The ids of three events made for these tests."""
    made = []
    for title in ("Completion derby", "Completion cup final", "Completion friendly"):
        result = runner.invoke(
            app,
            ["events", "--json", "create", title, "--date", "2030-12-05T15:00:00Z", "--sport", "football"],
            env={**CLEAN_ENV, **signed_in(server)},
        )
        assert result.exit_code == 0, result.output
        made.append(json.loads(result.stdout)["_id"])
    return made


def test_an_event_id_completes_from_the_ids_starting_with_the_prefix(server, events):
    first = events[0]
    offered = completions(f"touchline events show {first[:20]}", **signed_in(server))
    assert first in offered
    assert all(event_id.startswith(first[:20]) for event_id in offered)


def test_an_empty_event_id_offers_the_newest_events(server, events):
    offered = completions("touchline events go-live ", **signed_in(server))
    assert set(events) <= set(offered)


def test_the_event_of_access_codes_completes_too(server, events):
    offered = completions(f"touchline codes list --event {events[1][:18]}", **signed_in(server))
    assert events[1] in offered


def test_the_staff_options_typed_before_the_word_are_used(server, events):
    line = (
        f"touchline events --api-url {server.url} --staff-email {server.staff} "
        f"--staff-password {shlex.quote(PASSWORD)} finish {events[2][:20]}"
    )
    assert events[2] in completions(line)


def test_ingest_commands_complete_event_ids_with_the_options_typed_before_either_group(server, events):
    assert events[0] in completions(f"touchline ingest test-pattern {events[0][:20]}", **signed_in(server))
    assert events[2] in completions(f"touchline ingest status {events[2][:20]}", **signed_in(server))
    line = (
        f"touchline ingest --api-url {server.url} --staff-email {server.staff} "
        f"--staff-password {shlex.quote(PASSWORD)} key rotate {events[1][:20]}"
    )
    assert events[1] in completions(line)


def test_the_qoe_command_and_the_credit_group_complete_event_ids(server, events):
    assert events[0] in completions(f"touchline qoe {events[0][:20]}", **signed_in(server))
    assert events[1] in completions(f"touchline credit show {events[1][:20]}", **signed_in(server))


def test_qoe_stands_alone_and_still_reads_the_staff_options_typed_before_the_word(server, events):
    line = (
        f"touchline qoe --api-url {server.url} --staff-email {server.staff} "
        f"--staff-password {shlex.quote(PASSWORD)} {events[2][:20]}"
    )
    assert events[2] in completions(line)
    assert completions(f"touchline qoe --api-url {server.url} {events[2][:20]}") == []  # signed in as nobody


def test_an_e_mail_address_completes_from_the_accounts_starting_with_it(server):
    staff = server.staff
    offered = completions(f"touchline outbox list --to {staff[:6]}", **signed_in(server))
    assert staff in offered
    assert all(email.startswith(staff[:6]) for email in offered)


def test_users_find_and_the_audit_actor_complete_e_mail_addresses(server):
    viewer = server.viewer
    assert viewer in completions(f"touchline users find {viewer[:8]}", **signed_in(server))
    assert viewer in completions(f"touchline audit list --actor {viewer[:8]}", **signed_in(server))


def test_without_credentials_nothing_is_completed(server, events):
    assert completions(f"touchline events show {events[0][:10]}", TOUCHLINE_API_URL=server.url) == []


def test_a_closed_port_completes_nothing_at_once():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    started = time.monotonic()
    offered = completions(
        "touchline events show 6",
        TOUCHLINE_API_URL=f"http://127.0.0.1:{port}",
        TOUCHLINE_STAFF_EMAIL="staff@example.com",
        TOUCHLINE_STAFF_PASSWORD=PASSWORD,
    )
    assert offered == []
    assert time.monotonic() - started < 1.5
