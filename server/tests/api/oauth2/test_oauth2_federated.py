"""Federated sign-on through the API: POST /oauth2/token (token exchange with a provider's
token), GET /oauth2/providers and POST /oauth2/ifa/callback.

The providers are real: an OpenID Connect provider on loopback (oidc-provider-mock, whose
authorize page the tests fill in like a browser) stands in as ifa, Google and Apple, and a
local Graph API as Facebook. Responses are validated against the contract.
"""

import secrets
import socket
import uuid
from contextlib import asynccontextmanager

import httpx
import jwt
import pytest

from server.auth.providers import ProviderClient
from server.tests.accounts import (
    bearer,
    new_device,
    new_email,
    refresh,
    register,
    sign_in,
    sign_up,
    verification_token,
    verify_email,
)
from server.tests.conftest import with_state
from server.tests.facebook_graph import GraphApi
from server.tests.oidc_provider import OidcProvider

EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
ID_TOKEN = "urn:ietf:params:oauth:token-type:id_token"
ACCESS_TOKEN = "urn:ietf:params:oauth:token-type:access_token"
IFA_CALLBACK = "http://touchline.test/auth/oauth2/callback/ifa/"
FB_APP, FB_SECRET = "1234567890123456", "touchline-facebook-secret"


@pytest.fixture(scope="module")
def oidc_provider():
    provider = OidcProvider().start()
    yield provider
    provider.stop()


@pytest.fixture(scope="module")
def apps(oidc_provider):
    """The client registrations Touchline holds at the provider, one per role it plays."""
    return {
        "ifa": oidc_provider.register_client(IFA_CALLBACK),
        "google": oidc_provider.register_client("http://touchline.test/google-sdk/"),
        "apple": oidc_provider.register_client("http://touchline.test/apple-sdk/"),
        # Not ours: another application registered at the same provider.
        "elsewhere": oidc_provider.register_client("http://elsewhere.test/callback/"),
    }


@pytest.fixture(scope="module")
async def graph():
    api = await GraphApi({FB_APP: FB_SECRET}).start()
    yield api
    await api.stop()


@pytest.fixture(scope="module")
async def identity_providers():
    client = ProviderClient(timeout=5, cache_seconds=300)
    yield client
    await client.close()


@pytest.fixture
def federated(settings, oidc_provider, apps, graph):
    """The test settings with every provider offered."""
    return settings.model_copy(
        update={
            "ifa_issuer": oidc_provider.issuer,
            "ifa_client_id": apps["ifa"].client_id,
            "ifa_client_secret": apps["ifa"].client_secret,
            "ifa_redirect_uri": IFA_CALLBACK,
            "google_issuer": oidc_provider.issuer,
            "google_client_id": apps["google"].client_id,
            "apple_issuer": oidc_provider.issuer,
            "apple_client_id": apps["apple"].client_id,
            "facebook_app_id": FB_APP,
            "facebook_app_secret": FB_SECRET,
            "facebook_graph_url": graph.url,
        }
    )


@asynccontextmanager
async def serving(api, database, settings, identity_providers, address: str = "127.0.0.1"):
    """A client of the app whose handlers see these settings, from this client address."""
    app = with_state(api, {"database": database, "settings": settings, "identity_providers": identity_providers})
    transport = httpx.ASGITransport(app=app, client=(address, 40000))
    async with httpx.AsyncClient(transport=transport, base_url="http://touchline.test") as http:
        yield http


@pytest.fixture
async def http(api, database, federated, identity_providers):
    async with serving(api, database, federated, identity_providers) as client:
        yield client


def new_sub() -> str:
    return f"fan-{uuid.uuid4().hex[:12]}"


def device(device_id: str | None = None) -> dict:
    device_id = device_id or new_device()
    return {"id": device_id, "name": device_id, "os_name": "Linux", "os_version": None, "app_version": "1.0.0"}


