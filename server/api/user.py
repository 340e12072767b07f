"""Handlers for the `user` tag: sign-up, sign-in, devices, profile, watchlist.

The accounts and sessions work implements these; until then they answer 501.
"""

PENDING = frozenset(
    {
        "register_user",
        "login_user",
        "complete_login",
        "logout_user",
        "end_other_sessions",
        "check_current_device",
        "get_devices",
        "delete_device",
        "get_profile",
        "update_profile",
        "delete_account",
        "change_password",
        "forgot_password",
        "reset_password",
        "get_watchlist",
        "get_watchlist_ids",
        "add_to_watchlist",
        "remove_from_watchlist",
    }
)
