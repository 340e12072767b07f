"""Media types are case-insensitive (RFC 9110 §8.3.1); Connexion's lookups are not.

`Content-Type: APPLICATION/JSON` used to skip Connexion's body parsing and validation, so handlers
got bytes and answered 500. The body layer (limits.py) hands on every request's Content-Type in
its canonical spelling: type, subtype, parameter names and the charset in lower case, without
the whitespace around them. Other parameter values keep their case (a multipart boundary is
case-sensitive).
"""


def canonical_content_type(value: bytes) -> bytes:
    media_type, *parameters = value.split(b";")
    parts = [media_type.strip().lower()]
    for parameter in parameters:
        name, equals, argument = parameter.strip().partition(b"=")
        if not name:
            continue
        name = name.strip().lower()
        argument = argument.strip()
        if name == b"charset":
            argument = argument.lower()
        parts.append(name + equals + argument)
    return b"; ".join(parts)
