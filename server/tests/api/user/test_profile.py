"""The `get_profile` and `update_profile` operations: the signed-in viewer's own profile."""

import asyncio
from datetime import timedelta

from server import clock
from server.tests.accounts import sign_up


async def get_profile(client, user) -> dict:
    response = await client.get("/api/user/get_profile", headers=user["headers"])
    assert response.status_code == 200, response.text
    return response.json()["content"]


async def update(client, user, **data):
    return await client.post("/api/user/update_profile", json={"data": data}, headers=user["headers"])


async def updated(client, user, **data) -> dict:
    response = await update(client, user, **data)
    assert response.status_code == 200, response.text
    return response.json()["content"]


def assert_error(response, status: int, code: str):
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"] is True and body["messageErrorCode"] == code and body["message"]


def survey(name: str, **dates) -> dict:
    return {"surveyName": name, "skipped": None, "submitted": None, "closed": None, **dates}


async def test_a_new_account_reads_its_own_profile(client):
    user = await sign_up(client, display_name="Ada Lovelace")
    profile = await get_profile(client, user)
    assert profile["userId"] == user["profile"]["userId"]
    assert profile["email"] == user["email"] and profile["displayName"] == "Ada Lovelace"
    assert profile["options"] == {} and profile["clubList"] == [] and profile["role"] == "viewer"


async def test_the_profile_needs_a_signed_in_viewer(client):
    assert_error(await client.get("/api/user/get_profile"), 401, "unauthorized")
    response = await client.post("/api/user/update_profile", json={"data": {"city": "Harbor City"}})
    assert_error(response, 401, "unauthorized")


async def test_a_signed_out_session_can_no_longer_read_or_change_the_profile(client):
    user = await sign_up(client)
    assert (await client.post("/api/user/logout", headers=user["headers"])).status_code == 200
    assert_error(await client.get("/api/user/get_profile", headers=user["headers"]), 401, "unauthorized")
    assert_error(await update(client, user, city="Harbor City"), 401, "unauthorized")


async def test_an_update_changes_only_the_fields_it_sends(client, catalogue):
    user = await sign_up(client)
    first = await updated(
        client,
        user,
        displayName="Ada Lovelace",
        countryName="United Kingdom",
        phone="+44 20 7946 0000",
        postalCode="HC1 2AB",
        city="Harbor City",
        gender="female",
        dateOfBirth="1990-12-10",
        identity=catalogue["football"],
        identityItem=catalogue["npd"],
    )
    assert first["gender"] == "female" and first["dateOfBirth"] == "1990-12-10"
    assert (first["identity"], first["identityItem"]) == (catalogue["football"], catalogue["npd"])
    second = await updated(client, user, city="Riverside")
    assert second == {**first, "city": "Riverside"}
    assert await get_profile(client, user) == second


async def test_null_clears_a_field(client, catalogue):
    user = await sign_up(client)
    await updated(
        client,
        user,
        city="Harbor City",
        phone="+1 555 0100",
        dateOfBirth="1990-12-10",
        gender="other",
        identity=catalogue["football"],
    )
    cleared = await updated(client, user, city=None, phone=None, dateOfBirth=None, gender=None, identity=None)
    assert [cleared[k] for k in ("city", "phone", "dateOfBirth", "gender", "identity")] == [None] * 5


async def test_display_name_is_trimmed(client):
    user = await sign_up(client)
    assert (await updated(client, user, displayName="  Ada Lovelace  "))["displayName"] == "Ada Lovelace"
    # A tab is a control character like any other (issue 26 §9), at the ends too.
    assert_error(await update(client, user, displayName="Ada Lovelace\t"), 400, "validation_error")


async def test_a_blank_display_name_is_refused_and_changes_nothing(client):
    user = await sign_up(client, display_name="Ada")
    assert_error(await update(client, user, displayName="   ", city="Harbor City"), 400, "validation_error")
    assert_error(await update(client, user, displayName=""), 400, "validation_error")
    assert_error(await update(client, user, displayName=None), 400, "validation_error")
    profile = await get_profile(client, user)
    assert profile["displayName"] == "Ada" and profile["city"] is None


