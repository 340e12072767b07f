"""Stream keys (issue 28 §2): staff make, rotate and revoke an event's key, shown once and kept
hashed; nginx-rtmp's on_publish hook lets in only a key in force, one encoder at a time."""

from datetime import timedelta

import httpx
import pytest
import pytest_asyncio
from sqlalchemy import select

from server import clock
from server.ingest.hooks import hook_urls
from server.media.sources.stream_keys import bridge_name, key_hash, srt_passphrase
from server.models import StreamKey
from server.tests.accounts import sign_up
from server.tests.mailbox import staff_headers
from server.tests.media.serving import media_app

from .test_event_admin import call, create, live_event, ok, soon
from .test_roles_keys_audit import staff_account

pytestmark = pytest.mark.asyncio(loop_scope="session")
BASE = "http://127.0.0.1:8080"


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def staff(client, database, settings):
    return await staff_headers(client, database, settings)


@pytest_asyncio.fixture(loop_scope="session")
async def nginx(settings, database):
    """The hooks as nginx reaches them: from this machine."""
    transport = httpx.ASGITransport(app=media_app(settings, database), client=("127.0.0.1", 50000))
    async with httpx.AsyncClient(transport=transport, base_url=BASE) as http:
        yield http


async def make_key(client, staff, event_id: str, action: str = "") -> dict:
    return await ok(client, staff, "POST", f"/{event_id}/stream_keys{action}")


async def ask(
    nginx,
    settings,
    key: str,
    *,
    client_id: str = "1",
    done: bool = False,
    hook: str | None = None,
    addr: str = "127.0.0.1",
):
    publish, finished = hook_urls(settings, BASE)
    url = finished if done else publish
    if hook is not None:
        url = url.split("?")[0] + f"?hook={hook}"
    form = {"app": "live", "name": key, "addr": addr, "clientid": client_id, "call": "publish"}
    return await nginx.post(url, data=form)


async def test_a_key_is_shown_once_with_the_urls_to_paste_and_lists_show_only_its_hint(
    client, database, staff, settings
):
    event = await create(client, database, staff)
    made = await make_key(client, staff, event["_id"])
    key = made["key"]
    assert key.startswith("tlk_") and len(key) == 36
    assert made["rtmp_url"] == f"rtmp://127.0.0.1:1935/live/{key}"
    port = made["streamKey"]["srtPort"]
    passphrase = srt_passphrase(settings.secret_key, key_hash(key))
    assert made["srt_url"] == f"srt://127.0.0.1:{port}?streamid={key}&passphrase={passphrase}" and 9000 <= port <= 9099
    assert made["streamKey"]["hint"] == key[-4:] and made["streamKey"]["publishing"] is False
    listed = await ok(client, staff, "GET", f"/{event['_id']}/stream_keys")
    assert [k["_id"] for k in listed["keys"]] == [made["streamKey"]["_id"]]
    assert key not in str(listed)
    async with database.session() as db:
        row = await db.scalar(select(StreamKey).where(StreamKey.event_id == event["_id"]))
    assert row is not None and row.key_hash == key_hash(key) and key not in str(row.__dict__)


async def test_a_second_key_is_refused_and_rotation_replaces_the_key_on_the_same_port(client, database, staff):
    event = await create(client, database, staff)
    first = await make_key(client, staff, event["_id"])
    again = await call(client, staff, "POST", f"/{event['_id']}/stream_keys")
    assert again.status_code == 409 and again.json()["messageErrorCode"] == "stream_key_exists"
    rotated = await make_key(client, staff, event["_id"], "/rotate")
    assert rotated["key"] != first["key"]
    assert rotated["streamKey"]["srtPort"] == first["streamKey"]["srtPort"]
    keys = (await ok(client, staff, "GET", f"/{event['_id']}/stream_keys"))["keys"]
    assert [k["revokedAt"] is None for k in keys] == [True, False]  # newest first: the new one in force
    revoked = await ok(client, staff, "POST", f"/{event['_id']}/stream_keys/revoke")
    assert revoked["revokedAt"] is not None and revoked["srtPort"] is None
    gone = await call(client, staff, "POST", f"/{event['_id']}/stream_keys/revoke")
    assert gone.status_code == 404 and gone.json()["messageErrorCode"] == "stream_key_not_found"


async def test_an_archived_event_takes_no_key_and_an_unknown_one_is_404(client, database, staff):
    live = await live_event(client, database, staff, event_date=soon(minutes=-30))
    archived = await ok(client, staff, "POST", f"/{live['_id']}/finish")
    for action in ("", "/rotate"):
        answer = await call(client, staff, "POST", f"/{archived['_id']}/stream_keys{action}")
        assert answer.status_code == 409 and answer.json()["messageErrorCode"] == "invalid_status"
    for method, path in (("GET", ""), ("POST", ""), ("POST", "/rotate"), ("POST", "/revoke")):
        assert (await call(client, staff, method, f"/{'f' * 24}/stream_keys{path}")).status_code == 404


