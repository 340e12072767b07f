"""Refresh-token rotation through POST /oauth2/token (token exchange)."""

import asyncio
from datetime import timedelta

import pytest
from sqlalchemy import select, update

from server import clock
from server.models import AuthSession, Device, RefreshToken
from server.services.sessions import token_hash
from server.tests.accounts import bearer, new_device, refresh, sign_up


async def test_a_refresh_rotates_the_refresh_token_and_issues_a_working_access_token(client):
    account = await sign_up(client)
    answer = await refresh(client, account["tokenData"]["refresh_token"])
    assert answer.status_code == 200
    content = answer.json()["content"]
    assert content["expires_in"] == 900
    assert content["refresh_token"] != account["tokenData"]["refresh_token"]
    assert (await client.get("/api/user/get_devices", headers=bearer(content["token"]))).status_code == 200
    following = await refresh(client, content["refresh_token"])
    assert following.status_code == 200


async def test_twenty_concurrent_refreshes_rotate_once_and_nobody_is_logged_out(client):
    account = await sign_up(client)
    token, device = account["tokenData"]["refresh_token"], account["device_id"]
    answers = await asyncio.gather(*(refresh(client, token, device) for _ in range(20)))
    assert [a.status_code for a in answers] == [200] * 20
    new_tokens = {a.json()["content"]["refresh_token"] for a in answers}
    assert len(new_tokens) == 1, "every tab got the same new refresh token"
    (new_token,) = new_tokens
    assert (await refresh(client, new_token, device)).status_code == 200


async def test_a_duplicate_refresh_within_the_grace_window_gets_the_same_pair(client):
    account = await sign_up(client)
    first = (await refresh(client, account["tokenData"]["refresh_token"])).json()["content"]
    clock.advance(timedelta(seconds=20))
    second = (await refresh(client, account["tokenData"]["refresh_token"])).json()["content"]
    assert second["refresh_token"] == first["refresh_token"]


async def test_reusing_a_rotated_token_after_the_grace_window_revokes_the_session(client):
    account = await sign_up(client)
    fresh = (await refresh(client, account["tokenData"]["refresh_token"])).json()["content"]
    clock.advance(timedelta(seconds=31))
    reused = await refresh(client, account["tokenData"]["refresh_token"])
    assert reused.status_code == 401
    assert reused.json() == {"error": True, "message": "Expired Session", "messageErrorCode": "refresh_token_failed"}
    assert (await refresh(client, fresh["refresh_token"])).status_code == 401, "the whole session is over"
    assert (await client.get("/api/user/get_devices", headers=bearer(fresh["token"]))).status_code == 401


async def test_a_rotated_token_from_another_device_revokes_the_session_even_within_the_grace_window(client):
    account = await sign_up(client)
    fresh = (await refresh(client, account["tokenData"]["refresh_token"], account["device_id"])).json()["content"]
    stolen = await refresh(client, account["tokenData"]["refresh_token"], new_device())
    assert stolen.status_code == 401
    assert (await refresh(client, fresh["refresh_token"], account["device_id"])).status_code == 401


async def test_the_session_has_an_absolute_lifetime(client, settings):
    account = await sign_up(client)
    token = account["tokenData"]["refresh_token"]
    for _ in range(3):  # refreshing keeps it alive day to day...
        clock.advance(timedelta(days=9))
        answer = await refresh(client, token)
        assert answer.status_code == 200
        token = answer.json()["content"]["refresh_token"]
    clock.advance(timedelta(seconds=settings.session_lifetime - 27 * 24 * 3600 + 1))
    assert (await refresh(client, token)).status_code == 401  # ...but not past its absolute end


async def test_an_unused_refresh_token_expires(client, settings):
    account = await sign_up(client)
    clock.advance(timedelta(seconds=settings.refresh_token_lifetime + 1))
    assert (await refresh(client, account["tokenData"]["refresh_token"])).status_code == 401


