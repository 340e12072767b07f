"""`touchline users …`: accounts for support staff, through the admin API.

Find an account, look at it, list its sessions and devices, end a session or remove a device.
Tables by default; `--json` prints the API's answer (the envelope's `content`) for scripts.
Staff credentials come from TOUCHLINE_STAFF_EMAIL / TOUCHLINE_STAFF_PASSWORD (or the options).
"""

import json
import re
from collections.abc import Awaitable, Callable
from datetime import datetime, timezone
from enum import Enum
from typing import Annotated, Any, TypeVar

import typer
from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

from ..admin_client import DEFAULT_API_URL, AdminClient, ApiUrl, StaffEmail, StaffPassword, fail, run

app = typer.Typer(help="Accounts, their sessions and devices (support staff).", no_args_is_help=True)

T = TypeVar("T")
ID = re.compile(r"[0-9a-f]{24}")
NONE = "-"
NUMBERS = {"Devices", "Sessions"}  # right-aligned


class Role(str, Enum):
    viewer = "viewer"
    staff = "staff"


UserId = Annotated[str, typer.Argument(metavar="ID", help="The account's id (see `touchline users find`).")]
Json = Annotated[bool, typer.Option("--json", help="Print the API's answer as JSON.")]
Page = Annotated[int, typer.Option("--page", min=0, help="Page number, from 0.")]
Size = Annotated[int, typer.Option("--size", min=1, max=100, help="Entries per page.")]


def _id(value: str, what: str, hint: str) -> str:
    normalised = value.strip().lower()
    if not ID.fullmatch(normalised):
        raise fail(f"{value!r} is not {what} (24 hexadecimal characters); {hint}")
    return normalised


def _account_id(value: str) -> str:
    return _id(value, "an account id", "find it with `touchline users find`")


def _call(api_url: str, email: str | None, password: str | None, work: Callable[[AdminClient], Awaitable[T]]) -> T:
    async def call() -> T:
        async with AdminClient.from_options(api_url, email, password) as api:
            return await work(api)

    return run(call())


def _console() -> Console:
    # Made per command: it writes to the stdout of the moment (CliRunner swaps it in tests).
    # Names and device strings are the users' own text: never read as markup or emoji codes.
    return Console(highlight=False, markup=False, emoji=False)


def _rows(console: Console, title: str, headers: list[str], rows: list[list[str]], caption: str | None = None) -> None:
    """A table when its lines fit the terminal; otherwise one block of `header: value` lines per
    row, so nothing is cut or folded into unreadable slivers on a narrow terminal (or a pipe)."""
    table = Table(*headers, title=title, title_justify="left", caption=caption, caption_justify="left",
                  box=box.SIMPLE_HEAD)
    for column in table.columns:
        column.no_wrap = True
        column.justify = "right" if column.header in NUMBERS else "left"
    for row in rows:
        table.add_row(*row)
    if Measurement.get(console, console.options.update_width(100_000), table).maximum <= console.width:
        console.print(table)
        return
    console.print(title, soft_wrap=True)
    width = max(len(h) for h in headers)
    for row in rows:
        console.print()
        for header, value in zip(headers, row):
            console.print(f"  {header + ':':<{width + 1}} {value}", soft_wrap=True)
    if caption:
        console.print()
        console.print(caption, soft_wrap=True)


def _print_json(content: Any) -> None:
    typer.echo(json.dumps(content, indent=2, ensure_ascii=False))


def _when(value: str | None) -> str:
    if not value:
        return NONE
    return datetime.fromisoformat(value).strftime("%Y-%m-%d %H:%M")


def _text(value: Any) -> str:
    return NONE if value is None or value == "" else str(value)


def _more(console: Console, content: dict, page: int) -> None:
    if content["entryCount"] and content["entryCount"] == content["itemsPerPage"]:
        console.print(f"More may follow: --page {page + 1}")


# --- find / show ---------------------------------------------------------------------------------


def _accounts(console: Console, entries: list[dict], title: str) -> None:
    headers = ["ID", "E-mail", "Name", "Sign-in", "Devices", "Sessions", "Last sign-in (UTC)", "Role"]
    _rows(console, title, headers, [
        [e["userId"], _text(e["email"]), e["displayName"], ", ".join(e["providers"]) or NONE, str(e["deviceCount"]),
         str(e["activeSessionCount"]), _when(e["lastSignIn"]), _role(e)]
        for e in entries
    ])


