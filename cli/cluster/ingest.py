"""The cluster's one nginx-rtmp (issue 28 §6): `touchline cluster` runs it beside HAProxy rather
than inside a server process, so no server's death takes the encoders' connections with it.

Its hooks go through HAProxy, so whichever server process is alive answers them; every process
takes part in transcoding (each input by the holder of its lease, server.ingest.live_inputs) and
reads nginx's stat page and control API on one loopback port, told to it in its environment.
"""

from dataclasses import dataclass
from pathlib import Path

from server.ingest import serving
from server.media.sources.rtmp import nginx_command
from server.settings import Settings


@dataclass(frozen=True)
class ClusterIngest:
    command: list[str]  # nginx in the foreground, from its own prefix
    server_env: dict[str, str]  # what every server process is told of it
    rtmp_url: str


def cluster_ingest(settings: Settings, run_dir: Path, hooks_at: str) -> ClusterIngest | None:
    """nginx-rtmp for the cluster, its hooks on `hooks_at` (HAProxy); None when ingest is off or
    nginx with its RTMP module is not installed."""
    nginx = serving.nginx_binary()
    if not settings.ingest_enabled or nginx is None:
        return None
    control_port = settings.rtmp_control_port or serving.free_loopback_port()
    ingest = serving.rtmp_ingest(settings, control_port, hooks_at=hooks_at)
    prefix = serving.prepare_nginx(ingest, run_dir / "ingest")
    return ClusterIngest(
        nginx_command(prefix, nginx),
        {
            "TOUCHLINE_INGEST_ENABLED": "true",
            "TOUCHLINE_INGEST_NGINX": "external",
            "TOUCHLINE_RTMP_CONTROL_PORT": str(control_port),
        },
        f"rtmp://{settings.ingest_host}:{settings.rtmp_port}/live/<stream key>",
    )