async def test_support_staff_see_keys_but_only_admins_make_them_and_viewers_nothing(client, database, staff):
    event = await create(client, database, staff)
    support = await staff_account(client, database, "support")
    assert (await call(client, support["headers"], "GET", f"/{event['_id']}/stream_keys")).status_code == 200
    for action in ("", "/rotate", "/revoke"):
        answer = await call(client, support["headers"], "POST", f"/{event['_id']}/stream_keys{action}")
        assert answer.status_code == 403 and answer.json()["messageErrorCode"] == "forbidden_role"
    viewer = await sign_up(client)
    assert (await call(client, viewer["headers"], "GET", f"/{event['_id']}/stream_keys")).status_code == 403


# --- nginx asks -------------------------------------------------------------------------------------------


async def test_nginx_lets_in_a_key_in_force_and_refuses_wrong_revoked_and_rotated_away_keys(
    client, database, staff, settings, nginx
):
    event = await create(client, database, staff)
    first = (await make_key(client, staff, event["_id"]))["key"]
    assert (await ask(nginx, settings, "tlk_" + "A" * 32)).status_code == 403  # wrong
    assert (await ask(nginx, settings, "not even a key")).status_code == 403
    assert (await ask(nginx, settings, first)).status_code == 204
    assert (await ask(nginx, settings, first, done=True)).status_code == 204
    second = (await make_key(client, staff, event["_id"], "/rotate"))["key"]
    assert (await ask(nginx, settings, first)).status_code == 403  # rotated away
    assert (await ask(nginx, settings, second)).status_code == 204
    await ask(nginx, settings, second, done=True)
    await ok(client, staff, "POST", f"/{event['_id']}/stream_keys/revoke")
    assert (await ask(nginx, settings, second)).status_code == 403  # revoked


async def test_a_second_encoder_on_a_live_key_is_refused_until_the_first_leaves(
    client, database, staff, settings, nginx
):
    event = await create(client, database, staff)
    key = (await make_key(client, staff, event["_id"]))["key"]
    assert (await ask(nginx, settings, key, client_id="7")).status_code == 204
    listed = (await ok(client, staff, "GET", f"/{event['_id']}/stream_keys"))["keys"]
    assert listed[0]["publishing"] is True and listed[0]["lastPublishedAt"] is not None
    assert (await ask(nginx, settings, key, client_id="8")).status_code == 403
    assert (await ask(nginx, settings, key, client_id="8", done=True)).status_code == 204  # not the publisher
    assert (await ask(nginx, settings, key, client_id="9")).status_code == 403
    await ask(nginx, settings, key, client_id="7", done=True)
    assert (await ask(nginx, settings, key, client_id="9")).status_code == 204


async def test_staff_let_one_second_encoder_take_over_a_live_key_within_two_minutes(
    client, database, staff, settings, nginx
):
    event = await create(client, database, staff)
    key = (await make_key(client, staff, event["_id"]))["key"]
    idle = await call(client, staff, "POST", f"/{event['_id']}/stream_keys/take_over")
    assert idle.status_code == 409 and idle.json()["messageErrorCode"] == "stream_key_not_publishing"
    assert (await ask(nginx, settings, key, client_id="7")).status_code == 204
    allowed = await ok(client, staff, "POST", f"/{event['_id']}/stream_keys/take_over")
    assert allowed["publishing"] is True and allowed["takeOverUntil"] is not None
    assert (await ask(nginx, settings, key, client_id="8")).status_code == 204  # takes over
    # The dropped encoder's goodbye leaves the key to the one that took over.
    assert (await ask(nginx, settings, key, client_id="7", done=True)).status_code == 204
    listed = (await ok(client, staff, "GET", f"/{event['_id']}/stream_keys"))["keys"]
    assert listed[0]["publishing"] is True and listed[0]["takeOverUntil"] is None
    # One take-over per choice: a third encoder is refused, and so is one after the window.
    assert (await ask(nginx, settings, key, client_id="9")).status_code == 403
    await ok(client, staff, "POST", f"/{event['_id']}/stream_keys/take_over")
    clock.advance(timedelta(minutes=2, seconds=1))
    assert (await ask(nginx, settings, key, client_id="9")).status_code == 403
    assert (await ok(client, staff, "GET", f"/{event['_id']}/stream_keys"))["keys"][0]["takeOverUntil"] is None


async def test_take_over_needs_a_key_in_force_and_the_admin_role(client, database, staff):
    event = await create(client, database, staff)
    none = await call(client, staff, "POST", f"/{event['_id']}/stream_keys/take_over")
    assert none.status_code == 404 and none.json()["messageErrorCode"] == "stream_key_not_found"
    await make_key(client, staff, event["_id"])
    support = await staff_account(client, database, "support")
    answer = await call(client, support["headers"], "POST", f"/{event['_id']}/stream_keys/take_over")
    assert answer.status_code == 403 and answer.json()["messageErrorCode"] == "forbidden_role"


