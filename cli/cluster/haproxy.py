"""The HAProxy configuration of `touchline cluster`: one HTTP frontend on the public port that
balances REST, media and the socket's websocket (/ws) over the server processes.

- Round robin per request; websockets are tunnelled for their whole life (`timeout tunnel`).
  The socket runs over websocket only (server.realtime.socket), so no sticky sessions are
  needed: any process serves any client, and Redis carries the messages between them.
- The health check (GET /api/health, with a Host the processes accept) takes a process out of
  rotation within about 2 s when it stops answering or answers 503 (its database is down), and
  back when it recovers. A process whose Redis fan-out is degraded still answers 200 and keeps
  serving REST.
- `option forwardfor` adds X-Forwarded-For; the processes believe it from 127.0.0.1 only
  (TOUCHLINE_FORWARDED_ALLOW_IPS), so per-address limits count the viewer, not HAProxy.
- When no process is up, HAProxy answers 503 in the API's error envelope (errorfile), never
  its own HTML page; so are its 502 (the process died before answering: a crash, SIGKILL) and
  504 (it did not answer in time), which clients retry like a 503.
- `X-Served-By` names the process that answered, for operators and the cluster's tests.
- With an edge (server.media.delivery.edge_nginx), the streams' paths (`/media/vod/`, `/media/live/`) go to
  it instead: it checks their tokens and answers from its cache, asking the processes itself.
"""

import json
import resource
from pathlib import Path

# The API's error envelope (server.api.http.errors), as a process would answer a 503.
UNAVAILABLE = {
    "error": True,
    "message": "The service is unavailable; try again in a moment",
    "messageErrorCode": "service_unavailable",
}


REASONS = {502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout"}


def error_page(path: Path, status: int = 503) -> Path:
    """The raw HTTP answer HAProxy sends with `status` (one of REASONS) when no process answers."""
    body = json.dumps(UNAVAILABLE, separators=(",", ":"))
    head = [
        f"HTTP/1.1 {status} {REASONS[status]}",
        "Content-Type: application/json",
        "Cache-Control: no-store",
        "Retry-After: 2",
        "Connection: close",
        f"Content-Length: {len(body.encode())}",
    ]
    path.write_text("\r\n".join(head) + "\r\n\r\n" + body)
    return path


def max_connections(limit: int = 20_000) -> int:
    """As many connections as this process's open-file limit allows (two descriptors each, as
    HAProxy counts them, plus a margin), at most `limit`: HAProxy refuses to start otherwise."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return limit
    return max(64, min(limit, (soft - 100) // 2))


def error_pages(directory: Path) -> dict[int, Path]:
    """An error page for each status HAProxy answers by itself, written in `directory`."""
    return {status: error_page(directory / f"{status}.http", status) for status in REASONS}


def config(
    public_port: int,
    backend_ports: list[int],
    errorfiles: dict[int, Path],
    host: str = "127.0.0.1",
    edge_port: int | None = None,
) -> str:
    errors = "\n".join(f"    errorfile {status} {path}" for status, path in sorted(errorfiles.items()))
    servers = "\n".join(
        f"    server p{index} 127.0.0.1:{port} check inter 1s fall 2 rise 1"
        for index, port in enumerate(backend_ports, start=1)
    )
    return f"""global
    maxconn {max_connections()}

defaults
    mode http
    option http-server-close
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h
    timeout http-keep-alive 10s
    timeout queue 5s
    retries 2
    option redispatch
{errors}

frontend touchline
    bind {host}:{public_port}
    option forwardfor
{_edge_routing(edge_port)}    default_backend processes

backend processes
    balance roundrobin
    option httpchk
    http-check send meth GET uri /api/health ver HTTP/1.1 hdr Host {host}
    http-check expect status 200
    http-response set-header X-Served-By %s
{servers}
{_edge_backend(edge_port)}"""


def _edge_routing(edge_port: int | None) -> str:
    if edge_port is None:
        return ""
    return "    acl stream path_beg /media/vod/ /media/live/\n    use_backend edge if stream\n"


def _edge_backend(edge_port: int | None) -> str:
    if edge_port is None:
        return ""
    return f"""
backend edge
    server edge 127.0.0.1:{edge_port} check inter 1s fall 2 rise 1
"""
