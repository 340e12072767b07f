"""`touchline admin`: opens the staff console (TouchlineAdmin) on the server of the options, the
environment (TOUCHLINE_API_URL, TOUCHLINE_API_KEY, TOUCHLINE_STAFF_EMAIL/_PASSWORD) or the stored
`touchline login`. It starts even when the server is down: the dashboard says so and keeps trying."""

from ..commands.staff_options import ApiKey, ApiUrl, StaffEmail, StaffPassword
from .api import REFRESH_SECONDS, AdminApi, ConsoleOptions


def admin(
    api_url: ApiUrl = None,
    staff_email: StaffEmail = None,
    staff_password: StaffPassword = None,
    api_key: ApiKey = None,
    refresh: float = REFRESH_SECONDS,
) -> None:
    """Open the staff console (dashboard, users, access codes, live control, audit log) over the admin API."""
    from .app import TouchlineAdmin  # Textual loads only for this command

    api = AdminApi.from_options(ConsoleOptions(api_url, staff_email, staff_password, api_key))
    TouchlineAdmin(api, refresh_seconds=refresh).run()
