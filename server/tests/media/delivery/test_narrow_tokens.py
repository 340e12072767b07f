"""Stream tokens open no more than they were issued for: a clip's or highlight's token opens that
clip alone (its playlists and the segments of its range: not its game, not the rest of the
sample), and a token of an event limited to regions plays in those regions only."""

from datetime import timedelta
from types import SimpleNamespace

import httpx
import jwt
import pytest

from server import clock
from server.media.delivery.signing import sign_stream, verify
from server.media.delivery.urls import clip_url, game_url, live_url, vod_url
from server.tests.accounts import sign_up
from server.tests.commerce import buy, paid_event
from server.tests.media_dir import as_sample

from ..hls import read_master_playlist, read_media_playlist
from ..serving import media_app

BASE = "http://touchline.test"
COUNTRY = "CloudFront-Viewer-Country"
EVENT = "e0e000000000000000000001"
# A highlight of one minute, half an hour into its game: segments 900 to 929 of the timeline.
FROM_MS, TO_MS = 1_800_000, 1_860_000


@pytest.fixture(scope="module")
async def media(settings, database):
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=media_app(settings, database)), base_url=BASE
    ) as http:
        yield http


def claims_of(url: str) -> dict:
    return jwt.decode(url.split("/")[3], options={"verify_signature": False})


def refused(response: httpx.Response, code: str = "stream_access_denied") -> bool:
    assert response.status_code == 403, (response.url, response.text)
    assert response.json()["messageErrorCode"] == code and response.headers["cache-control"] == "no-store"
    return True


@pytest.fixture
async def free_highlight_of_a_paid_game(client, database):
    """(the game, its highlight's signed URL as anyone gets it)."""
    when = clock.now() - timedelta(days=1)
    game = await paid_event(
        database, status="archived", when=when, hls_stream=game_url("football", 7_200), duration_s=7_200
    )
    highlight = await paid_event(
        database,
        commerce_type="commerce_free_media",
        modes=(),
        status="vod",
        when=when,
        media_type="highlight",
        parent=game,
        hls_stream=clip_url("football", FROM_MS, TO_MS),
        start_time_ms=FROM_MS,
        end_time_ms=TO_MS,
        duration_s=60,
    )
    answer = await client.get(f"/api/event/get_by_id/id/{highlight.id}")
    assert answer.status_code == 200, answer.text
    return SimpleNamespace(game=game, url=answer.json()["content"]["content"]["HLSStream"])


# --- clips and highlights ---------------------------------------------------------------------------


def test_a_clips_token_carries_its_range_and_a_games_or_a_live_streams_none(settings):
    def grant(url: str):
        signed = sign_stream(url, user_id=None, event_id=EVENT, settings=settings)
        assert signed is not None
        return verify(signed.split("/")[3], secret=settings.secret_key)

    assert grant(clip_url("football", FROM_MS, TO_MS)).clip == (FROM_MS, TO_MS)
    assert grant(clip_url("football", FROM_MS, TO_MS)).stream == "football"
    assert grant(game_url("football", 7_200)).clip is None
    assert grant(vod_url("football")).clip is None
    assert grant(live_url("football")).clip is None


async def test_a_free_highlight_of_a_paid_game_plays_its_own_range(media, free_highlight_of_a_paid_game):
    url = free_highlight_of_a_paid_game.url
    assert as_sample(claims_of(url)["path"]) == f"vod/football/clip-{FROM_MS}-{TO_MS}.m3u8" and "sub" not in claims_of(
        url
    )
    master = await media.get(url)
    assert master.status_code == 200, master.text
    base = url.rsplit("/", 1)[0]
    for uri in read_master_playlist(master.text).uris:
        playlist = await media.get(f"{base}/{uri}")
        assert playlist.status_code == 200
        assert read_media_playlist(playlist.text).uris == [f"seg-{j}.ts" for j in range(900, 930)]
        rendition = uri.split("/")[0]
        for j in (900, 929):
            assert (await media.get(f"{base}/{rendition}/seg-{j}.ts")).status_code == 200


@pytest.mark.parametrize(
    "elsewhere",
    [
        "game-7200.m3u8",  # its game
        "360p/game-7200.m3u8",
        "index.m3u8",  # the sample and its files
        "360p/index.m3u8",
        "360p/index0.ts",
        "360p/seg-899.ts",  # the game's segments just outside the range
        "360p/seg-930.ts",
        "720p/seg-3599.ts",
        "clip-0-60000.m3u8",  # another clip of the game
        "360p/clip-0-60000.m3u8",
        f"clip-{FROM_MS}-{TO_MS + 2000}.m3u8",
        "360p/live.m3u8",  # the sample's live stream
        "live master",
    ],
)
async def test_a_free_highlights_token_opens_nothing_else_of_its_paid_game(
    media, free_highlight_of_a_paid_game, elsewhere
):
    base = free_highlight_of_a_paid_game.url.rsplit("/", 1)[0]
    if elsewhere == "live master":
        path = base.replace("/vod/football", "/live/football.m3u8")
    else:
        path = f"{base}/{elsewhere}"
    assert refused(await media.get(path))


