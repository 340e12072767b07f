"""`touchline sessions …`: an account's sign-in sessions, through the admin API (support staff).

`list USER_ID [--all]` and `revoke USER_ID SESSION_ID`; the work is users.py's (the same
commands as `touchline users sessions` and `users revoke-session`). The server and the staff
account come from the group's options (staff_options.py), as does `--json`.
"""

from . import users
from .staff_options import staff_group

app = staff_group("An account's sign-in sessions: list, revoke (support staff).")
app.command("list")(users.sessions)
app.command("revoke")(users.revoke_session)
