"""The staff sign-in `touchline login` keeps for later commands.

One JSON file, `credentials.json`, in the user's configuration directory (typer.get_app_dir:
`~/.config/touchline` on Linux; `TOUCHLINE_CONFIG_DIR` overrides it), readable by its owner only
(mode 600, in a directory of mode 700). It holds the server's URL, the account's e-mail
address and role, and the access and refresh tokens; never the password. `touchline logout`
removes it.
"""

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

import typer

FILE_NAME = "credentials.json"


@dataclass
class StoredLogin:
    api_url: str
    email: str
    role: str
    access_token: str
    refresh_token: str | None
    device_id: str


def config_dir() -> Path:
    override = os.environ.get("TOUCHLINE_CONFIG_DIR")
    return Path(override) if override else Path(typer.get_app_dir("touchline"))


def path() -> Path:
    return config_dir() / FILE_NAME


def load() -> StoredLogin | None:
    try:
        data = json.loads(path().read_text())
        return StoredLogin(**data)
    except (OSError, ValueError, TypeError):
        return None


def save(login: StoredLogin) -> Path:
    directory = config_dir()
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    target = path()
    temporary = target.with_suffix(".tmp")
    # Created with mode 600 from the start: the tokens are never readable by anyone else.
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as file:
        json.dump(asdict(login), file)
    os.chmod(temporary, 0o600)
    os.replace(temporary, target)
    return target


def remove() -> bool:
    try:
        path().unlink()
    except FileNotFoundError:
        return False
    return True
