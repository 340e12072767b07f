"""A stream token opens the stored playlist it was issued for, with its renditions and their
segments, and none of its neighbours (issue 26, section 1; per asset since issue 28): not another
event's asset, even one playing the same bytes, not the same asset's live stream, not another
game length or clip range on it, not segments outside its range. Events of every kind still play
their own, as a player fetches them (relative URIs, which carry the token in the cookie the
master's answer set). A path within a token's directory that is no part of its stream is not
found, for anyone (NOT_THERE).

The NEIGHBOURS table signs paths by hand on the test store's assets named after the samples
(server/tests/media_dir.py); the events' tests sign what the events store: assets of their own."""

from datetime import timedelta

import httpx
import pytest

from server import clock
from server.media.delivery.signing import sign_stream
from server.media.delivery.urls import clip_url, game_url, live_url, vod_url
from server.tests.accounts import sign_up
from server.tests.commerce import buy, paid_event
from server.tests.media_dir import SAMPLE_LADDER, as_sample

from ..serving import BASE, media_app, played

FREE = "commerce_free_media"
FREE_GAME_S = 5_400  # 2,700 segments of 2 s: seg-0 .. seg-2699
# The paid live events the outside test found open, all on the free game's sample.
PAID_LIVE = [
    ("commerce_ppv_media", ("ppv",)),
    ("commerce_transactional_media", ("ppv",)),
    ("commerce_subscription-basic_media", ("svod",)),
    ("commerce_members_media", ()),
]


@pytest.fixture(scope="module")
async def media(settings, database):
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=media_app(settings, database)), base_url=BASE
    ) as http:
        yield http


async def anonymous_stream(client, event_id: str) -> str | None:
    """An event's `HLSStream` as an anonymous visitor gets it."""
    answer = await client.get(f"/api/event/get_by_id/id/{event_id}")
    assert answer.status_code == 200, answer.text
    return answer.json()["content"]["content"]["HLSStream"]


def refused(response: httpx.Response) -> bool:
    assert response.status_code == 403, (str(response.url), response.status_code, response.text[:200])
    assert response.json()["messageErrorCode"] == "stream_access_denied"
    assert response.headers["cache-control"] == "no-store"
    return True


def path_of(url: str) -> str:
    """The path an address asks for, below /media/ and without its token: `vod/football/360p/seg-0.ts`."""
    return str(url).split("?")[0].split("/media/", 1)[1]


def with_token_of(url: str, path: str) -> str:
    """`path` (below /media/) asked for with the token of the signed address `url` in the query
    (which wins over any cookie the client holds)."""
    return f"/media/{path}?token={url.split('?token=', 1)[1]}"


def signed(settings, stored: str | None, start: float | None = None) -> str:
    url = sign_stream(stored, settings=settings, start=start)
    assert url is not None and "?token=" in url
    return url


# --- the outside test's reproduction ----------------------------------------------------------------


@pytest.fixture
async def free_archived_game(client, database) -> str:
    """A free archived game's stream, as an anonymous visitor gets it."""
    game = await paid_event(
        database,
        commerce_type=FREE,
        modes=(),
        status="archived",
        when=clock.now() - timedelta(days=1),
        hls_stream=game_url("football", FREE_GAME_S),
        duration_s=FREE_GAME_S,
    )
    url = await anonymous_stream(client, game.id)
    assert url is not None and path_of(url) == f"vod/{asset_of(game.hls_stream)}/game-{FREE_GAME_S}/index.m3u8"
    assert as_sample(path_of(url)) == f"vod/football/game-{FREE_GAME_S}/index.m3u8"  # the paid ones' bytes
    return url


def asset_of(stored: str | None) -> str:
    """The asset a stored URL names: `/media/live/<asset>.m3u8`, `/media/vod/<asset>/...`."""
    assert stored is not None
    media_path = stored.split("/media/", 1)[1]
    return (
        media_path.removeprefix("live/").removesuffix(".m3u8")
        if media_path.startswith("live/")
        else media_path.split("/")[1]
    )


async def test_a_free_archived_games_token_opens_none_of_the_paid_live_events_on_its_sample(
    settings, client, database, media, free_archived_game
):
    kickoff = clock.now() - timedelta(minutes=20)
    for commerce_type, modes in PAID_LIVE:
        paid = await paid_event(
            database,
            commerce_type=commerce_type,
            modes=modes,
            status="live",
            when=kickoff,
            hls_stream=live_url("football"),
        )
        assert await anonymous_stream(client, paid.id) is None
        # The live master, each rendition's live.m3u8 and its segments, as the paid event's viewers play them...
        addresses = await played(media, signed(settings, paid.hls_stream, start=kickoff.timestamp()))
        assert any(path_of(a).startswith(f"live/{asset_of(paid.hls_stream)}/") for a in addresses)
        assert sum(a.endswith("/live.m3u8") for a in addresses) == len(SAMPLE_LADDER)
        # ...and none of them under the free game's token.
        for address in addresses:
            assert refused(await media.get(with_token_of(free_archived_game, path_of(address)))), commerce_type


