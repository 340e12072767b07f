"""Stream access that cannot be bypassed: the event API hands out stream URLs only to a viewer who
may watch there and then, with a token beside the path for that stream's directory, and the media
routes check every playlist and segment request against it (the query's token, else the cookie
the first answer set).

The API runs as the tests' shared Connexion app (`client`); media is served by the static part
of the one ASGI app (server.web.static_app) with the same settings, as in production.
"""

from datetime import timedelta
from urllib.parse import urljoin

import httpx
import pytest
from sqlalchemy import delete

from server import clock
from server.media.delivery.urls import vod_url
from server.models import Event
from server.tests import factories
from server.tests.accounts import sign_up
from server.tests.commerce import buy, paid_event
from server.tests.media_dir import as_sample

from ..hls import read_master_playlist, read_media_playlist
from ..serving import media_app

BASE = "http://touchline.test"


@pytest.fixture
async def media(settings, database):
    """A browser of the test's own: the cookie a stream's first answer sets goes with the rest."""
    transport = httpx.ASGITransport(app=media_app(settings, database))
    async with httpx.AsyncClient(transport=transport, base_url=BASE) as http:
        yield http


async def event_content(client, event_id: str, headers: dict | None = None) -> dict:
    answer = await client.get(f"/api/event/get_by_id/id/{event_id}", headers=headers or {})
    assert answer.status_code == 200, answer.text
    return answer.json()["content"]


def segment_uris(playlist: str) -> list[str]:
    return [line for line in playlist.splitlines() if line and not line.startswith("#")]


async def first_segment(media, playlist: httpx.Response, headers: dict | None = None) -> httpx.Response:
    """The first segment, fetched as a player does: its URI resolved against the playlist's URL
    (through the first variant of a master playlist)."""
    uri = segment_uris(playlist.text)[0]
    if "#EXT-X-STREAM-INF:" in playlist.text:
        playlist = await media.get(urljoin(str(playlist.url), uri), headers=headers or {})
        assert playlist.status_code == 200, playlist.text
        uri = segment_uris(playlist.text)[0]
    return await media.get(urljoin(str(playlist.url), uri), headers=headers or {})


def refused(response: httpx.Response, code: str = "stream_access_denied") -> bool:
    assert response.status_code == 403, response.text
    assert response.json() == {"error": True, "message": response.json()["message"], "messageErrorCode": code}
    return True


@pytest.fixture
async def ppv_match(database):
    """An archived pay-per-view match with a VOD stream and a 360° one. Removed afterwards (with
    its clips) so the catalogue tests' counts on the shared database stay as they expect."""
    event = await paid_event(
        database,
        status="archived",
        when=clock.now() - timedelta(days=1),
        hls_stream=vod_url("football"),
        pano_stream="/media/live/football.m3u8",
    )
    yield event
    async with database.session() as db:
        await db.execute(delete(Event).where(Event.parent_event_id == event.id))
        await db.execute(delete(Event).where(Event.id == event.id))
        await db.commit()


@pytest.fixture
async def buyer(client, database, ppv_match):
    fan = await sign_up(client)
    await buy(database, fan["profile"]["userId"], ppv_match.id)
    return fan


@pytest.fixture
async def bought_stream(client, ppv_match, buyer) -> str:
    content = (await event_content(client, ppv_match.id, buyer["headers"]))["content"]
    return content["HLSStream"]


# --- who gets a URL -------------------------------------------------------------------------------


async def test_a_ppv_stream_is_null_for_an_anonymous_viewer(client, ppv_match):
    event = await event_content(client, ppv_match.id)
    assert event["availableForUser"] is False
    assert event["content"]["HLSStream"] is None and event["content"]["PanoStream"] is None
    assert event["content"]["MezzanineVideo"] is None


async def test_a_ppv_stream_is_null_for_a_signed_in_viewer_without_a_purchase(client, ppv_match):
    fan = await sign_up(client)
    event = await event_content(client, ppv_match.id, fan["headers"])
    assert event["availableForUser"] is False and event["content"]["HLSStream"] is None
    assert event["content"]["PanoStream"] is None


async def test_a_ppv_stream_is_signed_for_the_viewer_who_bought_it(client, ppv_match, buyer):
    event = await event_content(client, ppv_match.id, buyer["headers"])
    assert event["availableForUser"] is True
    hls, pano = event["content"]["HLSStream"], event["content"]["PanoStream"]
    assert as_sample(hls).startswith("/media/vod/football/index.m3u8?token=")
    assert as_sample(pano).startswith("/media/live/football/from-") and "/index.m3u8?token=" in pano
    assert event["content"]["PosterH"] == ppv_match.poster_h  # artwork is not signed


