"""The demo catalogue: what a fresh install shows, and that seeding is safe to repeat."""

import itertools
import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import async_sessionmaker, create_async_engine

from server.media.assets.store import MediaStore
from server.media.delivery.live import live_playlist, load_vod_playlist
from server.media.delivery.urls import DEFAULT_VAST_URL, game_url, live_url
from server.media.playlists import load_stream
from server.models import (
    Base,
    EpgProgramme,
    Event,
    EventIdentity,
    EventStats,
    Identity,
    IdentityParent,
    MediaAsset,
    Tag,
    Team,
    TeamIdentity,
)
from server.seed import artwork
from server.seed.assets import asset_id
from server.seed.bulk import bulk_count, fill_events, sync_url
from server.seed.catalogue import HIGHLIGHT_KINDS, build_catalogue, reference_id, table_of
from server.seed.fixtures import FIXTURES_DIR, load_catalogue
from server.seed.loader import seed

NOW = datetime(2026, 11, 22, 21, 7, 33, tzinfo=UTC)
COMMERCE_TYPES = {
    "commerce_free_media",
    "commerce_members_media",
    "commerce_ppv_media",
    "commerce_subscription-basic_media",
    "commerce_transactional_media",
}


@pytest.fixture
async def engine(tmp_path):
    engine = create_async_engine(f"sqlite+aiosqlite:///{tmp_path}/t.db")
    async with engine.begin() as conn:
        await conn.run_sync(Base.metadata.create_all)
    yield engine
    await engine.dispose()


@pytest.fixture
async def seeded(engine):
    await seed(engine, now=NOW)
    return engine


async def count(engine, model, *where) -> int:
    async with engine.connect() as conn:
        return await conn.scalar(select(func.count()).select_from(model).where(*where))


async def rows(engine, stmt):
    async with async_sessionmaker(engine)() as db:
        return list(await db.scalars(stmt))


async def test_seed_has_three_sports_fifteen_leagues_sixty_teams(seeded):
    assert await count(seeded, Identity, Identity.media_type == "identity") >= 3
    assert await count(seeded, Identity, Identity.media_type == "identity_item") >= 15
    assert await count(seeded, Team) >= 60
    sports = {i.sport_type for i in await rows(seeded, select(Identity).where(Identity.media_type == "identity"))}
    assert {"football", "basketball", "ice-hockey"} <= sports
    # Every league hangs off exactly one sport; every team is in a league and its sport.
    assert await count(seeded, IdentityParent) == await count(seeded, Identity, Identity.media_type == "identity_item")
    for team in await rows(seeded, select(Team)):
        links = await rows(seeded, select(Identity).join(TeamIdentity).where(TeamIdentity.team_id == team.id))
        assert {i.media_type for i in links} == {"identity", "identity_item"}, team.name
        assert all(i.sport_type == team.sport_type for i in links)
    genders = {i.gender for i in await rows(seeded, select(Identity).where(Identity.media_type == "identity_item"))}
    assert {"male", "female"} <= genders
    assert await count(seeded, Event, Event.media_type == "event", Event.game_type == "game") >= 300


async def test_something_is_always_live_and_upcoming_after_seeding(engine):
    for now in (NOW, datetime.now(UTC), NOW + timedelta(days=40, hours=7, minutes=31)):
        await seed(engine, now=now)
        live = await rows(engine, select(Event).where(Event.status == "live", Event.media_type == "event"))
        games = [e for e in live if e.game_type == "game"]
        assert len(games) >= 3
        for event in live:
            assert now - timedelta(minutes=90) <= event.event_date <= now
            assert event.hls_stream.startswith("/media/live/")
        soon = await count(
            engine,
            Event,
            Event.status == "upcoming",
            Event.event_date > now,
            Event.event_date <= now + timedelta(hours=24),
        )
        assert soon >= 5
        later = await count(engine, Event, Event.status == "upcoming", Event.event_date > now + timedelta(days=7))
        assert later >= 5
        assert await count(engine, Event, Event.status == "upcoming", Event.event_date <= now) == 0
        assert (
            await count(engine, Event, Event.status == "archived", Event.media_type == "event", Event.end_date > now)
            == 0
        )
        oldest = await rows(engine, select(func.min(Event.event_date)).where(Event.status == "archived"))
        assert oldest[0] >= now - timedelta(days=121)


