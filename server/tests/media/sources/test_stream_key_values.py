"""Stream keys as values: their shape, hash, hint, the hook secret, the SRT passphrase and bridge
name, and the URLs for encoders."""

import re

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
    passphrase = keys.srt_passphrase(Settings().secret_key, keys.key_hash(key))
    assert local.rtmp == f"rtmp://127.0.0.1:1935/live/{key}"
    assert local.srt == f"srt://127.0.0.1:9001?streamid={key}&passphrase={passphrase}"
    everywhere = urls(Settings(ingest_host="0.0.0.0", public_base_url="https://watch.example.org"), key, None)
    assert everywhere.rtmp == f"rtmp://watch.example.org:1935/live/{key}" and everywhere.srt is None


def test_a_server_with_an_impossible_srt_range_does_not_start():
    with pytest.raises(ValueError, match="TOUCHLINE_SRT_PORTS"):
        Settings(srt_ports="9100-9000")


def test_the_srt_passphrase_is_stable_per_key_differs_between_keys_and_secrets_and_fits_srt():
    one, two = keys.key_hash(keys.new_key()), keys.key_hash(keys.new_key())
    passphrase = keys.srt_passphrase("secret", one)
    assert passphrase == keys.srt_passphrase("secret", one)
    assert passphrase != keys.srt_passphrase("secret", two) and passphrase != keys.srt_passphrase("other", one)
    # SRT takes 10 to 79 characters; URL-safe, it goes into the SRT URL as it is.
    assert len(passphrase) == 32 and re.fullmatch(r"[A-Za-z0-9_-]+", passphrase)
    assert one not in passphrase


def test_a_bridge_name_stands_for_its_key_row_and_only_this_servers_secret_makes_one():
    name = keys.bridge_name("secret", "0123456789abcdef01234567")
    assert name == keys.bridge_name("secret", "0123456789abcdef01234567")
    assert name != keys.bridge_name("secret", "76543210fedcba9876543210")
    assert keys.bridged_key_id("secret", name) == "0123456789abcdef01234567"
    assert keys.bridged_key_id("other", name) is None


@pytest.mark.parametrize(
    "tampered",
    [
        lambda name: name.replace("0123", "0124", 1),  # another row, the same mac
        lambda name: name[:-1] + ("0" if name[-1] != "0" else "1"),  # a changed mac
        lambda name: name[:-2],  # a shortened mac
        lambda name: name + "0",
        lambda name: name.replace("srt_", "tlk_", 1),
        lambda name: "srt__" + name.rsplit("_", 1)[1],  # no row
        lambda name: name.replace("_", "/", 1),
    ],
)
def test_a_tampered_bridge_name_stands_for_nothing(tampered):
    name = keys.bridge_name("secret", "0123456789abcdef01234567")
    assert keys.bridged_key_id("secret", tampered(name)) is None


def test_a_bridge_name_is_not_a_key_and_a_key_is_not_a_bridge_name():
    name = keys.bridge_name("secret", "0123456789abcdef01234567")
    assert not keys.looks_like_a_key(name)
    assert keys.bridged_key_id("secret", keys.new_key()) is None
    assert keys.bridged_key_id("secret", "") is None and keys.bridged_key_id("secret", "srt_" + "\x00" * 60) is None
