"""Signals: a catalogue change empties every anonymous cache of the process at once, whether the
socket is bound (the room closes, here and through Redis elsewhere) or not, and a failing
listener does not keep the others from hearing it."""

from server.api.http.cache import ResponseCache
from server.realtime import signals
from server.realtime.emitter import Emitter
from server.realtime.session_rooms import LocalManager


def filled(cache: ResponseCache) -> ResponseCache:
    cache.put(b"event-list\0{}", {"entries": []})
    return cache


async def test_a_catalogue_change_empties_every_cache_of_the_process_without_a_socket():
    caches = [filled(ResponseCache(60)), filled(ResponseCache(60))]
    assert await Emitter().catalogue_changed() is False  # nothing bound: only this process hears
    assert [len(c) for c in caches] == [0, 0]


async def test_closing_the_signal_room_in_a_local_manager_empties_the_caches():
    import socketio

    sio = socketio.AsyncServer(async_mode="asgi", client_manager=LocalManager())
    cache = filled(ResponseCache(60))
    assert await Emitter(sio).catalogue_changed() is True
    assert len(cache) == 0


def test_a_failing_listener_does_not_keep_the_others_from_hearing(caplog):
    heard: list[str] = []
    signal = f"{signals.PREFIX}test-{id(heard)}"

    def broken() -> None:
        raise RuntimeError("boom")

    signals.listen(signal, broken)
    signals.listen(signal, lambda: heard.append(signal))
    assert signals.heard(signal) is True
    assert heard == [signal] and "a listener failed" in caplog.text


def test_other_rooms_are_not_signals():
    assert signals.heard("event:5f1c0a8e2b3d4c5e6f7a8b9c") is False
    assert signals.heard(None) is False
