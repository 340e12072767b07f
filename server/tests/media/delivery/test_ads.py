"""The test ads (server.media.delivery.ads): a VAST 4 document that players can parse and follow to a video
this server serves, tracking URLs that count their hits, and the broken cases players must survive."""

import asyncio
import time
import xml.etree.ElementTree as ET
from urllib.parse import urlsplit

import httpx
import pytest

from server.media.delivery import ads
from server.media.delivery.ads import PREROLL, AdTracker
from server.settings import Settings
from server.web import static_app

BASE = "http://touchline.test"
VAST = "/media/ads/preroll.xml"
NS = {"v": "http://www.iab.com/VAST"}


@pytest.fixture
async def media(settings):
    """A fresh app (its own tracking counts) per test."""
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=static_app(settings)), base_url=BASE) as http:
        yield http


async def vast(media, query: str = "") -> ET.Element:
    response = await media.get(VAST + query)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/xml")
    assert response.headers["cache-control"] == "no-store"
    return ET.fromstring(response.content)


def text(element: ET.Element | None) -> str:
    assert element is not None
    return (element.text or "").strip()


def local(url: str) -> str:
    """An absolute URL of this server, as a path the test client asks for."""
    parts = urlsplit(url)
    assert f"{parts.scheme}://{parts.netloc}" == BASE, url
    return parts.path + (f"?{parts.query}" if parts.query else "")


# --- the document -----------------------------------------------------------------------------------


async def test_the_vast_is_one_linear_inline_ad_with_everything_a_player_needs(media):
    root = await vast(media)
    assert root.tag == "{http://www.iab.com/VAST}VAST" and root.get("version", "").startswith("4.")
    (ad,) = root.findall("v:Ad", NS)
    inline = ad.find("v:InLine", NS)
    assert inline is not None
    assert text(inline.find("v:AdSystem", NS)) == "Touchline" and text(inline.find("v:AdTitle", NS))
    assert text(inline.find("v:AdServingId", NS))
    assert text(inline.find("v:Impression", NS)).startswith(f"{BASE}/media/ads/track?event=impression")
    assert "[ERRORCODE]" in text(inline.find("v:Error", NS))
    (creative,) = inline.findall("v:Creatives/v:Creative", NS)
    assert text(creative.find("v:UniversalAdId", NS))
    linear = creative.find("v:Linear", NS)
    assert linear is not None
    assert linear.get("skipoffset") == "00:00:03"
    assert text(linear.find("v:Duration", NS)) == "00:00:06.000"
    events = {t.get("event"): text(t) for t in linear.findall("v:TrackingEvents/v:Tracking", NS)}
    assert set(events) == {"start", "firstQuartile", "midpoint", "thirdQuartile", "complete", "skip"}
    assert all(url.startswith(f"{BASE}/media/ads/track?event={event}&ad=") for event, url in events.items())
    assert text(linear.find("v:VideoClicks/v:ClickThrough", NS)) == f"{BASE}/"
    (media_file,) = linear.findall("v:MediaFiles/v:MediaFile", NS)
    assert media_file.get("delivery") == "progressive" and media_file.get("type") == "video/mp4"
    assert (media_file.get("width"), media_file.get("height")) == (str(PREROLL.width), str(PREROLL.height))
    assert int(media_file.get("bitrate") or 0) > 0
    assert text(media_file) == f"{BASE}/media/ads/{PREROLL.file}"


async def test_the_media_file_is_the_committed_mp4_with_ranges_and_a_day_of_cache(media, settings):
    root = await vast(media)
    url = local(text(root.find(".//v:MediaFile", NS)))
    whole = (settings.fixtures_dir / "media" / "ads" / PREROLL.file).read_bytes()
    response = await media.get(url)
    assert response.status_code == 200 and response.content == whole
    assert response.headers["content-type"] == "video/mp4"
    assert response.headers["cache-control"] == "public, max-age=86400"
    assert response.headers["accept-ranges"] == "bytes"
    part = await media.get(url, headers={"Range": "bytes=100-299"})
    assert part.status_code == 206 and part.content == whole[100:300]
    assert part.headers["content-range"] == f"bytes 100-299/{len(whole)}"
    head = await media.head(url)
    assert head.status_code == 200 and head.content == b"" and int(head.headers["content-length"]) == len(whole)
    # The MediaFile's bitrate is the file's own (kbit/s over its duration).
    media_file = root.find(".//v:MediaFile", NS)
    assert media_file is not None
    bitrate = int(media_file.get("bitrate") or 0)
    assert bitrate == round(len(whole) * 8 / PREROLL.seconds / 1000)


async def test_ad_urls_use_the_public_base_url_when_set(settings):
    public = settings.model_copy(update={"public_base_url": "https://watch.touchline.example/"})
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=static_app(public)), base_url=BASE) as media:
        root = await vast(media)
    assert text(root.find(".//v:MediaFile", NS)) == f"https://watch.touchline.example/media/ads/{PREROLL.file}"
    assert text(root.find(".//v:Impression", NS)).startswith("https://watch.touchline.example/media/ads/track?")


async def test_the_default_ad_tag_setting_is_this_servers_vast():
    assert Settings().ads_vast_url == VAST


# --- tracking ---------------------------------------------------------------------------------------


