"""nginx-rtmp's stat page read as a feed's Source (server.media.sources.rtmp_stat): a new feed's
ladder is planned from what nginx knows at its first packets, without ffprobe reading it first."""

from server.media.packaging.ladder import Source
from server.media.sources.rtmp_stat import publishers_of, source_of

VIDEO = (
    "<video><width>1280</width><height>720</height><frame_rate>25</frame_rate><codec>H264</codec>"
    "<profile>Main</profile><compat>64</compat><level>3.1</level></video>"
)
AUDIO = "<audio><codec>AAC</codec><profile>LC</profile><channels>2</channels><sample_rate>48000</sample_rate></audio>"


def stat(*streams: str, app: str = "live") -> str:
    return (
        '<?xml version="1.0" encoding="utf-8" ?><rtmp><nginx_version>1.22.1</nginx_version><server>'
        f"<application><name>{app}</name><live>{''.join(streams)}<nclients>1</nclients></live></application>"
        "</server></rtmp>"
    )


def stream(name: str, meta: str, time_ms: int = 300) -> str:
    return f"<stream><name>{name}</name><time>{time_ms}</time><meta>{meta}</meta><publishing/><active/></stream>"


def test_a_feed_with_picture_and_sound_is_described_by_its_headers():
    described = source_of(stat(stream("other", VIDEO), stream("key", VIDEO + AUDIO)), "live", "key")
    assert described == Source(1280, 720, 25.0, has_audio=True, video_codec="h264", audio_codec="aac")


def test_a_feed_without_sound_is_silent_only_once_it_has_run_a_second():
    assert source_of(stat(stream("key", VIDEO, time_ms=400)), "live", "key") is None
    late = source_of(stat(stream("key", VIDEO, time_ms=1500)), "live", "key")
    assert late == Source(1280, 720, 25.0, has_audio=False, video_codec="h264", audio_codec=None)


def test_nothing_is_known_before_the_video_header_or_without_a_frame_rate():
    assert source_of(stat(stream("key", AUDIO)), "live", "key") is None
    no_rate = VIDEO.replace("<frame_rate>25</frame_rate>", "<frame_rate>0</frame_rate>")
    assert source_of(stat(stream("key", no_rate + AUDIO)), "live", "key") is None


def test_another_application_or_stream_or_a_broken_page_describes_nothing():
    assert source_of(stat(stream("key", VIDEO + AUDIO), app="other"), "live", "key") is None
    assert source_of(stat(stream("key2", VIDEO + AUDIO)), "live", "key") is None
    assert source_of("<rtmp><server>", "live", "key") is None
    assert source_of(stat(), "live", "key") is None


def client(clientid: int, address: str, publishing: bool) -> str:
    return f"<client><id>{clientid}</id><address>{address}</address>{'<publishing/>' if publishing else ''}</client>"


def test_each_publisher_names_its_stream_as_the_publish_hook_named_it():
    page = stat(
        f"<stream><name>tlk_a</name>{client(7, '203.0.113.9', True)}{client(9, '127.0.0.1', False)}</stream>",
        f"<stream><name>tlk_b</name>{client(12, '198.51.100.4', True)}</stream>",
    )
    # The transcoder playing tlk_a (client 9) is no publisher; another application's streams are not ours.
    assert publishers_of(page, "live") == {"7@203.0.113.9": "tlk_a", "12@198.51.100.4": "tlk_b"}
    assert publishers_of(page, "other") == {}
    assert publishers_of("<rtmp", "live") == {}
