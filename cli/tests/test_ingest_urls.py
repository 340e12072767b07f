"""Publish URLs as the test pattern uses them: the protocol from the scheme, SRT in caller mode,
and the key (and SRT passphrase) masked to their last characters in anything printed."""

import pytest

from cli.ingest_urls import masked, protocol_of, srt_caller

KEY = "tlk_3q2-7wEvQKNbZf8aRk1mUo0sYd5x9QzA"
PASSPHRASE = "Xr4nd0mP4ssphr4seOfThirtyTwoChr"
RTMP = f"rtmp://127.0.0.1:1935/live/{KEY}"
SRT = f"srt://127.0.0.1:9000?streamid={KEY}&passphrase={PASSPHRASE}"


@pytest.mark.parametrize(
    ("url", "protocol"),
    [(RTMP, "rtmp"), ("rtmps://ingest.example.org/live/k3y", "rtmp"), (SRT, "srt"), ("SRT://h:9000", "srt")],
)
def test_the_protocol_follows_the_scheme(url, protocol):
    assert protocol_of(url) == protocol


@pytest.mark.parametrize("url", [f"http://127.0.0.1/live/{KEY}", f"rtmp:///live/{KEY}", KEY, ""])
def test_anything_but_an_rtmp_or_srt_url_is_refused_without_repeating_it(url):
    with pytest.raises(ValueError, match="not an RTMP or SRT publish URL") as refused:
        protocol_of(url)
    assert KEY not in str(refused.value)


def test_srt_gets_caller_mode_after_its_query_or_as_its_query():
    assert srt_caller(SRT) == f"{SRT}&mode=caller&connect_timeout=10000"
    assert srt_caller("srt://127.0.0.1:9000") == "srt://127.0.0.1:9000?mode=caller&connect_timeout=10000"
    assert (
        srt_caller("srt://127.0.0.1:9000?mode=caller&latency=200000&connect_timeout=5000")
        == "srt://127.0.0.1:9000?mode=caller&latency=200000&connect_timeout=5000"
    )


def test_an_rtmp_url_shows_only_the_last_four_characters_of_its_key():
    assert masked(RTMP, RTMP) == "rtmp://127.0.0.1:1935/live/…9QzA"


def test_srt_streamid_and_passphrase_are_masked_in_ffmpegs_words_too():
    said = f"{srt_caller(SRT)}: Input/output error"
    shown = masked(said, SRT)
    assert KEY not in shown and PASSPHRASE not in shown
    assert shown == (
        "srt://127.0.0.1:9000?streamid=…9QzA&passphrase=…oChr&mode=caller&connect_timeout=10000: Input/output error"
    )


def test_a_short_secret_is_hidden_whole():
    assert masked("rtmp://h/live/abc", "rtmp://h/live/abc") == "rtmp://h/live/…"
