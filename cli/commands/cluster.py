"""`touchline cluster`: the production shape on one machine — N server processes on PostgreSQL
and Redis behind HAProxy, which balances REST, media and the socket's websocket on one port.

    public port (default 8080)     HAProxy: round robin, health checks on /api/health
    ports public+1 … public+N      `touchline serve` processes (uvicorn), one per port
    PostgreSQL                     TOUCHLINE_CLUSTER_DATABASE_URL (created, migrated and seeded)
    Redis                          REDIS_URL: socket fan-out, signals, socket counts
    nginx-rtmp                     TOUCHLINE_RTMP_PORT: encoders' feeds, for every process
    nginx (the media edge)         --edge-port: HAProxy sends it the streams' paths; it checks
                                   their tokens and caches each segment once (server.media.delivery.edge_nginx)

A server process that exits (a crash, a kill) is started again; HAProxy sends its requests to
the others meanwhile, and another process takes over the live inputs it transcoded. The
processes share everything a second process needs: the database (rate limits, job leases,
sessions), Redis (socket messages, the catalogue's cache clears, socket counts). In development
the ifa sign-on's OpenID provider runs once, for every process. Ctrl-C stops everything.
"""

import os
import signal
import sys
import time
from contextlib import ExitStack
from pathlib import Path

import typer

from ..cluster import haproxy
from ..cluster.processes import (
    ClusterError,
    Supervisor,
    ensure_postgres_database,
    haproxy_binary,
    healthy,
    touchline_command,
)

DEFAULT_DATABASE_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/touchline_cluster"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


def cluster(
    workers: int = typer.Option(2, min=1, max=16, help="Server processes."),
    port: int = typer.Option(None, help="HAProxy's port (default PORT or 8080)."),
    first_process_port: int = typer.Option(None, help="The first process's port (default: port + 1)."),
    database_url: str = typer.Option(
        DEFAULT_DATABASE_URL, envvar="TOUCHLINE_CLUSTER_DATABASE_URL", help="PostgreSQL database (created if missing)."
    ),
    redis_url: str = typer.Option(DEFAULT_REDIS_URL, envvar="REDIS_URL", help="Redis for the socket fan-out."),
    seed: bool = typer.Option(True, help="Seed the demo catalogue and accounts (idempotent)."),
    edge_port: int = typer.Option(None, help="The media edge's port (default: a free one; no edge without nginx)."),
) -> None:
    """Run several server processes behind HAProxy on PostgreSQL and Redis (until Ctrl-C)."""
    from server.settings import get_settings

    settings = get_settings()
    public_port = port or int(os.environ.get("PORT", "8080"))
    first = first_process_port or public_port + 1
    process_ports = list(range(first, first + workers))
    public_url = f"http://127.0.0.1:{public_port}"
    run_dir = Path(settings.var_dir) / "cluster" / str(public_port)
    run_dir.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "TOUCHLINE_DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        # Pages come from HAProxy's address: the socket's allowed Origin and mail links follow it.
        "TOUCHLINE_PUBLIC_BASE_URL": public_url,
        "TOUCHLINE_FORWARDED_ALLOW_IPS": "127.0.0.1",
    }
    try:
        if ensure_postgres_database(database_url):
            typer.echo(f"created the database {database_url.rsplit('/', 1)[-1]}")
        _run_once(touchline_command("db", "upgrade"), env, "migrations")
        if seed:
            _run_once(touchline_command("seed"), env, "seeding")
        # The ingest's server side loads only for this command: every other command starts 0.8 s sooner.
        from ..cluster.ingest import cluster_ingest

        ingest = cluster_ingest(settings, run_dir, hooks_at=public_url)
        with ExitStack() as stack:
            env.update(stack.enter_context(_identity_provider(settings)))
            supervisor = Supervisor(run_dir)
            stack.callback(supervisor.stop)
            signal.signal(signal.SIGTERM, _exit_on_sigterm)
            servers = [
                supervisor.start(
                    f"process-{port_}",
                    touchline_command("serve", "--host", "127.0.0.1", "--port", str(port_)),
                    {
                        **env,
                        "TOUCHLINE_ENVIRONMENT": env.get("TOUCHLINE_ENVIRONMENT", settings.environment),
                        # The cluster's nginx-rtmp (below) is every process's; without it none ingests.
                        **(ingest.server_env if ingest else {"TOUCHLINE_INGEST_ENABLED": "false"}),
                    },
                    url=f"http://127.0.0.1:{port_}",
                )
                for port_ in process_ports
            ]
            for server in servers:
                supervisor.wait_healthy(server)
            media_edge = _start_edge(supervisor, settings, run_dir, process_ports, edge_port, env)
            config = run_dir / "haproxy.cfg"
            config.write_text(
                haproxy.config(public_port, process_ports, haproxy.error_pages(run_dir), edge_port=media_edge)
            )
            balancer = supervisor.start("haproxy", [haproxy_binary(), "-db", "-f", str(config)], env, url=public_url)
            content = supervisor.wait_healthy(balancer, timeout=30)
            if ingest is not None:  # its hooks reach the processes through HAProxy
                supervisor.start("nginx-rtmp", ingest.command, env)
            _describe(public_url, process_ports, database_url, redis_url, run_dir, content)
            typer.echo(
                f"  ingest    {ingest.rtmp_url if ingest else 'off (nginx with its RTMP module is not installed)'}"
            )
            typer.echo(
                f"  edge      http://127.0.0.1:{media_edge}"
                if media_edge
                else f"  edge      off ({_no_edge_because(settings)})"
            )
            sys.stdout.flush()  # an operator's log file has it now, not when the cluster stops
            _watch(supervisor)
    except ClusterError as error:
        typer.echo(f"touchline cluster: {error}", err=True)
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        typer.echo("stopping the cluster", err=True)


