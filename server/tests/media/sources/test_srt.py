"""SRT ingest's listener as data: one caller on the key's port with the key's passphrase, its feed
copied untouched to nginx-rtmp under the key's bridge name."""

from server.media.sources import stream_keys as keys
from server.media.sources.srt import LATENCY_MICROSECONDS, SrtBridge, bridge_command, key_bridge
from server.settings import Settings

SETTINGS = Settings(secret_key="s" * 40, ingest_host="0.0.0.0", rtmp_port=1999)
KEY_ID = "0123456789abcdef01234567"
KEY_HASH = keys.key_hash(keys.new_key())


def test_the_listener_takes_one_caller_on_the_keys_port_with_its_passphrase_encryption_enforced():
    bridge = key_bridge(SETTINGS, KEY_ID, KEY_HASH, 9007)
    command = bridge_command(bridge, "ffmpeg")
    given = command.index("-i")
    assert command[given + 1] == "srt://0.0.0.0:9007" and command[given - 2 : given] == ["-f", "mpegts"]
    listen = bridge.listen_options()
    assert command[command.index("-mode") :][: len(listen)] == listen and command.index("-mode") < given
    options = dict(zip(listen[::2], listen[1::2], strict=True))
    assert options["-mode"] == "listener"
    assert options["-passphrase"] == keys.srt_passphrase(SETTINGS.secret_key, KEY_HASH)
    assert options["-pbkeylen"] in {"16", "32"} and options["-enforced_encryption"] == "1"
    # ffmpeg's SRT latency is in microseconds: half a second, not half a millisecond.
    assert options["-latency"] == str(LATENCY_MICROSECONDS) and 200_000 <= LATENCY_MICROSECONDS <= 2_000_000


def test_the_passphrase_stays_out_of_the_urls_ffmpeg_repeats_in_its_errors():
    bridge = key_bridge(SETTINGS, KEY_ID, KEY_HASH, 9007)
    assert bridge.passphrase not in bridge.listen_url() and bridge.passphrase not in bridge.target_url()


def test_the_feed_is_copied_without_reencoding_to_nginx_under_the_keys_bridge_name():
    command = bridge_command(key_bridge(SETTINGS, KEY_ID, KEY_HASH, 9007), "ffmpeg")
    name = keys.bridge_name(SETTINGS.secret_key, KEY_ID)
    assert command[-5:] == ["-f", "flv", "-flvflags", "no_duration_filesize", f"rtmp://127.0.0.1:1999/live/{name}"]
    assert command[command.index("-c") + 1] == "copy" and "-c:v" not in command and "-vf" not in command
    first_map = command.index("-map")
    assert command[first_map : first_map + 4] == ["-map", "0:v:0", "-map", "0:a:0?"]
    assert keys.bridged_key_id(SETTINGS.secret_key, name) == KEY_ID


def test_a_rotated_key_gets_another_listener_on_the_same_port():
    before = key_bridge(SETTINGS, KEY_ID, KEY_HASH, 9007)
    after = key_bridge(SETTINGS, "76543210fedcba9876543210", keys.key_hash(keys.new_key()), 9007)
    assert before != after and before.passphrase != after.passphrase and before.name != after.name
    assert before == key_bridge(SETTINGS, KEY_ID, KEY_HASH, 9007)


def test_an_ipv6_ingest_address_is_bracketed_in_the_listen_url():
    bridge = SrtBridge(host="::", port=9000, passphrase="p" * 32, rtmp_port=1935, name="srt_x_y")
    assert bridge.listen_url() == "srt://[::]:9000"
