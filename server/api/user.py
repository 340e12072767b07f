"""Handlers for the `user` tag: sign-up, sign-in, devices, profile, password, watchlist.

The handlers live in server/api/users/ (one module per area); Connexion binds the names
re-exported here. An operation not implemented yet stays in PENDING and answers 501.
"""

from .users.account import (  # noqa: F401
    change_password,
    delete_account,
    end_other_sessions,
    forgot_password,
    reset_password,
)
from .users.signin import (  # noqa: F401
    check_current_device,
    complete_login,
    delete_device,
    get_devices,
    login_user,
    logout_user,
    register_user,
)
from .users.profile import get_profile, update_profile  # noqa: F401
from .users.watchlist import add_to_watchlist, get_watchlist, get_watchlist_ids, remove_from_watchlist  # noqa: F401

PENDING: frozenset[str] = frozenset()