async def test_a_free_archived_games_token_does_not_open_a_paid_ppv_game_of_another_length(
    settings, client, database, media, free_archived_game
):
    paid = await paid_event(
        database,
        status="archived",
        when=clock.now() - timedelta(days=2),
        hls_stream=game_url("football", 7_200),
        duration_s=7_200,
    )
    assert await anonymous_stream(client, paid.id) is None
    for address in await played(media, signed(settings, paid.hls_stream)):
        assert refused(await media.get(with_token_of(free_archived_game, path_of(address))))


async def test_a_free_archived_game_still_plays_all_of_itself(media, free_archived_game):
    addresses = await played(media, free_archived_game)
    assert sum(f"/game-{FREE_GAME_S}/" in a and ".m3u8" in a for a in addresses) == 1 + len(SAMPLE_LADDER)
    assert any(a.endswith(f"/seg-{FREE_GAME_S // 2 - 1}.ts") for a in addresses)  # its last segment


# --- every neighbour of a token ------------------------------------------------------------------------

# (stored URL of event A, paths that are not A's: refused with A's token)
NEIGHBOURS = {
    game_url("football", FREE_GAME_S): [
        "live/football/from-0/index.m3u8",  # the sample's live stream, its renditions and their files
        "live/football/from-0/360p/live.m3u8",
        "live/football/from-0/720p/index0.ts",
        "vod/football/index.m3u8",  # the sample's own VOD
        "vod/football/234p/index.m3u8",
        "vod/football/720p/index0.ts",
        "vod/football/game-7200/index.m3u8",  # another game length, in any rendition
        "vod/football/game-7200/360p/index.m3u8",
        "vod/football/game-60/360p/seg-0.ts",
        "vod/football/clip-0-4000/index.m3u8",  # a clip within the game's range
        "vod/football/clip-0-4000/360p/seg-0.ts",
        f"vod/football-pano/game-{FREE_GAME_S}/index.m3u8",  # another sample's game of the same length
        f"vod/football-pano/game-{FREE_GAME_S}/360p/index.m3u8",
        "vod/hockey/360p/seg-0.ts",
        "live/football-pano/from-0/index.m3u8",
    ],
    clip_url("football", 60_000, 90_000): [
        "vod/football/clip-60000-92000/index.m3u8",  # another range, however close
        "vod/football/clip-58000-90000/360p/index.m3u8",
        "vod/football/clip-58000-90000/360p/seg-30.ts",
        f"vod/football/game-{FREE_GAME_S}/360p/seg-30.ts",
        "vod/football/360p/index0.ts",
        "live/football/from-0/index.m3u8",
        "live/football/from-0/360p/live.m3u8",
    ],
    live_url("football"): [
        "vod/football/index.m3u8",  # the sample's VOD, games and clips: archived events' streams
        "vod/football/360p/index.m3u8",
        f"vod/football/game-{FREE_GAME_S}/index.m3u8",
        f"vod/football/game-{FREE_GAME_S}/360p/index.m3u8",
        "vod/football/clip-0-4000/360p/index.m3u8",
        "vod/football/360p/index0.ts",
        "live/hockey/from-0/index.m3u8",  # another sample's live stream and renditions
        "live/hockey/from-0/360p/live.m3u8",
        "live/football-pano/from-0/180p/live.m3u8",
    ],
    vod_url("football"): [
        "live/football/from-0/index.m3u8",
        "live/football/from-0/720p/live.m3u8",
        f"vod/football/game-{FREE_GAME_S}/index.m3u8",
        f"vod/football/game-{FREE_GAME_S}/360p/index.m3u8",
        "vod/football/clip-0-4000/index.m3u8",
        "vod/football/clip-0-4000/360p/seg-0.ts",
        "vod/football-pano/index.m3u8",
        "vod/football-pano/360p/index0.ts",
    ],
}
# (stored URL, paths within its stream's directory that are no part of it: not found, for anyone)
NOT_THERE = {
    game_url("football", FREE_GAME_S): [
        f"vod/football/game-{FREE_GAME_S}/360p/seg-{FREE_GAME_S // 2}.ts",  # past the game's end
        f"vod/football/game-{FREE_GAME_S}/720p/seg-9999999.ts",
        f"vod/football/game-{FREE_GAME_S}/360p/index0.ts",
        f"vod/football/game-{FREE_GAME_S}/360p/game-7200.m3u8",
    ],
    clip_url("football", 60_000, 90_000): [
        "vod/football/clip-60000-90000/360p/seg-29.ts",  # just outside its range: seg-30 .. seg-44
        "vod/football/clip-60000-90000/360p/seg-45.ts",
        "vod/football/clip-60000-90000/poster.jpg",
    ],
    vod_url("football"): [
        "vod/football/360p/live.m3u8",
        "vod/football/360p/seg-0.ts",
        "vod/football/360p/game-5400.m3u8",
    ],
}


