"""A stream token opens the stored playlist it was issued for, with its renditions and their
segments, and none of its neighbours (issue 26, section 1; per asset since issue 28): not another
event's asset, even one playing the same bytes, not the same asset's live stream, not another
game length or clip range on it, not segments outside its range. Events of every kind still play
their own, as a player fetches them (relative URIs).

The NEIGHBOURS table signs paths by hand on the test store's assets named after the samples
(server/tests/media_dir.py); the events' tests sign what the events store: assets of their own."""

from datetime import timedelta
from urllib.parse import urljoin

import httpx
import pytest

from server import clock
from server.media.delivery.signing import sign_stream
from server.media.delivery.urls import clip_url, game_url, live_url, vod_url
from server.tests.accounts import sign_up
from server.tests.commerce import buy, paid_event
from server.tests.media_dir import as_sample

from ..hls import is_master, read_master_playlist, read_media_playlist
from ..serving import media_app

BASE = "http://touchline.test"
EVENT = "e0e000000000000000000001"
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


def token_dir(url: str) -> str:
    """`/media/s/<token>` of a signed URL."""
    return "/".join(url.split("/")[:4])


def below_token(url: str) -> str:
    """The path a signed URL asks for, below its token: `vod/football/360p/seg-0.ts`."""
    return str(url).split("/media/s/", 1)[1].split("/", 1)[1]


def signed(settings, stored: str | None, start: float | None = None, user_id: str | None = None) -> str:
    url = sign_stream(stored, user_id=user_id, event_id=EVENT, settings=settings, start=start)
    assert url is not None and url.startswith("/media/s/")
    return url


async def played(media, url: str, headers: dict | None = None) -> list[str]:
    """Every address a player fetches for `url`, each checked to play: the master, each rendition's
    playlist and its first and last segment, resolved against the playlist that lists them."""
    fetched: list[str] = []

    async def get(address: str) -> httpx.Response:
        response = await media.get(address, headers=headers or {})
        assert response.status_code == 200, (address, response.text[:200])
        fetched.append(address)
        return response

    master = await get(url)
    assert is_master(master.text)
    for uri in read_master_playlist(master.text).uris:
        variant = await get(urljoin(url, uri))
        segments = read_media_playlist(variant.text).uris
        for segment in {segments[0], segments[-1]}:
            await get(urljoin(str(variant.url), segment))
    return fetched


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
    assert url is not None and url.endswith(f"/vod/{asset_of(game.hls_stream)}/game-{FREE_GAME_S}.m3u8")
    assert as_sample(url).endswith(f"/vod/football/game-{FREE_GAME_S}.m3u8")  # the same bytes as the paid ones
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
        assert any(a.endswith(f"/live/{asset_of(paid.hls_stream)}.m3u8") for a in addresses)
        assert sum(a.endswith("/live.m3u8") for a in addresses) == 3
        # ...and none of them under the free game's token.
        for address in addresses:
            assert refused(await media.get(f"{token_dir(free_archived_game)}/{below_token(address)}")), commerce_type


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
        path = below_token(address)
        assert refused(await media.get(f"{token_dir(free_archived_game)}/{path}"))


async def test_a_free_archived_game_still_plays_all_of_itself(media, free_archived_game):
    addresses = await played(media, free_archived_game)
    assert sum(a.endswith(f"/game-{FREE_GAME_S}.m3u8") for a in addresses) == 4  # the master, three renditions
    assert any(a.endswith(f"/seg-{FREE_GAME_S // 2 - 1}.ts") for a in addresses)  # its last segment


# --- every neighbour of a token ------------------------------------------------------------------------

