"""The viewer's region (country), one rule for everything that asks: the API
(server.api.http.context.viewer_region) and the media routes (server.media.delivery.routes), so a stream
URL bound to regions is judged as the event answer that issued it was.

The region is the two-letter code in the request header named by `TOUCHLINE_REGION_HEADER`
(set by the CDN or proxy in front, e.g. CloudFront-Viewer-Country), upper-cased; without that
setting, or without a valid code in the header, it is `TOUCHLINE_DEFAULT_REGION`.
"""

from collections.abc import Callable

from .settings import Settings


def viewer_region(settings: Settings, header: Callable[[str], str | None]) -> str | None:
    """`header(name)` reads one request header (None when absent), whatever the framework."""
    if settings.region_header:
        value = (header(settings.region_header) or "").strip().upper()
        if len(value) == 2 and value.isalpha():
            return value
    return settings.default_region
