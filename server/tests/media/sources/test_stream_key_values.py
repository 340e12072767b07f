"""Stream keys as values: their shape, hash, hint, the hook secret and the URLs for encoders."""

import pytest

from server.media.sources import stream_keys as keys
from server.services.stream_keys import urls
from server.settings import Settings


def test_a_key_is_long_random_and_kept_only_as_its_sha256():
    made = {keys.new_key() for _ in range(100)}
    assert len(made) == 100 and all(keys.looks_like_a_key(k) for k in made)
    key = made.pop()
    assert len(keys.key_hash(key)) == 64 and key not in keys.key_hash(key)
    assert keys.hint(key) == key[-4:]
    assert not keys.looks_like_a_key("tlk_short") and not keys.looks_like_a_key("x" * 36)


def test_the_hook_secret_follows_the_servers_secret():
    assert keys.hook_secret("one") == keys.hook_secret("one") != keys.hook_secret("two")


@pytest.mark.parametrize(("text", "ports"), [("9000-9099", range(9000, 9100)), ("5000-5000", range(5000, 5001))])
def test_a_port_range_is_read(text, ports):
    assert keys.port_range(text) == ports


@pytest.mark.parametrize("text", ["9099-9000", "0-10", "9000-70000"])
def test_a_reversed_or_impossible_port_range_is_refused(text):
    with pytest.raises(ValueError):
        keys.port_range(text)


def test_encoders_get_the_ingest_address_or_the_public_host_when_it_listens_everywhere():
    key = keys.new_key()
    local = urls(Settings(), key, 9001)
    assert (local.rtmp, local.srt) == (f"rtmp://127.0.0.1:1935/live/{key}", f"srt://127.0.0.1:9001?streamid={key}")
    everywhere = urls(Settings(ingest_host="0.0.0.0", public_base_url="https://watch.example.org"), key, None)
    assert everywhere.rtmp == f"rtmp://watch.example.org:1935/live/{key}" and everywhere.srt is None


def test_a_server_with_an_impossible_srt_range_does_not_start():
    with pytest.raises(ValueError, match="TOUCHLINE_SRT_PORTS"):
        Settings(srt_ports="9100-9000")
