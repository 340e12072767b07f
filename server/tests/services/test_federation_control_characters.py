"""Issue 26 §9: a sign-on provider's name claims reach the new account without control characters
(the viewer never typed them, so they are dropped rather than refused)."""

from server.auth.providers.identity import Identity
from server.services.federation import display_name_for


def test_control_characters_in_the_providers_name_claims_are_dropped():
    hostile = Identity(provider="ifa", subject="s-1", name="Eve\x1b[2J\x00\x7f\x9b Example")
    assert display_name_for(hostile, None) == "Eve[2J Example"


def test_a_name_made_only_of_control_characters_falls_back_to_the_next_claim():
    hostile = Identity(provider="ifa", subject="s-2", name="\x1b\x00", given_name="Eve", family_name="Example\x07")
    assert display_name_for(hostile, None) == "Eve Example"
