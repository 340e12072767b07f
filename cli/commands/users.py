"""`touchline users …`: accounts for support staff, through the admin API.

Find an account, look at it, list its sessions and devices, end a session or remove a device.
Tables by default; `touchline users --json …` prints the API's answer (the envelope's `content`)
for scripts. The server and the staff account come from the group's options (staff_options.py).
"""

from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from ..admin_client import fail
from . import staff_completion
from .staff_api import (
    NONE,
    Page,
    Size,
    api_call,
    more_hint,
    new_console,
    object_id,
    print_json,
    print_rows,
    text_or_none,
    when,
)
from .staff_options import options_of, staff_group

app = staff_group("Accounts, their sessions and devices (support staff).")


class Role(StrEnum):
    viewer = "viewer"
    support = "support"
    admin = "admin"


UserId = Annotated[str, typer.Argument(metavar="ID", help="The account's id (see `touchline users find`).")]


def _account_id(value: str) -> str:
    return object_id(value, "an account id", "find it with `touchline users find`")


# --- find / show ---------------------------------------------------------------------------------


def _accounts(console: Console, entries: list[dict], title: str) -> None:
    headers = ["ID", "E-mail", "Name", "Sign-in", "Devices", "Sessions", "Last sign-in (UTC)", "Role"]
    print_rows(
        console,
        title,
        headers,
        [
            [
                e["userId"],
                text_or_none(e["email"]),
                e["displayName"],
                ", ".join(e["providers"]) or NONE,
                str(e["deviceCount"]),
                str(e["activeSessionCount"]),
                when(e["lastSignIn"]),
                _role(e),
            ]
            for e in entries
        ],
    )


def _role(user: dict) -> str:
    return "deleted" if user["deleted"] else user["role"]


@app.command("find")
def find(
    ctx: typer.Context,
    query: Annotated[
        str,
        typer.Argument(
            help="Part of the e-mail address or display name, or a whole account id.",
            autocompletion=staff_completion.emails,
        ),
    ],
    role: Annotated[Role | None, typer.Option("--role", help="Only viewers or only staff.")] = None,
    page: Page = 0,
    size: Size = 10,
) -> None:
    """Find accounts by e-mail address, display name or id (case-insensitive), best match first."""
    options = options_of(ctx)
    if not query.strip():
        raise fail("QUERY is empty: give part of an e-mail address or display name, or an account id")
    params: dict[str, Any] = {"q": query, "page": page, "size": size}
    if role is not None:
        params["role"] = role.value
    content = api_call(options, lambda api: api.get("/admin/users", params))
    if options.as_json:
        print_json(content)
        return
    console = new_console()
    if not content["entries"]:
        console.print(f"No account matches {query!r}" + (f" on page {page}." if page else "."))
        return
    _accounts(console, content["entries"], f"Accounts matching {query!r}")
    more_hint(console, content, page)


PROFILE_FIELDS = [
    ("city", "City"),
    ("countryName", "Country"),
    ("postalCode", "Postal code"),
    ("phone", "Phone"),
    ("gender", "Gender"),
    ("dateOfBirth", "Date of birth"),
    ("clubList", "Clubs"),
    ("identity", "Sport"),
    ("identityItem", "League"),
]


@app.command("show")
def show(ctx: typer.Context, user_id: UserId) -> None:
    """One account: how it signs in, its devices and sessions, and its profile."""
    options = options_of(ctx)
    user_id = _account_id(user_id)
    content = api_call(options, lambda api: api.get(f"/admin/users/{user_id}"))
    if options.as_json:
        print_json(content)
        return
    user, profile = content["user"], content["profile"]
    table = Table(title=f"Account {user['userId']}", title_justify="left", show_header=False)
    table.add_column("Field", style="bold", no_wrap=True)
    table.add_column("Value", overflow="fold")
    rows = [
        ("E-mail", text_or_none(user["email"])),
        ("Name", user["displayName"]),
        ("Role", user["role"]),
        ("Deleted", "yes" if user["deleted"] else "no"),
        ("Signs in with", ", ".join(user["providers"]) or NONE),
        ("Devices", str(user["deviceCount"])),
        ("Active sessions", str(user["activeSessionCount"])),
        ("Last sign-in", f"{when(user['lastSignIn'])} UTC" if user["lastSignIn"] else NONE),
        ("Created", f"{when(user['added'])} UTC"),
        ("Global tags", "yes" if profile["globalTags"] else "no"),
    ]
    for key, label in PROFILE_FIELDS:
        value = profile.get(key)
        rows.append((label, ", ".join(value) if isinstance(value, list) else text_or_none(value)))
    for label, value in rows:
        table.add_row(label, value or NONE)
    new_console().print(table)


# --- sessions ------------------------------------------------------------------------------------