def exchange(issuer: str, token: str, *, token_type: str = ID_TOKEN, device_info: dict | None = None, **extra) -> dict:
    body = {
        "grant_type": EXCHANGE,
        "subject_token": token,
        "subject_token_type": token_type,
        "subject_issuer": issuer,
        "requested_token_type": ACCESS_TOKEN,
        "strategy": "refresh",
        "device": device_info or device(),
        **extra,
    }
    return {k: v for k, v in body.items() if v is not None}


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def error(response) -> tuple[int, str, str]:
    body = response.json()
    assert body["error"] is True
    return response.status_code, body["messageErrorCode"], body["message"]


class Popup:
    """What the webapp's ifa popup does: state, nonce and a PKCE verifier of its own, the
    provider's authorize page, and the code handed to POST /oauth2/ifa/callback."""

    def __init__(self, provider: OidcProvider, app):
        self.provider, self.app = provider, app
        self.state = secrets.token_urlsafe(16)
        self.nonce = secrets.token_urlsafe(16)
        self.verifier = secrets.token_urlsafe(48)

    async def code_for(self, sub: str) -> str:
        return await self.provider.authorize(
            self.app, sub, state=self.state, nonce=self.nonce, code_verifier=self.verifier, scope="openid profile email"
        )

    def callback(self, code: str, **overrides) -> dict:
        return {
            "code": code,
            "redirect_uri": IFA_CALLBACK,
            "code_verifier": self.verifier,
            "state": self.state,
            "nonce": self.nonce,
            "device": device(),
            "strategy": "refresh",
            **overrides,
        }


# --- unknown and disabled providers --------------------------------------------------------


async def test_an_unknown_provider_is_not_supported(http):
    answer = await http.post("/api/oauth2/token", json=exchange("myspace", "whatever"))
    assert answer.json() == {
        "error": True,
        "message": '"myspace" auth provider not supported!',
        "messageErrorCode": "provider_not_supported",
    }
    assert answer.status_code == 400


async def test_a_provider_that_is_not_enabled_is_not_supported(api, database, federated, identity_providers):
    disabled = federated.model_copy(update={"google_enabled": False, "apple_client_id": None})
    async with serving(api, database, disabled, identity_providers) as client:
        for provider in ("google", "apple"):
            answer = await client.post("/api/oauth2/token", json=exchange(provider, "a.b.c"))
            assert error(answer) == (400, "provider_not_supported", f'"{provider}" auth provider not supported!')


async def test_the_ifa_callback_is_not_supported_when_ifa_is_not_offered(client):
    body = {
        "code": "c",
        "redirect_uri": IFA_CALLBACK,
        "code_verifier": "v" * 43,
        "state": "s",
        "nonce": "n",
        "device": device(),
    }
    answer = await client.post("/api/oauth2/ifa/callback", json=body)
    assert error(answer) == (400, "provider_not_supported", '"ifa" auth provider not supported!')


# --- Google and Apple: ID tokens from the SDKs ----------------------------------------------


async def test_the_first_sign_in_creates_the_account_and_the_second_signs_into_it(http, oidc_provider, apps):
    sub = new_sub()
    oidc_provider.set_user(sub, email=new_email(), email_verified=True, name="Provider Name")
    first = await http.post(
        "/api/oauth2/token",
        json=exchange(
            "google", await oidc_provider.id_token(apps["google"], sub), profile={"display_name": "  Jane Doe  "}
        ),
    )
    assert first.status_code == 200, first.text
    body = first.json()
    assert body["auth_data"] == {"isRegister": True, "provider": "google"}
    assert body["content"]["profile"]["displayName"] == "Jane Doe", "trimmed, and used for the new account"
    assert body["content"]["device_error"] is None and len(body["content"]["devices"]) == 1

    second = await http.post(
        "/api/oauth2/token",
        json=exchange(
            "google", await oidc_provider.id_token(apps["google"], sub), profile={"display_name": "Someone Else"}
        ),
    )
    assert second.status_code == 200
    assert second.json()["auth_data"] == {"isRegister": False, "provider": "google"}
    profile = second.json()["content"]["profile"]
    assert profile["userId"] == body["content"]["profile"]["userId"]
    assert profile["displayName"] == "Jane Doe", "the name is only taken when the account is created"


