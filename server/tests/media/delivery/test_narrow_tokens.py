"""Stream tokens open no more than they were issued for: a clip's or highlight's token opens that
clip alone (its playlists and the segments of its range: not its game, not the rest of the
sample), and an event limited to regions gives its stream to viewers in those regions only (the
region is checked when the token is issued: server.media.delivery.signing)."""

from datetime import timedelta
from types import SimpleNamespace

import httpx
import pytest

from server import clock
from server.media.delivery.urls import clip_url, game_url
from server.tests.accounts import sign_up
from server.tests.commerce import buy, paid_event
from server.tests.media_dir import as_sample

from ..hls import read_master_playlist, read_media_playlist

# A highlight of one minute, half an hour into its game: segments 900 to 929 of the timeline.
FROM_MS, TO_MS = 1_800_000, 1_860_000


def refused(response: httpx.Response, code: str = "stream_access_denied") -> bool:
    assert response.status_code == 403, (response.url, response.text)
    assert response.json()["messageErrorCode"] == code and response.headers["cache-control"] == "no-store"
    return True


def path_of(url: str) -> str:
    """The path of a signed address below /media/, without its token."""
    return url.split("?")[0].split("/media/", 1)[1]


def token_of(url: str) -> str:
    return url.split("?token=", 1)[1]


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


async def test_a_free_highlight_of_a_paid_game_plays_its_own_range(media, free_highlight_of_a_paid_game):
    url = free_highlight_of_a_paid_game.url
    assert as_sample(path_of(url)) == f"vod/football/clip-{FROM_MS}-{TO_MS}/index.m3u8"
    master = await media.get(url)
    assert master.status_code == 200, master.text
    base = url.split("?")[0].rsplit("/", 1)[0]
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
        "game-7200/index.m3u8",  # its game
        "game-7200/360p/index.m3u8",
        "game-7200/360p/seg-930.ts",
        "index.m3u8",  # the sample and its files
        "360p/index.m3u8",
        "360p/index0.ts",
        "clip-0-60000/index.m3u8",  # another clip of the game
        f"clip-{FROM_MS}-{TO_MS + 2000}/360p/seg-930.ts",
        "live master",
    ],
)
async def test_a_free_highlights_token_opens_nothing_else_of_its_paid_game(
    media, free_highlight_of_a_paid_game, elsewhere
):
    url = free_highlight_of_a_paid_game.url
    asset = path_of(url).split("/")[1]
    path = f"live/{asset}/from-0/index.m3u8" if elsewhere == "live master" else f"vod/{asset}/{elsewhere}"
    assert refused(await media.get(f"/media/{path}?token={token_of(url)}"))


@pytest.mark.parametrize("outside", ["360p/seg-899.ts", "360p/seg-930.ts", "720p/seg-3599.ts", "360p/index0.ts"])
async def test_a_highlights_own_directory_serves_no_segment_outside_its_range(
    media, free_highlight_of_a_paid_game, outside
):
    url = free_highlight_of_a_paid_game.url
    assert (await media.get(url)).status_code == 200
    directory = url.split("?")[0].rsplit("/", 1)[0]
    assert (await media.get(f"{directory}/{outside}")).status_code == 404


async def test_the_paid_game_itself_still_plays_for_its_buyer(client, database, media, free_highlight_of_a_paid_game):
    game = free_highlight_of_a_paid_game.game
    assert (await client.get(f"/api/event/get_by_id/id/{game.id}")).json()["content"]["content"]["HLSStream"] is None
    fan = await sign_up(client)
    await buy(database, fan["profile"]["userId"], game.id)
    url = (await client.get(f"/api/event/get_by_id/id/{game.id}", headers=fan["headers"])).json()["content"]
    url = url["content"]["HLSStream"]
    assert as_sample(path_of(url)) == "vod/football/game-7200/index.m3u8"
    assert (await media.get(url)).status_code == 200
    assert (await media.get(url.split("?")[0].replace("index.m3u8", "360p/seg-3599.ts"))).status_code == 200
    # The game's token opens the game's playlists: a clip of it is an event of its own, with its own URL.
    asset = path_of(url).split("/")[1]
    assert refused(await media.get(f"/media/vod/{asset}/clip-{FROM_MS}-{TO_MS}/index.m3u8?token={token_of(url)}"))


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
    own = path_of(url).split("/")[1]
    assert as_sample(path_of(url)) == "vod/football/clip-3600000-3630000/index.m3u8"
    assert match.hls_stream is not None
    parent = match.hls_stream.split("/")[3]
    assert own != parent  # the clip is an asset of its own, cut from the match's
    assert (await media.get(url)).status_code == 200
    token = token_of(url)
    assert refused(await media.get(f"/media/vod/{own}/game-7200/index.m3u8?token={token}"))
    for neighbour in (  # the same range, on the match
        "clip-3600000-3630000/index.m3u8",
        "game-7200/index.m3u8",
        "360p/seg-1800.ts",
    ):
        assert refused(await media.get(f"/media/vod/{parent}/{neighbour}?token={token}"))


# --- regions ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("regions", "given"), [(("GB",), True), (("GB", "IE"), True), (("FR",), False)])
async def test_an_event_limited_to_regions_gives_its_stream_only_to_viewers_there(client, database, regions, given):
    """The API's viewer here is in the default region, GB (no CDN header names another)."""
    match = await paid_event(
        database,
        commerce_type="commerce_free_media",
        modes=(),
        status="archived",
        regions=regions,
        when=clock.now() - timedelta(days=1),
        hls_stream=game_url("football", 7_200),
        duration_s=7_200,
    )
    url = (await client.get(f"/api/event/get_by_id/id/{match.id}")).json()["content"]["content"]["HLSStream"]
    assert (url is not None) == given, url
