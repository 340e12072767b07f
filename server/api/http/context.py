"""Per-request access to the app's shared objects (set up by the lifespan in server.app),
and to who is asking.

They read the ASGI scope (its `state` dict and headers) rather than `connexion.request`, which
builds a new request object on every attribute read: a dozen per call on the hot paths.
"""

import functools
from dataclasses import dataclass

from connexion.context import context, scope

from ... import clock
from ...auth import standing
from ...auth.bearer import ACCESS, LIMIT_TICKET
from ...auth.passwords import Passwords
from ...auth.tokens import STAFF_ROLES
from ...errors import Forbidden, Unauthorized
from ...services import sessions as sessions_service
from ...services.access import ANONYMOUS, Viewer
from ...services.commerce import holdings
from ...settings import Settings
from ...viewer_region import viewer_region as region_of
from .database import db_read_session, db_session, request_state


def settings() -> Settings:
    return request_state()["settings"]


def state(name: str, default=None):
    return request_state().get(name, default)


def header(name: str) -> str | None:
    """A request header's first value (`name` in any case), decoded as Latin-1 like Starlette."""
    wanted = name.lower().encode("latin-1")
    for key, value in scope["headers"]:
        if key.lower() == wanted:
            return value.decode("latin-1")
    return None


def client_address() -> str | None:
    client = scope.get("client")
    return client[0] if client else None


@dataclass(frozen=True)
class Principal:
    """A signed-in caller whose session is alive (server.auth.standing)."""

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


async def _session_alive(user_id: str, session_id: str | None, *, fresh: bool = False) -> standing.Alive | None:
    """The token's session if it stands: this process's short belief (server.auth.standing, which
    states how soon an ended session is refused), or the database itself when `fresh`."""
    if fresh:
        async with db_session() as db:
            return await sessions_service.session_alive(db, user_id, session_id)
    return await standing.default.alive(state("database"), user_id, session_id)


async def signed_in(*, allow_limit_ticket: bool = False, fresh: bool = False) -> Principal:
    """The caller of a secured operation. Refuses tokens whose session was revoked, expired or
    deleted (logout, removed device, deleted account), and limit tickets unless allowed. `fresh`
    asks the database rather than this process's belief (staff: a changed role counts at once)."""
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
    alive = await _session_alive(info["sub"], info.get("sid"), fresh=fresh)
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
    principal = await signed_in(fresh=True)
    if not principal.is_staff:
        raise Forbidden("Staff only", code="forbidden_role")
    return principal


def viewer() -> Viewer:
    """The viewer bound to this request by `bind_viewer` (anonymous before that)."""
    return state("viewer") or ANONYMOUS


def viewer_region() -> str | None:
    """The viewer's country: the header the CDN or proxy in front sets (when configured), else
    the deployment's default region (the rule the media routes share: server.viewer_region)."""
    return region_of(settings(), header)


def viewer_session() -> str | None:
    """The sign-in session of this request's access token (None: anonymous, or no session)."""
    info = _token_info()
    return info.get("sid") if info and info.get("kind") == ACCESS else None


async def bind_viewer(*, refresh: bool = False) -> Viewer:
    """Who is asking, with what they hold, for answers that depend on it (availability, stream
    URLs, product state). Without a token the viewer is anonymous; a token that is invalid, or
    whose session has ended, gets 401 like on secured operations."""
    bound = state("viewer")
    if bound is not None and not refresh:  # `refresh`: what the viewer holds just changed
        return bound
    region = viewer_region()
    info = _token_info()
    current = Viewer(region=region)
    # `{}`: the operation's anonymous alternative matched although a token was sent (operations
    # without security leave no token_info at all and stay anonymous).
    if info == {} and header("Authorization"):
        # A token that does not verify (expired, forged) is refused, not read as anonymous: the
        # client refreshes and retries once (spec section 7) instead of silently losing access.
        raise Unauthorized("Provided token is not valid")
    if info and info.get("kind") == ACCESS:
        user_id = info["sub"]
        cache: holdings.HoldingsCache | None = state("holdings_cache")
        alive = await _session_alive(user_id, info.get("sid"), fresh=refresh)
        if alive is None:
            raise Unauthorized("Your session has ended, please sign in again", code="unauthorized")
        held = None if refresh or cache is None else cache.get(user_id)
        if held is None:

            async def load() -> holdings.Holdings:
                async with db_read_session() as db:
                    return await holdings.load(db, user_id, clock.now())

            # A changed holding (`refresh`) must not join a load that began before the change.
            held = await (load() if refresh or cache is None else cache.loading.run(user_id, load))
            if cache is not None:
                cache.put(user_id, held)
        current = Viewer(user_id, held, region)
    request_state()["viewer"] = current
    return current


def session_policy() -> sessions_service.Policy:
    return sessions_service.Policy.from_settings(settings())


def passwords() -> Passwords:
    """The process's hasher for these settings (one per parameter set: its slots are shared by
    every request)."""
    current = settings()
    return _passwords(
        current.argon2_memory_kib,
        current.argon2_time_cost,
        current.argon2_parallelism,
        current.argon2_slots,
        current.argon2_wait_seconds,
    )


@functools.lru_cache(maxsize=8)
def _passwords(memory_kib: int, time_cost: int, parallelism: int, slots: int, wait_seconds: float) -> Passwords:
    return Passwords(memory_kib, time_cost, parallelism, workers=slots or None, wait_seconds=wait_seconds)
