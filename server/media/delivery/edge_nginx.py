"""The media edge's nginx configuration (issue 30): nginx in front of the stream routes, checking
each request's token itself and keeping one cached copy of every playlist and segment for all
viewers. `touchline cluster` runs it (cli/commands/cluster.py), and so does `make bench`
(server.bench.edge).

- **Tokens** (server.media.delivery.edge_tokens): `secure_link` over the token from `?token=` or
  else the `tl_media` cookie, against the request's scope, which a `map` reads off the path with
  the server's own regular expression (SCOPE_PATTERNS): no application code, and a refusal is a
  403 in the API's error envelope that never reaches a server process.
- **Cache**: keyed by the path alone (the token and the cookie are not part of it), so the
  second viewer of a segment is a HIT whatever their token. Lifetimes are the origin's
  Cache-Control: segments and VOD playlists an hour, live playlists one second (half a 2 s
  segment). `proxy_cache_lock` collapses a crowd's simultaneous misses into one origin request
  and `proxy_cache_use_stale updating` answers the crowd from the copy being renewed. Every
  answer says `X-Cache-Status` (HIT, MISS, EXPIRED, UPDATING, STALE).
- **The cookie**: a token that came in the query is set as the cookie for its scope
  (`Path=/media/<scope>`, HttpOnly), so the playlists' relative URIs need no query; it is kept
  for the tokens' lifetime (nginx cannot subtract), past which the edge refuses it as expired.
- Playlists are asked of the origin uncompressed (one copy per path) and gzipped here.
"""

import json
import os
import pwd
from pathlib import Path

from .edge_tokens import EDGE_COOKIE, SCOPE_PATTERNS, TOKEN_PARAMETER

ROUTES = "^/media/(?:vod|live)/"
# The answers of server.media.delivery.edge_routes, as the edge gives them.
DENIED = {"error": True, "message": "This stream link is not valid", "messageErrorCode": "stream_access_denied"}
EXPIRED = {
    "error": True,
    "message": "This stream link has expired, reload the event for a new one",
    "messageErrorCode": "stream_token_expired",
}
NOT_FOUND = {"error": True, "message": "Not found", "messageErrorCode": "not_found"}


def _body(envelope: dict) -> str:
    """An envelope as an nginx string: JSON in single quotes (no quote or `$` in our messages)."""
    text = json.dumps(envelope, separators=(",", ":"))
    if any(character in text for character in "'$\\"):
        raise ValueError(f"not writable as an nginx string: {text}")
    return f"'{text}'"