async def test_every_highlight_kind_is_present(seeded):
    clips = await rows(seeded, select(Event).where(Event.parent_event_id.is_not(None)))
    assert {c.highlight_kind for c in clips} == set(HIGHLIGHT_KINDS)
    parents = {
        e.id: e
        for e in await rows(seeded, select(Event).where(Event.status == "archived", Event.media_type == "event"))
    }
    for clip in clips:
        assert clip.media_type == ("clip" if clip.highlight_kind == "clip" else "highlight")
        assert clip.status in ("archived", "vod")
        parent = parents[clip.parent_event_id]
        assert 0 <= clip.start_time_ms < clip.end_time_ms <= parent.duration_s * 1000
        assert clip.event_date >= parent.end_date
    with_clips = {c.parent_event_id for c in clips}
    assert len(with_clips) >= 0.7 * len([p for p in parents.values() if p.game_type == "game"])
    per_game = [sum(1 for c in clips if c.parent_event_id == p) for p in with_clips]
    assert min(per_game) >= 1 and max(per_game) <= 4


async def test_every_playable_event_plays_a_served_sample_through_an_asset_of_its_own(engine, tmp_path):
    store = MediaStore(tmp_path / "media")
    await seed(engine, now=NOW, media=(store, FIXTURES_DIR / "media"))
    samples = {p.parent.name for p in (FIXTURES_DIR / "media").glob("*/index.m3u8")}
    events = await rows(engine, select(Event))
    assets = {a.id: a for a in await rows(engine, select(MediaAsset))}
    named: list[str] = []
    for event in events:
        if event.status == "upcoming":
            assert event.hls_stream is None
            continue
        match = re.fullmatch(
            r"/media/(vod/(\w+)/(game-\d+|clip-\d+-\d+)\.m3u8|live/(\w+)\.m3u8)", event.hls_stream or ""
        )
        assert match, (event.title, event.hls_stream)
        asset = assets[match.group(2) or match.group(4)]
        named.append(asset.id)
        assert asset.event_id == event.id and asset.sample in samples
        assert load_stream(store.root, asset.id) is not None  # its directory plays the sample
        if event.parent_event_id:  # a highlight or clip: its range of its game's VOD
            assert match.group(3) == f"clip-{event.start_time_ms}-{event.end_time_ms}"
            parent = next(e for e in events if e.id == event.parent_event_id)
            assert asset.kind == "highlight" and parent.hls_stream.split("/")[3] == asset.parent_id
            assert (asset.start_ms, asset.end_ms) == (event.start_time_ms, event.end_time_ms)
        elif event.status == "archived":  # a game: its sample looped for as long as it lasted
            assert match.group(3) == f"game-{event.duration_s}"
        if event.status in ("live", "channel"):
            assert event.hls_stream.startswith("/media/live/")
            vod = load_vod_playlist(store.root / asset.id / "index.m3u8")
            text = live_playlist(vod, NOW.timestamp(), event.event_date.timestamp())
            assert text is not None and "#EXTINF" in text
        else:
            assert event.hls_stream.startswith("/media/vod/")
        assert event.poster_h.startswith("/media/posters/")
        # Artwork addresses carry their content hash (`?v=`, server.media.delivery.urls.versioned).
        assert (FIXTURES_DIR / "posters" / event.poster_h.split("?")[0].rsplit("/", 1)[1]).exists()
    assert len(named) == len(set(named)), "two events share an asset"
    for team in await rows(engine, select(Team)):
        assert (FIXTURES_DIR / "logos" / team.logo.split("?")[0].rsplit("/", 1)[1]).exists()


async def test_team_names_are_not_placeholders(seeded):
    teams = await rows(seeded, select(Team))
    names = [t.name for t in teams]
    assert len(set(names)) == len(names)
    for team in teams:
        assert not re.search(r"\b(team|club)\s*\d+\b", team.name, re.I), team.name
        assert len(team.name.split()) >= 2
        assert 2 <= len(team.short_name) <= 6 and team.short_name.upper() == team.short_name
        assert re.fullmatch(r"#[0-9a-f]{6}", team.color)
        assert team.city and team.city in team.name
        assert set(team.social_links) >= {"facebook", "instagram", "twitter", "web"}
        assert all(link.startswith("https://") and "example.com" in link for link in team.social_links.values())
    games = await rows(seeded, select(Event).where(Event.game_type == "game", Event.media_type == "event"))
    by_id = {t.id: t for t in teams}
    for game in games:
        home, away = by_id[game.home_team_id], by_id[game.away_team_id]
        assert game.title == f"{home.name} vs {away.name}"
        assert home.sport_type == away.sport_type == game.sport_type
        assert home.short_name.lower() in game.search_text and away.name.lower() in game.search_text


