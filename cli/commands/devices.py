"""`touchline devices …`: an account's devices, through the admin API (support staff).

`list USER_ID` and `remove USER_ID DEVICE_ID` (the device's ID column, not its browser string):
its sessions end and it is told to sign out over the socket. The work is users.py's (the same
commands as `touchline users devices` and `users revoke-device`). The server and the staff
account come from the group's options (staff_options.py), as does `--json`.
"""

from . import users
from .staff_options import staff_group

app = staff_group("An account's devices: list, remove (support staff).")
app.command("list")(users.devices)
app.command("remove")(users.revoke_device)
