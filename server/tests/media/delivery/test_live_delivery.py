"""Media delivery: live events play a clock-driven playlist with a rewind window from their
kickoff, upcoming events start at kickoff, archived events play as VOD; HTTP types, ranges and
cache headers as a CDN and a player need them (server.media.delivery.routes).

Stream URLs come from the event API (`client`), as players get them; media is served by the
static part of the ASGI app (server.web.static_app) with the same settings.
"""

import itertools
import math
from datetime import timedelta
from urllib.parse import urljoin

import httpx
import pytest

from server import clock
from server.media.delivery.signing import sign_stream
from server.media.delivery.urls import live_url, vod_url
from server.tests.accounts import sign_up
from server.tests.commerce import buy, paid_event
from server.tests.media_dir import as_sample
from server.web import static_app

from ..hls import read_master_playlist, read_media_playlist
from ..serving import media_app

BASE = "http://touchline.test"
FOOTBALL_SEGMENTS = 12


@pytest.fixture
async def media(settings, database):
    transport = httpx.ASGITransport(app=media_app(settings, database))
    async with httpx.AsyncClient(transport=transport, base_url=BASE) as http:
        yield http


async def stream_of(client, event_id: str, headers: dict | None = None) -> str:
    answer = await client.get(f"/api/event/get_by_id/id/{event_id}", headers=headers or {})
    assert answer.status_code == 200, answer.text
    url = answer.json()["content"]["content"]["HLSStream"]
    assert url and "?token=" in url, url
    return url


async def live_event(
    database,
    *,
    status: str,
    kickoff,
    commerce_type: str = "commerce_free_media",
    modes=(),
    stream: str = live_url("football"),
    **columns,
):
    """An event with a live stream, starting at `kickoff` (removed after the test)."""
    return await paid_event(
        database, commerce_type=commerce_type, modes=modes, status=status, when=kickoff, hls_stream=stream, **columns
    )


async def playlist(media, url: str, headers: dict | None = None, rendition: int = 0):
    """A stream as a player opens it: its master, then one rendition's media playlist (the first
    listed, where players start): (that playlist's response, the playlist)."""
    response = await media.get(url, headers=headers or {})
    assert response.status_code == 200, response.text
    master = read_master_playlist(response.text)
    response = await media.get(urljoin(str(response.url), master.uris[rendition]), headers=headers or {})
    assert response.status_code == 200, response.text
    return response, read_media_playlist(response.text)


async def variant_url(media, url: str, rendition: int = 0) -> str:
    """The URL of one rendition's playlist of a stream (its master's URI, resolved)."""
    response = await media.get(url)
    assert response.status_code == 200, response.text
    return urljoin(str(response.url), read_master_playlist(response.text).uris[rendition])


def kickoff_of(url: str) -> int | None:
    """The kickoff a live address names (`from-<start>`), or None."""
    part = next((p for p in url.split("?")[0].split("/") if p.startswith("from-")), None)
    return int(part.removeprefix("from-")) if part else None


# --- kickoff ----------------------------------------------------------------------------------------


async def test_a_live_url_carries_the_events_kickoff_so_playlists_need_no_database(client, database):
    kickoff = clock.now() - timedelta(minutes=5, microseconds=-300_000)
    event = await live_event(database, status="live", kickoff=kickoff)
    assert kickoff_of(await stream_of(client, event.id)) == math.ceil(kickoff.timestamp())


async def test_a_vod_url_carries_no_kickoff(client, catalogue):
    assert kickoff_of(await stream_of(client, catalogue["archived"])) is None


async def test_an_upcoming_events_stream_is_refused_before_kickoff_and_plays_from_kickoff_on(client, database, media):
    kickoff = clock.now() + timedelta(minutes=10)
    event = await live_event(database, status="upcoming", kickoff=kickoff)
    url = await stream_of(client, event.id)

    early = await media.get(url)
    assert early.status_code == 409
    assert early.json() == {"error": True, "message": early.json()["message"], "messageErrorCode": "stream_not_started"}
    assert "goes live at" in early.json()["message"]
    assert early.headers["cache-control"] == "no-store"
    assert 600 <= int(early.headers["retry-after"]) <= 605  # kickoff, then one whole segment

    clock.advance(timedelta(minutes=10, seconds=1))
    assert (await media.get(url)).status_code == 409  # kicked off, no segment finished yet
    clock.advance(timedelta(seconds=4))
    _, live = await playlist(media, url)
    assert 1 <= len(live.segments) <= 2
    assert live.segments[0].date.timestamp() >= kickoff.timestamp()  # nothing from before kickoff


