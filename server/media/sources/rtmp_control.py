"""nginx's RTMP control API (`rtmp_control`, on loopback; rtmp.py): the server cuts off an encoder
nginx is taking a feed from. nginx answers the number of sessions it dropped."""

import logging

import aiohttp

log = logging.getLogger(__name__)

TIMEOUT = aiohttp.ClientTimeout(total=5)


async def drop_publisher(control_url: str, app: str, name: str, clientid: str | None = None) -> int:
    """Drops the publisher of the stream `name` (only the one with `clientid`, when given); how
    many sessions nginx dropped, 0 when it could not be asked."""
    params = {"app": app, "name": name, **({"clientid": clientid} if clientid else {})}
    try:
        async with (
            aiohttp.ClientSession(timeout=TIMEOUT) as session,
            session.get(f"{control_url}/drop/publisher", params=params) as answer,
        ):
            text = await answer.text()
            answer.raise_for_status()
    except (aiohttp.ClientError, TimeoutError) as failure:
        log.warning("ingest: nginx's control API did not answer (%s)", failure)
        return 0
    return int(text) if text.strip().isdigit() else 0
