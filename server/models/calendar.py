"""Personal calendar feeds: one per viewer, reached by a secret in its URL (issue 31 §4).

Only the secret's SHA-256 is kept (as for API keys and stream keys): the secret is 256 random
bits, so a slow hash buys nothing, and a presented one is found with one index hit on its hash,
whether or not it exists. Revoking deletes the row."""

from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base
from .types import UTCDateTime


class CalendarFeed(Base):
    __tablename__ = "calendar_feeds"

    user_id: Mapped[str] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    secret_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created: Mapped[datetime] = mapped_column(UTCDateTime)
