"""The options every staff command shares, given once after the group's name:

    touchline users --json find ada
    touchline codes --api-url https://touchline.example list --status active

`staff_options` is the Typer callback of every staff group (users, codes, events, billing,
socket): it keeps the server's URL, the staff account and `--json` in `ctx.obj` as a
`StaffOptions`, which the group's commands read with `options_of(ctx)`. The URL and the
credentials also come from TOUCHLINE_API_URL, TOUCHLINE_API_KEY, TOUCHLINE_STAFF_EMAIL and
TOUCHLINE_STAFF_PASSWORD; without any, from the sign-in `touchline login` stored (the URL too,
when none is given). Nothing is checked here: a command that stops on a malformed argument needs
neither a server nor credentials; the admin client asks for what is missing when it is first
needed.
"""

from dataclasses import dataclass
from typing import Annotated

import typer

from ..admin_client import DEFAULT_API_URL, TIMEOUT_S, AdminClient

ApiUrl = Annotated[
    str | None,
    typer.Option(
        "--api-url",
        envvar="TOUCHLINE_API_URL",
        help=f"Base URL of the Touchline server [default: the one `touchline login` used, else {DEFAULT_API_URL}]",
        show_default=False,
    ),
]
ApiKey = Annotated[
    str | None,
    typer.Option(
        "--api-key",
        envvar="TOUCHLINE_API_KEY",
        help="An API key (from `touchline keys create`) instead of a staff account (prefer the variable).",
        show_default=False,
    ),
]
StaffEmail = Annotated[
    str | None, typer.Option("--staff-email", envvar="TOUCHLINE_STAFF_EMAIL", help="Staff account to sign in with.")
]
StaffPassword = Annotated[
    str | None,
    typer.Option(
        "--staff-password",
        envvar="TOUCHLINE_STAFF_PASSWORD",
        help="Its password (prefer the variable).",
        show_default=False,
    ),
]
Json = Annotated[
    bool, typer.Option("--json", help="Print the API's answer as JSON (for scripts) instead of tables and sentences.")
]


@dataclass(frozen=True)
class StaffOptions:
    api_url: str | None = None
    staff_email: str | None = None
    staff_password: str | None = None
    as_json: bool = False
    api_key: str | None = None

    def client(self, *, timeout: float = TIMEOUT_S) -> AdminClient:
        return AdminClient.from_options(
            self.api_url, self.staff_email, self.staff_password, timeout=timeout, api_key=self.api_key
        )


def staff_options(
    ctx: typer.Context,
    api_url: ApiUrl = None,
    staff_email: StaffEmail = None,
    staff_password: StaffPassword = None,
    as_json: Json = False,
    api_key: ApiKey = None,
) -> None:
    # No docstring: Typer would show it instead of the group's own help.
    ctx.obj = StaffOptions(api_url, staff_email, staff_password, as_json, api_key)


def options_of(ctx: typer.Context) -> StaffOptions:
    """The options given to the staff group `ctx`'s command belongs to."""
    options = ctx.find_object(StaffOptions)
    if options is None:
        raise RuntimeError(f"`{ctx.command_path}` is not in a staff group (one with the staff_options callback)")
    return options
