"""`touchline serve`: the API, the socket, media and the webapp on one port.

In development, when no ifa issuer is configured, it also starts an OpenID Connect provider
(oidc-provider-mock) on 127.0.0.1:9400 as a child process, points the ifa sign-on at it and
stops it with the server, so the federated sign-in works out of the box. When 9400 is taken
(another `make run`), the provider takes a free port and ifa points at that one: never at
whatever answers on 9400.
"""

import os
import signal
from collections.abc import Iterator
from contextlib import contextmanager

import typer

from server.auth.providers import local_provider
from server.settings import Settings

DEV_IFA_PORT = 9400
# The largest websocket message uvicorn buffers for the socket, whose own limit is far lower
# (server/realtime/socket.py refuses messages over 16 KB): uvicorn's default is 16 MiB.
WS_MAX_BYTES = 64 * 1024


def proxy_options(settings: Settings) -> dict:
    """uvicorn's handling of X-Forwarded-For/-Proto: only from TOUCHLINE_FORWARDED_ALLOW_IPS.

    uvicorn's own default believes them from 127.0.0.1 (and FORWARDED_ALLOW_IPS), so anyone on
    the machine, or a local proxy that passes the header through, could choose the address that
    the per-address limits count."""
    allowed = settings.forwarded_allow_ips
    return {"proxy_headers": bool(allowed), "forwarded_allow_ips": ",".join(allowed) if allowed else None}


def serve(
    host: str = typer.Option(None, help="Interface (default from settings)."),
    port: int = typer.Option(None, help="Port (default PORT or 8080)."),
    reload: bool = typer.Option(False, help="Restart on code changes (development)."),
) -> None:
    """Run the server: the API, the socket, media and the webapp on one port.

    In development without an ifa issuer it also runs a local OpenID provider for the ifa sign-on."""
    import uvicorn

    from server.settings import get_settings

    # The app reads host and port from its settings too (the socket's default Origin allow-list
    # is this server's own origin): hand the options over through the environment, which the
    # app factory (and, with --reload, the worker process) reads.
    if host:
        os.environ["TOUCHLINE_HOST"] = host
    if port:
        os.environ["TOUCHLINE_PORT"] = str(port)
    get_settings.cache_clear()
    settings = get_settings()
    # uvicorn re-raises the SIGTERM it shut down for; without a handler of ours the process would
    # die there without stopping the development provider.
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    with development_identity_provider(settings) as issuer:
        if issuer:
            get_settings.cache_clear()  # the ifa settings now come from the environment
            taken = "" if issuer.endswith(f":{DEV_IFA_PORT}") else f" (port {DEV_IFA_PORT} is taken)"
            typer.echo(f"ifa sign-on: development OpenID provider at {issuer}{taken}")
        uvicorn.run(
            "server.app:asgi",
            factory=True,
            host=settings.host,
            port=settings.port,
            reload=reload,
            # wsproto: the leanest of uvicorn's websocket implementations per connection (~40 KB
            # against ~50 KB for its default, server/bench/fanout.py).
            ws="wsproto",
            # Off unless TOUCHLINE_SOCKET_PER_MESSAGE_DEFLATE: ~3x the memory per socket
            # (TOOLCHAIN-NOTES); uvicorn's own default is on.
            ws_per_message_deflate=settings.socket_per_message_deflate,
            ws_max_size=WS_MAX_BYTES,
            access_log=settings.environment == "development",
            server_header=False,  # no "server: uvicorn" on every answer
            **proxy_options(settings),
        )


@contextmanager
def development_identity_provider(settings: Settings, port: int = DEV_IFA_PORT) -> Iterator[str | None]:
    """Run oidc-provider-mock for the ifa sign-on while the block runs; yields its issuer (on
    `port`, or on a free port when `port` is taken), or None when it is not wanted (not
    development, an issuer is configured) or cannot start.

    The ifa settings reach the server (and uvicorn's reload workers) through the environment,
    which is restored afterwards."""
    if settings.environment != "development" or settings.ifa_issuer:
        yield None
        return
    if not local_provider.available():
        typer.echo("ifa sign-on off: oidc-provider-mock is not installed (pip install -e '.[test]')", err=True)
        yield None
        return
    log_path = settings.var_dir / "ifa-provider.log"
    with local_provider.local_openid_provider(port, log_path) as issuer:
        if issuer is None:
            typer.echo(f"ifa sign-on off: the development OpenID provider did not start; see {log_path}", err=True)
            yield None
            return
        variables = local_provider.settings_for(issuer)
        previous = {name: os.environ.get(name) for name in variables}
        os.environ.update(variables)
        try:
            yield issuer
        finally:
            for name, value in previous.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value


def _exit_on_sigterm(signum, _frame) -> None:
    raise SystemExit(128 + signum)
