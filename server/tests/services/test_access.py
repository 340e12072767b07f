"""Every entitlement rule of server.services.access.decide, one viewer and one event at a time."""

import pytest

from server.services.access import ANONYMOUS, Viewer, coverage, decide
from server.services.commerce.holdings import Holdings

EVENT, OTHER, LEAGUE, OTHER_LEAGUE, CHANNEL = "e" * 24, "o" * 24, "l" * 24, "m" * 24, "c" * 24
MEMBER = Viewer("u" * 24, region="GB")


def held(**kw) -> Viewer:
    return Viewer("u" * 24, Holdings(**kw), region="GB")


def can_watch(
    viewer: Viewer,
    commerce_type: str,
    modes=(),
    *,
    media_type="event",
    regions=(),
    anywhere=True,
    event_id=EVENT,
    identities=(LEAGUE,),
) -> bool:
    return decide(
        viewer,
        event_id=event_id,
        media_type=media_type,
        commerce_type=commerce_type,
        commerce_modes=modes,
        identity_ids=identities,
        regions=regions,
        available_anywhere=anywhere,
    ).available_for_user


def test_free_events_are_for_everyone():
    assert can_watch(ANONYMOUS, "commerce_free_media")
    assert can_watch(MEMBER, "commerce_free_media")


def test_members_events_need_a_signed_in_viewer():
    assert not can_watch(ANONYMOUS, "commerce_members_media")
    assert can_watch(MEMBER, "commerce_members_media")


@pytest.mark.parametrize("commerce_type", ["commerce_ppv_media", "commerce_transactional_media"])
def test_pay_per_view_needs_the_event_among_the_viewers_holdings(commerce_type):
    assert not can_watch(MEMBER, commerce_type, ["ppv"])
    assert can_watch(held(event_ids=frozenset({EVENT})), commerce_type, ["ppv"])
    assert not can_watch(held(event_ids=frozenset({OTHER})), commerce_type, ["ppv"])


def test_a_subscription_covers_events_of_its_identity_items_only():
    sub = held(subscription_items=frozenset({LEAGUE}))
    assert can_watch(sub, "commerce_subscription-basic_media", ["svod"])
    assert not can_watch(sub, "commerce_subscription-basic_media", ["svod"], identities=(OTHER_LEAGUE,))


def test_a_subscription_without_identity_items_covers_every_subscription_event():
    assert can_watch(
        held(subscription_everything=True), "commerce_subscription-basic_media", [], identities=(OTHER_LEAGUE,)
    )


def test_a_pay_per_view_event_also_in_the_subscription_opens_to_subscribers():
    sub = held(subscription_items=frozenset({LEAGUE}))
    assert can_watch(sub, "commerce_ppv_media", ["ppv", "svod"])
    assert not can_watch(sub, "commerce_ppv_media", ["ppv"])


def test_a_channel_subscription_covers_its_channel_and_the_leagues_it_carries():
    channel = held(channel_event_ids=frozenset({CHANNEL}), channel_items=frozenset({LEAGUE}))
    assert can_watch(channel, "commerce_subscription-basic_media", ["cvod"], event_id=CHANNEL, identities=())
    assert can_watch(channel, "commerce_subscription-basic_media", ["cvod"], identities=(LEAGUE,))
    assert not can_watch(channel, "commerce_subscription-basic_media", ["cvod"], identities=(OTHER_LEAGUE,))
    assert not can_watch(channel, "commerce_subscription-basic_media", ["svod"], event_id=CHANNEL, identities=())


def test_anonymous_visitors_hold_nothing():
    assert not can_watch(ANONYMOUS, "commerce_ppv_media", ["ppv", "svod", "cvod"])


def test_outside_the_events_regions_nobody_may_watch_even_a_free_event():
    answer = decide(
        Viewer(region="US"),
        event_id=EVENT,
        media_type="event",
        commerce_type="commerce_free_media",
        commerce_modes=(),
        identity_ids=(),
        regions=["GB", "IE"],
    )
    assert (answer.available_for_user, answer.available_in_region) == (False, False)
    assert can_watch(Viewer(region="IE"), "commerce_free_media", regions=["GB", "IE"])


def test_the_region_rule_applies_to_holders_too():
    owner = Viewer("u" * 24, Holdings(event_ids=frozenset({EVENT})), region="US")
    assert not can_watch(owner, "commerce_ppv_media", ["ppv"], regions=["GB"])


def test_an_event_whose_rights_lapsed_is_available_nowhere():
    assert not can_watch(MEMBER, "commerce_free_media", anywhere=False)


def test_user_clips_are_always_available():
    assert can_watch(ANONYMOUS, "commerce_ppv_media", ["ppv"], media_type="user_clip", regions=["XX"])


@pytest.mark.parametrize("media_type", ["user_clip", "user_highlight"])
def test_a_user_clip_is_always_available_to_its_owner_and_to_nobody_else(media_type):
    def answer(viewer: Viewer):
        return decide(
            viewer,
            event_id=EVENT,
            media_type=media_type,
            commerce_type="commerce_ppv_media",
            commerce_modes=["ppv"],
            identity_ids=(),
            regions=["XX"],
            owner_id=MEMBER.user_id,
        )

    assert answer(MEMBER).available_for_user and answer(MEMBER).available_in_region
    assert not answer(Viewer("v" * 24, region="GB")).available_for_user
    assert not answer(ANONYMOUS).available_for_user


def test_coverage_names_every_way_in():
    assert coverage("commerce_free_media", []) == ("free",)
    assert coverage("commerce_members_media", ["svod"]) == ("members",)
    assert coverage("commerce_ppv_media", ["ppv", "svod"]) == ("ppv", "subscription")
    assert coverage("commerce_subscription-basic_media", ["svod", "cvod"]) == ("subscription", "channel")
    assert coverage("commerce_subscription-basic_media", []) == ("subscription",)
