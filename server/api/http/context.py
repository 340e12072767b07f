"""Per-request access to the app's shared objects (set up by the lifespan in server.app),
and to who is asking."""

import functools
from dataclasses import dataclass

from connexion import request
from connexion.context import context

from ... import clock
from ...auth.bearer import ACCESS, LIMIT_TICKET
from ...auth.passwords import Passwords
from ...auth.tokens import STAFF_ROLES
from ...errors import Forbidden, Unauthorized
from ...services import sessions as sessions_service
from ...services.access import ANONYMOUS, Viewer
from ...services.commerce import holdings
from ...settings import Settings
from ...viewer_region import viewer_region as region_of
from .database import db_session


def settings() -> Settings:
    return request.state.settings


def state(name: str, default=None):
    return getattr(request.state, name, default)


def client_address() -> str | None:
    client = request.scope.get("client")
    return client[0] if client else None


@dataclass(frozen=True)
class Principal:
    """A signed-in caller whose session is alive (checked against the database per request)."""

    user_id: str
    session_id: str | None
    role: str
    device_ref: str | None
    # Set when the caller is an API key (user_id is then the account that made the key).
    key_id: str | None = None

    @property
    def is_staff(self) -> bool:
        return self.role in STAFF_ROLES


def _token_info() -> dict | None:
    return context.get("token_info")


async def signed_in(*, allow_limit_ticket: bool = False) -> Principal:
    """The caller of a secured operation. Refuses tokens whose session was revoked, expired or
    deleted (logout, removed device, deleted account), and limit tickets unless allowed."""
    info = _token_info()
    if not info:
        raise Unauthorized("Authentication required")
    if info.get("kind") == LIMIT_TICKET:
        if not allow_limit_ticket:
            raise Unauthorized("Authentication required")
        async with db_session() as db:
            ticket = await sessions_service.live_limit_ticket(db, info["ticket_id"], info["sub"])
        if ticket is None:
            raise Unauthorized("The sign-in ticket has expired, please sign in again", code="limit_ticket_invalid")
        return Principal(info["sub"], None, "viewer", None)
    if info.get("kind") != ACCESS:
        raise Unauthorized("Authentication required")
    async with db_session() as db:
        alive = await sessions_service.session_alive(db, info["sub"], info.get("sid"))
    if alive is None:
        raise Unauthorized("Your session has ended, please sign in again", code="unauthorized")
    return Principal(info["sub"], info.get("sid"), alive.role, alive.device_ref)


async def staff() -> Principal:
    """The staff caller (account or API key) of an admin operation. Who may call which operation
    is checked once, before the handler runs, from the operation's `x-touchline-role`
    (server/api/http/staff_access.py); this returns whom that check let in."""
    principal: Principal | None = state("staff_principal")
    if principal is not None:
        return principal
    principal = await signed_in()
    if not principal.is_staff:
        raise Forbidden("Staff only", code="forbidden_role")
    return principal


def viewer() -> Viewer:
    """The viewer bound to this request by `bind_viewer` (anonymous before that)."""
    return getattr(request.state, "viewer", None) or ANONYMOUS


def viewer_region() -> str | None:
    """The viewer's country: the header the CDN or proxy in front sets (when configured), else
    the deployment's default region (the rule the media routes share: server.viewer_region)."""
    return region_of(settings(), request.headers.get)


def viewer_session() -> str | None:
    """The sign-in session of this request's access token (None: anonymous, or no session)."""
    info = _token_info()
    return info.get("sid") if info and info.get("kind") == ACCESS else None


async def bind_viewer(*, refresh: bool = False) -> Viewer:
    """Who is asking, with what they hold, for answers that depend on it (availability, stream
    URLs, product state). Without a token the viewer is anonymous; a token that is invalid, or
    whose session has ended, gets 401 like on secured operations."""
    bound = getattr(request.state, "viewer", None)
    if bound is not None and not refresh:  # `refresh`: what the viewer holds just changed
        return bound
    region = viewer_region()
    info = _token_info()
    current = Viewer(region=region)
    # `{}`: the operation's anonymous alternative matched although a token was sent (operations
    # without security leave no token_info at all and stay anonymous).
    if info == {} and request.headers.get("Authorization"):
        # A token that does not verify (expired, forged) is refused, not read as anonymous: the
        # client refreshes and retries once (spec section 7) instead of silently losing access.
        raise Unauthorized("Provided token is not valid")
    if info and info.get("kind") == ACCESS:
        user_id = info["sub"]
        cache: holdings.HoldingsCache | None = state("holdings_cache")
        async with db_session() as db:
            alive = await sessions_service.session_alive(db, user_id, info.get("sid"))
            if alive is None:
                raise Unauthorized("Your session has ended, please sign in again", code="unauthorized")
            held = None if refresh or cache is None else cache.get(user_id)
            if held is None:
                held = await holdings.load(db, user_id, clock.now())
                if cache is not None:
                    cache.put(user_id, held)
        current = Viewer(user_id, held, region)
    request.state.viewer = current
    return current


def session_policy() -> sessions_service.Policy:
    return sessions_service.Policy.from_settings(settings())


def passwords() -> Passwords:
    current = settings()
    return _passwords(current.argon2_memory_kib, current.argon2_time_cost, current.argon2_parallelism)


@functools.lru_cache(maxsize=8)
def _passwords(memory_kib: int, time_cost: int, parallelism: int) -> Passwords:
    return Passwords(memory_kib, time_cost, parallelism)
