"""The server's side of nginx-rtmp's `on_publish` and `on_publish_done` (issue 28 §2).

nginx POSTs a form (`name`: the stream key, `addr`: the encoder's address, `clientid`, `call`)
before it accepts a publisher; a 2xx answer lets the feed in, anything else drops the encoder at
connect. These routes are for nginx alone: they answer only requests from this machine (loopback)
that carry the hook secret (`?hook=`, server.media.sources.stream_keys.hook_secret), and say
nothing about why a key was refused beyond the status. Keys never reach a log line: refusals are
logged with the key's event, when it has one.
"""

import asyncio
import hmac
import logging
from ipaddress import ip_address
from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..db import Database
from ..media.assets import records
from ..media.assets.store import store_of
from ..media.sources.stream_keys import hook_secret
from ..services import stream_keys
from ..settings import Settings
from . import live_inputs

log = logging.getLogger(__name__)

PUBLISH_PATH = "/internal/ingest/publish"
PUBLISH_DONE_PATH = "/internal/ingest/publish_done"


def _from_nginx(request: Request, secret: str) -> bool:
    client = request.client.host if request.client else ""
    try:
        local = ip_address(client).is_loopback
    except ValueError:
        local = False
    return local and hmac.compare_digest(request.query_params.get("hook", ""), secret)


async def _asked(request: Request) -> tuple[str, str, str]:
    """(key, publisher, encoder address) from nginx's form: `name`, `clientid@addr`, `addr`."""
    form = parse_qs((await request.body())[:4096].decode("latin-1"))

    def field(name: str) -> str:
        return (form.get(name) or [""])[0]

    return field("name"), f"{field('clientid')}@{field('addr')}"[:80], field("addr")


def _database(request: Request) -> Database | None:
    state = request.scope.get("state") or {}
    return state.get("database")


BUDGET_REFUSAL = "the media disk budget (TOUCHLINE_MEDIA_BUDGET_MB) is used up"


async def _over_budget(settings: Settings) -> bool:
    if not settings.media_budget_mb:
        return False
    used = await asyncio.to_thread(store_of(settings).used_bytes)
    return used >= settings.media_budget_mb * 1024 * 1024


def ingest_hook_routes(settings: Settings) -> list[Route]:
    secret = hook_secret(settings.secret_key)

    async def publish(request: Request) -> Response:
        database = _database(request)
        if not _from_nginx(request, secret) or database is None:
            return Response(status_code=403)
        form = await request.form()
        key, publisher = str(form.get("name", "")), f"{form.get('clientid', '')}@{form.get('addr', '')}"[:80]
        inputs = live_inputs.current()
        async with database.write_session() as db:
            decision = await stream_keys.may_publish(db, key, publisher, secret_key=settings.secret_key)
            # A feed of the event not yet archived continues (a reconnect), whichever process runs it.
            new_ingest = decision.accepted and await records.recording_in_progress(db, decision.event_id or "") is None
        # The budget's walk of the media directory runs outside the key's locked transaction.
        if new_ingest and await _over_budget(settings):
            # A new ingest past the disk budget is refused; a running one (a reconnect) goes on.
            async with database.write_session() as db:
                await stream_keys.publish_done(db, key, publisher, secret_key=settings.secret_key)
            decision = stream_keys.Decision(False, BUDGET_REFUSAL, decision.event_id)
            if inputs is not None and decision.event_id is not None:
                inputs.refused(decision.event_id, BUDGET_REFUSAL)
        if not decision.accepted:
            log.warning(
                "ingest: a publisher from %s was refused (%s; event %s)",
                form.get("addr"),
                decision.reason,
                decision.event_id or "-",
            )
            return Response(status_code=403)
        log.info("ingest: event %s is being published from %s", decision.event_id, form.get("addr"))
        if inputs is not None:
            if decision.replaced is not None:
                log.warning("ingest: an encoder took over event %s as staff allowed", decision.event_id)
                await inputs.drop(decision.replaced, key)
            # The process holding the input (this one or another) follows the recorded publisher.
            inputs.published(publisher, key)
        return Response(status_code=204)

    async def publish_done(request: Request) -> Response:
        database = _database(request)
        if not _from_nginx(request, secret) or database is None:
            return Response(status_code=403)
        key, publisher, _ = await _asked(request)
        async with database.write_session() as db:
            # One a take-over dropped leaves the key to the encoder that replaced it.
            await stream_keys.publish_done(db, key, publisher, secret_key=settings.secret_key)
        inputs = live_inputs.current()
        if inputs is not None:
            inputs.unpublished()
        return Response(status_code=204)

    return [
        Route(PUBLISH_PATH, publish, methods=["POST"]),
        Route(PUBLISH_DONE_PATH, publish_done, methods=["POST"]),
    ]


def hook_urls(settings: Settings, base: str) -> tuple[str, str]:
    """The on_publish and on_publish_done URLs nginx calls, on the server at `base`."""
    secret = hook_secret(settings.secret_key)
    return f"{base}{PUBLISH_PATH}?hook={secret}", f"{base}{PUBLISH_DONE_PATH}?hook={secret}"
