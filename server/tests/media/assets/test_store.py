"""The media store: one directory per asset, links to shared bytes, and nothing outside its root."""

import os
import threading

import pytest

from server.media.assets.store import MediaStore
from server.seed.fixtures import FIXTURES_DIR

SAMPLES = FIXTURES_DIR / "media"


@pytest.fixture
def store(tmp_path) -> MediaStore:
    store = MediaStore(tmp_path / "media")
    store.provide_sample("football", SAMPLES / "football")
    return store


def test_a_sample_is_provided_once_as_hard_links_of_the_shipped_files(store):
    shipped = SAMPLES / "football" / "360p" / "index0.ts"
    provided = store.sample_directory("football") / "360p" / "index0.ts"
    assert os.path.samefile(shipped, provided) or provided.read_bytes() == shipped.read_bytes()
    before = provided.stat().st_ino
    store.provide_sample("football", SAMPLES / "football")  # a second time: left as it is
    assert provided.stat().st_ino == before


def test_a_sample_asset_is_a_link_below_the_root_to_the_samples_bytes(store):
    directory = store.link_sample("0123456789abcdef01234567", "football")
    assert os.readlink(directory) == ".samples/football"
    assert (directory / "index.m3u8").resolve().is_relative_to(store.root.resolve())
    assert store.exists("0123456789abcdef01234567")


def test_linking_again_is_harmless_and_two_processes_at_once_agree(store):
    asset = "0123456789abcdef01234567"
    threads = [threading.Thread(target=store.link_sample, args=(asset, "football")) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert os.readlink(store.directory(asset)) == ".samples/football"
    assert [p.name for p in store.root.iterdir() if p.name.startswith(f".{asset}")] == []  # no staging left


def test_a_clip_links_to_its_parents_bytes_whether_the_parent_is_a_link_or_a_directory(store):
    store.link_sample("aaaaaaaaaaaaaaaaaaaaaaaa", "football")
    assert os.readlink(store.link_to("bbbbbbbbbbbbbbbbbbbbbbbb", "aaaaaaaaaaaaaaaaaaaaaaaa")) == ".samples/football"
    store.make_directory("cccccccccccccccccccccccc")  # a live input's own directory
    assert os.readlink(store.link_to("dddddddddddddddddddddddd", "cccccccccccccccccccccccc")) == (
        "cccccccccccccccccccccccc"
    )


def test_removing_an_asset_removes_its_directory_and_never_the_shared_bytes(store):
    linked = store.link_sample("aaaaaaaaaaaaaaaaaaaaaaaa", "football")
    own = store.make_directory("cccccccccccccccccccccccc")
    (own / "seg-00001.ts").write_bytes(b"x")
    store.remove("aaaaaaaaaaaaaaaaaaaaaaaa")
    store.remove("cccccccccccccccccccccccc")
    store.remove("eeeeeeeeeeeeeeeeeeeeeeee")  # nothing there: nothing to do
    assert not os.path.lexists(linked) and not own.exists()
    assert (store.sample_directory("football") / "index.m3u8").is_file()


@pytest.mark.parametrize("name", ["", ".samples", "..", "../x", "a/b", "A" * 24, "a" * 41])
def test_a_name_that_is_no_asset_id_is_refused(store, name):
    with pytest.raises(ValueError):
        store.directory(name)
    assert not store.exists(name)
