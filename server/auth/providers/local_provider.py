"""A real OpenID Connect provider on loopback (oidc-provider-mock) for the ifa sign-on in
development (`touchline serve`) and in the contract checks: discovery, authorize, token, JWKS.

`local_openid_provider()` runs it as a child process while the block runs and yields its
issuer, or None when it is not installed or does not start."""

import importlib.util
import json
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CLIENT_ID = "touchline-web"
CLIENT_SECRET = "touchline-development-ifa-secret"
# One-click users on the provider's sign-in page.
USERS = (
    {"sub": "ifa-fan-1", "email": "fan.one@example.com", "email_verified": True, "name": "Ifa Fan One"},
    {"sub": "ifa-fan-2", "email": "fan.two@example.com", "email_verified": True, "name": "Ifa Fan Two"},
)
START_TIMEOUT_S = 15


def available() -> bool:
    return importlib.util.find_spec("oidc_provider_mock") is not None


def settings_for(issuer: str) -> dict[str, str]:
    """The environment that points the ifa sign-on at a local provider."""
    return {
        "TOUCHLINE_IFA_ISSUER": issuer,
        "TOUCHLINE_IFA_CLIENT_ID": CLIENT_ID,
        "TOUCHLINE_IFA_CLIENT_SECRET": CLIENT_SECRET,
    }


@contextmanager
def local_openid_provider(port: int, log_path: Path) -> Iterator[str | None]:
    if not available():
        yield None
        return
    issuer = f"http://127.0.0.1:{port}"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "oidc_provider_mock", "--host", "127.0.0.1", "--port", str(port)]
    for user in USERS:
        command += ["--user-claims", json.dumps(user)]
    with log_path.open("ab") as log_file:
        process = subprocess.Popen(
            command, stdout=log_file, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, preexec_fn=_die_with_parent
        )
    try:
        yield issuer if _wait_for_discovery(issuer, process) else None
    finally:
        _stop(process)


def _die_with_parent() -> None:
    """In the child, before exec: on Linux, ask for SIGTERM when the parent dies, even when it is
    killed without a chance to stop the provider."""
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


def _wait_for_discovery(issuer: str, process: subprocess.Popen) -> bool:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        try:
            with urllib.request.urlopen(f"{issuer}/.well-known/openid-configuration", timeout=1) as answer:
                if json.load(answer).get("issuer") == issuer:
                    return True
        except (OSError, ValueError):
            pass
        time.sleep(0.1)
    return False


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)