async def test_blank_text_fields_are_stored_as_not_given(client):
    user = await sign_up(client)
    assert (await updated(client, user, city="  ", countryName=" Norway "))["city"] is None
    assert (await get_profile(client, user))["countryName"] == "Norway"


async def test_survey_records_replace_the_same_key_and_keep_the_others(client):
    user = await sign_up(client)
    first = survey("survey_user_experience_1", skipped="2026-11-10T20:00:00Z")
    other = survey("survey_other", closed="2026-11-11T08:00:00Z")
    await updated(client, user, options={"survey_user_experience_1": first, "survey_other": other})
    submitted = survey("survey_user_experience_1", skipped="2026-11-10T20:00:00Z", submitted="2026-11-12T09:30:00Z")
    profile = await updated(client, user, options={"survey_user_experience_1": submitted})
    assert profile["options"] == {"survey_user_experience_1": submitted, "survey_other": other}


async def test_concurrent_survey_updates_keep_every_record(client):
    user = await sign_up(client)
    names = [f"survey_{n}" for n in range(6)]
    answers = await asyncio.gather(*(update(client, user, options={name: survey(name)}) for name in names))
    assert [a.status_code for a in answers] == [200] * len(names)
    assert set((await get_profile(client, user))["options"]) == set(names)


async def test_a_survey_record_must_have_its_fields(client):
    user = await sign_up(client)
    response = await update(client, user, options={"survey_user_experience_1": {"surveyName": "x", "skipped": None}})
    assert_error(response, 400, "validation_error")
    response = await update(client, user, options={"s": {**survey("s"), "skipped": "yesterday"}})
    assert_error(response, 400, "validation_error")


async def test_the_stored_survey_records_are_capped(client):
    user = await sign_up(client)
    await updated(client, user, options={f"survey_{n}": survey(f"survey_{n}") for n in range(20)})
    assert_error(await update(client, user, options={"survey_20": survey("survey_20")}), 400, "validation_error")
    replaced = await updated(client, user, options={"survey_0": survey("survey_0", closed="2026-11-12T09:30:00Z")})
    assert len(replaced["options"]) == 20 and replaced["options"]["survey_0"]["closed"] == "2026-11-12T09:30:00Z"


async def test_spoiler_free_mode_is_kept_in_the_options_beside_the_survey_records(client):
    user = await sign_up(client)
    record = survey("survey_user_experience_1", skipped="2026-11-10T20:00:00Z")
    await updated(client, user, options={"survey_user_experience_1": record})
    assert (await updated(client, user, options={"spoilerFree": True}))["options"] == {
        "survey_user_experience_1": record,
        "spoilerFree": True,
    }
    assert (await get_profile(client, user))["options"]["spoilerFree"] is True
    await updated(client, user, options={"spoilerFree": False})
    options = (await get_profile(client, user))["options"]
    assert options == {"survey_user_experience_1": record, "spoilerFree": False}


async def test_spoiler_free_mode_must_be_a_boolean(client):
    user = await sign_up(client)
    for value in ("true", 1, None, {"surveyName": "spoilerFree"}):
        response = await update(client, user, options={"spoilerFree": value})
        assert_error(response, 400, "validation_error")
    # Any other name holds a survey record, never a setting.
    assert_error(await update(client, user, options={"spoilerfree": True}), 400, "validation_error")
    assert (await get_profile(client, user))["options"] == {}


async def test_spoiler_free_mode_is_no_survey_record_under_the_cap(client):
    user = await sign_up(client)
    await updated(client, user, options={"spoilerFree": True})
    full = await updated(client, user, options={f"survey_{n}": survey(f"survey_{n}") for n in range(20)})
    assert len(full["options"]) == 21 and full["options"]["spoilerFree"] is True
    assert_error(await update(client, user, options={"survey_20": survey("survey_20")}), 400, "validation_error")


