"""Game and clip playlists written once as files (server.media.packaging.made_playlists)."""

import gzip

import pytest

from server.media.packaging.made_playlists import MADE_DIRECTORY, MadePlaylists


def test_a_playlist_is_rendered_once_whoever_asks_for_it_again(tmp_path):
    rendered: list[str] = []

    def render() -> str:
        rendered.append("clip")
        return "#EXTM3U\n#EXT-X-ENDLIST\n"

    first = MadePlaylists(tmp_path).written("asset", "clip-0-1000", "360p", render)
    # Another process (or this one after a restart) finds the file.
    again = MadePlaylists(tmp_path).written("asset", "clip-0-1000", "360p", render)
    assert rendered == ["clip"]
    assert first == again
    assert first.plain == tmp_path / "asset" / MADE_DIRECTORY / "clip-0-1000" / "360p.m3u8"
    assert first.plain.read_text() == "#EXTM3U\n#EXT-X-ENDLIST\n"
    assert gzip.decompress(first.compressed.read_bytes()) == first.plain.read_bytes()


def test_the_master_and_each_rendition_are_files_of_their_own(tmp_path):
    made = MadePlaylists(tmp_path)
    master = made.written("asset", "game-5400", None, lambda: "master")
    rendition = made.written("asset", "game-5400", "234p", lambda: "rendition")
    assert master.plain.name == "index.m3u8" and master.plain.read_text() == "master"
    assert rendition.plain.read_text() == "rendition"
    assert master.plain.parent == rendition.plain.parent


def test_a_failed_render_leaves_nothing_behind(tmp_path):
    def render() -> str:
        raise RuntimeError("the asset went away")

    made = MadePlaylists(tmp_path)
    with pytest.raises(RuntimeError):
        made.written("asset", "clip-0-1000", None, render)
    place = made.location("asset", "clip-0-1000", None)
    assert not place.plain.exists() and not place.compressed.exists()
