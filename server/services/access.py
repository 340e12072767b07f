"""Who may watch what. Entitlements (purchases, subscriptions, codes) extend `Viewer` later."""

from dataclasses import dataclass, field

FREE = "commerce_free_media"
MEMBERS = "commerce_members_media"


@dataclass(frozen=True)
class Viewer:
    """The person asking; anonymous when `user_id` is None."""

    user_id: str | None = None
    entitled_event_ids: frozenset[str] = field(default_factory=frozenset)

    @property
    def signed_in(self) -> bool:
        return self.user_id is not None


ANONYMOUS = Viewer()


def available_for(viewer: Viewer, *, event_id: str, commerce_type: str, media_type: str, owner_id: str | None = None) -> bool:
    if media_type == "user_clip":  # spec: always true for user clips
        return True
    if commerce_type == FREE:
        return True
    if commerce_type == MEMBERS:
        return viewer.signed_in
    return event_id in viewer.entitled_event_ids
