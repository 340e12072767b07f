"""`touchline devices list|remove`, run as support staff would (CliRunner) against a real server."""

from typer.testing import CliRunner

from cli.main import app
from cli.tests.test_users import CLEAN_ENV, NOBODY, as_json, devices_answer, sign_in_elsewhere, sign_up, staff_env

runner = CliRunner()


def touchline(server, *args: str, **env: str | None):
    return runner.invoke(app, ["devices", *args], env={**CLEAN_ENV, **(staff_env(server) if server else {}), **env})


def test_list_shows_the_accounts_devices_and_its_limit(live_server):
    ada = sign_up(live_server)
    other = sign_in_elsewhere(live_server, ada)
    result = touchline(live_server, "list", ada["userId"])
    assert result.exit_code == 0, result.output
    assert ada["device"] in result.output and other in result.output
    assert "2 of 5 devices" in result.output


def test_list_json_prints_the_devices_and_the_limit(live_server):
    ada = sign_up(live_server)
    content = as_json(touchline(live_server, "--json", "list", ada["userId"]))
    assert [d["deviceId"] for d in content["devices"]] == [ada["device"]] and content["limit"] == 5


def test_remove_takes_the_device_away_and_signs_it_out(live_server):
    ada = sign_up(live_server)
    other = sign_in_elsewhere(live_server, ada)
    devices = as_json(touchline(live_server, "--json", "list", ada["userId"]))["devices"]
    [device] = [d for d in devices if d["deviceId"] == ada["device"]]
    result = touchline(live_server, "remove", ada["userId"], device["_id"])
    assert result.exit_code == 0, result.output
    assert f"Device {device['_id']} is removed from account {ada['userId']}" in result.output
    assert devices_answer(live_server, ada).status_code == 401
    left = as_json(touchline(live_server, "--json", "list", ada["userId"]))["devices"]
    assert [d["deviceId"] for d in left] == [other]


def test_an_unknown_device_ends_with_exit_code_1_and_the_apis_message(live_server):
    ada = sign_up(live_server)
    result = touchline(live_server, "remove", ada["userId"], NOBODY)
    assert result.exit_code == 1 and "Device not found (device_not_found)" in result.output


def test_the_browser_string_is_not_taken_for_the_devices_id():
    result = touchline(None, "remove", NOBODY, "Mozilla/5.0")
    assert result.exit_code == 1 and "'Mozilla/5.0' is not a device id" in result.output
    assert "touchline devices list" in result.output


def test_an_unknown_account_ends_with_exit_code_1(live_server):
    result = touchline(live_server, "list", NOBODY)
    assert result.exit_code == 1 and "User not found (user_not_found)" in result.output
