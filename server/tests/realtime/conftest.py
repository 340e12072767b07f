"""Redis for the realtime tests: private redis-server processes on free ports (see support).

Without redis-server the Redis tests skip, or fail with REQUIRE_REDIS=1 (CI).
"""

import pytest

from .support import RedisServer, redis_server_binary


@pytest.fixture(scope="session")
def redis_server():
    """One Redis shared by the tests that leave it running; each test uses channels of its own."""
    server = RedisServer(redis_server_binary()).start()
    yield server
    server.stop()


@pytest.fixture
def own_redis():
    """A Redis for one test, which may kill and restart it."""
    server = RedisServer(redis_server_binary()).start()
    yield server
    server.stop()
