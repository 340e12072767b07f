"""The TUI's small async layer over the admin API: one AdminClient (so the same sign-in: an API
key, TOUCHLINE_STAFF_EMAIL/_PASSWORD, or the stored `touchline login`), one method per call the
screens make, and the staff role the session has (for disabling admin-only actions).

Every string the server answers (and every socket message) leaves this layer with its control
characters escaped (cli/terminal_text.py), so no screen shows a user's text raw."""

from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Any

from ..admin_client import AdminApiError, AdminClient
from ..room_watch import RoomMessage, RoomWatch
from ..terminal_text import visible_data
from .quiet_rooms import QuietRoomsWatch
from .rooms import RoomsWatch

REFRESH_SECONDS = 3.0  # how often the console's screens ask the API again

__all__ = ["ADMIN_ONLY", "AdminApi", "AdminApiError", "ConsoleOptions"]

ADMIN_ONLY = "needs the admin role (this session is support staff)"


@dataclass(frozen=True)
class ConsoleOptions:
    api_url: str | None = None
    staff_email: str | None = None
    staff_password: str | None = None
    api_key: str | None = None
    timeout: float = 5.0


class AdminApi:
    def __init__(self, client: AdminClient):
        self.client = client
        # The stored sign-in says its role; a staff password tells it on sign-in; a key does not
        # (None: admin actions stay enabled and the server answers 403 when the key is support's).
        self.role: str | None = client.stored.role if client.stored and not client.credentials else None

    @classmethod
    def from_options(cls, options: ConsoleOptions) -> "AdminApi":
        return cls(
            AdminClient.from_options(
                options.api_url,
                options.staff_email,
                options.staff_password,
                timeout=options.timeout,
                api_key=options.api_key,
            )
        )

    @property
    def base_url(self) -> str:
        return self.client.base_url

    @property
    def is_admin(self) -> bool:
        return self.role != "support"

    async def aclose(self) -> None:
        await self.client.aclose()

    async def _ensure_signed_in(self) -> None:
        if self.client.credentials is not None and self.client.token is None:
            content = await self.client.sign_in()
            self.role = (content.get("profile") or {}).get("role") or self.role

    async def get(self, path: str, params: dict[str, Any] | None = None) -> Any:
        await self._ensure_signed_in()
        return visible_data(await self.client.get(path, params))

    async def post(self, path: str, body: Any = None) -> Any:
        await self._ensure_signed_in()
        return visible_data(await self.client.post(path, body))

    async def delete(self, path: str, params: dict[str, Any] | None = None) -> Any:
        await self._ensure_signed_in()
        return visible_data(await self.client.request("DELETE", path, params=params))

    # --- the calls of the screens ------------------------------------------------------------

    async def monitor(self, limit: int = 10) -> dict:
        return await self.get("/admin/monitor", {"limit": limit})

    async def find_users(self, query: str, size: int = 20) -> list[dict]:
        page = await self.get("/admin/users", {"q": query, "size": size})
        return list(page.get("entries") or [])

    async def user(self, user_id: str) -> dict:
        return await self.get(f"/admin/users/{user_id}")

    async def sessions(self, user_id: str) -> list[dict]:
        page = await self.get(f"/admin/users/{user_id}/sessions", {"active": "true", "size": 50})
        return list(page.get("entries") or [])

    async def devices(self, user_id: str) -> list[dict]:
        content = await self.get(f"/admin/users/{user_id}/devices")
        return list(content.get("devices") or [])

    async def revoke_session(self, user_id: str, session_id: str) -> dict:
        return await self.post(f"/admin/users/{user_id}/sessions/{session_id}/revoke")

    async def remove_device(self, user_id: str, device_id: str) -> Any:
        return await self.post(f"/admin/users/{user_id}/devices/{device_id}/revoke")

    async def go_live(self, event_id: str) -> dict:
        return await self.post(f"/admin/events/{event_id}/go_live")

    async def finish(self, event_id: str) -> dict:
        return await self.post(f"/admin/events/{event_id}/finish")

    # --- live control ---

    async def events(self, status: str | None = None, size: int = 100) -> list[dict]:
        params: dict[str, Any] = {"size": size} | ({"status": status} if status else {})
        page = await self.get("/admin/events", params)
        return list(page.get("entries") or [])

    async def event(self, event_id: str) -> dict:
        return await self.get(f"/admin/events/{event_id}")

    async def set_stream(self, event_id: str, url: str) -> dict:
        return await self.post(f"/admin/events/{event_id}/stream", {"url": url})

    async def emit(self, event: str, room: str, payload: dict) -> dict:
        return await self.post("/admin/socket/emit", {"event": event, "room": room, "payload": payload})

    async def ingest(self, event_id: str) -> dict:
        """The health of the event's live input (state, input, speed, bitrate, viewers…)."""
        return await self.get(f"/admin/events/{event_id}/ingest")

    async def stream_keys(self, event_id: str) -> list[dict]:
        """The event's keys, newest first: hints only, never the keys themselves."""
        content = await self.get(f"/admin/events/{event_id}/stream_keys")
        return list(content.get("keys") or [])

    async def make_stream_key(self, event_id: str) -> dict:
        """The new key with its RTMP and SRT URLs: the only answer that holds it."""
        return await self.post(f"/admin/events/{event_id}/stream_keys")

    async def rotate_stream_key(self, event_id: str) -> dict:
        return await self.post(f"/admin/events/{event_id}/stream_keys/rotate")

    async def revoke_stream_key(self, event_id: str) -> dict:
        return await self.post(f"/admin/events/{event_id}/stream_keys/revoke")

    async def allow_stream_key_take_over(self, event_id: str) -> dict:
        return await self.post(f"/admin/events/{event_id}/stream_keys/take_over")

    async def set_ingest_settings(self, event_id: str, body: dict[str, Any]) -> dict:
        """How the event's feed goes live (`autostart`) and its rewind window (`dvrSeconds`)."""
        await self._ensure_signed_in()
        return visible_data(await self.client.request("PATCH", f"/admin/events/{event_id}/ingest", body=body))

    # --- quality of experience and outage credit ---

    async def qoe(self, event_id: str, since: str | None = None) -> dict:
        """How the event's playback went from `since` (ISO 8601; the server's default: two hours) to now."""
        return await self.get(f"/admin/events/{event_id}/qoe", {"since": since} if since else None)

    async def outage_credit(self, event_id: str) -> dict:
        """The pay-per-view event's outages and the credit of its buyers (`credit` null until scheduled)."""
        return await self.get(f"/admin/events/{event_id}/outage_credit")

    async def trigger_outage_credit(self, event_id: str) -> dict:
        return await self.post(f"/admin/events/{event_id}/outage_credit")

    async def cancel_outage_credit(self, event_id: str) -> dict:
        return await self.post(f"/admin/events/{event_id}/outage_credit/cancel")

    def qoe_alerts(self, event_ids: Sequence[str]) -> AbstractAsyncContextManager[AsyncIterator[RoomMessage]]:
        """What the events' `qoe:{id}` rooms receive (`qoe-alert`), on one socket (at most MAX_ROOMS
        rooms: cli/tui/rooms.py); a staff token, not an API key. The console opens it by itself, so
        it leaves no line in the audit log (cli/tui/quiet_rooms.py)."""
        return _visible_messages(QuietRoomsWatch(self.client, [f"qoe:{event_id}" for event_id in event_ids]))

    def watch_room(self, room: str) -> AbstractAsyncContextManager[AsyncIterator[RoomMessage]]:
        """The socket messages `room` receives (cli/room_watch.py); a staff token, not an API key."""
        return _visible_messages(RoomWatch(self.client, room))

    def watch_rooms(self, rooms: Sequence[str]) -> AbstractAsyncContextManager[AsyncIterator[RoomMessage]]:
        """What several rooms receive, on one socket (cli/tui/rooms.py; at most MAX_ROOMS)."""
        return _visible_messages(RoomsWatch(self.client, rooms))

    # --- the media library ---

    async def media_assets(self, event: str | None = None, limit: int = 50) -> list[dict]:
        """Uploads, recordings and highlights, newest first (the API's default kinds)."""
        params: dict[str, Any] = {"limit": limit} | ({"event": event} if event else {})
        content = await self.get("/admin/media_assets", params)
        return list(content.get("assets") or [])

    async def media_asset(self, asset_id: str) -> dict:
        """One asset with `playedBy` (the events that play it) and `job` (its newest job), if any."""
        content = await self.get(f"/admin/media_assets/{asset_id}")
        return content["asset"]

    async def delete_media_asset(self, asset_id: str, force: bool = False) -> dict:
        """`{deleted, detached}`; without `force`, 409 asset_in_use while an event plays it."""
        return await self.delete(f"/admin/media_assets/{asset_id}", {"force": "true" if force else "false"})

    async def attach_media_asset(self, asset_id: str, body: dict[str, Any]) -> dict:
        """Publish the asset as its event's archive or as a new highlight event: that event."""
        return await self.post(f"/admin/media_assets/{asset_id}/attach", body)

    async def cut_media_asset(self, asset_id: str, body: dict[str, Any]) -> dict:
        """Cut [from, to) seconds into a highlight event of its own: that event."""
        return await self.post(f"/admin/media_assets/{asset_id}/cuts", body)

    async def media_jobs(self, state: str | None = None, limit: int = 50) -> list[dict]:
        """The transcoding queue, newest first."""
        params: dict[str, Any] = {"limit": limit} | ({"state": state} if state else {})
        content = await self.get("/admin/media_jobs", params)
        return list(content.get("jobs") or [])

    async def media_job(self, job_id: str) -> dict:
        return (await self.get(f"/admin/media_jobs/{job_id}"))["job"]

    async def cancel_media_job(self, job_id: str) -> dict:
        return (await self.post(f"/admin/media_jobs/{job_id}/cancel"))["job"]

    # --- access codes ---

    async def products(self, page: int = 0, size: int = 100) -> dict:
        return await self.get("/admin/products", {"page": page, "size": size})

    async def access_codes(self, filters: dict[str, str], page: int = 0, size: int = 50) -> dict:
        return await self.get("/admin/access_codes", {**filters, "page": page, "size": size, "next": "true"})

    async def access_code(self, code_id: str) -> dict:
        return await self.get(f"/admin/access_codes/{code_id}")

    async def issue_access_codes(self, body: dict[str, Any]) -> dict:
        return await self.post("/admin/access_codes", body)

    async def revoke_access_code(self, code_id: str) -> dict:
        return await self.post(f"/admin/access_codes/{code_id}/revoke")

    # --- audit log ---

    async def audit(self, filters: dict[str, str], page: int = 0, size: int = 20) -> dict:
        return await self.get("/admin/audit", {**filters, "page": page, "size": size})

    # --- users: purchases, contracts, follows, mail ---

    async def purchases(self, user_id: str, size: int = 50) -> list[dict]:
        page = await self.get(f"/admin/users/{user_id}/purchases", {"size": size})
        return list(page.get("entries") or [])

    async def contracts(self, user_id: str, size: int = 50) -> list[dict]:
        page = await self.get(f"/admin/users/{user_id}/contracts", {"size": size})
        return list(page.get("entries") or [])

    async def follows(self, user_id: str, size: int = 100) -> list[dict]:
        page = await self.get(f"/admin/users/{user_id}/follows", {"size": size})
        return list(page.get("entries") or [])

    async def mail_to(self, email: str, size: int = 20) -> list[dict]:
        page = await self.get("/admin/outbox", {"to": email, "size": size})
        return list(page.get("entries") or [])

    async def resend_mail(self, mail_id: str) -> dict:
        return await self.post(f"/admin/outbox/{mail_id}/resend")


@asynccontextmanager
async def _visible_messages(
    watch: AbstractAsyncContextManager[AsyncIterator[RoomMessage]],
) -> AsyncIterator[AsyncIterator[RoomMessage]]:
    async def escaped(messages: AsyncIterator[RoomMessage]) -> AsyncIterator[RoomMessage]:
        async for message in messages:
            yield RoomMessage(*visible_data(list(message)))

    async with watch as messages:
        yield escaped(messages)