async def test_archived_games_have_stats_with_percentages_at_most_100(seeded):
    games = await rows(
        seeded,
        select(Event).where(
            Event.game_type == "game", Event.media_type == "event", Event.status.in_(("archived", "live"))
        ),
    )
    stats = {s.event_id: s for s in await rows(seeded, select(EventStats))}
    percentages = 0
    for game in games:
        assert game.stats_enabled and game.data_partner_id
        s = stats[game.id]
        for side in ("homeTeam", "awayTeam"):
            team = s.scores[side]
            assert team["name"] in game.title
            assert team["periods"] and all(isinstance(p, int) and p >= 0 for p in team["periods"])
            if game.sport_type != "volleyball":  # volleyball scores sets won, periods hold set points
                assert team["score"] == sum(team["periods"])
        if game.status == "archived" and game.sport_type in ("basketball", "ice-hockey", "volleyball"):
            assert s.scores["homeTeam"]["score"] != s.scores["awayTeam"]["score"]  # no draws there
        metrics = s.overview["groups"][0]["metrics"]
        assert len(metrics) >= 5
        for m in metrics:
            assert {"shortName", "name", "filterId", "homeTeamValue", "awayTeamValue"} <= set(m)
            for value in (m["homeTeamValue"], m["awayTeamValue"]):
                assert value["text"].removesuffix("%") == str(value["number"])
                if value["text"].endswith("%"):
                    percentages += 1
                    assert 0 <= value["number"] <= 100
        if any(m["filterId"] == "possession" for m in metrics):
            pos = next(m for m in metrics if m["filterId"] == "possession")
            assert pos["homeTeamValue"]["number"] + pos["awayTeamValue"]["number"] == 100
    assert percentages > 0
    upcoming = await rows(seeded, select(Event).where(Event.status == "upcoming"))
    assert not any(e.stats_enabled for e in upcoming)


async def test_seed_twice_does_not_duplicate(engine):
    first = await seed(engine, now=NOW)
    counts = {
        m.__name__: await count(engine, m)
        for m in (Identity, Team, Event, EventIdentity, EventStats, EpgProgramme, TeamIdentity, IdentityParent, Tag)
    }
    second = await seed(async_sessionmaker(engine), now=NOW + timedelta(hours=3))
    assert first.total_inserted > 0 and second.total_inserted == 0 and second.was_seeded_before
    assert {m: await count(engine, globals()[m]) for m in counts} == counts
    # The re-run re-timed the catalogue: live games are live at the new time.
    live = await rows(engine, select(Event).where(Event.status == "live"))
    assert all(e.event_date >= NOW + timedelta(hours=3) - timedelta(minutes=90) for e in live)
    # update_existing=False leaves rows alone.
    third = await seed(engine, now=NOW, update_existing=False)
    assert third.total_inserted == 0 and sum(third.updated.values()) == 0


async def test_reset_starts_over(engine):
    await seed(engine, now=NOW)
    async with engine.begin() as conn:
        await conn.execute(
            table_of(Event)
            .insert()
            .values(
                id="f" * 24,
                media_type="event",
                title="Stray",
                event_date=NOW,
                external_id="X-1",
                reference_id="x-1",
                status="archived",
            )
        )
        await conn.execute(
            table_of(Tag)
            .insert()
            .values(
                id="e" * 24,
                target_id="f" * 24,
                title="A viewer's tag",
                start_ms=0,
                type="user",
                is_global=False,
                official=False,
                video_type="vod",
                stream_name="hd",
                mode="sync",
                created=NOW,
                updated=NOW,
            )
        )
    report = await seed(engine, now=NOW, reset=True)
    assert report.deleted["events"] == await count(engine, Event) + 1
    assert await count(engine, Event, Event.id == "f" * 24) == 0
    # Tags go with the events they mark; the official ones are loaded again.
    assert report.deleted["tags"] == await count(engine, Tag) + 1
    assert await count(engine, Tag, Tag.id == "e" * 24) == 0
    # Products outlive a reset (purchases point at them); they are updated in place.
    kept = ("products", "bundle_items")
    assert report.total_inserted == sum(len(r) for t, r in build_catalogue(NOW).tables() if t.name not in kept)
    assert report.updated["products"] == len(build_catalogue(NOW).products)


