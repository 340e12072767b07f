"""Test ads of this server's own: a VAST 4 document, the video it plays and its tracking pixel.
Public and unsigned (nothing here is worth a token), so players can be built and tested offline.

    GET /media/ads/preroll.xml[?case=<case>][&ad=<id>]
        VAST 4.2 with one linear inline ad: Impression, Error, a Creative whose Linear lasts
        PREROLL.seconds and may be skipped after PREROLL.skip_after, TrackingEvents (start,
        firstQuartile, midpoint, thirdQuartile, complete, skip), ClickThrough and ClickTracking,
        and one progressive MediaFile (the MP4 below). `application/xml`, never stored (each
        request is an ad decision, and its URLs name the host that was asked).
    GET /media/ads/preroll.mp4
        the creative (fixtures/media/ads/preroll.mp4, scripts/sample_video.py): H.264 + AAC,
        index first (faststart), `video/mp4` with Range requests, cacheable for a day.
    GET /media/ads/track?event=<event>&ad=<id>[&code=<n>]
        a tracking URL: 204, counted in this process (bounded: TRACKED_ADS ads). Unknown events
        are 400. `error` with a numeric `code` (VAST's [ERRORCODE]) also counts `error:<code>`.
    GET /media/ads/track/hits[?ad=<id>]
        the counts so far, for tests: `{"hits": {"<ad>": {"<event>": <count>}}}`.

Cases, for players' robustness tests (`case=` on the VAST URL):

    (none)          the ad
    empty           a valid VAST without any Ad (its root Error URI reports VAST code 303)
    broken          malformed XML
    slow            the ad, after SLOW_SECONDS (the event loop keeps serving meanwhile)
    missing-media   the ad, but its MediaFile URL answers 404

`ad=<id>` (letters, digits, `-`, `_`; default `touchline-preroll`) names the ad in its tracking
URLs, so a test can count its own hits apart from anyone else's. The ad URLs are absolute (VAST
players do not resolve relative ones), on TOUCHLINE_PUBLIC_BASE_URL, else on the host that was
asked. Events point at the VAST with `advertisements.link.vast` (the seed stores
TOUCHLINE_ADS_VAST_URL, default `/media/ads/preroll.xml`, on a few live and archived games).
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter, OrderedDict
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import quoteattr

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from ...settings import Settings
from .urls import AD_MISSING_VIDEO, AD_TRACK, AD_TRACK_HITS, AD_VAST, AD_VIDEO, ADS_DIR, ads_url


@dataclass(frozen=True)
class Creative:
    """The test ad's video: what sample_video encodes and the VAST says about it."""

    file: str
    seconds: int
    width: int
    height: int
    skip_after: int  # seconds before the player offers "skip"
    codec: str  # RFC 6381, as the file's avcC and AAC config say (checked by the tests)


PREROLL = Creative(AD_VIDEO, seconds=6, width=640, height=360, skip_after=3, codec="avc1.42c01e,mp4a.40.2")
DEFAULT_AD_ID = "touchline-preroll"
CASES = ("empty", "broken", "slow", "missing-media")
SLOW_SECONDS = 10.0
# VAST tracking events this endpoint counts (VAST 4.2, 3.14.1), and the pixels of the ad itself.
EVENTS = frozenset(
    {
        "impression",
        "error",
        "click",
        "creativeView",
        "loaded",
        "start",
        "firstQuartile",
        "midpoint",
        "thirdQuartile",
        "complete",
        "skip",
        "progress",
        "pause",
        "resume",
        "rewind",
        "mute",
        "unmute",
        "fullscreen",
        "exitFullscreen",
        "playerExpand",
        "playerCollapse",
        "closeLinear",
        "otherAdInteraction",
    }
)
LINEAR_EVENTS = ("start", "firstQuartile", "midpoint", "thirdQuartile", "complete", "skip")
TRACKED_ADS = 256  # ad ids kept per process; the oldest go first
_AD_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
_CODE = re.compile(r"^[0-9]{3}$")
XML = "application/xml"
NO_STORE = {"Cache-Control": "no-store"}
VIDEO_MAX_AGE = 24 * 3600


