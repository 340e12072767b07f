"""Fixtures every commerce API test uses."""

import pytest

from server.tests.accounts import sign_up


@pytest.fixture
async def viewer(client):
    """A newly signed-up viewer: the sign-up answer plus `id` (their user id)."""
    user = await sign_up(client)
    return {**user, "id": user["profile"]["userId"]}