# (stored URL of event A, paths below A's token that are not A's)
NEIGHBOURS = {
    game_url("football", FREE_GAME_S): [
        "live/football.m3u8",  # the sample's live stream, its renditions and their files
        "vod/football/360p/live.m3u8",
        "vod/football/720p/index0.ts",
        "vod/football/index.m3u8",  # the sample's own VOD
        "vod/football/234p/index.m3u8",
        "vod/football/game-7200.m3u8",  # another game length, in any rendition
        "vod/football/360p/game-7200.m3u8",
        "vod/football/game-60.m3u8",
        "vod/football/clip-0-4000.m3u8",  # a clip within the game's range
        "vod/football/360p/clip-0-4000.m3u8",
        f"vod/football/360p/seg-{FREE_GAME_S // 2}.ts",  # segments past the game's end
        "vod/football/720p/seg-9999999.ts",
        f"vod/football-pano/game-{FREE_GAME_S}.m3u8",  # another sample's game of the same length
        f"vod/football-pano/360p/game-{FREE_GAME_S}.m3u8",
        "vod/hockey/360p/seg-0.ts",
        "live/football-pano.m3u8",
    ],
    clip_url("football", 60_000, 90_000): [
        "vod/football/clip-60000-92000.m3u8",  # another range, however close
        "vod/football/360p/clip-58000-90000.m3u8",
        "vod/football/360p/seg-29.ts",  # just outside its range: seg-30 .. seg-44
        "vod/football/360p/seg-45.ts",
        "vod/football/game-5400.m3u8",
        "vod/football/360p/index0.ts",
        "live/football.m3u8",
        "vod/football/360p/live.m3u8",
    ],
    live_url("football"): [
        "vod/football/index.m3u8",  # the sample's VOD, games and clips: archived events' streams
        "vod/football/360p/index.m3u8",
        "vod/football/game-5400.m3u8",
        "vod/football/360p/game-5400.m3u8",
        "vod/football/360p/clip-0-4000.m3u8",
        "vod/football/360p/seg-0.ts",
        "vod/football/live.m3u8",
        "live/hockey.m3u8",  # another sample's live stream and renditions
        "vod/hockey/360p/live.m3u8",
        "vod/football-pano/180p/live.m3u8",
    ],
    vod_url("football"): [
        "live/football.m3u8",
        "vod/football/720p/live.m3u8",
        "vod/football/game-5400.m3u8",
        "vod/football/360p/game-5400.m3u8",
        "vod/football/clip-0-4000.m3u8",
        "vod/football/360p/seg-0.ts",
        "vod/football-pano/index.m3u8",
        "vod/football-pano/360p/index0.ts",
    ],
}


@pytest.mark.parametrize(
    ("stored", "neighbour"), [(stored, path) for stored, paths in NEIGHBOURS.items() for path in paths]
)
async def test_a_token_opens_none_of_its_neighbours(settings, media, stored, neighbour):
    url = signed(settings, stored, start=0.0 if "/live/" in stored else None)
    assert refused(await media.get(f"{token_dir(url)}/{neighbour}"))
    assert (await media.head(f"{token_dir(url)}/{neighbour}")).status_code == 403


@pytest.mark.parametrize("stored", list(NEIGHBOURS))
async def test_a_token_still_plays_its_own_playlist_renditions_and_segments(settings, media, stored):
    url = signed(settings, stored, start=0.0 if "/live/" in stored else None)
    addresses = await played(media, url)
    assert len(addresses) == 1 + 3 * 3  # the master; three renditions, each with two segments


async def test_a_clips_own_first_and_last_segments_play(settings, media):
    url = signed(settings, clip_url("football", 60_000, 90_000))
    for j in (30, 44):
        assert (await media.get(f"{token_dir(url)}/vod/football/234p/seg-{j}.ts")).status_code == 200


# --- tokens bound to a viewer ----------------------------------------------------------------------------


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
    assert len(await played(media, url, fan["headers"])) == 1 + 3 * 3
    own = asset_of(game.hls_stream)
    for neighbour in (
        f"live/{own}.m3u8",  # its own asset's live stream
        f"vod/{own}/360p/live.m3u8",
        f"vod/{own}/game-7200.m3u8",  # another length of its own asset
        f"vod/{own}/360p/seg-300.ts",  # past its end
        "vod/football/game-600.m3u8",  # another asset with the same bytes
        "vod/football/360p/seg-0.ts",
    ):
        assert refused(await media.get(f"{token_dir(url)}/{neighbour}", headers=fan["headers"]))


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
        assert refused(await media.get(f"{token_dir(first_url)}/{below_token(address)}"))
    assert len(await played(media, first_url)) == 1 + 3 * 3
