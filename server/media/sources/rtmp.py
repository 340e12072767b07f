"""RTMP ingest through nginx's RTMP module (Debian's libnginx-mod-rtmp), configured as data (issue 28 §2).

Encoders publish to `rtmp://HOST:PORT/live/<stream key>`. nginx asks the server before it accepts
a publisher: `on_publish` POSTs a form (`name` is the key, `addr` the encoder's address, `call`
`publish`) and only a 2xx answer lets the feed in; `on_publish_done` says the encoder left. Only
this machine may play a feed (the transcoder pulls it from here); viewers get HLS, never RTMP.

nginx runs as a child of the server with its own prefix directory: its pid, logs and temporary
files stay there, never in system paths, and `daemon off` keeps it supervisable. With a control
port, nginx also answers its RTMP module's control API there, on loopback only: the server drops
an encoder whose key was revoked, or that another encoder takes over from (rtmp_control.py).
"""

from dataclasses import dataclass
from pathlib import Path

NGINX_RTMP_MODULE = Path("/usr/lib/nginx/modules/ngx_rtmp_module.so")
APPLICATION = "live"


@dataclass(frozen=True)
class RtmpIngest:
    host: str
    port: int
    on_publish_url: str  # the server's hook: 2xx accepts the key, anything else refuses it
    on_publish_done_url: str
    # An encoder that stops sending without closing its connection is dropped after this long.
    idle_publisher_seconds: int = 10
    control_port: int | None = None  # nginx's `rtmp_control`, on 127.0.0.1

    @property
    def control_url(self) -> str | None:
        return None if self.control_port is None else f"http://127.0.0.1:{self.control_port}/control"

    @property
    def stat_url(self) -> str | None:
        return None if self.control_port is None else f"http://127.0.0.1:{self.control_port}/stat"

    def publish_url(self, key: str, host: str | None = None) -> str:
        """What an operator pastes into OBS: the server's RTMP URL with the stream key."""
        return f"rtmp://{host or self.host}:{self.port}/{APPLICATION}/{key}"

    def pull_url(self, key: str) -> str:
        """Where the transcoder reads a live feed, on this machine."""
        return f"rtmp://127.0.0.1:{self.port}/{APPLICATION}/{key}"


def _control_block(ingest: RtmpIngest, prefix: Path) -> str:
    """The control API on loopback; every temporary path in the prefix (Debian's defaults are
    system directories a server account cannot write)."""
    if ingest.control_port is None:
        return ""
    kinds = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    temp = "\n".join(f"    {kind}_temp_path {prefix / f'{kind}_temp'};" for kind in kinds)
    return f"""
http {{
    access_log off;
{temp}
    server {{
        listen 127.0.0.1:{ingest.control_port};
        location /control {{
            rtmp_control all;
            allow 127.0.0.1;
            deny all;
        }}
        # What each feed is (picture size, frame rate, codecs: from the encoder's metadata and
        # codec headers), so a new feed's ladder is planned without ffprobe reading it first.
        location /stat {{
            rtmp_stat all;
            allow 127.0.0.1;
            deny all;
        }}
    }}
}}
"""


def nginx_config(ingest: RtmpIngest, prefix: Path, module: Path = NGINX_RTMP_MODULE) -> str:
    """nginx.conf for `nginx -p PREFIX -c PREFIX/nginx.conf -e PREFIX/error.log`."""
    return f"""load_module {module};
daemon off;
worker_processes 1;
pid {prefix / "nginx.pid"};
error_log {prefix / "error.log"} warn;

events {{
    worker_connections 512;
}}

rtmp {{
    server {{
        listen {ingest.host}:{ingest.port};
        chunk_size 4096;

        application {APPLICATION} {{
            live on;
            record off;
            # The transcoder is disconnected when its encoder leaves: ffmpeg reads the end of the
            # feed, closes its last segment and exits by itself. (Left waiting, it would block in its
            # read; a second signal to get it out interrupts its own writes, which empties the run's
            # playlist.)
            idle_streams off;
            # Every key is checked by the server before a frame is accepted.
            on_publish {ingest.on_publish_url};
            on_publish_done {ingest.on_publish_done_url};
            notify_method post;
            drop_idle_publisher {ingest.idle_publisher_seconds}s;
            allow play 127.0.0.1;
            deny play all;
        }}
    }}
}}
{_control_block(ingest, prefix)}"""


def nginx_command(prefix: Path, nginx: str = "nginx") -> list[str]:
    return [nginx, "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-e", str(prefix / "error.log")]