def test_archived_games_have_official_tags_that_match_their_stats():
    data = build_catalogue(NOW)
    stats = {s["event_id"]: s["scores"] for s in data.event_stats}
    games = {e["id"]: e for e in data.events if e["status"] == "archived" and e["id"] in stats}
    tags: dict[str, list[dict]] = {}
    for tag in data.tags:
        tags.setdefault(tag["target_id"], []).append(tag)
    assert set(tags) == set(games)  # every archived game has key moments, nothing else has official ones
    assert len({t["id"] for t in data.tags}) == len(data.tags)
    for game_id, game in games.items():
        scores, moments = stats[game_id], tags[game_id]
        home, away = scores["homeTeam"], scores["awayTeam"]
        for tag in moments:
            assert (tag["official"], tag["is_global"], tag["user_id"], tag["video_type"]) == (True, True, None, "vod")
            assert 0 <= tag["start_ms"] < tag["end_ms"] <= game["duration_s"] * 1000
            assert tag["team_id"] in (None, game["home_team_id"], game["away_team_id"])
            assert tag["created"] <= NOW and len(tag["title"]) <= 200
        assert [t["start_ms"] for t in moments] == sorted(t["start_ms"] for t in moments)
        subtypes = {t["subtype"] for t in moments}
        if game["sport_type"] in ("football", "ice-hockey"):
            goals = [t for t in moments if t["subtype"] == "goal"]
            assert sum(t["team_id"] == game["home_team_id"] for t in goals) == home["score"]
            assert sum(t["team_id"] == game["away_team_id"] for t in goals) == away["score"]
            if goals:
                assert goals[-1]["title"].endswith(f"{home['score']}-{away['score']} {away['shortName']})")
            assert subtypes <= {"goal", "yellow_card", "substitution", "penalty"}
        elif game["sport_type"] == "basketball":
            assert [t["subtype"] for t in moments] == ["period_end"] * len(home["periods"])
            final = moments[-1]["title"]
            assert final.startswith("Final") and f"{home['score']}-{away['score']}" in final
        else:  # volleyball: one tag per set, the set winners add up to the sets won
            assert [t["subtype"] for t in moments] == ["set_end"] * len(home["periods"])
            assert sum(t["team_id"] == game["home_team_id"] for t in moments) == home["score"]
            assert moments[-1]["title"].endswith(f"(sets {home['score']}-{away['score']})")
    football = [t["subtype"] for g, e in games.items() if e["sport_type"] == "football" for t in tags[g]]
    assert {"goal", "yellow_card", "substitution"} <= set(football)
    # Re-seeding later moves no tag: same ids, same places on the timeline.
    later = build_catalogue(NOW + timedelta(days=3, minutes=17))
    place = lambda d: [(t["id"], t["target_id"], t["start_ms"], t["end_ms"], t["title"]) for t in d.tags]  # noqa: E731
    assert place(later) == place(data)


def test_every_paid_game_has_a_pay_per_view_and_every_league_in_the_subscription_a_pass():
    data = build_catalogue(NOW)
    paid = {
        e["id"]
        for e in data.events
        if e["media_type"] == "event" and e["commerce_type"] in ("commerce_ppv_media", "commerce_transactional_media")
    }
    ppv = {p["event_id"] for p in data.products if p["type"] == "ppv"}
    assert paid and paid <= ppv
    kinds = {p["type"] for p in data.products}
    assert kinds == {"ppv", "svod", "cvod", "bundle"}
    assert all(p["price_minor"] > 0 and p["currency"] == "EUR" for p in data.products)
    assert len(data.bundle_items) == 3


def test_build_is_deterministic_and_ids_do_not_move_with_now():
    a, b = build_catalogue(NOW), build_catalogue(NOW)
    assert a.tables() == b.tables()
    later = build_catalogue(NOW + timedelta(days=3, minutes=17))
    shape = lambda d: [(e["id"], e["external_id"], e["title"], e["status"]) for e in d.events]  # noqa: E731
    assert shape(a) == shape(later)
    events = a.events
    assert len({e["external_id"] for e in events}) == len({e["reference_id"] for e in events}) == len(events)
    assert all(re.fullmatch(r"TL-(EV|HL)-\d{6}", e["external_id"]) for e in events)
    assert all(len(e["reference_id"]) <= 40 and e["reference_id"].startswith("ref-") for e in events)
    assert reference_id("womens-professional-hockey-circuit-and-more", 123) == "ref-womens-professional-hockey-123"