def _start_edge(
    supervisor: Supervisor, settings, run_dir: Path, origins: list[int], port: int | None, env
) -> int | None:
    """The media edge in front of the processes, on `port` (a free one when None); its port, or
    None without nginx or when the tokens are another flavour than nginx's (a CDN's: HAProxy then
    sends the streams' paths to the processes, which check the same tokens)."""
    from server.ingest.serving import find_nginx, free_loopback_port
    from server.media.delivery import edge_nginx as edge
    from server.media.delivery.edge_tokens import signer_of

    nginx = find_nginx()
    signer = signer_of(settings)
    if nginx is None or signer.flavour != "secure_link":
        return None
    port = port or free_loopback_port()
    text = edge.config(
        port=port,
        origins=origins,
        key=signer.key,
        run_dir=run_dir,
        cookie_seconds=settings.stream_token_seconds,
        secure_cookie=settings.base_url.startswith("https:"),
    )
    child = supervisor.start("edge", edge.command(nginx, edge.write_config(run_dir, text)), env)
    _wait_listening(child, port)
    return port


def _no_edge_because(settings) -> str:
    if settings.stream_token_flavour != "secure_link":
        return f"{settings.stream_token_flavour} stream tokens are for a CDN to check"
    return "nginx is not installed"


def _wait_listening(child, port: int, timeout: float = 10) -> None:
    import socket

    deadline = time.monotonic() + timeout
    while True:
        if not child.alive():
            raise ClusterError(f"the media edge (nginx) exited:\n{child.tail()}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        if time.monotonic() > deadline:
            raise ClusterError(f"the media edge (nginx) did not listen on {port} within {timeout:.0f} s")
        time.sleep(0.05)


def _run_once(command: list[str], env: dict[str, str], what: str) -> None:
    import subprocess

    result = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise ClusterError(f"{what} failed:\n{result.stdout[-2000:]}{result.stderr[-2000:]}")


def _identity_provider(settings):
    """The development ifa provider, once for every process (each `serve` would try the same port)."""
    from contextlib import contextmanager

    from .serve import development_identity_provider

    @contextmanager
    def provider():
        with development_identity_provider(settings) as issuer:
            from server.auth.providers import local_provider

            yield local_provider.settings_for(issuer) if issuer else {}

    return provider()


def _describe(public_url: str, ports: list[int], database_url: str, redis_url: str, run_dir: Path, health: dict):
    sockets = health.get("sockets") or {}
    typer.echo(f"Touchline cluster at {public_url} (HAProxy) — Ctrl-C stops it")
    for port_ in ports:
        typer.echo(f"  process   http://127.0.0.1:{port_}")
    typer.echo(f"  database  {database_url.rsplit('@', 1)[-1]}")
    typer.echo(f"  redis     {redis_url.rsplit('@', 1)[-1]}")
    typer.echo(f"  logs      {run_dir}")
    typer.echo(f"health {health.get('status')}; sockets counted across {sockets.get('processes', '?')} processes")


def _watch(supervisor: Supervisor, balancer_name: str = "haproxy") -> None:
    """Until Ctrl-C or SIGTERM. A server process that exits is started again (HAProxy sends its
    requests to the others meanwhile, and takes it back once its health check passes); HAProxy
    exiting stops the cluster."""
    while True:
        exited = supervisor.first_exited()
        if exited is not None:
            if exited.name == balancer_name:
                raise ClusterError(f"HAProxy exited with {exited.process.returncode}:\n{exited.tail()}")
            typer.echo(f"{exited.name} exited with {exited.process.returncode}; starting it again", err=True)
            supervisor.restart(exited)
        time.sleep(0.5)


def _exit_on_sigterm(signum, _frame) -> None:
    raise KeyboardInterrupt


__all__ = ["cluster", "healthy"]
