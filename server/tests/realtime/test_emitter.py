"""The emitter sends only what asyncapi/asyncapi.yaml promises, to the room it names."""

from datetime import datetime, timezone

import pytest

from server.realtime.contract import ContractError, validate_outgoing
from server.realtime.emitter import Emitter

USER = "a11ce0000000000000000001"
EVENT = "e0e000000000000000000003"
PURCHASE = "9c0000000000000000000005"
PRODUCT = "9d0000000000000000000006"
COMMENT = {"_id": "c0000000000000000000000c", "text": "What a goal!", "userId": USER, "displayName": "Ana",
           "created": datetime(2026, 11, 21, 18, 31, tzinfo=timezone.utc)}


class Recorder:
    def __init__(self):
        self.sent: list[tuple[str, dict, str]] = []

    async def emit(self, event, data, namespace=None, room=None):
        self.sent.append((event, data, room))


@pytest.fixture
def recorder():
    return Recorder()


SENDS = [
    ("event-url-change", lambda e: e.emit_event_url_change(EVENT, "https://cdn.example/a.m3u8"), f"event:{EVENT}"),
    ("update-event", lambda e: e.emit_update_event(EVENT, {"status": "live"}), f"event:{EVENT}"),
    ("remove-user-device", lambda e: e.emit_remove_user_device(USER, "Chrome on Linux"), f"user:{USER}"),
    ("user-purchase-status", lambda e: e.emit_user_purchase_status(
        USER, purchase_id=PURCHASE, status="success", product_id=PRODUCT, event_id=EVENT), f"user:{USER}"),
    ("register-user", lambda e: e.emit_register_user(USER), f"user:{USER}"),
    ("unregister-user", lambda e: e.emit_unregister_user(USER), f"user:{USER}"),
    ("comment-on-media", lambda e: e.emit_comment_on_media(EVENT, COMMENT), f"event:{EVENT}"),
    ("comment-on-media-updated", lambda e: e.emit_comment_on_media_updated(EVENT, COMMENT), f"event:{EVENT}"),
    ("comment-on-media-deleted", lambda e: e.emit_comment_on_media_deleted(EVENT, COMMENT["_id"]), f"event:{EVENT}"),
]


@pytest.mark.parametrize(("name", "send", "room"), SENDS, ids=[s[0] for s in SENDS])
async def test_each_helper_sends_a_valid_payload_to_its_room(recorder, name, send, room):
    assert await send(Emitter(recorder)) is True
    [(sent_name, data, sent_room)] = recorder.sent
    assert (sent_name, sent_room) == (name, room)
    validate_outgoing(name, data)


async def test_datetimes_leave_as_iso_strings(recorder):
    await Emitter(recorder).emit_comment_on_media(EVENT, COMMENT)
    assert recorder.sent[0][1]["comment"]["created"] == "2026-11-21T18:31:00+00:00"


async def test_a_payload_the_contract_forbids_is_refused_before_sending(recorder):
    with pytest.raises(ContractError):
        await Emitter(recorder).emit_user_purchase_status(USER, purchase_id=PURCHASE, status="maybe", product_id=PRODUCT)
    assert recorder.sent == []


async def test_a_room_that_does_not_match_the_payload_is_refused(recorder):
    with pytest.raises(ContractError):
        await Emitter(recorder).emit("event-url-change", {"eventId": EVENT, "eventUrl": "https://x/a.m3u8"},
                                     "event:e0e000000000000000000999")
    with pytest.raises(ContractError):
        await Emitter(recorder).emit("register-user", {"userId": USER}, f"event:{USER}")
    assert recorder.sent == []


async def test_an_unknown_message_is_refused(recorder):
    with pytest.raises(ContractError):
        await Emitter(recorder).emit("launch-rockets", {}, f"event:{EVENT}")


async def test_an_unbound_emitter_drops_the_message_and_says_so():
    assert await Emitter().emit_register_user(USER) is False