async def test_a_key_past_its_expiry_lets_no_encoder_connect_and_one_publishing_goes_on(
    client, database, staff, settings, nginx
):
    event = await create(client, database, staff)
    expires = (clock.now() + timedelta(minutes=5)).isoformat()  # within the staff token's life
    made = await ok(client, staff, "POST", f"/{event['_id']}/stream_keys", {"expiresAt": expires})
    assert made["streamKey"]["expiresAt"] is not None
    assert (await ask(nginx, settings, made["key"], client_id="7")).status_code == 204
    clock.advance(timedelta(minutes=5, seconds=1))
    # The encoder publishing goes on to its end; once it left, the key lets nobody in.
    assert (await ask(nginx, settings, made["key"], client_id="7", done=True)).status_code == 204
    assert (await ask(nginx, settings, made["key"], client_id="8")).status_code == 403
    # A rotated key starts its own time.
    rotated = await make_key(client, staff, event["_id"], "/rotate")
    assert rotated["streamKey"]["expiresAt"] is None
    assert (await ask(nginx, settings, rotated["key"], client_id="8")).status_code == 204


async def test_the_body_is_optional_even_as_an_empty_one_labelled_octet_stream(client, database, staff):
    event = await create(client, database, staff)
    headers = {**staff, "content-type": "application/octet-stream"}
    answer = await client.post(f"/api/admin/events/{event['_id']}/stream_keys", content=b"", headers=headers)
    assert answer.status_code == 200 and answer.json()["content"]["streamKey"]["expiresAt"] is None


async def test_an_expiry_in_the_past_or_not_a_date_is_a_400(client, database, staff):
    event = await create(client, database, staff)
    past = (clock.now() - timedelta(minutes=1)).isoformat()
    for body, code in (({"expiresAt": past}, "invalid_expiry"), ({"expiresAt": "tomorrow"}, None)):
        for action in ("", "/rotate"):
            answer = await call(client, staff, "POST", f"/{event['_id']}/stream_keys{action}", body)
            assert answer.status_code == 400, answer.text
            if code:
                assert answer.json()["messageErrorCode"] == code
    assert (await ok(client, staff, "GET", f"/{event['_id']}/stream_keys"))["keys"] == []


async def test_a_keys_srt_bridge_name_publishes_as_the_key_from_this_machine_and_a_forged_or_revoked_one_is_refused(
    client, database, staff, settings, nginx
):
    event = await create(client, database, staff)
    made = await make_key(client, staff, event["_id"])
    bridged = bridge_name(settings.secret_key, made["streamKey"]["_id"])
    # The SRT listeners publish over loopback: the name, were it ever seen, lets in nobody outside.
    assert (await ask(nginx, settings, bridged, addr="203.0.113.9")).status_code == 403
    assert (await ask(nginx, settings, bridge_name("another secret", made["streamKey"]["_id"]))).status_code == 403
    assert (await ask(nginx, settings, bridged[:-1] + ("0" if bridged[-1] != "0" else "1"))).status_code == 403
    assert (await ask(nginx, settings, bridged, client_id="7")).status_code == 204
    # The bridge and the key are one key: a second encoder on either is refused while one publishes.
    assert (await ask(nginx, settings, made["key"], client_id="8")).status_code == 403
    assert (await ask(nginx, settings, bridged, client_id="7", done=True)).status_code == 204
    assert (await ask(nginx, settings, made["key"], client_id="8")).status_code == 204
    await ask(nginx, settings, made["key"], client_id="8", done=True)
    await ok(client, staff, "POST", f"/{event['_id']}/stream_keys/revoke")
    assert (await ask(nginx, settings, bridged, client_id="7")).status_code == 403


async def test_the_hooks_answer_only_this_machine_with_the_secret(client, database, staff, settings):
    event = await create(client, database, staff)
    key = (await make_key(client, staff, event["_id"]))["key"]
    transport = httpx.ASGITransport(app=media_app(settings, database), client=("203.0.113.9", 50000))
    async with httpx.AsyncClient(transport=transport, base_url=BASE) as outsider:
        assert (await ask(outsider, settings, key)).status_code == 403
    local = httpx.ASGITransport(app=media_app(settings, database), client=("127.0.0.1", 50000))
    async with httpx.AsyncClient(transport=local, base_url=BASE) as nginx:
        assert (await ask(nginx, settings, key, hook="guessed")).status_code == 403
        assert (await ask(nginx, settings, key, hook="")).status_code == 403
        assert (await ask(nginx, settings, key)).status_code == 204
