"""The cluster's nginx-rtmp as the launcher prepares it (cli/cluster/ingest.py): its hooks go to
HAProxy, and every server process is told to use it rather than start its own."""

from pathlib import Path

import pytest

from cli.cluster import ingest as cluster_ingest_module
from cli.cluster.ingest import cluster_ingest
from server.ingest.hooks import PUBLISH_DONE_PATH, PUBLISH_PATH
from server.settings import Settings


def test_the_clusters_nginx_asks_the_balancer_and_every_process_uses_it(tmp_path, monkeypatch):
    monkeypatch.setattr(cluster_ingest_module.serving, "nginx_binary", lambda: "/usr/sbin/nginx")
    settings = Settings(ingest_enabled=True, rtmp_port=1999, rtmp_control_port=8998)
    ingest = cluster_ingest(settings, tmp_path, hooks_at="http://127.0.0.1:8080")
    assert ingest is not None
    config = (tmp_path / "ingest" / "nginx.conf").read_text()
    assert f"on_publish http://127.0.0.1:8080{PUBLISH_PATH}?hook=" in config
    assert f"on_publish_done http://127.0.0.1:8080{PUBLISH_DONE_PATH}?hook=" in config
    assert "listen 127.0.0.1:1999;" in config and "listen 127.0.0.1:8998;" in config
    assert ingest.command[0] == "/usr/sbin/nginx" and str(tmp_path / "ingest") in ingest.command
    assert ingest.server_env == {
        "TOUCHLINE_INGEST_ENABLED": "true",
        "TOUCHLINE_INGEST_NGINX": "external",
        "TOUCHLINE_RTMP_CONTROL_PORT": "8998",
    }
    # What the processes are told makes valid settings of their own.
    for name, value in ingest.server_env.items():
        monkeypatch.setenv(name, value)
    told = Settings()
    assert told.ingest_nginx == "external" and told.rtmp_control_port == 8998


@pytest.mark.parametrize("installed, enabled", [(False, True), (True, False)])
def test_without_nginx_or_with_ingest_off_the_cluster_runs_none(tmp_path, monkeypatch, installed, enabled):
    monkeypatch.setattr(cluster_ingest_module.serving, "nginx_binary", lambda: "/usr/sbin/nginx" if installed else None)
    assert cluster_ingest(Settings(ingest_enabled=enabled), tmp_path, hooks_at="http://127.0.0.1:8080") is None
    assert not Path(tmp_path / "ingest").exists()
