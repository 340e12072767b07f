"""Stream keys through the real chain (issue 28 §2, tests 2): ffmpeg publishes to Debian's nginx
RTMP module, which asks this server's hook (server/ingest/hooks.py) before it accepts a frame."""

import asyncio
from datetime import timedelta

from server import clock
from server.db import Database
from server.ingest.hooks import hook_urls
from server.media.sources.rtmp import RtmpIngest
from server.services import stream_keys
from server.tests import factories
from server.tests.commerce import CREATED
from server.tests.media.serving import media_app
from server.tests.serving import uvicorn_serving

from .test_rtmp import free_port, publish, start_nginx


async def new_key(database: Database, settings) -> tuple[str, str]:
    """(event id, key) of a new upcoming event with a stream key."""
    async with database.session() as db:
        event = factories.event(db, "Ingest test", status="upcoming", when=clock.now() + timedelta(hours=1))
        await db.commit()
    CREATED.append((database, event.id))
    async with database.write_session() as db:
        issued = await stream_keys.create(db, event.id, settings=settings, actor=None)
    return event.id, issued.key


async def test_the_key_in_force_publishes_and_wrong_revoked_and_second_publishers_are_refused_at_connect(
    settings, database, tmp_path
):
    event_id, key = await new_key(database, settings)
    async with uvicorn_serving(lambda port: media_app(settings, database)) as base:
        publish_url, done_url = hook_urls(settings, base)
        ingest = RtmpIngest("127.0.0.1", free_port(), publish_url, done_url)
        nginx = await asyncio.to_thread(start_nginx, ingest, tmp_path)
        try:
            wrong = await asyncio.to_thread(publish, ingest, "tlk_" + "x" * 32)
            assert wrong.returncode != 0
            first = asyncio.create_task(asyncio.to_thread(publish, ingest, key, 6))
            await asyncio.sleep(2)  # the first encoder is live
            second = await asyncio.to_thread(publish, ingest, key)
            assert second.returncode != 0, "a second encoder on a live key was let in"
            assert (await first).returncode == 0, (await first).stderr
            async with database.write_session() as db:
                await stream_keys.revoke(db, event_id)
            revoked = await asyncio.to_thread(publish, ingest, key)
            assert revoked.returncode != 0
        finally:
            nginx.terminate()
            await asyncio.to_thread(nginx.wait, 10)