def _clock(seconds: float) -> str:
    """VAST time: HH:MM:SS.mmm."""
    ms = round(seconds * 1000)
    return f"{ms // 3_600_000:02d}:{ms // 60_000 % 60:02d}:{ms // 1000 % 60:02d}.{ms % 1000:03d}"


def _cdata(url: str) -> str:
    return f"<![CDATA[{url}]]>"


def vast_document(base: str, *, ad_id: str = DEFAULT_AD_ID, video_bytes: int = 0, missing_media: bool = False) -> str:
    """The VAST 4.2 document of the test ad, its URLs on `base` (scheme://host, no slash)."""
    ad = PREROLL

    def track(event: str, extra: str = "") -> str:
        return _cdata(f"{base}{ads_url(AD_TRACK)}?event={event}&ad={ad_id}{extra}")

    media = f"{base}{ads_url(AD_MISSING_VIDEO if missing_media else ad.file)}"
    kbps = max(1, round(video_bytes * 8 / ad.seconds / 1000)) if video_bytes else 400
    tracking = "\n".join(
        f'              <Tracking event="{event}">{track(event)}</Tracking>' for event in LINEAR_EVENTS
    )
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<VAST version="4.2" xmlns="http://www.iab.com/VAST">
  <Ad id={quoteattr(ad_id)}>
    <InLine>
      <AdSystem version="1.0">Touchline</AdSystem>
      <Error>{track("error", "&code=[ERRORCODE]")}</Error>
      <Impression id="touchline">{track("impression")}</Impression>
      <AdServingId>{ad_id}-1</AdServingId>
      <AdTitle>Touchline test ad</AdTitle>
      <Description>A {ad.seconds} s test card with a countdown, skippable after {ad.skip_after} s.</Description>
      <Advertiser>Touchline</Advertiser>
      <Creatives>
        <Creative id="{ad_id}-video" sequence="1" adId={quoteattr(ad_id)}>
          <UniversalAdId idRegistry="Touchline">{ad_id}</UniversalAdId>
          <Linear skipoffset="{_clock(ad.skip_after)[:8]}">
            <Duration>{_clock(ad.seconds)}</Duration>
            <TrackingEvents>
{tracking}
            </TrackingEvents>
            <VideoClicks>
              <ClickThrough id="touchline">{_cdata(f"{base}/")}</ClickThrough>
              <ClickTracking id="touchline">{track("click")}</ClickTracking>
            </VideoClicks>
            <MediaFiles>
              <MediaFile id="{ad_id}-mp4" delivery="progressive" type="video/mp4" width="{ad.width}" \
height="{ad.height}" bitrate="{kbps}" scalable="false" maintainAspectRatio="true" \
codec="{ad.codec}">{_cdata(media)}</MediaFile>
            </MediaFiles>
          </Linear>
        </Creative>
      </Creatives>
    </InLine>
  </Ad>
</VAST>
"""


def empty_vast(base: str, *, ad_id: str = DEFAULT_AD_ID) -> str:
    """A valid VAST with no ad: players skip the break (and report "no ad", VAST error 303)."""
    error = _cdata(f"{base}{ads_url(AD_TRACK)}?event=error&ad={ad_id}&code=[ERRORCODE]")
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<VAST version="4.2" xmlns="http://www.iab.com/VAST">
  <Error>{error}</Error>
</VAST>
"""


BROKEN_VAST = """<?xml version="1.0" encoding="UTF-8"?>
<VAST version="4.2" xmlns="http://www.iab.com/VAST">
  <Ad id="touchline-broken">
    <InLine>
      <AdSystem>Touchline</AdSystem>
      <AdTitle>Cut off & never closed
"""


