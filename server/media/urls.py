"""The public URL layout of sample media (one place, so seed data and the server agree).

What events store (and the catalogue seeds):

    /media/vod/<sample>/index.m3u8   fixtures/media/<sample>/index.m3u8 (+ index<N>.ts)
    /media/live/<sample>.m3u8        made per request by server.media.live.live_playlist

What viewers get (server.media.signing signs the stored URL for them) and the server serves:

    /media/s/<token>/vod/<sample>/index.m3u8   the VOD playlist; its `index<N>.ts` resolve to
    /media/s/<token>/vod/<sample>/index<N>.ts  the segments, under the same token
    /media/s/<token>/live/<sample>.m3u8        the live playlist; its `../vod/<sample>/index<N>.ts`
                                               resolve to the same token's VOD segments
    /media/s/<token>/vod/<sample>/clip-<from>-<to>.m3u8
                                               a user clip (stored as /media/vod/<sample>/clip-...):
                                               the sample's segments from <from> to <to> ms, made
                                               per request (server.media.clips); its `index<N>.ts`
                                               resolve to the same token's VOD segments

The unsigned /media/vod and /media/live paths serve nothing: a stored URL is only a name.
Artwork stays public:

    /media/posters/<slug>.svg        fixtures/posters/<slug>.svg, static
    /media/logos/<team-slug>.svg     fixtures/logos/<team-slug>.svg, static
"""

MEDIA_PREFIX = "/media"
SIGNED_PREFIX = f"{MEDIA_PREFIX}/s"


def vod_url(sample: str) -> str:
    return f"{MEDIA_PREFIX}/vod/{sample}/index.m3u8"


def live_url(sample: str) -> str:
    return f"{MEDIA_PREFIX}/live/{sample}.m3u8"


def live_segment_prefix(sample: str) -> str:
    """Segment URI prefix used inside a live playlist (served one directory below the token)."""
    return f"../vod/{sample}/"


def clip_file(start_ms: int, end_ms: int) -> str:
    """A clip playlist's name within its sample's VOD directory (server.media.clips)."""
    return f"clip-{start_ms}-{end_ms}.m3u8"


def clip_url(sample: str, start_ms: int, end_ms: int) -> str:
    return f"{MEDIA_PREFIX}/vod/{sample}/{clip_file(start_ms, end_ms)}"


def signed_url(token: str, media_path: str) -> str:
    """`media_path` is the stored URL without its /media/ prefix: `vod/...` or `live/...`."""
    return f"{SIGNED_PREFIX}/{token}/{media_path}"


def poster_url(slug: str) -> str:
    return f"{MEDIA_PREFIX}/posters/{slug}.svg"


def logo_url(slug: str) -> str:
    return f"{MEDIA_PREFIX}/logos/{slug}.svg"
