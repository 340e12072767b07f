"""Handlers for the `oauth2` tag: token refresh and federated sign-on.

`exchange_token` has two uses (see the contract): a refresh when `subject_issuer` is absent or
`touchline`, a federated sign-on otherwise. A federated sign-on is verified with the provider
(server.auth.providers), linked to an account (server.services.federation) and answered like a
credentials sign-in, device limit included.
"""

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ...auth import providers
from ...auth.providers.registry import AUTHORIZATION_CODE
from ...errors import ApiError
from ...realtime import emitter
from ...realtime.announcements import announce_sessions_ended
from ...services import federation, ratelimit, sessions
from ...services.sessions import DeviceIn
from ..http.context import client_address, session_policy, settings, state
from ..http.database import db_session, db_write_session
from ..http.envelope import ok
from ..presenters.account import login_response

log = logging.getLogger(__name__)

REFRESH_ISSUER = "touchline"
REFRESH_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:refresh_token"


async def exchange_token(body: dict):
    issuer = body.get("subject_issuer") or REFRESH_ISSUER
    if issuer == REFRESH_ISSUER:
        return await _refresh(body)
    return await _federated(issuer, body)


async def _refresh(body: dict):
    device_id = (body.get("device") or {}).get("id")
    try:
        result = await sessions.refresh(
            state("database"), body["subject_token"], policy=session_policy(), device_id=device_id
        )
    except sessions.RefreshFailed as failure:
        if failure.revoked:  # a leaked token ended the session: its other tabs sign out too
            user_id, revoked_device = failure.revoked
            await emitter.emit_remove_user_device(user_id, revoked_device, "refresh_token_failed")
        await announce_sessions_ended(failure.ended)  # and its streams and sockets end now
        raise
    return ok(result)


async def _federated(name: str, body: dict):
    provider = _offered(name)
    if body["subject_token_type"] == REFRESH_TOKEN_TYPE:
        raise ApiError(
            f"{name} sign-in takes the provider's ID token or access token, not a refresh token",
            code="validation_error",
        )
    device = _device(body.get("device"))
    await _count_attempt()
    with _reported(name):
        identity = await _client().verify_token(provider, body["subject_token"], body["subject_token_type"])
    display_name = (body.get("profile") or {}).get("display_name")
    return await _sign_in(identity, device, display_name)


async def list_providers():
    offered = providers.offered(settings())
    listed: list[dict[str, Any]] = []
    for provider in offered.values():
        authorize_url = None
        if provider.flow == AUTHORIZATION_CODE and isinstance(provider, providers.OidcProvider):
            try:
                authorize_url = await _client().authorize_url(provider)
            except providers.ProviderUnavailable as exc:
                log.warning("%s sign-on left off the sign-in page: %s", provider.name, exc.reason)
                continue
            if authorize_url is None:
                log.warning("%s sign-on left off the sign-in page: no authorization endpoint", provider.name)
                continue
        listed.append(
            {
                "provider": provider.name,
                "flow": provider.flow,
                "client_id": provider.client_id,
                "authorize_url": authorize_url,
                "redirect_uri": provider.redirect_uri,
                "scope": provider.scope,
                "sdk_version": provider.sdk_version,
            }
        )
    available = {entry["provider"] for entry in listed}
    return ok({"providers": listed, "skipLogin": providers.skip_login(settings(), available)})


async def ifa_callback(body: dict):
    provider = _offered("ifa")
    if not isinstance(provider, providers.OidcProvider):  # ifa is configured as OpenID Connect only
        raise ApiError('"ifa" auth provider not supported!', code="provider_not_supported")
    device = _device(body["device"])
    if body["redirect_uri"] != provider.redirect_uri:
        raise providers.LoginFailed("the redirect_uri is not this site's ifa callback")
    await _count_attempt()
    with _reported("ifa"):
        identity = await _client().sign_in_with_code(
            provider,
            code=body["code"],
            redirect_uri=body["redirect_uri"],
            code_verifier=body["code_verifier"],
            nonce=body["nonce"],
        )
    return await _sign_in(identity, device, None)


def _offered(name: str) -> providers.Provider:
    provider = providers.offered(settings()).get(name)
    if provider is None:
        raise ApiError(f'"{name}" auth provider not supported!', code="provider_not_supported")
    return provider


def _device(device: dict | None) -> DeviceIn:
    if not device:
        raise ApiError("device is required for a federated sign-on", code="validation_error")
    return DeviceIn(
        device_id=device["id"],
        device_name=device["name"],
        os_name=device.get("os_name"),
        os_version=device.get("os_version"),
        app_version=device.get("app_version"),
    )


@contextmanager
def _reported(name: str) -> Iterator[None]:
    """Log why a provider sign-in failed (the client sees the reason too, in the message)."""
    try:
        yield
    except providers.LoginFailed as exc:
        log.info("%s sign-in refused: %s", name, exc.reason)
        raise
    except providers.ProviderUnavailable as exc:
        log.warning("%s sign-in failed, the provider is unavailable: %s", name, exc.reason)
        raise


def _client() -> providers.ProviderClient:
    client = state("identity_providers")
    if client is None:
        raise RuntimeError("the app's lifespan did not set up identity_providers (server.app.create_api)")
    return client


async def _count_attempt() -> None:
    """Every attempt counts against the client address's sign-in budget (shared with the
    credentials sign-in), before any provider is asked."""
    limit, _ = ratelimit.signin_limits(settings())
    async with db_session() as db:
        await ratelimit.hit(db, limit, client_address() or "unknown")


async def _sign_in(identity: providers.Identity, device: DeviceIn, display_name: str | None):
    async with db_write_session() as db:
        linked = await federation.link(db, identity, display_name=display_name)
        result = await sessions.sign_in(
            db,
            linked.user_id,
            device,
            policy=session_policy(),
            provider=identity.provider,
            is_register=linked.is_register,
            client_address=client_address(),
        )
    return login_response(result)
