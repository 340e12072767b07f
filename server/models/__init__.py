"""All ORM models; importing this package registers every table on Base.metadata."""

from .base import Base, new_id, utcnow
from .catalogue import (
    EpgProgramme,
    Event,
    EventIdentity,
    EventStats,
    Identity,
    IdentityParent,
    Team,
    TeamIdentity,
)

__all__ = [
    "Base",
    "EpgProgramme",
    "Event",
    "EventIdentity",
    "EventStats",
    "Identity",
    "IdentityParent",
    "Team",
    "TeamIdentity",
    "new_id",
    "utcnow",
]
