"""SRT ingest: ffmpeg's SRT listener on a stream key's port, handing the feed to nginx-rtmp (issue 28 §2).

An encoder calls `srt://HOST:PORT` (the key's port from TOUCHLINE_SRT_PORTS) with the key's
passphrase (server.media.sources.stream_keys.srt_passphrase). Encryption is enforced, so a caller
without the passphrase fails SRT's handshake: it is refused at connect. ffmpeg accepts one caller
and remuxes its MPEG-TS into FLV without re-encoding, publishing it to nginx under the key's bridge
name, which nginx's on_publish hook checks as it checks a key. An SRT feed thus reaches the place
an RTMP feed does, and what follows (probing, the ladder) reads both alike. When the caller
leaves, ffmpeg ends; its supervisor (server.ingest.srt_listeners) starts it again for the next caller.

FLV carries H.264 and AAC, what OBS and venue encoders send by default; a feed in another codec
fails in the bridge, and its encoder sees the connection drop.
"""

from dataclasses import dataclass

from ...settings import Settings
from .rtmp import APPLICATION
from .stream_keys import bridge_name, srt_passphrase

# SRT retransmits lost packets within this window: a few round trips of an encoder across the
# internet (SRT's own default, 120 ms, suits a LAN). Both ends announce one and the larger wins,
# so an encoder on a worse link may ask for more.
LATENCY_MICROSECONDS = 500_000
KEY_LENGTH_BYTES = 32  # AES-256
# How much of the feed ffmpeg reads to learn its codecs before it publishes (its default, 5 s, delays
# every start by as much: MPEG-TS never says it has shown all its streams). Two seconds hold a
# keyframe, and so the picture's parameters, from an encoder keeping the usual 2 s interval.
ANALYZE_MICROSECONDS = 2_000_000


@dataclass(frozen=True)
class SrtBridge:
    host: str  # the address the listener binds (TOUCHLINE_INGEST_HOST)
    port: int  # the key's SRT port
    passphrase: str
    rtmp_port: int  # nginx-rtmp's, reached on loopback
    name: str  # the key's bridge name: the stream name nginx sees
    latency_us: int = LATENCY_MICROSECONDS

    def listen_url(self) -> str:
        """Where ffmpeg listens. Its options (the passphrase among them) go apart, never in the
        URL: ffmpeg repeats the URL in its errors, and errors reach the server's log."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"srt://{host}:{self.port}"

    def listen_options(self) -> list[str]:
        return [
            *("-mode", "listener", "-passphrase", self.passphrase, "-pbkeylen", str(KEY_LENGTH_BYTES)),
            *("-enforced_encryption", "1", "-latency", str(self.latency_us)),
        ]

    def target_url(self) -> str:
        return f"rtmp://127.0.0.1:{self.rtmp_port}/{APPLICATION}/{self.name}"


def key_bridge(settings: Settings, key_id: str, key_hash: str, port: int) -> SrtBridge:
    """The listener of the stream key row `key_id` (whose SHA-256 is `key_hash`) on `port`."""
    return SrtBridge(
        host=settings.ingest_host,
        port=port,
        passphrase=srt_passphrase(settings.secret_key, key_hash),
        rtmp_port=settings.rtmp_port,
        name=bridge_name(settings.secret_key, key_id),
    )


def bridge_command(bridge: SrtBridge, ffmpeg: str = "ffmpeg") -> list[str]:
    """ffmpeg's argv: wait for one SRT caller, copy its first video and audio into FLV to nginx."""
    return [
        *(ffmpeg, "-hide_banner", "-loglevel", "warning", "-nostdin"),
        *bridge.listen_options(),
        *("-analyzeduration", str(ANALYZE_MICROSECONDS), "-f", "mpegts", "-i", bridge.listen_url()),
        *("-map", "0:v:0", "-map", "0:a:0?", "-c", "copy"),
        *("-f", "flv", "-flvflags", "no_duration_filesize", bridge.target_url()),
    ]
