"""Operations a later piece of work implements answer 501 in the envelope, after auth."""

import httpx

from server.app import create_api
from server.auth.tokens import issue_access_token

from ..conftest import with_state


def bearer(settings, **kw) -> dict:
    return {"Authorization": f"Bearer {issue_access_token('a' * 24, secret=settings.secret_key, **kw)}"}


async def test_pending_operation_answers_501_in_the_envelope(settings, database, monkeypatch):
    # Every operation is implemented now: put one back in PENDING on an app of its own.
    from server.api import meta

    monkeypatch.setattr(meta, "PENDING", frozenset({"get_app_config"}))
    monkeypatch.delattr(meta, "get_app_config")
    api, _ = create_api(settings)
    transport = httpx.ASGITransport(app=with_state(api, {"database": database, "settings": settings}))
    async with httpx.AsyncClient(transport=transport, base_url="http://touchline.test") as client:
        response = await client.get("/api/config")
    assert response.status_code == 501
    assert response.json()["messageErrorCode"] == "not_implemented"


async def test_pending_secured_operation_needs_a_token_first(client):
    response = await client.get("/api/user/get_profile")
    assert response.status_code == 401 and response.json()["messageErrorCode"] == "unauthorized"


async def test_forged_token_is_refused(client):
    response = await client.get("/api/user/get_profile", headers={"Authorization": "Bearer abc.def.ghi"})
    assert response.status_code == 401 and response.json()["message"] == "Provided token is not valid"


async def test_pending_secured_operation_with_a_valid_token_answers_501(settings, database, monkeypatch):
    # Every secured operation is implemented now: put one back in PENDING on an app of its own.
    from server.api import tag

    monkeypatch.setattr(tag, "PENDING", frozenset({"list_tags"}), raising=False)
    monkeypatch.delattr(tag, "list_tags")
    api, _ = create_api(settings)
    transport = httpx.ASGITransport(app=with_state(api, {"database": database, "settings": settings}))
    async with httpx.AsyncClient(transport=transport, base_url="http://touchline.test") as client:
        anonymous = await client.post("/api/tag/list", json={"targetId": "a" * 24})
        assert anonymous.status_code == 401
        response = await client.post("/api/tag/list", json={"targetId": "a" * 24}, headers=bearer(settings))
    assert response.status_code == 501 and response.json()["error"] is True