class AdTracker:
    """Tracking hits per ad and event, kept in memory by this process (a bounded number of ads)."""

    def __init__(self, ads: int = TRACKED_ADS):
        self.ads = ads
        self.hits: OrderedDict[str, Counter[str]] = OrderedDict()

    def record(self, ad_id: str, event: str) -> None:
        counts = self.hits.get(ad_id)
        if counts is None:
            if len(self.hits) >= self.ads:
                self.hits.popitem(last=False)
            counts = self.hits[ad_id] = Counter()
        counts[event] += 1

    def counts(self, ad_id: str | None = None) -> dict[str, dict[str, int]]:
        if ad_id is not None:
            return {ad_id: dict(self.hits.get(ad_id, {}))}
        return {ad: dict(counts) for ad, counts in self.hits.items()}


def _error(status: int, message: str, code: str) -> JSONResponse:
    return JSONResponse(
        {"error": True, "message": message, "messageErrorCode": code}, status_code=status, headers=NO_STORE
    )


def _base(request: Request, settings: Settings) -> str:
    if settings.public_base_url:
        return settings.public_base_url.rstrip("/")
    return f"{request.url.scheme}://{request.url.netloc}"


def ads_routes(settings: Settings, media_root: Path, tracker: AdTracker | None = None) -> list[Route]:
    """The routes above, relative to /media (server.web mounts them)."""
    video = Path(media_root) / ADS_DIR / PREROLL.file
    tracker = tracker or AdTracker()

    def ad_id_of(request: Request) -> str | None:
        ad_id = request.query_params.get("ad", DEFAULT_AD_ID)
        return ad_id if _AD_ID.match(ad_id) else None

    async def vast(request: Request) -> Response:
        case = request.query_params.get("case")
        ad_id = ad_id_of(request)
        if (case is not None and case not in CASES) or ad_id is None:
            return _error(400, f"case is one of {', '.join(CASES)}; ad is letters, digits, - and _", "bad_request")
        base = _base(request, settings)
        if case == "slow":
            await asyncio.sleep(SLOW_SECONDS)
        if case == "empty":
            body = empty_vast(base, ad_id=ad_id)
        elif case == "broken":
            body = BROKEN_VAST
        else:
            size = video.stat().st_size if video.is_file() else 0
            body = vast_document(base, ad_id=ad_id, video_bytes=size, missing_media=case == "missing-media")
        return Response(body, media_type=XML, headers=NO_STORE)

    async def creative(request: Request) -> Response:
        if not video.is_file():
            return _error(404, "Not found", "not_found")
        return FileResponse(
            video, media_type="video/mp4", headers={"Cache-Control": f"public, max-age={VIDEO_MAX_AGE}"}
        )

    async def track(request: Request) -> Response:
        event = request.query_params.get("event", "")
        ad_id = ad_id_of(request)
        if event not in EVENTS or ad_id is None:
            return _error(400, "Unknown tracking event or ad", "bad_request")
        tracker.record(ad_id, event)
        code = request.query_params.get("code", "")
        if event == "error" and _CODE.match(code):
            tracker.record(ad_id, f"error:{code}")
        return Response(status_code=204, headers=NO_STORE)

    async def hits(request: Request) -> Response:
        if "ad" in request.query_params and ad_id_of(request) is None:
            return _error(400, "ad is letters, digits, - and _", "bad_request")
        only = request.query_params.get("ad")
        return JSONResponse({"hits": tracker.counts(only)}, headers=NO_STORE)

    methods = ["GET", "HEAD"]
    return [
        Route(f"/{ADS_DIR}/{AD_VAST}", vast, methods=methods),
        Route(f"/{ADS_DIR}/{PREROLL.file}", creative, methods=methods),
        Route(f"/{ADS_DIR}/{AD_TRACK_HITS}", hits, methods=methods),
        Route(f"/{ADS_DIR}/{AD_TRACK}", track, methods=methods),
    ]
