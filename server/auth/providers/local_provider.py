"""A real OpenID Connect provider on loopback (oidc-provider-mock) for the ifa sign-on in
development (`touchline serve`) and in the contract checks: discovery, authorize, token, JWKS,
userinfo, and token introspection for our client (`local_introspection`).

`local_openid_provider()` runs it as a child process while the block runs and yields its
issuer, or None when it is not installed or does not start. The child binds the port itself
(`python -m server.auth.providers.local_provider`): the preferred one, or a free one when that
is taken (another `make run`), and reports the port it holds. The issuer is always that port,
so whatever else answers on the preferred port is never federated with.
"""

import argparse
import importlib.util
import json
import logging
import os
import select
import signal
import socket
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
    """The provider on `port` if it is free, else on a free port (0 asks for one at once)."""
    if not available():
        yield None
        return
    log_path.parent.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", __name__, "--port", str(port)]
    with log_path.open("ab") as log_file:
        process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=log_file,
            stdin=subprocess.DEVNULL,
            preexec_fn=_die_with_parent,
        )
    try:
        bound = _read_port(process)
        issuer = f"http://127.0.0.1:{bound}" if bound else None
        yield issuer if issuer and _wait_for_discovery(issuer, process) else None
    finally:
        _stop(process)


def main(argv: list[str] | None = None) -> None:
    """The child: serve the provider, with introspection for our client, and print the port."""
    parser = argparse.ArgumentParser(description="oidc-provider-mock for the development ifa sign-on")
    parser.add_argument("--port", type=int, default=0, help="preferred port; a free one when it is taken")
    args = parser.parse_args(argv)
    os.environ["AUTHLIB_INSECURE_TRANSPORT"] = "1"  # plain http on loopback
    logging.basicConfig(level=logging.INFO, stream=sys.stderr)

    import werkzeug.serving
    from oidc_provider_mock import User, app

    from .local_introspection import Introspection

    users = [User(sub=user["sub"], claims={k: v for k, v in user.items() if k != "sub"}) for user in USERS]
    provider = Introspection(app(user_claims=users), clients={CLIENT_ID: CLIENT_SECRET})
    listening = listen(args.port)
    port = listening.getsockname()[1]
    server = werkzeug.serving.make_server("127.0.0.1", port, provider, threaded=True, fd=listening.fileno())
    print(port, flush=True)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # anything printed later goes to the log
    server.serve_forever()


def listen(port: int) -> socket.socket:
    """A socket listening on 127.0.0.1:`port`, or on a free port when that one is taken."""
    for candidate in (port, 0) if port else (0,):
        sock = socket.socket()
        # Reuse a port left in TIME_WAIT by the previous run; a port another process listens
        # on still fails to bind (Linux).
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", candidate))
            sock.listen(128)
            return sock
        except OSError as exc:
            sock.close()
            if candidate == 0:
                raise
            logging.warning("port %s is taken (%s): the provider takes a free port", candidate, exc)
    raise AssertionError("unreachable")


def _read_port(process: subprocess.Popen) -> int | None:
    """The port the child bound, from its first line on stdout (None when it died first)."""
    assert process.stdout is not None  # stdout=PIPE
    try:
        ready, _, _ = select.select([process.stdout], [], [], START_TIMEOUT_S)
        line = process.stdout.readline().strip() if ready else b""
    finally:
        process.stdout.close()
    return int(line) if line.isdigit() else None


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


if __name__ == "__main__":
    main()
