"""What services report reaches the rooms: a settled payment's announcement becomes
`user-purchase-status` in the viewer's room, an event's change `update-event` and
`event-url-change` in the event's room; sending never raises."""

from server.models import Event
from server.realtime.announcements import announce_change, announce_purchase_status, announce_purchase_statuses
from server.realtime.emitter import Emitter
from server.services.commerce.settlement import Announcement
from server.services.event_admin import Change
from server.tests.mailbox import SocketRecorder

USER, RECORD, PRODUCT, EVENT = "a" * 24, "b" * 24, "c" * 24, "d" * 24


async def test_a_purchase_outcome_goes_to_the_viewers_room():
    recorder = SocketRecorder()
    sent = await announce_purchase_status(Announcement(USER, RECORD, "success", PRODUCT, EVENT), Emitter(recorder))
    assert sent
    assert recorder.sent == [
        (
            "user-purchase-status",
            {"purchaseId": RECORD, "status": "success", "productId": PRODUCT, "eventId": EVENT},
            f"user:{USER}",
        )
    ]


async def test_nothing_is_sent_for_an_erased_account_or_no_outcome():
    recorder = SocketRecorder()
    assert not await announce_purchase_status(Announcement(None, RECORD, "error", PRODUCT, None), Emitter(recorder))
    assert not await announce_purchase_status(None, Emitter(recorder))
    assert recorder.sent == []


async def test_several_outcomes_are_counted_as_they_are_sent():
    recorder = SocketRecorder()
    messages = [
        Announcement(USER, RECORD, "success", PRODUCT, None),
        Announcement(None, RECORD, "error", PRODUCT, None),
    ]
    assert await announce_purchase_statuses(messages, Emitter(recorder)) == 1


async def test_a_socket_that_cannot_be_reached_is_logged_not_raised(caplog):
    class Broken:
        async def emit(self, *_args, **_kwargs):
            raise ConnectionError("redis is down")

    assert not await announce_purchase_status(Announcement(USER, RECORD, "success", PRODUCT, None), Emitter(Broken()))
    await announce_change(
        Change(Event(id=EVENT, hls_stream="/media/live/x.m3u8"), {"status": "live"}, True), Emitter(Broken())
    )
    assert "could not send user-purchase-status" in caplog.text and "could not tell the room" in caplog.text


async def test_an_event_change_tells_its_room_the_fields_then_the_new_stream():
    recorder = SocketRecorder()
    event = Event(id=EVENT, hls_stream="/media/live/football.m3u8")
    await announce_change(Change(event, {"status": "live"}, on_air_at_new_url=True), Emitter(recorder))
    assert recorder.sent == [
        ("update-event", {"status": "live", "eventId": EVENT}, f"event:{EVENT}"),
        ("event-url-change", {"eventId": EVENT, "eventUrl": "/media/live/football.m3u8"}, f"event:{EVENT}"),
    ]