def _session_state(s: dict) -> str:
    if s["revoked"]:
        return f"revoked {when(s['revokedAt'])}"
    if datetime.fromisoformat(s["expiresAt"]) <= datetime.now(UTC):
        return "expired"
    return "active"


def _sessions(console: Console, entries: list[dict], title: str) -> None:
    headers = [
        "Session",
        "Device ID",
        "Device name",
        "Provider",
        "Started (UTC)",
        "Last used (UTC)",
        "Expires (UTC)",
        "State",
    ]
    print_rows(
        console,
        title,
        headers,
        [
            [
                s["_id"],
                s["deviceId"],
                s["deviceName"],
                s["provider"],
                when(s["added"]),
                when(s["lastUsed"]),
                when(s["expiresAt"]),
                _session_state(s),
            ]
            for s in entries
        ],
    )


@app.command("sessions", hidden=True)
def sessions(
    ctx: typer.Context,
    user_id: UserId,
    show_all: Annotated[bool, typer.Option("--all", help="Also revoked and expired sessions.")] = False,
    page: Page = 0,
    size: Size = 10,
) -> None:
    """An account's sessions (one per sign-in), most recently used first; active ones unless --all."""
    options = options_of(ctx)
    user_id = _account_id(user_id)
    params = {"active": "false" if show_all else "true", "page": page, "size": size}
    content = api_call(options, lambda api: api.get(f"/admin/users/{user_id}/sessions", params))
    if options.as_json:
        print_json(content)
        return
    console = new_console()
    kind = "sessions" if show_all else "active sessions"
    if not content["entries"]:
        console.print(f"Account {user_id} has no {kind}" + (f" on page {page}." if page else "."))
        return
    _sessions(console, content["entries"], f"{kind.capitalize()} of account {user_id}")
    more_hint(console, content, page)


@app.command("revoke-session", hidden=True)
def revoke_session(
    ctx: typer.Context,
    user_id: UserId,
    session_id: Annotated[str, typer.Argument(metavar="SESSION_ID", help="The session's id (see `sessions`).")],
) -> None:
    """End one session of an account: its tokens stop working at once; the device stays registered."""
    options = options_of(ctx)
    user_id = _account_id(user_id)
    session_id = object_id(session_id, "a session id", f"list them with `touchline sessions list {user_id} --all`")
    content = api_call(
        options,
        lambda api: api.post(f"/admin/users/{user_id}/sessions/{session_id}/revoke"),
    )
    if options.as_json:
        print_json(content)
        return
    new_console().print(
        f"Session {content['_id']} of account {user_id} on {content['deviceName']!r} is revoked "
        f"(since {when(content['revokedAt'])} UTC): its tokens no longer work."
    )


# --- devices -------------------------------------------------------------------------------------


def _devices(console: Console, content: dict, title: str) -> None:
    headers = ["ID", "Device ID", "Name", "OS", "Added (UTC)", "Last used (UTC)"]
    rows = []
    for d in content["devices"]:
        os_name = " ".join(part for part in (d["osName"], d["osVersion"]) if part) or NONE
        rows.append([d["_id"], d["deviceId"], d["deviceName"], os_name, when(d["added"]), when(d["updated"])])
    print_rows(console, title, headers, rows, caption=f"{len(rows)} of {content['limit']} devices")


@app.command("devices", hidden=True)
def devices(ctx: typer.Context, user_id: UserId) -> None:
    """An account's devices, last used first, and its device limit."""
    options = options_of(ctx)
    user_id = _account_id(user_id)
    content = api_call(options, lambda api: api.get(f"/admin/users/{user_id}/devices"))
    if options.as_json:
        print_json(content)
        return
    console = new_console()
    if not content["devices"]:
        console.print(f"Account {user_id} has no devices (limit {content['limit']}).")
        return
    _devices(console, content, f"Devices of account {user_id}")


@app.command("revoke-device", hidden=True)
def revoke_device(
    ctx: typer.Context,
    user_id: UserId,
    device_id: Annotated[
        str, typer.Argument(metavar="DEVICE_ID", help="The device's ID from `devices` (not its Device ID string).")
    ],
) -> None:
    """Remove a device from an account: its sessions end and the device is told to sign out."""
    options = options_of(ctx)
    user_id = _account_id(user_id)
    device_id = object_id(device_id, "a device id", f"it is the ID column of `touchline devices list {user_id}`")
    content = api_call(options, lambda api: api.post(f"/admin/users/{user_id}/devices/{device_id}/revoke"))
    if options.as_json:
        print_json(content)
        return
    console = new_console()
    console.print(
        f"Device {device_id} is removed from account {user_id}: its sessions ended and it was told to "
        f"sign out. {len(content['devices'])} of {content['limit']} devices left."
    )
    if content["devices"]:
        _devices(console, content, "Devices left")