async def test_an_event_live_for_five_minutes_offers_five_minutes_of_rewind(client, database, media):
    kickoff = clock.now() - timedelta(minutes=5)
    event = await live_event(database, status="live", kickoff=kickoff)
    _, live = await playlist(media, await stream_of(client, event.id))
    assert live.segments[0].date.timestamp() >= kickoff.timestamp()
    assert 300 - 2 * 2 <= live.duration <= 300  # less the segment cut at kickoff and the one recording


async def test_a_games_stream_begins_at_its_kickoff_not_at_its_scheduled_start(client, database, media):
    start = clock.now() - timedelta(minutes=20)
    kickoff = start + timedelta(minutes=8)
    event = await live_event(database, status="live", kickoff=start, game_start_date=kickoff)
    _, live = await playlist(media, await stream_of(client, event.id))
    assert kickoff.timestamp() <= live.segments[0].date.timestamp() < kickoff.timestamp() + 2


async def test_a_live_events_stream_also_waits_for_its_kickoff(client, database, media):
    # As clips do (server.services.user_clips): the stream is there from the kickoff on.
    event = await live_event(database, status="live", kickoff=clock.now() + timedelta(hours=1))
    response = await media.get(await stream_of(client, event.id))
    assert response.status_code == 409 and response.json()["messageErrorCode"] == "stream_not_started"


async def test_a_live_url_signed_without_a_kickoff_begins_where_it_was_signed_not_a_rewind_before(settings, media):
    signed_at = clock.timestamp()
    url = sign_stream(live_url("football"), settings=settings)
    assert url is not None
    assert kickoff_of(url) == math.ceil(signed_at)
    clock.advance(timedelta(seconds=9))
    _, live = await playlist(media, url)
    assert signed_at <= live.segments[0].date.timestamp() and live.duration <= 9


async def test_a_live_path_without_its_kickoff_is_not_found(settings, media):
    """A live stream's directory names where it begins (`from-<start>`); a path without one would
    otherwise reach back the whole rewind window."""
    url = sign_stream(live_url("football"), settings=settings, start=0.0)
    assert url is not None
    token = url.split("?token=")[1]
    assert (await media.get(f"/media/live/football/360p/live.m3u8?token={token}")).status_code == 404
    assert (await media.get(url)).status_code == 200


# --- the live window ---------------------------------------------------------------------------------


async def test_the_live_window_holds_live_rewind_seconds_and_no_more(client, media, catalogue):
    # The channel has been on air for a month: its window is full.
    url = await stream_of(client, catalogue["channel"])
    before = clock.timestamp()
    _, live = await playlist(media, url)
    after = clock.timestamp()
    assert not live.ended and "EXT-X-PLAYLIST-TYPE" not in live.tags
    assert live.target_duration == 2
    assert len(live.segments) == 900 and live.duration == pytest.approx(1800)
    # The live edge (where its last segment ends) is less than a segment behind the clock.
    edge = live.segments[0].date.timestamp() + live.duration
    # The server read its clock between `before` and `after` (a busy machine may take a while).
    assert edge <= after and before - edge < 2


async def test_the_rewind_window_follows_the_setting(settings, client, catalogue):
    short = settings.model_copy(update={"live_rewind_seconds": 60})
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=static_app(short)), base_url=BASE) as media:
        _, live = await playlist(media, await stream_of(client, catalogue["channel"]))
    assert live.duration == pytest.approx(60)


async def test_the_live_playlist_advances_with_the_server_clock(client, media, catalogue):
    url = await stream_of(client, catalogue["channel"])
    _, before = await playlist(media, url)
    clock.advance(timedelta(seconds=10))
    _, after = await playlist(media, url)
    moved = after.media_sequence - before.media_sequence
    assert moved in (5, 6)  # 10 s of 2 s segments (and the instant the test took)
    assert after.uris[:-moved] == before.uris[moved:]
    assert after.segments[-1].sequence == before.segments[-1].sequence + moved
    # Discontinuity numbers hold across the reload: a player keeps its timeline.
    numbers = {s.sequence: s.discontinuity for s in before.segments}
    assert all(numbers[s.sequence] == s.discontinuity for s in after.segments if s.sequence in numbers)


async def test_the_sample_loops_with_a_discontinuity_and_a_wall_clock_date_each_time(client, media, catalogue):
    _, live = await playlist(media, await stream_of(client, catalogue["channel"]))
    loops = [s for s in live.segments if s.discontinuity_before]
    assert len(loops) >= 1800 // 24 - 1
    assert all(s.uri == "index0.ts" and s.date is not None for s in loops)
    assert live.segments[0].date is not None
    for a, b in itertools.pairwise(loops):
        assert b.sequence - a.sequence == FOOTBALL_SEGMENTS
        assert (b.date - a.date).total_seconds() == pytest.approx(24)