async def test_a_reload_within_a_tenth_of_the_lifetime_reuses_the_url_and_later_gets_a_new_one(
    client, settings, ppv_match, buyer
):
    """Signing every stream of every answer afresh cost more than the answer at kickoff: a token
    is handed out again for at most a tenth of its lifetime (one minute at most)."""
    first = (await event_content(client, ppv_match.id, buyer["headers"]))["content"]["HLSStream"]
    clock.advance(timedelta(seconds=5))
    again = (await event_content(client, ppv_match.id, buyer["headers"]))["content"]["HLSStream"]
    assert again == first and as_sample(first).startswith("/media/vod/football/index.m3u8?token=")
    clock.advance(timedelta(seconds=min(60, settings.stream_token_seconds / 10)))
    later = (await event_content(client, ppv_match.id, buyer["headers"]))["content"]["HLSStream"]
    assert later != first and later.split("?")[0] == first.split("?")[0]


async def test_two_buyers_get_the_same_path_so_one_cached_copy_serves_them_both(client, database, ppv_match, buyer):
    other = await sign_up(client)
    await buy(database, other["profile"]["userId"], ppv_match.id)
    mine = (await event_content(client, ppv_match.id, buyer["headers"]))["content"]["HLSStream"]
    theirs = (await event_content(client, ppv_match.id, other["headers"]))["content"]["HLSStream"]
    assert mine.split("?")[0] == theirs.split("?")[0]


async def test_a_clip_of_a_paid_event_is_signed_for_its_events_buyer(client, database, media, ppv_match, buyer):
    async with database.session() as db:
        clip = factories.event(
            db,
            "Goal of the match",
            status="archived",
            when=clock.now(),
            media_type="clip",
            parent=ppv_match,
            sport_type="football",
            commerce_type=ppv_match.commerce_type,
            commerce_modes=["ppv"],
            hls_stream=vod_url("football"),
        )
        await db.commit()
    assert (await event_content(client, clip.id))["content"]["HLSStream"] is None
    url = (await event_content(client, clip.id, buyer["headers"]))["content"]["HLSStream"]
    assert (await media.get(url)).status_code == 200


# --- whoever holds the URL plays it, until it expires --------------------------------------------------


async def test_the_buyers_url_plays_its_playlists_and_segments_on_the_cookie_its_first_answer_sets(
    media, bought_stream
):
    playlist = await media.get(bought_stream)
    assert playlist.status_code == 200, playlist.text
    assert playlist.headers["content-type"].startswith("application/vnd.apple.mpegurl")
    assert "tl_media=" in playlist.headers["set-cookie"]
    # The same for everyone who may have it: a shared cache keeps one copy, for an hour at most.
    cache = playlist.headers["cache-control"]
    assert cache.startswith("public, max-age=") and 0 < int(cache.split("=")[1]) <= 3600
    variant = await media.get(urljoin(str(playlist.url), read_master_playlist(playlist.text).uris[0]))
    assert variant.status_code == 200 and variant.headers["cache-control"].startswith("public, max-age=")
    assert read_media_playlist(variant.text).ended
    segment = await first_segment(media, playlist)
    assert segment.status_code == 200
    assert str(segment.url).startswith(f"{BASE}{bought_stream.split('?')[0].rsplit('/', 1)[0]}/")
    assert segment.headers["content-type"] == "video/mp2t" and len(segment.content) > 1000


async def test_the_url_without_its_token_is_refused(settings, database, bought_stream):
    transport = httpx.ASGITransport(app=media_app(settings, database))
    async with httpx.AsyncClient(transport=transport, base_url=BASE) as stranger:
        assert refused(await stranger.get(bought_stream.split("?")[0]))
        assert refused(await stranger.get(bought_stream.split("?")[0].replace("index.m3u8", "360p/index0.ts")))


async def test_the_url_expires_after_stream_token_seconds(media, settings, bought_stream):
    assert (await media.get(bought_stream)).status_code == 200
    clock.advance(timedelta(seconds=settings.stream_token_seconds + 1))
    assert refused(await media.get(bought_stream), "stream_token_expired")
    segment = bought_stream.split("?")[0].replace("index.m3u8", "360p/index0.ts")
    assert refused(await media.get(segment), "stream_token_expired")  # its cookie holds the same token


@pytest.mark.parametrize("where", ["expiry", "mac"])
async def test_a_tampered_token_is_refused(media, bought_stream, where):
    path, _, token = bought_stream.partition("?token=")
    expires, mac = token.split(".")
    altered = (
        f"{int(expires) + 3600}.{mac}"
        if where == "expiry"
        else f"{expires}.{mac[:-3]}{'xyz' if not mac.endswith('xyz') else 'abc'}"
    )
    assert refused(await media.get(f"{path}?token={altered}"))


@pytest.mark.parametrize(
    "elsewhere",
    [
        "vod/basketball/index.m3u8",
        "vod/basketball/360p/index0.ts",
        "live/hockey/from-0/index.m3u8",
        "vod/footballer/index.m3u8",
        "vod/football/%2e%2e/basketball/index0.ts",
        # every rendition of another sample, and the panoramic view beside this one
        "vod/basketball/360p/index.m3u8",
        "vod/basketball/720p/index0.ts",
        "live/basketball/from-0/234p/live.m3u8",
        "vod/basketball/clip-0-4000/360p/index.m3u8",
        "vod/football-pano/360p/index.m3u8",
        "live/football-pano/from-0/180p/live.m3u8",
        "vod/football/360p/%2e%2e/%2e%2e/hockey/360p/index0.ts",
    ],
)
async def test_a_token_for_one_stream_opens_no_other(media, bought_stream, elsewhere):
    token = bought_stream.split("?token=", 1)[1]
    response = await media.get(f"/media/{elsewhere}?token={token}")
    assert response.status_code in (403, 404), response.text  # 404: no stream's path at all
    assert response.headers["cache-control"] == "no-store"