def _role(user: dict) -> str:
    return "deleted" if user["deleted"] else user["role"]


@app.command("find")
def find(
    query: Annotated[str, typer.Argument(help="Part of the e-mail address or display name, or a whole account id.")],
    role: Annotated[Role | None, typer.Option("--role", help="Only viewers or only staff.")] = None,
    page: Page = 0,
    size: Size = 10,
    as_json: Json = False,
    api_url: ApiUrl = DEFAULT_API_URL,
    staff_email: StaffEmail = None,
    staff_password: StaffPassword = None,
) -> None:
    """Find accounts by e-mail address, display name or id (case-insensitive), best match first."""
    if not query.strip():
        raise fail("QUERY is empty: give part of an e-mail address or display name, or an account id")
    params: dict[str, Any] = {"q": query, "page": page, "size": size}
    if role is not None:
        params["role"] = role.value
    content = _call(api_url, staff_email, staff_password, lambda api: api.get("/admin/users", params))
    if as_json:
        return _print_json(content)
    console = _console()
    if not content["entries"]:
        console.print(f"No account matches {query!r}" + (f" on page {page}." if page else "."))
        return
    _accounts(console, content["entries"], f"Accounts matching {query!r}")
    _more(console, content, page)


PROFILE_FIELDS = [("city", "City"), ("countryName", "Country"), ("postalCode", "Postal code"), ("phone", "Phone"),
                  ("gender", "Gender"), ("dateOfBirth", "Date of birth"), ("clubList", "Clubs"),
                  ("identity", "Sport"), ("identityItem", "League")]


@app.command("show")
def show(
    user_id: UserId,
    as_json: Json = False,
    api_url: ApiUrl = DEFAULT_API_URL,
    staff_email: StaffEmail = None,
    staff_password: StaffPassword = None,
) -> None:
    """One account: how it signs in, its devices and sessions, and its profile."""
    user_id = _account_id(user_id)
    content = _call(api_url, staff_email, staff_password, lambda api: api.get(f"/admin/users/{user_id}"))
    if as_json:
        return _print_json(content)
    user, profile = content["user"], content["profile"]
    table = Table(title=f"Account {user['userId']}", title_justify="left", show_header=False)
    table.add_column("Field", style="bold", no_wrap=True)
    table.add_column("Value", overflow="fold")
    rows = [
        ("E-mail", _text(user["email"])),
        ("Name", user["displayName"]),
        ("Role", user["role"]),
        ("Deleted", "yes" if user["deleted"] else "no"),
        ("Signs in with", ", ".join(user["providers"]) or NONE),
        ("Devices", str(user["deviceCount"])),
        ("Active sessions", str(user["activeSessionCount"])),
        ("Last sign-in", f"{_when(user['lastSignIn'])} UTC" if user["lastSignIn"] else NONE),
        ("Created", f"{_when(user['added'])} UTC"),
        ("Global tags", "yes" if profile["globalTags"] else "no"),
    ]
    for key, label in PROFILE_FIELDS:
        value = profile.get(key)
        rows.append((label, ", ".join(value) if isinstance(value, list) else _text(value)))
    for label, value in rows:
        table.add_row(label, value or NONE)
    _console().print(table)


# --- sessions ------------------------------------------------------------------------------------


def _session_state(s: dict) -> str:
    if s["revoked"]:
        return f"revoked {_when(s['revokedAt'])}"
    if datetime.fromisoformat(s["expiresAt"]) <= datetime.now(timezone.utc):
        return "expired"
    return "active"


def _sessions(console: Console, entries: list[dict], title: str) -> None:
    headers = ["Session", "Device ID", "Device name", "Provider", "Started (UTC)", "Last used (UTC)", "Expires (UTC)",
               "State"]
    _rows(console, title, headers, [
        [s["_id"], s["deviceId"], s["deviceName"], s["provider"], _when(s["added"]), _when(s["lastUsed"]),
         _when(s["expiresAt"]), _session_state(s)]
        for s in entries
    ])