async def test_every_segment_of_the_live_playlist_resolves_to_a_sample_file(settings, client, media, catalogue):
    url = await stream_of(client, catalogue["live"])
    response, live = await playlist(media, url)
    rendition = str(response.url).rsplit("/", 2)[1]  # .../live/<asset>/from-<start>/<rendition>/live.m3u8
    files = settings.fixtures_dir / "media" / "football" / rendition
    for uri in sorted(set(live.uris)):
        segment = await media.get(urljoin(str(response.url), uri))
        assert segment.status_code == 200, uri
        assert segment.headers["content-type"] == "video/mp2t"
        assert segment.content == (files / uri).read_bytes()
    assert len(set(live.uris)) == FOOTBALL_SEGMENTS


# --- archived events: VOD ------------------------------------------------------------------------------


async def test_an_archived_event_plays_its_vod_playlist(settings, client, media, catalogue):
    url = await stream_of(client, catalogue["archived"])
    assert as_sample(url.split("?")[0]).endswith("/vod/football/index.m3u8")
    response, vod = await playlist(media, url)
    assert vod.ended and vod.tags["EXT-X-PLAYLIST-TYPE"] == "VOD" and vod.media_sequence == 0
    assert len(vod.segments) == FOOTBALL_SEGMENTS
    first = await media.get(urljoin(str(response.url), vod.uris[0]))
    assert first.status_code == 200 and first.headers["content-type"] == "video/mp2t"


# --- HTTP: types, compression, HEAD, ranges -------------------------------------------------------------


async def test_playlists_and_segments_have_the_hls_content_types(client, media, catalogue):
    live = await media.get(await stream_of(client, catalogue["live"]))
    vod_url_ = await stream_of(client, catalogue["archived"])
    vod = await media.get(vod_url_)
    segment = await media.get(vod_url_.replace("index.m3u8", "360p/index3.ts"))
    assert live.headers["content-type"] == "application/vnd.apple.mpegurl"
    assert vod.headers["content-type"] == "application/vnd.apple.mpegurl"
    assert segment.headers["content-type"] == "video/mp2t"


async def test_live_playlists_are_gzipped_for_players_that_accept_it(client, media, catalogue):
    url = await variant_url(media, await stream_of(client, catalogue["channel"]))
    packed = await media.get(url, headers={"Accept-Encoding": "gzip"})
    plain = await media.get(url, headers={"Accept-Encoding": "identity"})
    assert packed.headers["content-encoding"] == "gzip" and "content-encoding" not in plain.headers
    assert packed.headers["vary"] == plain.headers["vary"] == "Accept-Encoding"
    assert int(packed.headers["content-length"]) < len(plain.content) / 10
    # The same playlist (unless a segment ended between the two requests).
    assert abs(read_media_playlist(packed.text).media_sequence - read_media_playlist(plain.text).media_sequence) <= 1


async def test_head_of_a_live_playlist_gives_its_headers_without_a_body(client, media, catalogue):
    url = await variant_url(media, await stream_of(client, catalogue["channel"]))
    response = await media.head(url, headers={"Accept-Encoding": "identity"})
    assert response.status_code == 200 and response.content == b""
    assert int(response.headers["content-length"]) > 10_000
    assert response.headers["content-type"] == "application/vnd.apple.mpegurl"


async def test_a_range_request_on_a_live_segment_gets_206_and_exactly_those_bytes(settings, client, media, catalogue):
    response, live = await playlist(media, await stream_of(client, catalogue["live"]))
    uri = live.uris[-1]
    rendition = str(response.url).rsplit("/", 2)[1]
    whole = (settings.fixtures_dir / "media" / "football" / rendition / uri).read_bytes()
    part = await media.get(urljoin(str(response.url), uri), headers={"Range": "bytes=376-751"})
    assert part.status_code == 206 and part.content == whole[376:752]
    assert part.headers["content-range"] == f"bytes 376-751/{len(whole)}"
    assert part.headers["content-type"] == "video/mp2t"
    assert part.headers["cache-control"].startswith("public, max-age=")
    beyond = await media.get(urljoin(str(response.url), uri), headers={"Range": f"bytes={len(whole) + 10}-"})
    assert beyond.status_code == 416


# --- cache headers -------------------------------------------------------------------------------------


def max_age(response: httpx.Response) -> int:
    return int(response.headers["cache-control"].rsplit("max-age=", 1)[1])