@pytest.mark.parametrize("token", ["rt_unknown-token-never-issued", "x"])
async def test_an_unknown_refresh_token_gives_refresh_token_failed(client, token):
    answer = await refresh(client, token)
    assert answer.status_code == 401 and answer.json()["messageErrorCode"] == "refresh_token_failed"


async def test_an_access_token_is_not_a_refresh_token(client):
    account = await sign_up(client)
    answer = await refresh(client, account["tokenData"]["access_token"])
    assert answer.status_code == 401


async def test_a_body_without_subject_token_is_a_validation_error(client):
    answer = await client.post(
        "/api/oauth2/token",
        json={"grant_type": "token-exchange", "subject_token_type": "urn:ietf:params:oauth:token-type:refresh_token"},
    )
    assert answer.status_code == 400 and answer.json()["details"][0]["field"] == "subject_token"


async def _session_of(database, refresh_token: str):
    async with database.session() as db:
        return (
            await db.execute(
                select(
                    AuthSession.last_used,
                    AuthSession.expires_at.label("session_expires_at"),
                    Device.updated,
                    RefreshToken.used_at,
                    RefreshToken.expires_at,
                )
                .join(AuthSession, AuthSession.id == RefreshToken.session_id)
                .join(Device, Device.id == AuthSession.device_ref)
                .where(RefreshToken.token_hash == token_hash(refresh_token))
            )
        ).one()


async def test_a_plain_refresh_on_postgresql_is_one_statement_without_a_write_transaction(
    client, database, monkeypatch
):
    if database.is_sqlite:
        pytest.skip("PostgreSQL's data-modifying WITH clauses; SQLite batches refreshes on its writer thread")
    account = await sign_up(client)

    async def no_transaction(work):
        raise AssertionError("the common refresh took the general way")

    monkeypatch.setattr(database, "write_transaction", no_transaction)
    before = clock.now()
    first = await refresh(client, account["tokenData"]["refresh_token"], account["device_id"])
    assert first.status_code == 200
    following = await refresh(client, first.json()["content"]["refresh_token"])  # without a device id
    assert following.status_code == 200
    used = await _session_of(database, account["tokenData"]["refresh_token"])
    assert before <= used.used_at <= clock.now()
    assert (
        await client.get("/api/user/get_devices", headers=bearer(following.json()["content"]["token"]))
    ).status_code == 200


async def test_a_refresh_records_the_sessions_last_use_to_the_minute(client, database):
    account = await sign_up(client)
    signed_up = await _session_of(database, account["tokenData"]["refresh_token"])
    clock.advance(timedelta(seconds=30))
    token = (await refresh(client, account["tokenData"]["refresh_token"])).json()["content"]["refresh_token"]
    assert (await _session_of(database, token)).last_used == signed_up.last_used, "finer than a minute"
    clock.advance(timedelta(seconds=45))
    before = clock.now()
    token = (await refresh(client, token)).json()["content"]["refresh_token"]
    used = await _session_of(database, token)
    assert before <= used.last_used <= clock.now()
    assert used.updated == used.last_used, "the device's last use"
    assert used.used_at is None and used.expires_at > clock.now()


async def test_a_successor_never_outlives_its_session(client, database, settings):
    account = await sign_up(client)
    token = account["tokenData"]["refresh_token"]
    clock.advance(timedelta(seconds=settings.session_lifetime - 60))
    async with database.session() as db:  # as if refreshes had kept it alive until now
        await db.execute(
            update(RefreshToken)
            .where(RefreshToken.token_hash == token_hash(token))
            .values(expires_at=clock.now() + timedelta(days=1))
        )
        await db.commit()
    answer = await refresh(client, token)
    assert answer.status_code == 200
    successor = await _session_of(database, answer.json()["content"]["refresh_token"])
    assert successor.expires_at == successor.session_expires_at < clock.now() + timedelta(seconds=60)