async def test_the_paid_game_itself_still_plays_for_its_buyer(client, database, media, free_highlight_of_a_paid_game):
    game = free_highlight_of_a_paid_game.game
    assert (await client.get(f"/api/event/get_by_id/id/{game.id}")).json()["content"]["content"]["HLSStream"] is None
    fan = await sign_up(client)
    await buy(database, fan["profile"]["userId"], game.id)
    url = (await client.get(f"/api/event/get_by_id/id/{game.id}", headers=fan["headers"])).json()["content"]
    url = url["content"]["HLSStream"]
    assert as_sample(claims_of(url)["path"]) == "vod/football/game-7200.m3u8"
    assert (await media.get(url, headers=fan["headers"])).status_code == 200
    assert (
        await media.get(url.replace("game-7200.m3u8", "360p/seg-3599.ts"), headers=fan["headers"])
    ).status_code == 200
    # The game's token opens the game's playlists: a clip of it is an event of its own, with its own URL.
    clip = url.replace("game-7200.m3u8", f"360p/clip-{FROM_MS}-{TO_MS}.m3u8")
    assert refused(await media.get(clip, headers=fan["headers"]))


async def test_a_users_clip_token_opens_its_clip_and_not_the_parents_stream(client, database, media):
    match = await paid_event(
        database,
        commerce_type="commerce_free_media",
        modes=(),
        status="archived",
        when=clock.now() - timedelta(days=1),
        hls_stream=game_url("football", 7_200),
        duration_s=7_200,
    )
    fan = await sign_up(client)
    body = {"event_id": match.id, "title": "Minute sixty", "startTime": 3_600, "endTime": 3_630}
    clip = await client.post("/api/clip/create", json=body, headers=fan["headers"])
    assert clip.status_code == 200, clip.text
    url = clip.json()["content"]["content"]["HLSStream"]
    own = claims_of(url)["path"].split("/")[1]
    assert as_sample(claims_of(url)["path"]) == "vod/football/clip-3600000-3630000.m3u8"
    assert match.hls_stream is not None
    parent = match.hls_stream.split("/")[3]
    assert own != parent  # the clip is an asset of its own, cut from the match's
    assert (await media.get(url)).status_code == 200
    assert refused(await media.get(url.replace("clip-3600000-3630000.m3u8", "game-7200.m3u8")))
    token = url.split("/vod/", 1)[0]
    for neighbour in (
        "clip-3600000-3630000.m3u8",
        "game-7200.m3u8",
        "360p/seg-1800.ts",
    ):  # the same range, on the match
        assert refused(await media.get(f"{token}/vod/{parent}/{neighbour}"))


# --- regions ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
async def regional_media(settings, database):
    """The media routes behind a CDN that names the viewer's country (TOUCHLINE_REGION_HEADER)."""
    behind_cdn = settings.model_copy(update={"region_header": COUNTRY})
    app = media_app(behind_cdn, database)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=BASE) as http:
        yield http


def signed_for(settings, url: str, regions, user_id: str | None = None) -> str:
    # A live stream that kicked off long ago, so that its playlist has segments at once.
    signed = sign_stream(url, user_id=user_id, event_id=EVENT, settings=settings, regions=regions, start=0.0)
    assert signed is not None
    return signed


@pytest.mark.parametrize("url", [game_url("football", 7_200), live_url("football"), clip_url("football", 0, 4_000)])
async def test_a_region_bound_stream_plays_in_its_regions_only(settings, regional_media, url):
    signed = signed_for(settings, url, ["IE", "GB"])
    assert claims_of(signed)["reg"] == ["GB", "IE"]
    for country in ("GB", "ie"):
        assert (await regional_media.get(signed, headers={COUNTRY: country})).status_code == 200, country
    assert (await regional_media.get(signed)).status_code == 200  # no header: the default region, GB
    for country in ("FR", "US"):
        assert refused(await regional_media.get(signed, headers={COUNTRY: country}), "stream_region_denied")
    # Every playlist and segment of it, not just the address the answer gave.
    master = (await regional_media.get(signed, headers={COUNTRY: "GB"})).text
    variant = signed.rsplit("/", 1)[0] + "/" + read_master_playlist(master).uris[0]
    assert refused(await regional_media.get(variant, headers={COUNTRY: "FR"}), "stream_region_denied")


async def test_a_stream_outside_the_default_region_is_refused_where_the_cdn_names_no_country(settings, media):
    signed = signed_for(settings, game_url("football", 7_200), ["FR"])
    assert settings.default_region == "GB" and settings.region_header is None
    assert refused(await media.get(signed), "stream_region_denied")


async def test_a_free_events_url_is_bound_to_the_events_regions(client, database, media):
    match = await paid_event(
        database,
        commerce_type="commerce_free_media",
        modes=(),
        status="archived",
        regions=("GB",),
        when=clock.now() - timedelta(days=1),
        hls_stream=game_url("football", 7_200),
        duration_s=7_200,
    )
    url = (await client.get(f"/api/event/get_by_id/id/{match.id}")).json()["content"]["content"]["HLSStream"]
    assert claims_of(url)["reg"] == ["GB"] and "sub" not in claims_of(url)
    assert (await media.get(url)).status_code == 200


async def test_an_event_anywhere_gets_a_token_bound_to_no_region(client, catalogue):
    url = (await client.get(f"/api/event/get_by_id/id/{catalogue['archived']}")).json()["content"]["content"]
    assert "reg" not in claims_of(url["HLSStream"])
