"""`touchline outbox list|show|resend`, run as support staff would (CliRunner) against a real server: the
mail is a password reset link the server wrote (no SMTP server: it stays in the outbox)."""

import json
import re

import httpx
from typer.testing import CliRunner

from cli.main import app
from cli.tests.conftest import MAIL_DROP
from cli.tests.test_users import CLEAN_ENV, NOBODY, as_json, sign_up, staff_env

runner = CliRunner()


def touchline(server, *args: str, **env: str | None):
    return runner.invoke(app, ["outbox", *args], env={**CLEAN_ENV, **(staff_env(server) if server else {}), **env})


def reset_mail(server) -> dict:
    """A viewer asks for a password reset; the address the mail went to."""
    ada = sign_up(server)
    answer = httpx.post(f"{server.url}/api/user/password/forgot", json={"email": ada["email"]})
    assert answer.status_code == 200, answer.text
    return ada


def test_list_shows_the_mail_to_an_address(live_server):
    ada = reset_mail(live_server)
    result = touchline(live_server, "list", "--to", ada["email"], "--kind", "password_reset")
    assert result.exit_code == 0, result.output
    [row] = [line for line in result.output.splitlines() if ada["email"] in line]
    assert "password_reset" in row and "kept" in row


def test_list_json_prints_the_page_the_api_answered(live_server):
    ada = reset_mail(live_server)
    content = as_json(touchline(live_server, "--json", "list", "--to", ada["email"], "--kind", "password_reset"))
    [mail] = content["entries"]
    assert mail["to"] == ada["email"] and mail["kind"] == "password_reset" and mail["status"] == "kept"


def test_list_says_when_nothing_matches(live_server):
    result = touchline(live_server, "list", "--to", "nobody-at-all@example.com")
    assert result.exit_code == 0 and "No mail matches." in result.output


def test_show_prints_one_mail_with_its_text(live_server):
    ada = reset_mail(live_server)
    [mail] = as_json(touchline(live_server, "--json", "list", "--to", ada["email"], "--kind", "password_reset"))[
        "entries"
    ]
    result = touchline(live_server, "show", mail["_id"])
    assert result.exit_code == 0, result.output
    assert f"To:       {ada['email']}" in result.output and mail["subject"] in result.output
    assert mail["text"].strip().splitlines()[0] in result.output


def test_show_json_prints_the_mail(live_server):
    ada = reset_mail(live_server)
    [mail] = as_json(touchline(live_server, "--json", "list", "--to", ada["email"], "--kind", "password_reset"))[
        "entries"
    ]
    assert as_json(touchline(live_server, "--json", "show", mail["_id"], "--to", ada["email"])) == mail


def test_show_of_an_unknown_mail_ends_with_exit_code_1(live_server):
    result = touchline(live_server, "show", NOBODY)
    assert result.exit_code == 1 and f"No mail {NOBODY} in the outbox" in result.output


def test_a_viewer_account_is_refused_with_exit_code_1(live_server):
    result = touchline(live_server, "list", TOUCHLINE_STAFF_EMAIL=live_server.viewer)
    assert result.exit_code == 1 and "(forbidden_role)" in result.output


def test_resend_writes_the_mail_again_as_a_new_entry(live_server):
    ada = reset_mail(live_server)
    [mail] = as_json(touchline(live_server, "--json", "list", "--to", ada["email"], "--kind", "password_reset"))[
        "entries"
    ]
    result = touchline(live_server, "resend", mail["_id"])
    assert result.exit_code == 0, result.output
    newest, original = as_json(
        touchline(live_server, "--json", "list", "--to", ada["email"], "--kind", "password_reset")
    )["entries"]
    assert original == mail and newest["_id"] != mail["_id"]
    assert (newest["subject"], newest["text"], newest["status"]) == (mail["subject"], mail["text"], "kept")
    assert f"is written again as {newest['_id']}: kept in the outbox" in " ".join(result.output.split())


def test_resend_json_prints_the_new_entry(live_server):
    ada = reset_mail(live_server)
    [mail] = as_json(touchline(live_server, "--json", "list", "--to", ada["email"], "--kind", "password_reset"))[
        "entries"
    ]
    resent = as_json(touchline(live_server, "--json", "resend", mail["_id"]))
    [newest, _original] = as_json(
        touchline(live_server, "--json", "list", "--to", ada["email"], "--kind", "password_reset")
    )["entries"]
    assert resent == newest and resent["to"] == ada["email"] and resent["kind"] == "password_reset"


def test_resend_of_an_unknown_mail_ends_with_exit_code_1(live_server):
    result = touchline(live_server, "resend", NOBODY)
    assert result.exit_code == 1 and "(mail_not_found)" in result.output


def test_resend_of_a_malformed_id_ends_with_exit_code_1_before_anything_is_sent():
    result = touchline(None, "resend", "not-an-id")
    assert result.exit_code == 1 and "is not a mail id" in result.output


def test_show_prints_a_reset_link_redacted_never_its_token(live_server):
    ada = reset_mail(live_server)
    [mail] = as_json(touchline(live_server, "--json", "list", "--to", ada["email"], "--kind", "password_reset"))[
        "entries"
    ]
    [dropped] = [json.loads(path.read_text()) for path in MAIL_DROP.glob(f"*-{mail['_id']}.json")]
    link = re.search(r"\?token=(\S+)", dropped["text"])
    assert link, dropped["text"]
    token = link.group(1)
    result = touchline(live_server, "show", mail["_id"])
    assert result.exit_code == 0, result.output
    assert "/auth/password/reset/?token=…redacted…" in result.output and token not in result.output
