"""The public URL layout of sample media (one place, so seed data and the server agree).

    /media/vod/<sample>/index.m3u8   fixtures/media/<sample>/index.m3u8 (+ index<N>.ts), static
    /media/live/<sample>.m3u8        made per request by server.media.live.live_playlist
    /media/posters/<slug>.svg        fixtures/posters/<slug>.svg, static
    /media/logos/<team-slug>.svg     fixtures/logos/<team-slug>.svg, static

The live playlist sits one directory below /media/, so its segment URIs are
`../vod/<sample>/index<N>.ts` and resolve to the static VOD segments.
"""

MEDIA_PREFIX = "/media"


def vod_url(sample: str) -> str:
    return f"{MEDIA_PREFIX}/vod/{sample}/index.m3u8"


def live_url(sample: str) -> str:
    return f"{MEDIA_PREFIX}/live/{sample}.m3u8"


def live_segment_prefix(sample: str) -> str:
    """Segment URI prefix used inside /media/live/<sample>.m3u8."""
    return f"../vod/{sample}/"


def poster_url(slug: str) -> str:
    return f"{MEDIA_PREFIX}/posters/{slug}.svg"


def logo_url(slug: str) -> str:
    return f"{MEDIA_PREFIX}/logos/{slug}.svg"
