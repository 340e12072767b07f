"""The edge kickoff's figures come from the edge's log (server.bench.edge_kickoff): a request
reached the origin when its upstream address is not "-"."""

from server.bench.edge_kickoff import figures

LOG = "\n".join(
    [
        '127.0.0.1 "GET /media/live/a/from-1/360p/live.m3u8 HTTP/1.1" 200 MISS 127.0.0.1:9001 0.004',
        '127.0.0.1 "GET /media/live/a/from-1/360p/live.m3u8 HTTP/1.1" 200 HIT - 0.000',
        '127.0.0.1 "GET /media/live/a/from-1/360p/index7.ts HTTP/1.1" 200 MISS 127.0.0.1:9001 0.010',
        '127.0.0.1 "GET /media/live/a/from-1/360p/index7.ts HTTP/1.1" 200 HIT - 0.000',
        '127.0.0.1 "GET /media/live/a/from-1/360p/index7.ts HTTP/1.1" 200 HIT - 0.000',
        '127.0.0.1 "GET /media/live/a/from-1/360p/index8.ts HTTP/1.1" 200 MISS 127.0.0.1:9001 0.010',
        '127.0.0.1 "GET /media/live/a/from-1/360p/index8.ts HTTP/1.1" 200 EXPIRED 127.0.0.1:9001 0.010',
        '127.0.0.1 "GET /media/live/a/from-1/index.m3u8?token=1.x HTTP/1.1" 403 - - 0.000',
        "a line that is no request",
    ]
)
STATS = [{"num_requests": 8, "num_failures": 1}, {"num_requests": 2, "num_failures": 0}]


def test_origin_requests_are_counted_per_segment_the_viewers_asked_for():
    found = figures(LOG, STATS, [0, 0, 1, 3], viewers=2, seconds=60)
    assert found["segments"] == 2
    assert found["origin_per_segment"] == 1.5  # index8 was fetched twice from the origin
    assert found["origin_per_playlist_period"] == 1 / 30
    assert found["python_per_viewer_minute"] == 4 / 2 / 1
    assert (found["requests"], found["failures"]) == (10, 1)
    assert found["staleness_max"] == 3


def test_no_staleness_recorded_reads_as_none():
    found = figures("", [], [], viewers=1, seconds=10)
    assert (found["staleness_p99"], found["origin_per_segment"], found["segments"]) == (0, 0.0, 0)