async def test_a_vod_token_never_opens_the_same_samples_live_stream(media, bought_stream):
    # Other events (paid ones among them) stream live from the same sample: the token is for this
    # event's stream alone.
    token = bought_stream.split("?token=", 1)[1]
    for live in ("live/football/from-0/index.m3u8", "live/football/from-0/360p/live.m3u8"):
        assert refused(await media.get(f"/media/{live}?token={token}"))


# --- free events: anyone ---------------------------------------------------------------------------


async def test_a_free_live_events_url_plays_for_an_anonymous_viewer(client, media, catalogue):
    url = (await event_content(client, catalogue["live"]))["content"]["HLSStream"]
    playlist = await media.get(url)
    assert playlist.status_code == 200, playlist.text
    # A cache may keep it for less than a segment (it moves).
    assert playlist.headers["cache-control"] == "public, max-age=1" and "#EXT-X-ENDLIST" not in playlist.text
    # The live master's `<rendition>/live.m3u8` resolves beside it, and so do that playlist's `indexN.ts`.
    assert all(
        uri.endswith("/live.m3u8") and "/" not in uri[: -len("/live.m3u8")] for uri in segment_uris(playlist.text)
    )
    segment = await first_segment(media, playlist)
    assert segment.status_code == 200 and segment.headers["content-type"] == "video/mp2t"
    assert str(segment.url).startswith(f"{BASE}{url.split('?')[0].rsplit('/', 1)[0]}/")


async def test_a_signed_in_viewer_of_a_free_event_gets_a_url_that_plays(client, media, catalogue):
    fan = await sign_up(client)
    url = (await event_content(client, catalogue["archived"], fan["headers"]))["content"]["HLSStream"]
    assert (await media.get(url)).status_code == 200


async def test_a_members_event_is_signed_for_members_only(client, media, catalogue):
    assert (await event_content(client, catalogue["hoops"]))["content"]["HLSStream"] is None
    fan = await sign_up(client)
    url = (await event_content(client, catalogue["hoops"], fan["headers"]))["content"]["HLSStream"]
    assert as_sample(url).startswith("/media/vod/basketball/index.m3u8?token=")
    assert (await media.get(url)).status_code == 200


# --- the old addresses, and HTTP details ----------------------------------------------------------


@pytest.mark.parametrize(
    "path", ["/media/vod/football/index.m3u8", "/media/vod/football/index0.ts", "/media/live/football.m3u8"]
)
async def test_the_stored_stream_paths_without_a_token_serve_nothing(media, path):
    """The stored addresses are the edge layout's paths (server.media.delivery.edge_routes), which
    need a token beside them."""
    response = await media.get(path)
    assert response.status_code == 403
    assert response.json()["messageErrorCode"] == "stream_access_denied"
    assert response.headers["cache-control"] == "no-store"


@pytest.mark.parametrize("path", ["/media/logos/ashford-town.svg", "/media/posters/basketball.svg"])
async def test_artwork_stays_public(media, path):
    response = await media.get(path)
    assert response.status_code == 200 and response.headers["content-type"].startswith("image/svg+xml")


async def test_a_range_request_on_a_segment_gets_206_and_exactly_those_bytes(media, settings, bought_stream):
    whole = (settings.fixtures_dir / "media" / "football" / "360p" / "index0.ts").read_bytes()
    segment = bought_stream.replace("index.m3u8", "360p/index0.ts")
    response = await media.get(segment, headers={"Range": "bytes=188-1127"})
    assert response.status_code == 206
    assert response.content == whole[188:1128]
    assert response.headers["content-range"] == f"bytes 188-1127/{len(whole)}"
    assert response.headers["content-type"] == "video/mp2t"
    tail = await media.get(segment, headers={"Range": "bytes=-100"})
    assert tail.status_code == 206 and tail.content == whole[-100:]
    full = await media.get(segment)
    assert full.headers["accept-ranges"] == "bytes" and full.content == whole


async def test_a_range_request_without_the_token_is_still_refused(media, bought_stream):
    segment = bought_stream.split("?")[0].replace("index.m3u8", "360p/index0.ts")
    assert refused(await media.get(segment, headers={"Range": "bytes=0-99"}))


async def test_head_is_checked_like_get(media, bought_stream):
    assert (await media.head(bought_stream.split("?")[0])).status_code == 403
    response = await media.head(bought_stream.replace("index.m3u8", "360p/index0.ts"))
    assert response.status_code == 200 and response.content == b"" and int(response.headers["content-length"]) > 1000


async def test_a_missing_file_within_the_stream_is_not_found(media, bought_stream):
    response = await media.get(bought_stream.replace("index.m3u8", "360p/index999.ts"))
    assert response.status_code == 404 and response.json()["messageErrorCode"] == "not_found"
