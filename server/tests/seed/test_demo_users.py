"""The demo accounts of fixtures/users.yaml: seeded once, and they can sign in."""

from server.auth.passwords import Passwords
from server.seed.users import load_demo_users, seed_demo_users
from server.settings import PROJECT_ROOT
from server.tests.accounts import sign_in


async def test_demo_accounts_are_added_once_and_sign_in(database, client, settings):
    users = load_demo_users(PROJECT_ROOT / "fixtures")
    assert {u.role for u in users} == {"viewer", "support", "admin"}
    passwords = Passwords.from_settings(settings)
    async with database.session() as db:
        first = await seed_demo_users(db, users, passwords)
    async with database.session() as db:
        again = await seed_demo_users(db, users, passwords)
    assert (first, again) == (len(users), 0)
    for staff in (u for u in users if u.role != "viewer"):
        answer = await sign_in(client, staff.email, staff.password)
        assert answer.status_code == 200
        assert answer.json()["content"]["profile"]["role"] == staff.role
