"""Demo accounts from fixtures/users.yaml: added when missing, left alone when present."""

from dataclasses import dataclass
from pathlib import Path

import yaml
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from .. import clock
from ..auth.passwords import Passwords
from ..models import User, new_id


@dataclass(frozen=True)
class DemoUser:
    email: str
    password: str
    display_name: str
    role: str = "viewer"
    global_tags: bool = False


def load_demo_users(fixtures_dir: Path) -> list[DemoUser]:
    path = fixtures_dir / "users.yaml"
    if not path.exists():
        return []
    entries = yaml.safe_load(path.read_text())["users"]
    return [
        DemoUser(
            e["email"].lower(),
            e["password"],
            e["displayName"],
            e.get("role", "viewer"),
            bool(e.get("globalTags", False)),
        )
        for e in entries
    ]


async def seed_demo_users(db: AsyncSession, users: list[DemoUser], passwords: Passwords) -> int:
    """Insert the accounts whose address is not taken yet; returns how many were added."""
    taken = set((await db.execute(select(User.email).where(User.email.in_([u.email for u in users])))).scalars())
    added = 0
    for demo in users:
        if demo.email in taken:
            continue
        now = clock.now()
        db.add(
            User(
                id=new_id(),
                email=demo.email,
                password_hash=await passwords.hash(demo.password),
                display_name=demo.display_name,
                role=demo.role,
                global_tags=demo.global_tags,
                club_list=[],
                options={},
                created=now,
                updated=now,
                email_verified_at=now,  # demo and staff accounts: their addresses are ours
            )
        )
        added += 1
    await db.commit()
    return added