def test_catalogue_content_covers_the_product():
    data = build_catalogue(NOW)
    games = [e for e in data.events if e["media_type"] == "event" and e["game_type"] == "game"]
    assert {e["commerce_type"] for e in games} == COMMERCE_TYPES
    free = [e for e in games if e["commerce_type"] == "commerce_free_media"]
    assert len(free) > len(games) / 2 and all(e["commerce_modes"] == [] for e in free)
    assert {tuple(e["commerce_modes"]) for e in games} >= {("ppv",), ("svod",), ("svod", "cvod"), ("ppv", "svod")}
    assert all(e["vast_url"] in (None, DEFAULT_VAST_URL) for e in data.events)  # this server's test ad
    assert any(e["vast_url"] for e in games)
    kinds = {e["event_type"] for e in data.events}
    assert {"game", "training", "other", "externalContent", "channel"} <= kinds
    for e in data.events:
        if e["game_type"] == "other":
            assert e["home_team_id"] is None and e["away_team_id"] is None
        assert e["event_date"].tzinfo is not None
        if e["game_start_date"]:
            assert timedelta(0) < e["game_start_date"] - e["event_date"] <= timedelta(minutes=15)
    links: dict[str, set[str]] = {}
    for link in data.event_identities:
        links.setdefault(link["event_id"], set()).add(link["identity_type"])
    assert all(links[e["id"]] == {"identity", "identity_item"} for e in games)


def test_a_few_live_and_archived_games_carry_this_servers_test_ad():
    data = build_catalogue(NOW)
    games = [e for e in data.events if e["media_type"] == "event" and e["game_type"] == "game"]
    with_ads = [e for e in data.events if e["vast_url"]]
    assert with_ads and all(e["vast_url"] == DEFAULT_VAST_URL for e in with_ads)
    assert all(e in games and e["status"] in ("live", "archived") for e in with_ads)
    assert len(with_ads) < len(games) / 5  # a few
    for status in ("live", "archived"):
        # Every viewer, signed in or not, has a live game and a finished one with an ad to watch.
        free = [e for e in with_ads if e["status"] == status and e["commerce_type"] == "commerce_free_media"]
        assert any(e["available_in_region"] for e in free), status


def test_the_ad_tag_is_the_one_given_and_none_turns_ads_off():
    default, custom = build_catalogue(NOW), build_catalogue(NOW, vast_url="https://ads.example/vast.xml")
    assert [e["id"] for e in default.events if e["vast_url"]] == [e["id"] for e in custom.events if e["vast_url"]]
    assert {e["vast_url"] for e in custom.events} == {None, "https://ads.example/vast.xml"}
    for off in (None, ""):
        assert all(e["vast_url"] is None for e in build_catalogue(NOW, vast_url=off).events)
    # Ads decide nothing else: the same rows either way.
    strip = lambda d: [{k: v for k, v in e.items() if k != "vast_url"} for e in d.events]  # noqa: E731
    assert strip(build_catalogue(NOW, vast_url=None)) == strip(default)


async def test_seeding_stores_the_configured_ad_tag_and_a_reseed_follows_it(engine):
    await seed(engine, now=NOW, vast_url="https://ads.example/vast.xml")
    custom = await count(engine, Event, Event.vast_url == "https://ads.example/vast.xml")
    assert custom >= 2
    await seed(engine, now=NOW)
    assert await count(engine, Event, Event.vast_url == DEFAULT_VAST_URL) == custom
    assert await count(engine, Event, Event.vast_url == "https://ads.example/vast.xml") == 0


def test_some_live_and_archived_football_games_offer_the_panoramic_view():
    data = build_catalogue(NOW)
    pano = [e for e in data.events if e["pano_stream"]]
    assert pano
    assets = {a["id"]: a for a in data.media_assets}
    for e in pano:
        assert e["media_type"] == "event" and e["sport_type"] == "football"
        asset = assets[asset_id(e["external_id"], "pano_stream")]  # the panoramic view's own asset
        assert (asset["event_id"], asset["sample"]) == (e["id"], "football-pano")
        expected = {"live": live_url(asset["id"]), "archived": game_url(asset["id"], e["duration_s"] or 0)}[e["status"]]
        assert e["pano_stream"] == expected
    football = [e for e in data.events if e["sport_type"] == "football" and e["status"] in ("live", "archived")]
    assert len(pano) < len(football) / 2  # some
    for status in ("live", "archived"):
        free = [e for e in pano if e["status"] == status and e["commerce_type"] == "commerce_free_media"]
        assert any(e["available_in_region"] for e in free), status
    assert not any(e["pano_stream"] for e in data.events if e["parent_event_id"])  # edited packages have none
    later = build_catalogue(NOW + timedelta(days=3, minutes=17))
    assert [e["id"] for e in later.events if e["pano_stream"]] == [e["id"] for e in pano]