def start_of(stored: str) -> float | None:
    return 0.0 if "/live/" in stored else None


@pytest.mark.parametrize(
    ("stored", "neighbour"), [(stored, path) for stored, paths in NEIGHBOURS.items() for path in paths]
)
async def test_a_token_opens_none_of_its_neighbours(settings, media, stored, neighbour):
    url = signed(settings, stored, start=start_of(stored))
    assert refused(await media.get(with_token_of(url, neighbour)))
    assert (await media.head(with_token_of(url, neighbour))).status_code == 403


@pytest.mark.parametrize(("stored", "path"), [(stored, path) for stored, paths in NOT_THERE.items() for path in paths])
async def test_a_streams_directory_serves_nothing_that_is_no_part_of_it(settings, media, stored, path):
    url = signed(settings, stored, start=start_of(stored))
    response = await media.get(with_token_of(url, path))
    assert response.status_code == 404 and response.json()["messageErrorCode"] == "not_found"


@pytest.mark.parametrize("stored", list(NEIGHBOURS))
async def test_a_token_still_plays_its_own_playlist_renditions_and_segments(settings, media, stored):
    url = signed(settings, stored, start=start_of(stored))
    addresses = await played(media, url)
    assert len(addresses) == 1 + 3 * len(SAMPLE_LADDER)  # the master; each rendition with two segments


async def test_a_clips_own_first_and_last_segments_play(settings, media):
    url = signed(settings, clip_url("football", 60_000, 90_000))
    for j in (30, 44):
        assert (
            await media.get(with_token_of(url, f"vod/football/clip-60000-90000/234p/seg-{j}.ts"))
        ).status_code == 200


# --- a buyer's stream, events on the same bytes ------------------------------------------------------------


async def test_a_buyers_token_for_a_paid_game_opens_neither_the_live_stream_nor_another_game(client, database, media):
    game = await paid_event(
        database,
        status="archived",
        when=clock.now() - timedelta(days=1),
        hls_stream=game_url("football", 600),
        duration_s=600,
    )
    fan = await sign_up(client)
    await buy(database, fan["profile"]["userId"], game.id)
    url = (await client.get(f"/api/event/get_by_id/id/{game.id}", headers=fan["headers"])).json()["content"]
    url = url["content"]["HLSStream"]
    assert len(await played(media, url)) == 1 + 3 * len(SAMPLE_LADDER)
    own = asset_of(game.hls_stream)
    for neighbour in (
        f"live/{own}/from-0/index.m3u8",  # its own asset's live stream
        f"live/{own}/from-0/360p/live.m3u8",
        f"vod/{own}/game-7200/index.m3u8",  # another length of its own asset
        f"vod/{own}/index.m3u8",
        "vod/football/game-600/index.m3u8",  # another asset with the same bytes
        "vod/football/360p/index0.ts",
    ):
        assert refused(await media.get(with_token_of(url, neighbour)))
    assert (await media.get(with_token_of(url, f"vod/{own}/game-600/360p/seg-300.ts"))).status_code == 404


async def test_two_events_on_the_same_bytes_each_open_their_own_asset_alone(settings, client, database, media):
    """Seeded events share a sample's bytes through assets of their own: a token for one opens
    nothing of the other's asset, its exact paths included."""
    kickoff = clock.now() - timedelta(minutes=20)
    first, second = [
        await paid_event(
            database, commerce_type=FREE, modes=(), status="live", when=kickoff, hls_stream=live_url("football")
        )
        for _ in range(2)
    ]
    assert asset_of(first.hls_stream) != asset_of(second.hls_stream)
    first_url = await anonymous_stream(client, first.id)
    second_url = await anonymous_stream(client, second.id)
    assert first_url is not None and second_url is not None
    for address in await played(media, second_url):
        assert refused(await media.get(with_token_of(first_url, path_of(address))))
    assert len(await played(media, first_url)) == 1 + 3 * len(SAMPLE_LADDER)
