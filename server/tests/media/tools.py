"""The media tools tests run for real (ffmpeg, nginx with its RTMP module): `make test` installs
them (scripts/system-deps), so a missing one fails the test with the command that installs it,
rather than skipping what the tests exist to prove."""

import shutil
from pathlib import Path

import pytest

from server.media.sources.rtmp import NGINX_RTMP_MODULE


def tool(name: str) -> str:
    """The path of `name` (PATH, then sbin)."""
    found = shutil.which(name) or next(
        (str(p) for p in (Path("/usr/sbin") / name, Path("/sbin") / name) if p.exists()), None
    )
    if found is None:
        pytest.fail(f"{name} is missing: scripts/system-deps test installs it")
    return found


def nginx_with_rtmp() -> str:
    nginx = tool("nginx")
    if not NGINX_RTMP_MODULE.exists():
        pytest.fail(f"{NGINX_RTMP_MODULE} is missing: scripts/system-deps test installs libnginx-mod-rtmp")
    return nginx
