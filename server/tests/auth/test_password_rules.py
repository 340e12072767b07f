"""New passwords after NIST SP 800-63B: no common, personal or one-character passwords."""

import asyncio

import pytest

from server.auth.password_rules import PasswordContext, WeakPassword, refuse_weak, weakness

ADA = PasswordContext("ada.lovelace@example.com", "Ada Lovelace")


@pytest.mark.parametrize("password", ["password", "password123", "12345678", "qwertyuiop", "iloveyou1", "football"])
def test_common_passwords_are_refused(password):
    assert weakness(password, ADA, min_score=2) == "common"


@pytest.mark.parametrize("password", ["aaaaaaaa", " " * 8, "Z" * 128])
def test_one_character_repeated_is_refused(password):
    assert weakness(password, ADA, min_score=2) == "repeated"


@pytest.mark.parametrize(
    "password",
    [
        "ada.lovelace@example.com",  # the address itself
        "ADA.LOVELACE@EXAMPLE.COM",
        "ada.lovelace",  # its local part
        "Ada Lovelace",  # the display name
        "adalovelace!",  # the name without its space
        "my ada.lovelace@example.com password",  # containing the address
        "Ada Lovelace is the best of us",  # containing the name
    ],
)
def test_the_address_or_the_name_is_refused_in_a_password(password):
    assert weakness(password, ADA, min_score=2) == "personal"


def test_a_short_name_is_refused_alone_but_may_be_part_of_a_longer_password():
    al = PasswordContext("al@example.com", "Al")
    assert weakness("al@example.com", al, min_score=2) == "personal"
    assert weakness("metallic crayon forest lantern", al, min_score=2) is None


@pytest.mark.parametrize(
    "password",
    [
        "correct horse battery staple",
        "tr0ub4dor and three more words",
        "Xk9#mQ2!vB",
        "lantern meadow copper violin " * 4,  # longer than zxcvbn rates: its start is rated
    ],
)
def test_long_or_unusual_passwords_pass_without_composition_rules(password):
    assert weakness(password, ADA, min_score=2) is None


def test_score_zero_keeps_only_the_repeated_and_personal_rules():
    assert weakness("password", ADA, min_score=0) is None
    assert weakness("aaaaaaaa", ADA, min_score=0) == "repeated"
    assert weakness("Ada Lovelace", ADA, min_score=0) == "personal"


def test_the_refusal_names_the_field_and_the_reason():
    with pytest.raises(WeakPassword) as refused:
        asyncio.run(refuse_weak("password", ADA, min_score=2, field="new_password"))
    assert refused.value.status == 400
    assert refused.value.code == "weak_password"
    assert refused.value.details == [{"field": "new_password", "message": refused.value.message, "reason": "common"}]


async def test_concurrent_ratings_do_not_see_each_others_names():
    bob = PasswordContext("bob@example.com", "Marmaduke Fotheringham")
    results = await asyncio.gather(
        *(asyncio.to_thread(weakness, "marmadukefotheringham7", ctx, min_score=2) for ctx in [ADA, bob] * 10)
    )
    assert results == [None, "personal"] * 10