def test_the_panoramic_sample_is_served_and_keeps_time_with_the_broadcast():
    pano, broadcast = (
        load_stream(FIXTURES_DIR / "media", "football-pano"),
        load_stream(FIXTURES_DIR / "media", "football"),
    )
    assert pano is not None and broadcast is not None
    assert len(pano.renditions) >= 2
    # Same segments, so its live loop and the broadcast's turn together (one kickoff, one clock).
    assert [s.duration for s in pano.timeline.segments] == [s.duration for s in broadcast.timeline.segments]
    for variant in pano.ladder.variants:
        width, height = map(int, (variant.attribute("RESOLUTION") or "0x0").split("x"))
        assert width >= 2 * height  # a wide view: 32:9


def test_channels_have_a_programme_guide():
    data = build_catalogue(NOW)
    channels = [e for e in data.events if e["status"] == "channel"]
    assert len(channels) >= 2
    game_ids = {e["id"] for e in data.events if e["game_type"] == "game"}
    for channel in channels:
        assert (channel["media_type"], channel["event_type"], channel["game_type"]) == ("event", "channel", "other")
        slots = sorted(
            (p for p in data.epg_programmes if p["channel_id"] == channel["id"]), key=lambda p: p["starts_at"]
        )
        assert slots[0]["starts_at"] <= NOW - timedelta(days=1)
        assert slots[-1]["ends_at"] >= NOW + timedelta(days=2) - timedelta(hours=1)
        for prev, nxt in itertools.pairwise(slots):
            assert prev["ends_at"] == nxt["starts_at"]  # no gaps, no overlaps
        for slot in slots:
            assert timedelta(minutes=30) <= slot["ends_at"] - slot["starts_at"] <= timedelta(minutes=120)
            if slot["related_event_id"]:
                assert slot["related_event_id"] in game_ids
        assert any(s["related_event_id"] for s in slots)


def test_artwork_is_what_the_generator_writes():
    files = artwork.render_all(load_catalogue())
    for relative, svg in files.items():
        path = FIXTURES_DIR / relative
        assert path.exists() and path.read_text() == svg, (
            f"{relative} is stale: regenerate with `python -m server.seed.artwork`"
        )
        assert len(svg.encode()) < 2048
    on_disk = {
        f"{p.parent.name}/{p.name}" for folder in ("logos", "posters") for p in (FIXTURES_DIR / folder).glob("*")
    }
    assert on_disk == set(files), "stray artwork files: regenerate with `python -m server.seed.artwork`"


def test_sync_url_maps_async_drivers():
    assert sync_url("sqlite+aiosqlite:///var/t.db") == "sqlite:///var/t.db"
    assert sync_url("postgresql+psycopg://u:p@h/db") == "postgresql+psycopg://u:p@h/db"


async def test_bulk_fill_is_idempotent_by_count(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path}/bulk.db"
    assert fill_events(url, 6000, now=NOW) == 6000  # more than one batch
    assert fill_events(url, 6000, now=NOW) == 0
    assert fill_events(url, 6500, now=NOW) == 500
    from sqlalchemy import create_engine

    engine = create_engine(sync_url(url))
    with engine.connect() as conn:
        assert bulk_count(conn) == 6500
        assert conn.execute(select(func.count()).select_from(Team)).scalar_one() >= 60  # seeded the catalogue first
        bulk_ids = select(Event.id).where(Event.external_id.like("TL-BK-%"))
        links = conn.scalar(select(func.count()).select_from(EventIdentity).where(EventIdentity.event_id.in_(bulk_ids)))
        assert links == 2 * 6500
        statuses = dict(
            conn.execute(
                select(Event.status, func.count()).where(Event.external_id.like("TL-BK-%")).group_by(Event.status)
            )
            .tuples()
            .all()
        )
        assert statuses["archived"] > statuses["upcoming"] > 0
    engine.dispose()