def config(
    *,
    port: int,
    origins: list[int],
    key: str,
    run_dir: Path,
    cookie_seconds: int,
    secure_cookie: bool = False,
    cache_bytes: int = 2 * 1024**3,
    host: str = "127.0.0.1",
) -> str:
    """nginx.conf for an edge on `host:port` in front of the server processes on `origins`
    (ports on loopback), with the edge key `key` (server.media.delivery.edge_tokens.edge_key: the
    file is a secret, written readable by its owner alone) and its logs, cache and temporary
    files under `run_dir`."""
    edge = run_dir / "edge"
    servers = "\n".join(f"        server 127.0.0.1:{origin};" for origin in origins)
    scope = "|".join(SCOPE_PATTERNS)
    secure = "; Secure" if secure_cookie else ""
    cookie_attributes = f"Path=/media/$media_scope; Max-Age={cookie_seconds}; HttpOnly; SameSite=Strict{secure}"
    denied, expired, not_found = _body(DENIED), _body(EXPIRED), _body(NOT_FOUND)
    return f"""daemon off;
{_user()}worker_processes 1;
pid {edge}/nginx.pid;
error_log {edge}/error.log warn;
events {{
    worker_connections 4096;
}}
http {{
    server_tokens off;
    # `$upstream_addr` is "-" for an answer the origin never heard of.
    log_format edge '$remote_addr "$request" $status $upstream_cache_status $upstream_addr $request_time';
    access_log {edge}/access.log edge;
    # What players say of each media request (CTA-5004 CMCD, query mode): server.media.delivery.cmcd.
    log_format cmcd '$time_iso8601 $remote_addr $uri $status "$arg_CMCD"';
    access_log {edge}/cmcd.log cmcd if=$arg_CMCD;
    client_body_temp_path {edge}/temp/body;
    proxy_temp_path {edge}/temp/proxy;
    fastcgi_temp_path {edge}/temp/fastcgi;
    uwsgi_temp_path {edge}/temp/uwsgi;
    scgi_temp_path {edge}/temp/scgi;
    proxy_cache_path {edge}/cache levels=1:2 keys_zone=media:16m max_size={cache_bytes} inactive=30m use_temp_path=off;

    upstream origin {{
{servers}
        keepalive 32;
    }}

    # The token: the query's, else the cookie's; as secure_link reads it ("<mac>,<expires>").
    map $arg_{TOKEN_PARAMETER} $media_token {{
        "" $cookie_{EDGE_COOKIE};
        default $arg_{TOKEN_PARAMETER};
    }}
    map $media_token $media_link {{
        "~^(?<media_expires>[0-9]{{1,12}})\\.(?<media_mac>[A-Za-z0-9_-]{{22}})$" "$media_mac,$media_expires";
        default "";
    }}
    # The scope a path lies in (server.media.delivery.edge_tokens.scope_of).
    map $uri $media_scope {{
        "~^/media/(?<media_scope_found>{scope})" $media_scope_found;
        default "";
    }}
    # A token from the query becomes the cookie of its scope.
    map $arg_{TOKEN_PARAMETER} $media_set_cookie {{
        "" "";
        default "{EDGE_COOKIE}=$arg_{TOKEN_PARAMETER}; {cookie_attributes}";
    }}

    server {{
        listen {host}:{port};
        default_type application/json;

        location ~ {ROUTES} {{
            if ($media_scope = "") {{
                add_header Cache-Control no-store always;
                return 404 {not_found};
            }}
            secure_link $media_link;
            secure_link_md5 "$secure_link_expires$media_scope {key}";
            if ($secure_link = "") {{
                add_header Cache-Control no-store always;
                return 403 {denied};
            }}
            if ($secure_link = "0") {{
                add_header Cache-Control no-store always;
                return 403 {expired};
            }}

            proxy_pass http://origin;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header Accept-Encoding "";
            proxy_next_upstream error timeout http_502 http_503;

            proxy_cache media;
            proxy_cache_key $uri;
            proxy_cache_lock on;
            proxy_cache_lock_timeout 10s;
            proxy_cache_lock_age 5s;
            proxy_cache_use_stale updating error timeout http_500 http_502 http_503 http_504;
            # The origin sets the cookie too (it checks the token again); the edge sets its own.
            proxy_ignore_headers Set-Cookie Vary;
            proxy_hide_header Set-Cookie;

            add_header X-Cache-Status $upstream_cache_status always;
            add_header Set-Cookie $media_set_cookie;
            gzip on;
            gzip_types application/vnd.apple.mpegurl text/vtt;
        }}

        location / {{
            add_header Cache-Control no-store always;
            return 404 {not_found};
        }}
    }}
}}
"""


def _user() -> str:
    """Started as root, nginx runs its workers as `nobody`, who could not write the cache under
    the run directory: they run as the user who started it, as without root."""
    return f"user {pwd.getpwuid(os.geteuid()).pw_name};\n" if os.geteuid() == 0 else ""


def write_config(run_dir: Path, text: str) -> Path:
    """`run_dir/edge/nginx.conf`, readable by its owner alone (it holds the edge key), with the
    directories `config` names."""
    edge = run_dir / "edge"
    for part in ("temp", "cache"):
        (edge / part).mkdir(parents=True, exist_ok=True)
    path = edge / "nginx.conf"
    path.touch(mode=0o600, exist_ok=True)
    path.chmod(0o600)
    path.write_text(text)
    return path


def command(nginx: str, config_path: Path) -> list[str]:
    """nginx in the foreground on that configuration, its early errors on stderr (not the
    system's log, which may not be writable)."""
    return [nginx, "-e", "stderr", "-p", str(config_path.parent), "-c", str(config_path)]
