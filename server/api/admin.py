"""Handlers for the `admin` tag: staff operations.

Each later piece of work implements the staff calls of its area; until then they answer 501.
"""

from .staff.access_codes import issue_access_codes, list_access_codes, revoke_access_code  # noqa: F401
from .staff.billing import run_renewals  # noqa: F401
from .staff.events import create_event, finish_event, go_live, set_stream_url, update_event  # noqa: F401
from .staff.outbox import list_outbox  # noqa: F401
from .staff.products import list_products  # noqa: F401
from .staff.socket import emit_socket_message  # noqa: F401
from .staff.users import (  # noqa: F401
    find_users,
    get_user,
    list_user_devices,
    list_user_sessions,
    revoke_device,
    revoke_session,
)

PENDING = frozenset()
