"""The server's own nginx-rtmp: off when asked, and a server without nginx's RTMP module still
runs, saying how to install it."""

import logging
from pathlib import Path

from server.ingest import serving
from server.settings import Settings


async def test_ingest_off_starts_nothing(tmp_path):
    async with serving.running(Settings(ingest_enabled=False, var_dir=tmp_path)) as child:
        assert child is None
    assert not (tmp_path / "ingest").exists()


async def test_without_the_rtmp_module_the_server_runs_and_says_how_to_install_it(tmp_path, caplog):
    settings = Settings(ingest_enabled=True, var_dir=tmp_path)
    with caplog.at_level(logging.WARNING, logger="server.ingest.serving"):
        async with serving.running(settings, module=Path(tmp_path / "no-such-module.so")) as child:
            assert child is None
    assert "scripts/system-deps serve" in caplog.text


def test_the_hooks_nginx_calls_are_this_servers_own_on_loopback():
    ingest = serving.rtmp_ingest(Settings(port=8123, rtmp_port=1999))
    assert ingest.on_publish_url.startswith("http://127.0.0.1:8123/internal/ingest/publish?hook=")
    assert ingest.on_publish_done_url.startswith("http://127.0.0.1:8123/internal/ingest/publish_done?hook=")
    assert ingest.port == 1999
