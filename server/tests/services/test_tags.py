"""How far into its video a tag may reach (server/services/tags.py video_length)."""

from datetime import UTC, datetime, timedelta

from server.models import Event
from server.seed.fixtures import FIXTURES_DIR
from server.services.tags import sample_length_ms, video_length

MEDIA = FIXTURES_DIR / "media"
NOW = datetime(2026, 11, 23, 20, 0, tzinfo=UTC)


def event(status: str, **columns) -> Event:
    return Event(status=status, event_date=columns.pop("event_date", NOW - timedelta(hours=1)), **columns)


def test_an_archived_video_is_as_long_as_its_duration_else_its_clip_range_else_its_sample():
    assert (
        video_length(event("archived", duration_s=6900, hls_stream="/media/vod/football/index.m3u8"), NOW, MEDIA).ms
        == 6_900_000
    )
    assert video_length(event("archived", start_time_ms=2_400_000, end_time_ms=2_430_000), NOW, MEDIA).ms == 30_000
    assert video_length(event("vod", hls_stream="/media/vod/football/index.m3u8"), NOW, MEDIA).ms == 24_000
    # Not a sample this server has (an external URL, an unknown name): no bound but the contract's.
    for stream in ("https://cdn.example.com/game.m3u8", "/media/vod/nothing/index.m3u8", None):
        assert video_length(event("archived", hls_stream=stream), NOW, MEDIA).ms is None


def test_sample_names_never_leave_the_media_folder():
    for stream in (
        "/media/vod/../index.m3u8",
        "/media/vod/a/../football/index.m3u8",
        "/media/vod//index.m3u8",
        "/media/vod/.hidden/index.m3u8",
    ):
        assert sample_length_ms(MEDIA, stream) is None
    assert sample_length_ms(MEDIA, "/media/vod/hockey/index.m3u8") == 24_000


def test_a_live_stream_reaches_from_kickoff_to_now():
    live = video_length(event("live", game_start_date=NOW - timedelta(minutes=42)), NOW, MEDIA)
    assert (live.ms, live.live) == (42 * 60_000, True)
    channel = video_length(event("channel", event_date=NOW - timedelta(days=1)), NOW, MEDIA)
    assert channel.ms == 24 * 3600_000
    # Put on air before its kickoff: the stream has no fixed start yet, so no bound.
    early = video_length(event("live", game_start_date=NOW + timedelta(minutes=5)), NOW, MEDIA)
    assert early.ms is None and early.live


def test_an_archived_games_vod_is_as_long_as_the_game_it_was_made_for():
    # The sample looped for the game's length (server.media.delivery.clips): the same bound as duration_s.
    assert sample_length_ms(MEDIA, "/media/vod/football/game-6900.m3u8") == 6_900_000
    game = event("archived", duration_s=6900, hls_stream="/media/vod/football/game-6900.m3u8")
    assert video_length(game, NOW, MEDIA).ms == 6_900_000
    assert video_length(event("archived", hls_stream="/media/vod/hockey/game-8100.m3u8"), NOW, MEDIA).ms == 8_100_000
    assert sample_length_ms(MEDIA, "/media/vod/football/game-0.m3u8") is None
