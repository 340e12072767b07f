"""RTMP ingest through Debian's nginx RTMP module: the server's hook decides who may publish."""

import socket
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar
from urllib.parse import parse_qs

import pytest

from server.media.sources.rtmp import RtmpIngest, nginx_command, nginx_config

from ..tools import nginx_with_rtmp, tool

INGEST = RtmpIngest("127.0.0.1", 1935, "http://127.0.0.1:8080/hook/publish", "http://127.0.0.1:8080/hook/done")


def test_an_operator_gets_the_url_with_the_key_and_the_transcoder_pulls_it_locally():
    assert INGEST.publish_url("k3y", host="ingest.example.org") == "rtmp://ingest.example.org:1935/live/k3y"
    assert INGEST.pull_url("k3y") == "rtmp://127.0.0.1:1935/live/k3y"


def test_nginx_asks_the_server_about_every_publisher_and_lets_only_this_machine_play(tmp_path):
    config = nginx_config(INGEST, tmp_path)
    assert "listen 127.0.0.1:1935;" in config
    assert "on_publish http://127.0.0.1:8080/hook/publish;" in config
    assert "on_publish_done http://127.0.0.1:8080/hook/done;" in config
    assert "allow play 127.0.0.1;\n            deny play all;" in config
    # Its files stay in its own prefix, and it stays in the foreground for its supervisor.
    assert f"pid {tmp_path / 'nginx.pid'};" in config and "daemon off;" in config
    assert nginx_command(tmp_path)[-2:] == ["-e", str(tmp_path / "error.log")]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Hook(BaseHTTPRequestHandler):
    """The server's side of on_publish: accepts the key "good-key" only."""

    calls: ClassVar[list[dict]] = []

    def do_POST(self):
        form = parse_qs(self.rfile.read(int(self.headers["Content-Length"] or 0)).decode())
        Hook.calls.append({"path": self.path, **{key: values[0] for key, values in form.items()}})
        accepted = self.path.endswith("/done") or form.get("name") == ["good-key"]
        self.send_response(200 if accepted else 403)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


def start_nginx(ingest: RtmpIngest, prefix) -> subprocess.Popen:
    """nginx with the RTMP module for `ingest`, listening once this returns."""
    (prefix / "nginx.conf").write_text(nginx_config(ingest, prefix))
    process = subprocess.Popen(nginx_command(prefix, nginx_with_rtmp()), stderr=subprocess.PIPE)
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", ingest.port), timeout=0.2).close()
            break
        except OSError as refused:
            if process.poll() is not None or time.monotonic() > deadline:
                said = process.stderr.read().decode() if process.stderr else ""
                raise AssertionError(f"nginx did not start: {said}") from refused
            time.sleep(0.1)
    return process


@pytest.fixture
def ingest(tmp_path):
    hook = ThreadingHTTPServer(("127.0.0.1", 0), Hook)
    threading.Thread(target=hook.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{hook.server_address[1]}"
    ingest = RtmpIngest("127.0.0.1", free_port(), f"{base}/hook/publish", f"{base}/hook/done")
    process = start_nginx(ingest, tmp_path)
    Hook.calls = []
    yield ingest
    process.terminate()
    process.wait(10)
    hook.shutdown()


def publish(ingest: RtmpIngest, key: str, seconds: int = 2) -> subprocess.CompletedProcess:
    """`seconds` of ffmpeg's test picture and tone, as an encoder sends them."""
    return subprocess.run(
        [
            *(tool("ffmpeg"), "-hide_banner", "-loglevel", "error", "-nostdin", "-re"),
            *("-f", "lavfi", "-i", f"testsrc2=size=320x180:rate=25:duration={seconds}"),
            *("-f", "lavfi", "-i", f"sine=frequency=440:duration={seconds}"),
            *("-c:v", "libx264", "-preset", "ultrafast", "-g", "50", "-c:a", "aac", "-f", "flv"),
            ingest.publish_url(key),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_key_the_server_accepts_publishes_and_its_end_is_told(ingest):
    assert publish(ingest, "good-key").returncode == 0
    [asked] = [call for call in Hook.calls if call["path"] == "/hook/publish"]
    assert (asked["name"], asked["app"], asked["call"], asked["addr"]) == ("good-key", "live", "publish", "127.0.0.1")
    deadline = time.monotonic() + 5
    while not any(call["path"] == "/hook/done" for call in Hook.calls) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert any(call["path"] == "/hook/done" and call["name"] == "good-key" for call in Hook.calls)


def test_a_key_the_server_refuses_is_turned_away_at_connect(ingest):
    refused = publish(ingest, "wrong-key")
    assert refused.returncode != 0
    assert [call["name"] for call in Hook.calls if call["path"] == "/hook/publish"] == ["wrong-key"]
