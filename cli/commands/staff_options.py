"""The options every staff command shares, given after the group's name or after the command,
as people write them (gh, kubectl and docker take them anywhere too):

    touchline users --json find ada
    touchline keys create --role support --name ci --json
    touchline codes list --status active --api-url https://touchline.example

Every staff group (users, codes, events, billing, socket, ...) is made by `staff_group`: its
callback `staff_options` takes the options before the command, and its click group
(`StaffGroup`) copies them onto each of its commands, so each command's `--help` lists them
too. When an option is given in both places, the one after the command wins. The commands read
the result with `options_of(ctx)`, a `StaffOptions`. A staff group may hold another
(`touchline ingest --json key create …`): options count wherever they are given, the last one
given winning. The URL and the credentials also come from
TOUCHLINE_API_URL, TOUCHLINE_API_KEY, TOUCHLINE_STAFF_EMAIL and TOUCHLINE_STAFF_PASSWORD;
without any, from the sign-in `touchline login` stored (the URL too, when none is given).
Nothing is checked here: a command that stops on a malformed argument needs neither a server
nor credentials; the admin client asks for what is missing when it is first needed.
"""

import copy
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from typing import Annotated, Any

import typer
from typer._click.core import Command, Context, Parameter, ParameterSource
from typer._click.globals import get_current_context
from typer.core import TyperGroup

from ..admin_client import DEFAULT_API_URL, TIMEOUT_S, AdminClient

ApiUrl = Annotated[
    str | None,
    typer.Option(
        "--api-url",
        envvar="TOUCHLINE_API_URL",
        help=f"Base URL of the Touchline server (default: the one `touchline login` used, else {DEFAULT_API_URL}).",
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


# The parameters of `staff_options`, named as StaffOptions' fields.
SHARED = frozenset(field.name for field in fields(StaffOptions))
# Where a command's --help lists the copies.
SHARED_PANEL = "Server, account and output (also before the command)"


class StaffGroup(TyperGroup):
    """A staff group: its own options (the callback's, `staff_options`) are copied onto every
    command, so they are taken after the command too."""

    def __init__(self, **attrs) -> None:
        super().__init__(**attrs)
        for command in self.commands.values():
            _share(self.params, command)

    def add_command(self, cmd: Command, name: str | None = None) -> None:
        _share(self.params, cmd)
        super().add_command(cmd, name)


def _share(shared: Iterable[Parameter], command: Command) -> None:
    # A staff group inside this one takes the options itself and shares them with its commands.
    if getattr(command, "_takes_staff_options", False) or isinstance(command, StaffGroup):
        return
    clash = SHARED & {param.name for param in command.params}
    if clash:
        raise RuntimeError(f"`{command.name}` has parameters of its own named like the staff options: {sorted(clash)}")
    for param in shared:
        twin = copy.copy(param)
        twin.rich_help_panel = SHARED_PANEL  # type: ignore[attr-defined]
        command.params.append(twin)
    command.callback = _without_shared(command.callback)
    command._takes_staff_options = True  # type: ignore[attr-defined]


def _without_shared(callback: Callable | None) -> Callable | None:
    """The command's callback, fed only its own parameters; the shared ones become ctx.obj."""
    if callback is None:
        return None

    def command_callback(**values):
        ctx = get_current_context()
        ctx.obj = shared_options(ctx)
        return callback(**{name: value for name, value in values.items() if name not in SHARED})

    return command_callback


def shared_options(ctx: Context) -> StaffOptions:
    """The staff options in force for `ctx` (a staff group's context or one of its commands'):
    the outermost staff group's, overridden by those given on the command line after it (to an
    inner staff group, after the command). Works on the contexts of shell completion too, where
    no callback runs."""
    lineage: list[Context] = []
    current: Context | None = ctx
    while current is not None:
        lineage.insert(0, current)
        current = current.parent
    groups = [context for context in lineage if isinstance(context.command, StaffGroup)]
    if not groups:
        raise RuntimeError(f"`{ctx.command_path}` is not in a staff group (see `staff_group`)")
    outermost = groups[0]
    values: dict[str, Any] = {name: outermost.params.get(name) for name in SHARED}
    for later in lineage[lineage.index(outermost) + 1 :]:
        for name in SHARED:
            if name in later.params and later.get_parameter_source(name) is ParameterSource.COMMANDLINE:
                values[name] = later.params[name]
    values["as_json"] = bool(values["as_json"])
    return StaffOptions(**values)


def staff_group(help: str) -> typer.Typer:
    """A Typer for a group of staff commands: the shared options before or after the command."""
    return typer.Typer(help=help, no_args_is_help=True, callback=staff_options, cls=StaffGroup)


def options_of(ctx: typer.Context) -> StaffOptions:
    """The options given to the staff command of `ctx` (before or after it)."""
    options = ctx.find_object(StaffOptions)
    if options is None:
        raise RuntimeError(f"`{ctx.command_path}` is not in a staff group (see `staff_group`)")
    return options