async def test_apple_sign_in_takes_the_first_and_last_name_the_client_sends(http, oidc_provider, apps):
    sub = new_sub()
    oidc_provider.set_user(sub, email=new_email(), email_verified="true")
    first_name, last_name = "Jane", "Appleseed"
    answer = await http.post(
        "/api/oauth2/token",
        json=exchange(
            "apple",
            await oidc_provider.id_token(apps["apple"], sub),
            profile={"display_name": f" {first_name} {last_name} "},
        ),
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["auth_data"] == {"isRegister": True, "provider": "apple"}
    assert answer.json()["content"]["profile"]["displayName"] == "Jane Appleseed"


async def test_without_a_display_name_the_providers_name_is_used(http, oidc_provider, apps):
    sub = new_sub()
    oidc_provider.set_user(sub, name="  Claimed Name ")
    token = await oidc_provider.id_token(apps["google"], sub)
    answer = await http.post("/api/oauth2/token", json=exchange("google", token))
    assert answer.json()["content"]["profile"]["displayName"] == "Claimed Name"
    assert answer.json()["content"]["profile"]["email"] is None


async def test_a_verified_email_signs_into_the_existing_account_with_that_address(http, client, oidc_provider, apps):
    account = await sign_up(client, display_name="Credentials Fan")
    sub = new_sub()
    oidc_provider.set_user(sub, email=account["email"].upper(), email_verified=True)
    token = await oidc_provider.id_token(apps["google"], sub)
    answer = await http.post("/api/oauth2/token", json=exchange("google", token))
    assert answer.json()["auth_data"] == {"isRegister": False, "provider": "google"}
    assert answer.json()["content"]["profile"]["userId"] == account["profile"]["userId"]
    assert answer.json()["content"]["profile"]["displayName"] == "Credentials Fan"


async def test_an_unverified_email_does_not_sign_into_an_existing_account(http, client, oidc_provider, apps):
    account = await sign_up(client)
    sub = new_sub()
    oidc_provider.set_user(sub, email=account["email"], email_verified=False)
    token = await oidc_provider.id_token(apps["google"], sub)
    answer = await http.post("/api/oauth2/token", json=exchange("google", token))
    assert answer.json()["auth_data"]["isRegister"] is True
    assert answer.json()["content"]["profile"]["userId"] != account["profile"]["userId"]


async def test_an_unconfirmed_sign_up_with_her_address_is_not_joined_by_her_ifa_sign_in(
    http, client, database, oidc_provider, apps
):
    """Issue 26 §5: an attacker signs up with the victim's address and a password of his own; the
    victim signs in with ifa, whose verified address matches. She gets an account of her own that
    the attacker's password does not open, and his confirmation link is dead."""
    victim, attackers_password = new_email(), "he picked these words himself"
    assert (await register(client, victim, attackers_password, display_name="Attacker")).status_code == 202
    attackers_link = await verification_token(database, victim)
    sub = new_sub()
    oidc_provider.set_user(sub, email=victim, email_verified=True, name="Victim")
    answer = await http.post("/api/oauth2/token", json=exchange("ifa", await oidc_provider.id_token(apps["ifa"], sub)))
    assert answer.status_code == 200, answer.text
    assert answer.json()["auth_data"] == {"isRegister": True, "provider": "ifa"}
    profile = answer.json()["content"]["profile"]
    assert profile["email"] == victim and profile["displayName"] == "Victim"
    assert (await sign_in(client, victim, attackers_password)).status_code == 401
    late = await verify_email(client, attackers_link)
    assert late.status_code == 400 and late.json()["messageErrorCode"] == "invalid_verification_token"


async def test_the_session_of_a_federated_sign_in_works_and_refreshes(http, oidc_provider, apps):
    sub = new_sub()
    token = await oidc_provider.id_token(apps["google"], sub)
    answer = await http.post("/api/oauth2/token", json=exchange("google", token))
    tokens = answer.json()["content"]["tokenData"]
    assert (await http.get("/api/user/get_devices", headers=bearer(tokens["access_token"]))).status_code == 200
    refreshed = await refresh(http, tokens["refresh_token"])
    assert refreshed.status_code == 200 and refreshed.json()["content"]["refresh_token"] != tokens["refresh_token"]


async def test_an_ifa_access_token_issued_to_us_is_introspected_and_signs_in(http, oidc_provider, apps):
    access_token = await oidc_provider.access_token(apps["ifa"], new_sub())
    answer = await http.post("/api/oauth2/token", json=exchange("ifa", access_token, token_type=ACCESS_TOKEN))
    assert answer.status_code == 200, answer.text
    assert answer.json()["auth_data"] == {"isRegister": True, "provider": "ifa"}


async def test_an_access_token_another_application_obtained_fails_with_login_failed(http, oidc_provider, apps):
    # The same person at the same provider, but the token was issued to another client.
    access_token = await oidc_provider.access_token(apps["elsewhere"], new_sub())
    answer = await http.post("/api/oauth2/token", json=exchange("ifa", access_token, token_type=ACCESS_TOKEN))
    assert error(answer) == (401, "login_failed", "Login Failed: the access token was issued to another application")


@pytest.mark.parametrize("provider", ["google", "apple"])
async def test_google_and_apple_take_id_tokens_only(http, oidc_provider, apps, provider):
    # No client secret for their browser SDKs, so no introspection: the access token is refused
    # even when it is our own client's.
    access_token = await oidc_provider.access_token(apps[provider], new_sub())
    answer = await http.post("/api/oauth2/token", json=exchange(provider, access_token, token_type=ACCESS_TOKEN))
    status, code, message = error(answer)
    assert (status, code) == (400, "unsupported_token_type") and "takes an ID token" in message


async def test_federated_sign_in_at_the_device_limit_answers_device_error_with_a_limit_ticket(
    api, database, federated, identity_providers, oidc_provider, apps
):
    limited = federated.model_copy(update={"device_limit": 2})
    sub = new_sub()
    async with serving(api, database, limited, identity_providers) as client:
        for _ in range(2):
            token = await oidc_provider.id_token(apps["google"], sub)
            assert (await client.post("/api/oauth2/token", json=exchange("google", token))).status_code == 200
        third_device = new_device()
        token = await oidc_provider.id_token(apps["google"], sub)
        answer = await client.post(
            "/api/oauth2/token", json=exchange("google", token, device_info=device(third_device))
        )
        assert answer.status_code == 200
        body = answer.json()
        assert body["auth_data"] == {"isRegister": False, "provider": "google"}
        stopped = body["content"]
        assert stopped["profile"] is None and stopped["tokenData"] is None and len(stopped["devices"]) == 2
        assert stopped["device_error"]["code"] == "device_limit_exceeded"
        assert stopped["device_error"]["limit"] == 2
        # The device-limit page: remove a device with the ticket, then finish the sign-in.
        ticket = stopped["device_error"]["limit_ticket"]
        removed = await client.post(
            "/api/user/delete_device", headers=bearer(ticket), json={"deviceId": stopped["devices"][0]["deviceId"]}
        )
        assert removed.status_code == 200, removed.text
        done = await client.post(
            "/api/user/login/complete",
            json={
                "limit_ticket": ticket,
                "device_id": third_device,
                "device_name": third_device,
                "strategy": "refresh",
            },
        )
        assert done.status_code == 200, done.text
        assert done.json()["auth_data"] == {"isRegister": False, "provider": "google"}
        assert done.json()["content"]["tokenData"]["access_token"]


# --- refused tokens and unreachable providers ------------------------------------------------


async def test_a_token_the_provider_did_not_sign_fails_with_login_failed(http, oidc_provider, apps):
    token = await oidc_provider.id_token(apps["google"], new_sub())
    header, payload, _signature = token.split(".")
    answer = await http.post("/api/oauth2/token", json=exchange("google", f"{header}.{payload}.c2lnbmF0dXJl"))
    status, code, message = error(answer)
    assert (status, code) == (401, "login_failed") and message.startswith("Login Failed")


async def test_a_token_issued_to_another_provider_role_fails_with_login_failed(http, oidc_provider, apps):
    # A genuine token of the same provider, but for our Apple client id: not for Google sign-in.
    token = await oidc_provider.id_token(apps["apple"], new_sub())
    assert error(await http.post("/api/oauth2/token", json=exchange("google", token)))[:2] == (401, "login_failed")


async def test_an_unreachable_provider_answers_provider_unavailable(api, database, federated, identity_providers):
    down = federated.model_copy(update={"google_issuer": f"http://127.0.0.1:{closed_port()}"})
    async with serving(api, database, down, identity_providers) as client:
        answer = await client.post("/api/oauth2/token", json=exchange("google", _any_jwt()))
    assert error(answer) == (502, "provider_unavailable", "The sign-in provider is not answering, try again later")


async def test_a_refresh_token_cannot_be_exchanged_at_a_provider(http):
    answer = await http.post(
        "/api/oauth2/token",
        json=exchange("google", "rt_abc", token_type="urn:ietf:params:oauth:token-type:refresh_token"),
    )
    assert error(answer)[:2] == (400, "validation_error")


async def test_a_federated_sign_on_needs_the_device(http):
    body = exchange("google", _any_jwt())
    del body["device"]
    assert error(await http.post("/api/oauth2/token", json=body))[:2] == (400, "validation_error")


async def test_sign_on_attempts_are_limited_per_client_address(api, database, federated, identity_providers):
    tight = federated.model_copy(update={"login_attempts_per_address": 2, "login_address_window": 10**9})
    address = f"127.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"
    async with serving(api, database, tight, identity_providers, address=address) as client:
        statuses = [
            (await client.post("/api/oauth2/token", json=exchange("google", "not-a-jwt"))).status_code for _ in range(3)
        ]
        answer = await client.post("/api/oauth2/token", json=exchange("google", "not-a-jwt"))
    assert statuses == [401, 401, 429]
    assert error(answer)[:2] == (429, "too_many_requests") and int(answer.headers["Retry-After"]) > 0


def _any_jwt() -> str:
    return jwt.encode({"sub": "x"}, "k" * 32, algorithm="HS256")


# --- Facebook ----------------------------------------------------------------------------------


async def test_facebook_sign_in_is_checked_with_the_graph_api(http, graph):
    fan = {"id": str(10**15 + secrets.randbelow(10**9)), "name": "Facebook Fan", "email": new_email()}
    token = graph.issue(FB_APP, fan)
    first = await http.post("/api/oauth2/token", json=exchange("facebook", token, token_type=ACCESS_TOKEN))
    assert first.status_code == 200, first.text
    assert first.json()["auth_data"] == {"isRegister": True, "provider": "facebook"}
    assert first.json()["content"]["profile"]["displayName"] == "Facebook Fan"
    again = await http.post(
        "/api/oauth2/token", json=exchange("facebook", graph.issue(FB_APP, fan), token_type=ACCESS_TOKEN)
    )
    assert again.json()["content"]["profile"]["userId"] == first.json()["content"]["profile"]["userId"]


async def test_a_facebook_token_facebook_does_not_accept_fails_with_login_failed(http, graph):
    answer = await http.post("/api/oauth2/token", json=exchange("facebook", "EAAB-made-up", token_type=ACCESS_TOKEN))
    assert error(answer)[:2] == (401, "login_failed")


async def test_a_facebook_outage_answers_provider_unavailable(http, graph):
    graph.broken = True
    try:
        answer = await http.post(
            "/api/oauth2/token", json=exchange("facebook", graph.issue(FB_APP, {"id": "1"}), token_type=ACCESS_TOKEN)
        )
    finally:
        graph.broken = False
    assert error(answer)[:2] == (502, "provider_unavailable")


# --- GET /oauth2/providers ------------------------------------------------------------------


async def test_only_enabled_and_configured_providers_are_listed(
    api, database, federated, identity_providers, oidc_provider, apps
):
    without_apple = federated.model_copy(update={"apple_enabled": False})
    async with serving(api, database, without_apple, identity_providers) as client:
        answer = await client.get("/api/oauth2/providers")
    assert answer.status_code == 200
    assert answer.json()["content"] == {
        "providers": [
            {
                "provider": "facebook",
                "flow": "sdk",
                "client_id": FB_APP,
                "authorize_url": None,
                "redirect_uri": None,
                "scope": "email public_profile",
                "sdk_version": "v15.0",
            },
            {
                "provider": "google",
                "flow": "sdk",
                "client_id": apps["google"].client_id,
                "authorize_url": None,
                "redirect_uri": None,
                "scope": "openid email profile",
                "sdk_version": None,
            },
            {
                "provider": "ifa",
                "flow": "authorization_code",
                "client_id": apps["ifa"].client_id,
                "authorize_url": f"{oidc_provider.issuer}/oauth2/authorize",
                "redirect_uri": IFA_CALLBACK,
                "scope": "openid profile",
                "sdk_version": None,
            },
        ],
        "skipLogin": False,
    }


async def test_no_provider_is_listed_when_none_is_configured(client):
    answer = await client.get("/api/oauth2/providers")
    assert answer.json()["content"] == {"providers": [], "skipLogin": False}


async def test_skip_login_is_on_when_set_and_ifa_is_offered(api, database, federated, identity_providers):
    async with serving(api, database, federated.model_copy(update={"skip_login": True}), identity_providers) as c:
        assert (await c.get("/api/oauth2/providers")).json()["content"]["skipLogin"] is True
    without_ifa = federated.model_copy(update={"skip_login": True, "ifa_enabled": False})
    async with serving(api, database, without_ifa, identity_providers) as c:
        assert (await c.get("/api/oauth2/providers")).json()["content"]["skipLogin"] is False


async def test_ifa_is_left_off_the_list_while_its_provider_is_down(api, database, federated, identity_providers):
    down = federated.model_copy(update={"ifa_issuer": f"http://127.0.0.1:{closed_port()}", "skip_login": True})
    async with serving(api, database, down, identity_providers) as client:
        content = (await client.get("/api/oauth2/providers")).json()["content"]
    assert [p["provider"] for p in content["providers"]] == ["facebook", "apple", "google"]
    assert content["skipLogin"] is False


# --- POST /oauth2/ifa/callback: the authorization-code flow with PKCE, state and nonce ----------


async def test_the_ifa_popup_flow_signs_in_and_signs_into_the_same_account_next_time(http, oidc_provider, apps):
    sub = new_sub()
    oidc_provider.set_user(sub, email=new_email(), email_verified=True, name=" Ifa Member ")
    popup = Popup(oidc_provider, apps["ifa"])
    first = await http.post("/api/oauth2/ifa/callback", json=popup.callback(await popup.code_for(sub)))
    assert first.status_code == 200, first.text
    assert first.json()["auth_data"] == {"isRegister": True, "provider": "ifa"}
    assert first.json()["content"]["profile"]["displayName"] == "Ifa Member"
    assert first.json()["content"]["tokenData"]["access_token"]

    popup = Popup(oidc_provider, apps["ifa"])
    second = await http.post("/api/oauth2/ifa/callback", json=popup.callback(await popup.code_for(sub)))
    assert second.json()["auth_data"] == {"isRegister": False, "provider": "ifa"}
    assert second.json()["content"]["profile"]["userId"] == first.json()["content"]["profile"]["userId"]


async def test_a_nonce_other_than_the_popups_fails_with_login_failed(http, oidc_provider, apps):
    popup = Popup(oidc_provider, apps["ifa"])
    answer = await http.post(
        "/api/oauth2/ifa/callback", json=popup.callback(await popup.code_for(new_sub()), nonce="replayed-nonce")
    )
    assert error(answer) == (
        401,
        "login_failed",
        "Login Failed: the ID token's nonce is not the one this sign-in started with",
    )


async def test_a_code_used_twice_fails_with_login_failed(http, oidc_provider, apps):
    popup = Popup(oidc_provider, apps["ifa"])
    code = await popup.code_for(new_sub())
    assert (await http.post("/api/oauth2/ifa/callback", json=popup.callback(code))).status_code == 200
    again = await http.post("/api/oauth2/ifa/callback", json=popup.callback(code))
    status, code_, message = error(again)
    assert (status, code_) == (401, "login_failed") and "Invalid 'code'" in message


async def test_a_code_verifier_that_does_not_match_the_challenge_fails_with_login_failed(http, oidc_provider, apps):
    popup = Popup(oidc_provider, apps["ifa"])
    code = await popup.code_for(new_sub())
    answer = await http.post("/api/oauth2/ifa/callback", json=popup.callback(code, code_verifier="y" * 43))
    assert error(answer) == (401, "login_failed", "Login Failed: ifa: Code challenge failed.")
    # The code was not spent by the failed attempt: the right verifier still signs in.
    assert (await http.post("/api/oauth2/ifa/callback", json=popup.callback(code))).status_code == 200


async def test_a_redirect_uri_other_than_our_callback_fails_with_login_failed(http, oidc_provider, apps):
    popup = Popup(oidc_provider, apps["ifa"])
    answer = await http.post(
        "/api/oauth2/ifa/callback",
        json=popup.callback(await popup.code_for(new_sub()), redirect_uri="https://evil.example/callback/"),
    )
    assert error(answer)[:2] == (401, "login_failed")


async def test_a_wrong_client_secret_fails_with_the_providers_error(
    api, database, federated, identity_providers, oidc_provider, apps
):
    wrong = federated.model_copy(update={"ifa_client_secret": "not-the-secret"})
    popup = Popup(oidc_provider, apps["ifa"])
    code = await popup.code_for(new_sub())
    async with serving(api, database, wrong, identity_providers) as client:
        answer = await client.post("/api/oauth2/ifa/callback", json=popup.callback(code))
    status, code_, message = error(answer)
    assert (status, code_) == (401, "login_failed") and message.startswith("Login Failed: ifa: ")


async def test_the_ifa_callback_answers_provider_unavailable_when_ifa_is_down(
    api, database, federated, identity_providers
):
    down = federated.model_copy(update={"ifa_issuer": f"http://127.0.0.1:{closed_port()}"})
    body = {
        "code": "c",
        "redirect_uri": IFA_CALLBACK,
        "code_verifier": "v" * 43,
        "state": "s",
        "nonce": "n",
        "device": device(),
    }
    async with serving(api, database, down, identity_providers) as client:
        answer = await client.post("/api/oauth2/ifa/callback", json=body)
    assert error(answer)[:2] == (502, "provider_unavailable")


async def test_an_ifa_sign_in_at_the_device_limit_answers_device_error(
    api, database, federated, identity_providers, oidc_provider, apps
):
    limited = federated.model_copy(update={"device_limit": 1})
    sub = new_sub()
    async with serving(api, database, limited, identity_providers) as client:
        answers = []
        for _ in range(2):
            popup = Popup(oidc_provider, apps["ifa"])
            code = await popup.code_for(sub)
            answers.append(await client.post("/api/oauth2/ifa/callback", json=popup.callback(code)))
    assert answers[0].json()["content"]["device_error"] is None
    assert answers[1].json()["content"]["device_error"]["code"] == "device_limit_exceeded"
    assert answers[1].json()["auth_data"] == {"isRegister": False, "provider": "ifa"}
