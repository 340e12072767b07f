"""The rooms' own bookkeeping gives its memory back once connections leave.

python-socketio keeps one dict per namespace of every room (`manager.rooms[ns][room]`), and drops
a room when its last member leaves. But a Python dict never shrinks when entries are deleted, and
the namespace's dict is only dropped when the namespace is empty, which never happens on a busy
server: after 50 sockets joined 4,000 rooms each and left, the dict kept its 200,000 slots for
as long as any socket stayed connected (issue 26 §8). `CompactRooms` copies a namespace's dict
into a right-sized one once it holds a quarter of what it once held (and the peak was worth it),
so the bookkeeping follows the rooms that exist now; the copy costs one pass over what is left,
paid at most once for every three quarters of the peak that left.
"""

from typing import Any

# Below this many rooms the slack is two kilobytes at most: not worth a copy.
COMPACT_FROM = 64


class CompactRooms:
    """Mixed into a python-socketio manager before the manager class (see module doc)."""

    rooms: dict[Any, dict[Any, Any]]

    def _peaks(self) -> dict[Any, int]:
        peaks: dict[Any, int] | None = self.__dict__.get("_room_peaks")
        if peaks is None:
            peaks = self.__dict__["_room_peaks"] = {}
        return peaks

    def basic_enter_room(self, sid: Any, namespace: Any, room: Any, eio_sid: Any = None) -> None:
        super().basic_enter_room(sid, namespace, room, eio_sid=eio_sid)  # type: ignore[misc]
        size, peaks = len(self.rooms.get(namespace, ())), self._peaks()
        if size > peaks.get(namespace, 0):
            peaks[namespace] = size

    def basic_leave_room(self, sid: Any, namespace: Any, room: Any) -> None:
        super().basic_leave_room(sid, namespace, room)  # type: ignore[misc]
        rooms, peaks = self.rooms.get(namespace), self._peaks()
        if rooms is None:
            peaks.pop(namespace, None)
            return
        peak = peaks.get(namespace, 0)
        if peak >= COMPACT_FROM and len(rooms) * 4 <= peak:
            self.rooms[namespace] = dict(rooms)
            peaks[namespace] = len(rooms)