async def test_every_tracking_url_answers_204_and_is_counted(media):
    root = await vast(media, "?ad=test-count")
    urls = [text(root.find(".//v:Impression", NS))]
    urls += [text(t) for t in root.findall(".//v:Tracking", NS)]
    urls.append(text(root.find(".//v:ClickTracking", NS)))
    for url in urls + urls[:2]:  # the impression and the start twice
        response = await media.get(local(url))
        assert response.status_code == 204 and response.content == b""
        assert response.headers["cache-control"] == "no-store"
    hits = await media.get("/media/ads/track/hits", params={"ad": "test-count"})
    assert hits.status_code == 200 and hits.headers["cache-control"] == "no-store"
    assert hits.json() == {
        "hits": {
            "test-count": {
                "impression": 2,
                "start": 2,
                "firstQuartile": 1,
                "midpoint": 1,
                "thirdQuartile": 1,
                "complete": 1,
                "skip": 1,
                "click": 1,
            }
        }
    }


async def test_an_error_pixel_counts_its_code_when_the_player_filled_it_in(media):
    root = await vast(media, "?ad=test-error")
    template = text(root.find(".//v:Error", NS))
    await media.get(local(template.replace("[ERRORCODE]", "405")))
    await media.get(local(template))  # a player that left the macro as it was
    counts = (await media.get("/media/ads/track/hits?ad=test-error")).json()["hits"]["test-error"]
    assert counts == {"error": 2, "error:405": 1}


async def test_hits_of_all_ads_and_of_one_that_never_played(media):
    await media.get("/media/ads/track?event=start&ad=one")
    await media.get("/media/ads/track?event=start&ad=two")
    assert (await media.get("/media/ads/track/hits")).json() == {"hits": {"one": {"start": 1}, "two": {"start": 1}}}
    assert (await media.get("/media/ads/track/hits?ad=three")).json() == {"hits": {"three": {}}}


@pytest.mark.parametrize(
    "query", ["event=nonsense&ad=x", "event=start&ad=../etc", "ad=x", "event=start&ad=" + "a" * 41]
)
async def test_unknown_events_and_bad_ad_ids_are_refused_and_not_counted(media, query):
    response = await media.get(f"/media/ads/track?{query}")
    assert response.status_code == 400 and response.json()["messageErrorCode"] == "bad_request"
    assert (await media.get("/media/ads/track/hits")).json() == {"hits": {}}


def test_the_tracker_keeps_a_bounded_number_of_ads():
    tracker = AdTracker(ads=3)
    for n in range(5):
        tracker.record(f"ad-{n}", "start")
    assert list(tracker.counts()) == ["ad-2", "ad-3", "ad-4"]


# --- the cases players must survive -------------------------------------------------------------------


async def test_case_empty_is_a_valid_vast_without_an_ad(media):
    root = await vast(media, "?case=empty")
    assert root.tag == "{http://www.iab.com/VAST}VAST" and root.get("version", "").startswith("4.")
    assert root.findall("v:Ad", NS) == []
    assert "[ERRORCODE]" in text(root.find("v:Error", NS))


async def test_case_broken_is_not_well_formed_xml(media):
    response = await media.get(VAST, params={"case": "broken"})
    assert response.status_code == 200 and response.headers["content-type"].startswith("application/xml")
    with pytest.raises(ET.ParseError):
        ET.fromstring(response.content)


async def test_case_missing_media_points_at_a_video_that_is_not_there(media):
    root = await vast(media, "?case=missing-media")
    url = local(text(root.find(".//v:MediaFile", NS)))
    assert url != f"/media/ads/{PREROLL.file}"
    missing = await media.get(url)
    assert missing.status_code == 404 and missing.json()["messageErrorCode"] == "not_found"
    # Everything else is the ad as usual: its pixels still count.
    impression = local(text(root.find(".//v:Impression", NS)))
    assert (await media.get(impression)).status_code == 204


async def test_case_slow_answers_late_without_holding_up_other_requests(media, monkeypatch):
    monkeypatch.setattr(ads, "SLOW_SECONDS", 0.5)
    started = time.monotonic()
    slow = asyncio.ensure_future(media.get(VAST, params={"case": "slow"}))
    await asyncio.sleep(0.05)
    quick = await media.get(VAST)
    assert quick.status_code == 200 and not slow.done()  # the loop kept serving meanwhile
    response = await slow
    assert response.status_code == 200 and time.monotonic() - started >= 0.5
    assert ET.fromstring(response.content).find(".//v:Linear", NS) is not None


def test_the_slow_case_takes_about_ten_seconds_by_default():
    assert ads.SLOW_SECONDS == 10


@pytest.mark.parametrize("query", ["?case=nope", "?ad=not/an/id"])
async def test_an_unknown_case_or_ad_id_is_a_bad_request(media, query):
    response = await media.get(VAST + query)
    assert response.status_code == 400 and response.json()["messageErrorCode"] == "bad_request"


async def test_ads_are_public_and_unsigned_but_nothing_else_is_under_ads(media):
    assert (await media.get("/media/ads/")).status_code == 404
    assert (await media.get("/media/ads/other.xml")).status_code == 404
    # Out of ads, a stream's path: which needs its token, like any other request for it.
    escaped = await media.get("/media/ads/../vod/football/index.m3u8")
    assert escaped.status_code == 403 and escaped.json()["messageErrorCode"] == "stream_access_denied"
