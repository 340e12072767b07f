"""The emitter sends only what asyncapi/asyncapi.yaml promises, to the room its `x-room` names."""

from datetime import UTC, datetime

import pytest

from server.realtime.contract import ContractError, validate_outgoing
from server.realtime.emitter import Emitter

pytestmark = pytest.mark.asyncio(loop_scope="session")

USER = "a11ce0000000000000000001"
EVENT = "e0e000000000000000000003"
PURCHASE = "9c0000000000000000000005"
PRODUCT = "9d0000000000000000000006"
COMMENT = {
    "_id": "c0000000000000000000000c",
    "text": "What a goal!",
    "userId": USER,
    "displayName": "Ana",
    "created": datetime(2026, 11, 21, 18, 31, tzinfo=UTC),
}
STREAM_URL = "https://cdn.example/a.m3u8"


class Recorder:
    """Stands in for the socket server: remembers what would have been sent."""

    def __init__(self):
        self.sent: list[tuple[str, dict, str | None, str | None]] = []

    async def emit(self, event, data, namespace=None, room=None):
        self.sent.append((event, data, namespace, room))


@pytest.fixture
def recorder():
    return Recorder()


SENDS = [
    ("event-url-change", lambda e: e.emit_event_url_change(EVENT, STREAM_URL), f"event:{EVENT}"),
    ("update-event", lambda e: e.emit_update_event(EVENT, {"status": "live"}), f"event:{EVENT}"),
    ("remove-user-device", lambda e: e.emit_remove_user_device(USER, "Chrome on Linux"), f"user:{USER}"),
    (
        "user-purchase-status",
        lambda e: e.emit_user_purchase_status(
            USER, purchase_id=PURCHASE, status="success", product_id=PRODUCT, event_id=EVENT
        ),
        f"user:{USER}",
    ),
    ("register-user", lambda e: e.emit_register_user(USER), f"user:{USER}"),
    ("unregister-user", lambda e: e.emit_unregister_user(USER), f"user:{USER}"),
    ("comment-on-media", lambda e: e.emit_comment_on_media(EVENT, COMMENT), f"event:{EVENT}"),
    (
        "comment-on-media-updated",
        lambda e: e.emit_comment_on_media_updated(
            EVENT, {**COMMENT, "updated": datetime(2026, 11, 21, 18, 32, tzinfo=UTC)}
        ),
        f"event:{EVENT}",
    ),
    ("comment-on-media-deleted", lambda e: e.emit_comment_on_media_deleted(EVENT, COMMENT["_id"]), f"event:{EVENT}"),
]


@pytest.mark.parametrize(("name", "send", "room"), SENDS, ids=[s[0] for s in SENDS])
async def test_each_helper_sends_a_valid_payload_to_its_room_in_the_default_namespace(recorder, name, send, room):
    assert await send(Emitter(recorder)) is True
    [(sent_name, data, namespace, sent_room)] = recorder.sent
    assert (sent_name, namespace, sent_room) == (name, "/", room)
    validate_outgoing(name, data)


async def test_optional_fields_are_sent_only_when_given(recorder):
    emitter = Emitter(recorder)
    await emitter.emit_remove_user_device(USER, "Chrome on Linux")
    await emitter.emit_remove_user_device(USER, "Chrome on Linux", "device_limit_exceeded")
    await emitter.emit_user_purchase_status(USER, purchase_id=PURCHASE, status="init", product_id=PRODUCT)
    assert [data for _, data, _, _ in recorder.sent] == [
        {"deviceId": "Chrome on Linux"},
        {"deviceId": "Chrome on Linux", "messageErrorCode": "device_limit_exceeded"},
        {"purchaseId": PURCHASE, "status": "init", "productId": PRODUCT},
    ]


async def test_datetimes_leave_as_iso_strings_and_naive_ones_count_as_utc(recorder):
    await Emitter(recorder).emit_comment_on_media(EVENT, COMMENT)
    await Emitter(recorder).emit_comment_on_media(EVENT, {**COMMENT, "created": datetime(2026, 11, 21, 18, 31)})  # noqa: DTZ001 -- naive on purpose
    assert [data["comment"]["created"] for _, data, _, _ in recorder.sent] == ["2026-11-21T18:31:00+00:00"] * 2


@pytest.mark.parametrize(
    "send",
    [
        lambda e: e.emit_user_purchase_status(USER, purchase_id=PURCHASE, status="maybe", product_id=PRODUCT),
        lambda e: e.emit_update_event(EVENT, {}),  # nothing changed
        lambda e: e.emit_update_event(EVENT, {"colour": "red"}),  # not an Event field
        lambda e: e.emit_event_url_change(EVENT, "ftp://cdn.example/a.m3u8"),
        lambda e: e.emit_comment_on_media(EVENT, {**COMMENT, "created": "yesterday"}),
        lambda e: e.emit_register_user("not-an-id"),
    ],
    ids=["bad-enum", "no-change", "unknown-field", "bad-url", "bad-date-time", "bad-id"],
)
async def test_a_payload_the_contract_forbids_is_refused_before_sending(recorder, send):
    with pytest.raises(ContractError) as refused:
        await send(Emitter(recorder))
    assert refused.value.details, "the error lists what is wrong"
    assert recorder.sent == []


@pytest.mark.parametrize(
    ("name", "payload", "room"),
    [
        ("event-url-change", {"eventId": EVENT, "eventUrl": STREAM_URL}, "event:e0e000000000000000000999"),
        ("event-url-change", {"eventId": EVENT, "eventUrl": STREAM_URL}, f"user:{EVENT}"),
        ("register-user", {"userId": USER}, f"event:{USER}"),
        ("remove-user-device", {"deviceId": "Chrome on Linux"}, "user:not-an-id"),
        ("remove-user-device", {"deviceId": "Chrome on Linux"}, None),
    ],
    ids=["other-event", "wrong-kind", "user-message-to-event-room", "room-id-not-24-hex", "no-room"],
)
async def test_a_room_that_does_not_match_the_message_is_refused(recorder, name, payload, room):
    with pytest.raises(ContractError):
        await Emitter(recorder).emit(name, payload, room)
    assert recorder.sent == []


@pytest.mark.parametrize("name", ["launch-rockets", "join-event-room"], ids=["unknown", "a-client-message"])
async def test_only_server_messages_can_be_emitted(recorder, name):
    with pytest.raises(ContractError):
        await Emitter(recorder).emit(name, {"eventId": EVENT}, f"event:{EVENT}")
    assert recorder.sent == []


async def test_an_unbound_emitter_drops_the_message_and_says_so():
    assert await Emitter().emit_register_user(USER) is False


async def test_an_unbound_emitter_still_refuses_what_the_contract_forbids():
    with pytest.raises(ContractError):
        await Emitter().emit_register_user("not-an-id")


async def test_binding_and_unbinding_switch_delivery(recorder):
    emitter = Emitter()
    emitter.bind(recorder)
    assert emitter.bound and await emitter.emit_register_user(USER) is True
    emitter.bind(None)
    assert not emitter.bound and await emitter.emit_register_user(USER) is False
    assert len(recorder.sent) == 1
