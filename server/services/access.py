"""Who may watch what: the one place that decides, for a viewer and an event.

- free: everyone; members: anyone signed in;
- ppv and transactional: a purchase of the event, a bundle that contains it, or a redeemed code;
- subscription: an active svod contract covering one of the event's identity items (an svod
  without identity items covers everything);
- channel (cvod): an active cvod for the event's channel, or for a channel carrying its league;
- an event's `commerce_modes` add the ways listed there (a ppv game that is also in the svod);
- the region rule comes first: an event not available in the viewer's region is available to
  nobody there; user clips and user highlights are always available to their owner (they are
  the viewer's own, cut from what they could watch) and to nobody else.

Stream URLs are given only when `decide(...).available_for_user` (server.media.delivery.signing).
"""

from collections.abc import Iterable
from dataclasses import dataclass

from .commerce.holdings import EMPTY, Holdings
from .regions import in_region

FREE = "commerce_free_media"
MEMBERS = "commerce_members_media"
PPV = "commerce_ppv_media"
TRANSACTIONAL = "commerce_transactional_media"
SUBSCRIPTION = "commerce_subscription-basic_media"
USER_MEDIA = ("user_clip", "user_highlight")

# The contract's commerceCoverage names for the monetisation modes.
_MODE_COVERAGE = {"ppv": "ppv", "svod": "subscription", "cvod": "channel"}


@dataclass(frozen=True)
class Viewer:
    """The person asking; anonymous when `user_id` is None. `region` is an ISO 3166 alpha-2 code."""

    user_id: str | None = None
    holdings: Holdings = EMPTY
    region: str | None = None

    @property
    def signed_in(self) -> bool:
        return self.user_id is not None


ANONYMOUS = Viewer()


@dataclass(frozen=True)
class Access:
    available_for_user: bool
    available_in_region: bool
    coverage: tuple[str, ...]


def coverage(commerce_type: str, commerce_modes: Iterable[str]) -> tuple[str, ...]:
    """Which kinds of access unlock an event (the contract's commerceCoverage)."""
    if commerce_type == FREE:
        return ("free",)
    if commerce_type == MEMBERS:
        return ("members",)
    kinds = ["ppv"] if commerce_type in (PPV, TRANSACTIONAL) else []
    for mode in commerce_modes:
        kind = _MODE_COVERAGE.get(mode)
        if kind and kind not in kinds:
            kinds.append(kind)
    if not kinds:  # a subscription event that names no mode is in the svod
        kinds.append("subscription")
    return tuple(kinds)


def decide(
    viewer: Viewer,
    *,
    event_id: str,
    media_type: str,
    commerce_type: str,
    commerce_modes: Iterable[str],
    identity_ids: Iterable[str],
    regions: Iterable[str] | None = None,
    available_anywhere: bool = True,
    owner_id: str | None = None,
) -> Access:
    """`owner_id`: the viewer a user clip or highlight belongs to (None: not checked here)."""
    kinds = coverage(commerce_type, commerce_modes)
    if media_type in USER_MEDIA:  # spec: always available; it is the viewer's own
        return Access(owner_id is None or viewer.user_id == owner_id, True, kinds)
    regional = in_region(regions, available_anywhere, viewer.region)
    return Access(regional and _unlocked(viewer, event_id, kinds, identity_ids), regional, kinds)


def _unlocked(viewer: Viewer, event_id: str, kinds: tuple[str, ...], identity_ids: Iterable[str]) -> bool:
    if "free" in kinds:
        return True
    if not viewer.signed_in:
        return False
    if "members" in kinds:
        return True
    held = viewer.holdings
    if "ppv" in kinds and event_id in held.event_ids:
        return True
    identities = set(identity_ids)
    if "subscription" in kinds and (held.subscription_everything or identities & held.subscription_items):
        return True
    return "channel" in kinds and bool(event_id in held.channel_event_ids or identities & held.channel_items)
