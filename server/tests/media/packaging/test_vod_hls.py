"""The upload transcoder's ffmpeg command, as data (the real ffmpeg runs it in
server/tests/transcoding): VOD playlists, the live ladder's encoder settings, EBU R128 audio
unless turned off, and a silent track for a file without sound."""

from pathlib import Path

from server.media.packaging.ladder import Source, plan
from server.media.packaging.vod_hls import LOUDNORM, VodInput, vod_hls_command

LADDER = plan(Source(1280, 720, 30, has_audio=True))


def test_a_file_becomes_vod_playlists_of_the_whole_ladder_with_its_loudness_normalised():
    command = vod_hls_command(VodInput(Path("in.mp4"), has_audio=True), Path("out"), LADDER)
    assert command[command.index("-hls_playlist_type") + 1] == "vod"
    assert command[command.index("-var_stream_map") + 1] == "v:0,a:0,name:720p v:1,a:1,name:360p v:2,a:2,name:234p"
    graph = command[command.index("-filter_complex") + 1]
    assert f"[0:a:0]{LOUDNORM},aresample=48000,asplit=3[a0][a1][a2]" in graph
    assert command[-1] == "out/%v/index.m3u8"
    assert command.count("-sc_threshold:v:0") == 1 and "-force_key_frames:v:2" in command


def test_an_upload_is_encoded_at_the_preset_given_as_live_is():
    source = VodInput(Path("in.mp4"), has_audio=True)
    assert vod_hls_command(source, Path("out"), LADDER).count("veryfast") == 3
    command = vod_hls_command(source, Path("out"), LADDER, preset="ultrafast")
    assert [command[command.index(f"-preset:v:{i}") + 1] for i in range(3)] == ["ultrafast"] * 3


def test_loudness_normalisation_can_be_turned_off():
    command = vod_hls_command(VodInput(Path("in.mp4"), has_audio=True), Path("out"), LADDER, loudnorm=False)
    assert "loudnorm" not in " ".join(command)


def test_a_file_without_sound_gets_a_silent_track_that_ends_with_the_picture():
    command = vod_hls_command(VodInput(Path("in.mp4"), has_audio=False), Path("out"), LADDER)
    assert "anullsrc=channel_layout=stereo:sample_rate=48000" in command
    assert command.count("1:a:0") == 3 and "-shortest" in command
    assert "loudnorm" not in " ".join(command)