@app.command("sessions")
def sessions(
    user_id: UserId,
    show_all: Annotated[bool, typer.Option("--all", help="Also revoked and expired sessions.")] = False,
    page: Page = 0,
    size: Size = 10,
    as_json: Json = False,
    api_url: ApiUrl = DEFAULT_API_URL,
    staff_email: StaffEmail = None,
    staff_password: StaffPassword = None,
) -> None:
    """An account's sessions (one per sign-in), most recently used first; active ones unless --all."""
    user_id = _account_id(user_id)
    params = {"active": "false" if show_all else "true", "page": page, "size": size}
    content = _call(api_url, staff_email, staff_password,
                    lambda api: api.get(f"/admin/users/{user_id}/sessions", params))
    if as_json:
        return _print_json(content)
    console = _console()
    kind = "sessions" if show_all else "active sessions"
    if not content["entries"]:
        console.print(f"Account {user_id} has no {kind}" + (f" on page {page}." if page else "."))
        return
    _sessions(console, content["entries"], f"{kind.capitalize()} of account {user_id}")
    _more(console, content, page)


@app.command("revoke-session")
def revoke_session(
    user_id: UserId,
    session_id: Annotated[str, typer.Argument(metavar="SESSION_ID", help="The session's id (see `sessions`).")],
    as_json: Json = False,
    api_url: ApiUrl = DEFAULT_API_URL,
    staff_email: StaffEmail = None,
    staff_password: StaffPassword = None,
) -> None:
    """End one session of an account: its tokens stop working at once; the device stays registered."""
    user_id = _account_id(user_id)
    session_id = _id(session_id, "a session id", f"list them with `touchline users sessions {user_id} --all`")
    content = _call(api_url, staff_email, staff_password,
                    lambda api: api.post(f"/admin/users/{user_id}/sessions/{session_id}/revoke"))
    if as_json:
        return _print_json(content)
    _console().print(f"Session {content['_id']} of account {user_id} on {content['deviceName']!r} is revoked "
                     f"(since {_when(content['revokedAt'])} UTC): its tokens no longer work.")


# --- devices -------------------------------------------------------------------------------------


def _devices(console: Console, content: dict, title: str) -> None:
    headers = ["ID", "Device ID", "Name", "OS", "Added (UTC)", "Last used (UTC)"]
    rows = []
    for d in content["devices"]:
        os_name = " ".join(part for part in (d["osName"], d["osVersion"]) if part) or NONE
        rows.append([d["_id"], d["deviceId"], d["deviceName"], os_name, _when(d["added"]), _when(d["updated"])])
    _rows(console, title, headers, rows, caption=f"{len(rows)} of {content['limit']} devices")


@app.command("devices")
def devices(
    user_id: UserId,
    as_json: Json = False,
    api_url: ApiUrl = DEFAULT_API_URL,
    staff_email: StaffEmail = None,
    staff_password: StaffPassword = None,
) -> None:
    """An account's devices, last used first, and its device limit."""
    user_id = _account_id(user_id)
    content = _call(api_url, staff_email, staff_password, lambda api: api.get(f"/admin/users/{user_id}/devices"))
    if as_json:
        return _print_json(content)
    console = _console()
    if not content["devices"]:
        console.print(f"Account {user_id} has no devices (limit {content['limit']}).")
        return
    _devices(console, content, f"Devices of account {user_id}")


@app.command("revoke-device")
def revoke_device(
    user_id: UserId,
    device_id: Annotated[str, typer.Argument(metavar="DEVICE_ID",
                                             help="The device's ID from `devices` (not its Device ID string).")],
    as_json: Json = False,
    api_url: ApiUrl = DEFAULT_API_URL,
    staff_email: StaffEmail = None,
    staff_password: StaffPassword = None,
) -> None:
    """Remove a device from an account: its sessions end and the device is told to sign out."""
    user_id = _account_id(user_id)
    device_id = _id(device_id, "a device id", f"it is the ID column of `touchline users devices {user_id}`")
    content = _call(api_url, staff_email, staff_password,
                    lambda api: api.post(f"/admin/users/{user_id}/devices/{device_id}/revoke"))
    if as_json:
        return _print_json(content)
    console = _console()
    console.print(f"Device {device_id} is removed from account {user_id}: its sessions ended and it was told to "
                  f"sign out. {len(content['devices'])} of {content['limit']} devices left.")
    if content["devices"]:
        _devices(console, content, "Devices left")
