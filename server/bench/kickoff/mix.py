"""What a kickoff viewer asks for and how often: shared by the locustfile and the runner, so the
rates the runner reports are the ones the users offer. Imports nothing (locust loads it under
gevent)."""

POLL_SECONDS = 2.0  # hls.js asks for a live playlist once per target duration (2 s segments)
RELOAD_TICKS = 10  # the event page and the event list again every 10 polls (20 s), staggered
# Requests a second of one watching viewer: a playlist every 2 s, the page and the list every 20 s.
VIEWER_RPS = 1 / POLL_SECONDS + 2 / (RELOAD_TICKS * POLL_SECONDS)
FACTOR = 12.5  # the kickoff: this many times the base audience within RAMP_SECONDS
RAMP_SECONDS = 5.0

# Request names (the report groups by them).
SIGN_IN = "sign-in"
BURST_SIGN_IN = "sign-in (burst)"  # each attempt, a shed one (503 + Retry-After) included
BURST_SIGNED_IN = "sign-in (burst): until signed in"  # each person, from first attempt to token
# A person of the burst asks again after a shed attempt, as the webapp does, this many times in all.
BURST_ATTEMPTS = 4
REFRESH = "refresh"
EVENT_PAGE = "event page"
EVENT_LIST = "event list"
MASTER = "live master playlist"
PLAYLIST = "live playlist"
SOCKET = "socket connect+join"
NAMES = (SIGN_IN, REFRESH, EVENT_PAGE, MASTER, EVENT_LIST, SOCKET, PLAYLIST)


def viewers_for(rate: float) -> int:
    """Watching viewers that ask `rate` requests a second (at least one)."""
    return max(1, round(rate / VIEWER_RPS))


def peak_viewers(base_viewers: int, factor: float = FACTOR) -> int:
    return max(base_viewers, round(base_viewers * factor))
