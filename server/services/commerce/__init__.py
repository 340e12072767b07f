"""Commerce: what is on sale, what viewers hold, and how they come to hold it.

- `periods`: contract periods and access windows.
- `holdings`: what one viewer holds now (the input of every access decision).
- `grants`: recording a purchase or contract once it is paid for (or granted by a code).
- `products`, `purchases`, `subscriptions`, `settlement`, `renewals`, `access_codes`: the flows.

Who may watch an event is decided in one place: `server.services.access.decide`.
"""