async def test_a_free_live_playlist_may_be_kept_by_a_cdn_for_less_than_a_segment(client, media, catalogue):
    response = await media.get(await stream_of(client, catalogue["live"]))
    assert response.headers["cache-control"] == "public, max-age=1"


async def test_vod_playlists_and_segments_may_be_kept_by_a_cdn_for_an_hour_whatever_the_token(
    settings, client, media, catalogue
):
    """The answer is the same for every holder of a token, and the edge (or a CDN) checks each
    request's token before its cache: how long an answer is kept is the answer's own."""
    url = await stream_of(client, catalogue["archived"])
    for path in (url, url.replace("index.m3u8", "360p/index0.ts")):
        response = await media.get(path)
        assert response.headers["cache-control"] == "public, max-age=3600"


async def test_a_paid_streams_answers_are_public_the_token_is_what_opens_them(client, database, media):
    event = await live_event(
        database,
        status="live",
        kickoff=clock.now() - timedelta(minutes=40),
        commerce_type="commerce_ppv_media",
        modes=("ppv",),
    )
    fan = await sign_up(client)
    await buy(database, fan["profile"]["userId"], event.id)
    url = await stream_of(client, event.id, fan["headers"])
    response, live = await playlist(media, url)
    assert response.headers["cache-control"] == "public, max-age=1"
    segment = await media.get(urljoin(str(response.url), live.uris[0]))
    assert segment.status_code == 200 and segment.headers["cache-control"].startswith("public, max-age=")
    assert (await media.get(url.split("?")[0])).status_code in (200, 403)  # the cookie: this browser's
    async with httpx.AsyncClient(transport=media._transport, base_url=BASE) as stranger:
        assert (await stranger.get(url.split("?")[0])).status_code == 403  # without the token, refused


async def test_refusals_are_never_stored(settings, client, database, media, catalogue):
    url = await stream_of(client, catalogue["live"])
    elsewhere = f"/media/vod/hockey/360p/index0.ts?token={url.split('?token=')[1]}"  # outside the token's stream
    unknown = sign_stream(live_url("curling"), settings=settings, start=0.0)
    upcoming = await live_event(database, status="upcoming", kickoff=clock.now() + timedelta(hours=2))
    for response, status in (
        (await media.get(elsewhere), 403),
        (await media.get(unknown), 404),
        (await media.get(await stream_of(client, upcoming.id)), 409),
        (await media.get(url.replace("index.m3u8", "indexx.m3u8")), 404),
    ):
        assert response.status_code == status
        assert response.headers["cache-control"] == "no-store"
    clock.advance(timedelta(seconds=settings.stream_token_seconds + 1))
    expired = await media.get(url)
    assert expired.status_code == 403 and expired.headers["cache-control"] == "no-store"
    assert expired.json()["messageErrorCode"] == "stream_token_expired"


async def test_api_answers_which_depend_on_the_viewer_are_never_stored(client, catalogue):
    fan = await sign_up(client)
    headers: dict[str, str]
    for headers in ({}, fan["headers"]):
        answer = await client.get(f"/api/event/get_by_id/id/{catalogue['live']}", headers=headers)
        assert answer.status_code == 200
        assert answer.headers["cache-control"] == "private, no-store"
    listing = await client.post("/api/event/list", json={"page": 0, "size": 5})
    assert listing.headers["cache-control"] == "private, no-store"
    missing = await client.get("/api/event/get_by_id/id/000000000000000000000000")
    assert missing.status_code == 404 and missing.headers["cache-control"] == "private, no-store"
    refused = await client.get("/api/user/get_profile")
    assert refused.status_code == 401 and refused.headers["cache-control"] == "private, no-store"


async def test_a_vod_url_for_anyone_is_signed_and_public(settings, media):
    url = sign_stream(vod_url("hockey"), settings=settings)
    assert url is not None
    response = await media.get(url)
    assert response.status_code == 200 and response.headers["cache-control"].startswith("public, ")
    assert "content-encoding" not in response.headers  # a VOD playlist is a small static file


# --- the hot path --------------------------------------------------------------------------------------


async def test_every_request_checks_its_token_and_its_expiry_holds_for_the_cookie_too(settings, media):
    url = sign_stream(live_url("football"), settings=settings, start=0.0)
    assert url is not None
    assert (await media.get(url)).status_code == 200
    segment = url.split("?")[0].replace("index.m3u8", "360p/index0.ts")
    assert (await media.get(segment)).status_code == 200  # the cookie the master set
    clock.advance(timedelta(seconds=settings.stream_token_seconds + 1))
    assert (await media.get(segment)).json()["messageErrorCode"] == "stream_token_expired"
