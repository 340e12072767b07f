"""The one ASGI application: Connexion for /api, socket.io at /ws, media and the webapp."""

import asyncio
import contextlib
from collections.abc import Callable

import socketio
from connexion import AsyncApp
from connexion.middleware import ConnexionMiddleware
from connexion.middleware.response_validation import ResponseValidationMiddleware
from connexion.middleware.routing import RoutingMiddleware
from connexion.middleware.swagger_ui import SwaggerUIMiddleware
from connexion.options import SwaggerUIOptions

from . import gc_policy, guards, jobs, reporting
from .api.http import connexion_speedups, contract_document, errors, staff_access
from .api.http.audit import AuditMiddleware
from .api.http.cache import ResponseCache
from .api.http.jsonifier import OrjsonJsonifier
from .api.http.limits import body_limit
from .api.http.no_store import NoStoreMiddleware
from .api.http.routing import TagResolver
from .api.http.validation import VALIDATOR_MAP
from .auth import standing
from .auth.bearer import security_map
from .auth.providers import ProviderClient
from .db import Database
from .ingest import serving as ingest
from .services.commerce.holdings import HoldingsCache
from .settings import PROJECT_ROOT, Settings, get_settings
from .transcoding import runner as transcoding
from .web import static_app

OPENAPI_DIR = PROJECT_ROOT / "openapi"


@contextlib.asynccontextmanager
async def _confirming_sessions(database: Database):
    """The sessions in use are confirmed in batches ahead of their belief's end (server.auth.standing)."""
    task = asyncio.create_task(standing.default.keep_confirmed(database), name="confirm-sessions")
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


def create_api(
    settings: Settings,
    database: Database | None = None,
    state: dict | None = None,
    *,
    running: Callable[[], contextlib.AbstractAsyncContextManager] | None = None,
) -> AsyncApp:
    """The Connexion app alone (tests and the benchmark use it without the socket).

    `state` adds shared objects to what handlers see as `request.state` (the socket server).
    `running()` is entered for the app's lifetime, inside the lifespan (the socket's tasks).
    """
    connexion_speedups.install()

    @contextlib.asynccontextmanager
    async def lifespan(_app):
        db = database or Database(settings.database_url, echo=settings.sql_echo)
        identity_providers = ProviderClient.from_settings(settings)
        try:
            cache = ResponseCache(settings.catalogue_cache_seconds)
            held = HoldingsCache(settings.holdings_cache_seconds)
            async with running() if running else contextlib.nullcontext(), _confirming_sessions(db):
                yield {
                    **(state or {}),
                    "database": db,
                    "settings": settings,
                    "cache": cache,
                    "identity_providers": identity_providers,
                    "holdings_cache": held,
                }
        finally:
            await identity_providers.close()
            if database is None:
                await db.dispose()

    api = AsyncApp(
        __name__,
        lifespan=lifespan,
        specification_dir=OPENAPI_DIR,
        security_map=security_map(settings),
        jsonifier=OrjsonJsonifier(),
        middlewares=_middlewares(settings),
    )
    api.add_api(
        contract_document.fresh_document(),
        resolver=TagResolver(guard=staff_access.guard),
        strict_validation=True,
        validate_responses=settings.response_validation,
        pythonic_params=True,
        validator_map=VALIDATOR_MAP,
        swagger_ui_options=SwaggerUIOptions(swagger_ui=False),
    )
    errors.install(api)
    reporting.configure(settings)
    return api


def _middlewares(settings: Settings) -> list:
    """Connexion's stack without what Touchline never uses: each layer costs every request.

    No Swagger UI (the contract is served as a file); response validation only when on.
    Outermost, error reporting of answers of 500 and more when a DSN is set (server/reporting.py),
    then `Cache-Control: private, no-store` on every answer (server/api/http/no_store.py),
    then the bound on request bodies (server/api/http/limits.py), before anything reads one.
    """
    skip = {SwaggerUIMiddleware}
    if not settings.response_validation:
        skip.add(ResponseValidationMiddleware)
    return [
        *([reporting.ServerErrorReporting] if settings.sentry_dsn else []),
        NoStoreMiddleware,
        body_limit(settings.max_body_bytes, settings.upload_max_bytes),
        *_with_audit([m for m in ConnexionMiddleware.default_middlewares if m not in skip]),
    ]


def _with_audit(connexion: list) -> list:
    """The audit log's recorder right after Connexion's routing: it knows the operation, and sees
    security's and validation's refusals (server/api/http/audit.py)."""
    connexion.insert(connexion.index(RoutingMiddleware) + 1, AuditMiddleware)
    return connexion


@contextlib.asynccontextmanager
async def _cmcd_log(settings: Settings):
    from .media.delivery import cmcd

    with cmcd.writing(settings.var_dir / "log"):
        yield


def create_app(settings: Settings | None = None, database: Database | None = None):
    from .realtime import emitter, live_alerts
    from .realtime.socket import close_socket_server, create_socket_server, start_socket_server, token_authenticator

    settings = settings or get_settings()
    # One Database for the API and the socket handshake (which checks that sessions stand).
    owned = database is None
    database = database or Database(settings.database_url, echo=settings.sql_echo)
    sio = create_socket_server(settings, authenticate=token_authenticator(settings.secret_key, database))

    @contextlib.asynccontextmanager
    async def running():
        await start_socket_server(sio)
        try:
            async with (
                gc_policy.running(settings.gc_full_collection_interval),
                _cmcd_log(settings),
                # Before the jobs: their live-alerts rounds send through it.
                live_alerts.running(database, settings, sio),
                jobs.running(settings, database),
                ingest.running(settings, database=database),
                transcoding.running(settings, database),
            ):
                yield
        finally:
            await close_socket_server(sio)
            if owned:
                await database.dispose()

    api = create_api(settings, database, state={"socket": sio}, running=running)
    emitter.bind(sio)
    # The webapp's page carries the API's first answers (server.first_view).
    static = static_app(settings, api=api)
    # Outermost: the Host check, relative redirects and the security headers (server/guards.py).
    return guards.guarded(socketio.ASGIApp(sio, other_asgi_app=_dispatch(api, static), socketio_path="ws"), settings)


def _dispatch(api: AsyncApp, static):
    """/api and lifespan events go to Connexion (it owns the database); the rest is static.

    Connexion gets the untouched scope: it matches the full path against the contract's
    `/api` base path itself, which a Starlette Mount would strip.
    """

    async def app(scope, receive, send):
        if scope["type"] == "lifespan" or scope["path"] == "/api" or scope["path"].startswith("/api/"):
            await api(scope, receive, send)
        else:
            await static(scope, receive, send)

    return app


def asgi():
    """Import string for uvicorn: `uvicorn --factory server.app:asgi`.

    `touchline serve` also applies the settings uvicorn owns; with uvicorn directly, pass
    `--ws wsproto --ws-per-message-deflate false` (uvicorn's defaults cost ~25 % and ~3x more
    memory per socket; see server/bench/fanout.py) and `--no-proxy-headers`, or
    `--forwarded-allow-ips` with your proxies' addresses (uvicorn believes X-Forwarded-For from
    127.0.0.1 by default, which lets local clients choose the address rate limits count).
    """
    return create_app()