async def test_identity_and_identity_item_must_exist_with_their_kind(client, catalogue):
    user = await sign_up(client)
    nobody = "f" * 24
    assert_error(await update(client, user, identity=nobody), 404, "identity_not_found")
    assert_error(await update(client, user, identityItem=nobody), 404, "identity_not_found")
    # A league is not a main category, and a main category is not a league.
    assert_error(await update(client, user, identity=catalogue["npd"]), 404, "identity_not_found")
    assert_error(await update(client, user, identityItem=catalogue["football"]), 404, "identity_not_found")
    assert_error(await update(client, user, identity="not-an-id"), 400, "validation_error")
    assert (await get_profile(client, user))["identity"] is None


async def test_the_first_club_is_the_favorite_and_every_club_must_exist(client, catalogue):
    user = await sign_up(client)
    clubs = [f"team|{catalogue['hawks']}", f"identity_item|{catalogue['npd']}", f"identity|{catalogue['football']}"]
    assert (await updated(client, user, clubList=clubs))["clubList"] == clubs
    missing = await update(client, user, clubList=[f"team|{catalogue['mariners']}", f"team|{'f' * 24}"])
    assert_error(missing, 404, "identity_not_found")
    assert "f" * 24 in missing.json()["message"]
    # The type must match: a league id is not a team.
    assert_error(await update(client, user, clubList=[f"team|{catalogue['npd']}"]), 404, "identity_not_found")
    assert (await get_profile(client, user))["clubList"] == clubs
    assert (await updated(client, user, clubList=[]))["clubList"] == []


async def test_club_entries_must_be_type_and_id(client, catalogue):
    user = await sign_up(client)
    for bad in ([catalogue["hawks"]], [f"player|{catalogue['hawks']}"], [f"team|{catalogue['hawks']}"] * 2):
        assert_error(await update(client, user, clubList=bad), 400, "validation_error")


async def test_date_of_birth_must_be_a_real_date_not_in_the_future(client):
    user = await sign_up(client)
    today = clock.now().date()
    assert_error(
        await update(client, user, dateOfBirth=(today + timedelta(days=1)).isoformat()), 400, "validation_error"
    )
    assert_error(await update(client, user, dateOfBirth="1990-02-30"), 400, "validation_error")
    assert_error(await update(client, user, dateOfBirth="10/12/1990"), 400, "validation_error")
    assert (await updated(client, user, dateOfBirth=today.isoformat()))["dateOfBirth"] == today.isoformat()


async def test_updates_outside_the_contract_are_refused(client):
    user = await sign_up(client)
    assert_error(await update(client, user), 400, "validation_error")  # nothing to change
    assert_error(await update(client, user, email="someone@example.com"), 400, "validation_error")
    assert_error(await update(client, user, gender="unknown"), 400, "validation_error")
    assert_error(await update(client, user, phone="call me"), 400, "validation_error")
    response = await client.post("/api/user/update_profile", json={"displayName": "Ada"}, headers=user["headers"])
    assert_error(response, 400, "validation_error")


async def test_a_user_never_reads_or_changes_another_users_profile(client):
    ada = await sign_up(client, display_name="Ada")
    bob = await sign_up(client, display_name="Bob")
    await updated(client, ada, city="Harbor City")
    # The profile is always the caller's: there is no user id to send, and sending one is refused.
    assert_error(await update(client, ada, userId=bob["profile"]["userId"], city="Elsewhere"), 400, "validation_error")
    bob_profile = await get_profile(client, bob)
    assert bob_profile["displayName"] == "Bob" and bob_profile["city"] is None
    assert (await get_profile(client, ada))["city"] == "Harbor City"


async def test_text_with_control_characters_is_refused(client):
    user = await sign_up(client, display_name="Ada")
    for field in ("displayName", "city", "countryName", "postalCode"):
        assert_error(await update(client, user, **{field: "Harbor\x00City"}), 400, "validation_error")
    assert (await get_profile(client, user))["displayName"] == "Ada"
    assert_error(await update(client, user, options={"a\x00b": survey("a")}), 400, "validation_error")
    assert_error(await update(client, user, options={"s": survey("s\x00")}), 400, "validation_error")
