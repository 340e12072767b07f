"""The sign-on providers this server offers, built from the settings.

A provider is offered when it is enabled and configured. Facebook, Apple and Google sign in
through their JavaScript SDKs in the browser and send us the token they got; `ifa` is an
authorization-code flow with PKCE whose code the server exchanges itself.
"""

from collections.abc import Collection
from dataclasses import dataclass

from ...settings import Settings

NAMES = ("facebook", "apple", "google", "ifa")  # spec §3, in the order the sign-in page shows them
SDK = "sdk"
AUTHORIZATION_CODE = "authorization_code"
FACEBOOK_SDK_VERSION = "v15.0"  # spec §9
IFA_CALLBACK_PATH = "/auth/oauth2/callback/ifa/"


@dataclass(frozen=True)
class OidcProvider:
    """An OpenID Connect provider: tokens are checked against its discovery document and keys."""

    name: str
    issuer: str
    client_id: str
    scope: str
    flow: str = SDK
    client_secret: str | None = None
    redirect_uri: str | None = None
    # Other spellings of the issuer its ID tokens may carry (Google omits the scheme sometimes).
    issuer_aliases: tuple[str, ...] = ()
    sdk_version: str | None = None

    @property
    def issuers(self) -> tuple[str, ...]:
        return (self.issuer, *self.issuer_aliases)


@dataclass(frozen=True)
class FacebookProvider:
    """Facebook Login: the browser's access token is checked with the Graph API."""

    app_id: str
    app_secret: str
    graph_url: str
    name: str = "facebook"
    scope: str = "email public_profile"
    flow: str = SDK
    sdk_version: str | None = FACEBOOK_SDK_VERSION
    redirect_uri: str | None = None

    @property
    def client_id(self) -> str:
        return self.app_id


Provider = OidcProvider | FacebookProvider


def offered(settings: Settings) -> dict[str, Provider]:
    """Enabled and configured providers by name, in display order."""
    found: dict[str, Provider] = {}
    if settings.facebook_enabled and settings.facebook_app_id and settings.facebook_app_secret:
        found["facebook"] = FacebookProvider(
            app_id=settings.facebook_app_id,
            app_secret=settings.facebook_app_secret,
            graph_url=settings.facebook_graph_url.rstrip("/"),
        )
    if settings.apple_enabled and settings.apple_client_id:
        found["apple"] = OidcProvider("apple", settings.apple_issuer, settings.apple_client_id, scope="name email")
    if settings.google_enabled and settings.google_client_id:
        aliases = ("accounts.google.com",) if settings.google_issuer == "https://accounts.google.com" else ()
        found["google"] = OidcProvider(
            "google",
            settings.google_issuer,
            settings.google_client_id,
            scope="openid email profile",
            issuer_aliases=aliases,
        )
    if settings.ifa_enabled and settings.ifa_issuer and settings.ifa_client_id:
        found["ifa"] = OidcProvider(
            "ifa",
            settings.ifa_issuer,
            settings.ifa_client_id,
            scope="openid profile",
            flow=AUTHORIZATION_CODE,
            client_secret=settings.ifa_client_secret,
            redirect_uri=settings.ifa_redirect_uri or settings.base_url + IFA_CALLBACK_PATH,
        )
    return found


def skip_login(settings: Settings, available: Collection[str]) -> bool:
    """The sign-in page is skipped only when the option is on and the ifa sign-on is offered."""
    return settings.skip_login and "ifa" in available
