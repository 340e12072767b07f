"""Which stream addresses staff may store: every viewer's browser will open them.

A stored address is either a path of this server (`/media/...`) or an http(s) URL of another
host. Nothing on the server fetches it, but a player in a viewer's browser does, so an address
inside the viewer's own network (a router, a metadata service, a database port on loopback)
would turn the player into a probe of it. Refused unless `TOUCHLINE_ALLOW_PRIVATE_STREAM_URLS`
is set (a lab whose encoder is on the local network):

- protocol-relative addresses (`//host/...`, and `/\\host`, which browsers read the same way);
- hosts that are IP addresses in private, loopback, link-local, shared, reserved or unspecified
  ranges, in any spelling a browser accepts (`127.1`, `0x7f.0.0.1`, `2130706433`, `[::1]`,
  `[::ffff:127.0.0.1]`), and the names `localhost` and `*.localhost`.

Names are not resolved: what a name resolves to for a viewer is not known here.
"""

import ipaddress
from urllib.parse import urlsplit

_LOCAL_NAMES = ("localhost", "localhost.")


def refusal(url: str, *, allow_private: bool = False) -> str | None:
    """Why `url` may not be stored as a stream address, or None when it may."""
    if url.startswith(("//", "/\\")):
        return "must be a path of this server or an http(s) URL with a host, not protocol-relative"
    if url.startswith("/") or allow_private:
        return None
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return "is not a valid URL"
    if not host:
        return "must name a host"
    if host in _LOCAL_NAMES or host.endswith((".localhost", ".localhost.")):
        return "must not point at this machine (localhost)"
    address = _ip_address(host)
    if address is not None and not address.is_global:
        return "must not point at a private, loopback, link-local or reserved address"
    return None


def _ip_address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """The address `host` is, read as a browser reads it (WHATWG URL), or None for a name."""
    address: ipaddress.IPv4Address | ipaddress.IPv6Address | None
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        address = _legacy_ipv4(host)
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _legacy_ipv4(host: str) -> ipaddress.IPv4Address | None:
    """`127.1`, `0x7f.1`, `017700000001`, `2130706433`: up to four dot-separated numbers in
    decimal, octal (leading 0) or hex (0x), the last filling the remaining bytes."""
    parts = host.rstrip(".").split(".")
    if not 1 <= len(parts) <= 4:
        return None
    numbers = []
    for part in parts:
        try:
            if part.lower().startswith("0x"):
                numbers.append(int(part[2:] or "0", 16))
            elif len(part) > 1 and part.startswith("0"):
                numbers.append(int(part, 8))
            else:
                numbers.append(int(part, 10))
        except ValueError:
            return None
    *leading, last = numbers
    if any(n > 255 for n in leading) or last >= 256 ** (5 - len(numbers)):
        return None
    value = last
    for position, number in enumerate(leading):
        value += number << (8 * (3 - position))
    return ipaddress.IPv4Address(value)
