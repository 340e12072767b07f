"""Which providers the server offers, from its settings."""

import pytest
from pydantic import ValidationError

from server.auth.providers import FacebookProvider, OidcProvider, offered, skip_login
from server.settings import Settings

ALL = {
    "facebook_app_id": "1234567890123456",
    "facebook_app_secret": "fb-secret",
    "apple_client_id": "com.touchline.web",
    "google_client_id": "123-touchline.apps.googleusercontent.com",
    "ifa_issuer": "https://id.ifa.example",
    "ifa_client_id": "touchline-web",
    "ifa_client_secret": "ifa-secret",
}


def settings(**kw) -> Settings:
    return Settings(environment="test", **kw)


def test_nothing_is_offered_until_configured():
    assert offered(settings()) == {}


def test_every_configured_and_enabled_provider_is_offered_in_the_spec_order():
    found = offered(settings(**ALL))
    assert list(found) == ["facebook", "apple", "google", "ifa"]
    assert found["facebook"] == FacebookProvider("1234567890123456", "fb-secret", "https://graph.facebook.com/v15.0")
    assert found["google"].scope == "openid email profile" and found["google"].flow == "sdk"
    apple = found["apple"]
    assert isinstance(apple, OidcProvider)
    assert apple.scope == "name email" and apple.issuer == "https://appleid.apple.com"
    assert found["facebook"].sdk_version == "v15.0"


def test_a_disabled_provider_is_not_offered_even_when_configured():
    found = offered(settings(**ALL, google_enabled=False, facebook_enabled=False))
    assert list(found) == ["apple", "ifa"]


@pytest.mark.parametrize("missing", ["facebook_app_secret", "ifa_client_id", "ifa_issuer"])
def test_a_half_configured_provider_is_not_offered(missing):
    assert len(offered(settings(**{**ALL, missing: None}))) == 3


def test_ifa_is_an_authorization_code_flow_calling_back_to_the_webapp():
    ifa = offered(settings(**ALL, public_base_url="https://watch.touchline.example/"))["ifa"]
    assert isinstance(ifa, OidcProvider)
    assert (ifa.flow, ifa.scope, ifa.client_secret) == ("authorization_code", "openid profile", "ifa-secret")
    assert ifa.redirect_uri == "https://watch.touchline.example/auth/oauth2/callback/ifa/"
    explicit = offered(settings(**ALL, ifa_redirect_uri="https://app.example/cb/"))["ifa"]
    assert explicit.redirect_uri == "https://app.example/cb/"


def test_google_tokens_may_name_the_issuer_without_its_scheme():
    google = offered(settings(**ALL))["google"]
    assert isinstance(google, OidcProvider)
    assert google.issuers == ("https://accounts.google.com", "accounts.google.com")
    other = offered(settings(**ALL, google_issuer="http://127.0.0.1:9400"))["google"]
    assert isinstance(other, OidcProvider)
    assert other.issuers == ("http://127.0.0.1:9400",)


def test_skip_login_needs_the_option_and_the_ifa_sign_on():
    assert skip_login(settings(skip_login=True), {"ifa", "google"}) is True
    assert skip_login(settings(skip_login=True), {"google"}) is False
    assert skip_login(settings(skip_login=False), {"ifa"}) is False


def test_production_refuses_provider_urls_without_tls():
    with pytest.raises(ValidationError, match="TOUCHLINE_IFA_ISSUER must be an https:// URL"):
        Settings(environment="production", secret_key="s" * 32, ifa_issuer="http://127.0.0.1:9400")
    Settings(environment="production", secret_key="s" * 32, ifa_issuer="https://id.ifa.example")
