"""What the API answers is what the contract and the README say it answers."""

import re
from pathlib import Path

import pytest
from sqlalchemy import delete

from server.api.http.errors import STATUS_CODES
from server.api.http.routing import OPENAPI_PATH
from server.models import Event
from server.services.user_clips import USER_MEDIA_TYPES
from server.settings import PROJECT_ROOT
from server.tests.accounts import sign_up

from .test_errors import assert_envelope

# Where the API's refusals are raised (media and the socket have contracts of their own).
API_SOURCES = [
    "server/api",
    "server/services",
    "server/payments",
    "server/auth",
    "server/errors.py",
    "server/guards.py",
]
CODE_LITERAL = re.compile(r"""(?:\bcode\s*=\s*|"messageErrorCode":\s*)"([a-z_]+)\"""")


def raised_codes() -> dict[str, str]:
    """Every messageErrorCode written in the API's sources: code -> the first file naming it."""
    found: dict[str, str] = {}
    for source in API_SOURCES:
        path = PROJECT_ROOT / source
        for file in [path] if path.is_file() else sorted(path.rglob("*.py")):
            for code in CODE_LITERAL.findall(file.read_text()):
                found.setdefault(code, str(file.relative_to(PROJECT_ROOT)))
    for code in STATUS_CODES.values():
        found.setdefault(code, "server/api/http/errors.py")
    return found


def test_every_error_code_the_api_answers_is_in_the_contract():
    contract = Path(OPENAPI_PATH).read_text()
    codes = raised_codes()
    assert "purchase_in_progress" in codes and "clip_not_found" in codes  # the scan finds them
    undocumented = {code: where for code, where in codes.items() if not re.search(rf"\b{code}\b", contract)}
    assert undocumented == {}


async def test_a_blank_search_is_a_validation_error_naming_the_field(client):
    body = assert_envelope(await client.get("/api/event/search", params={"q": " "}), 400, "validation_error")
    assert body["details"] == [{"field": "q", "message": "needs at least one word"}]


async def test_every_validation_error_carries_details(client):
    """Also those raised without naming a field (a rule over several fields)."""
    programme = await client.get(
        "/api/event/epg/" + "f" * 24,
        params={"from": 2_000_000, "to": 1_000_000},
    )
    body = assert_envelope(programme, 400, "validation_error")
    assert body["details"] == [{"message": body["message"]}]


@pytest.fixture
async def no_clips_left_behind(database):
    yield
    async with database.session() as db:
        await db.execute(delete(Event).where(Event.media_type.in_(USER_MEDIA_TYPES)))
        await db.commit()


async def test_another_viewers_clip_is_not_found_as_a_clip(client, catalogue, no_clips_left_behind):
    owner, other = await sign_up(client), await sign_up(client)
    made = await client.post(
        "/api/clip/create",
        json={"event_id": catalogue["archived"], "title": "Opening goal", "startTime": 2, "endTime": 8},
        headers=owner["headers"],
    )
    assert made.status_code == 200, made.text
    clip = made.json()["content"]["_id"]
    assert (await client.get(f"/api/clip/get_by_id/id/{clip}", headers=owner["headers"])).status_code == 200
    theirs = await client.get(f"/api/clip/get_by_id/id/{clip}", headers=other["headers"])
    nobodys = await client.get(f"/api/clip/get_by_id/id/{'f' * 24}", headers=other["headers"])
    anonymous = await client.get(f"/api/clip/get_by_id/id/{clip}")
    for answer in (theirs, nobodys, anonymous):
        assert_envelope(answer, 404, "clip_not_found")
    assert theirs.json() == nobodys.json()  # nothing tells another viewer's clip from no clip
