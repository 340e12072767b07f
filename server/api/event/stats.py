"""A game's statistics: the score and the overview metrics."""

from ...services import stats as stats_service
from ...services.spoilers import SHOW, Spoilers
from ..http.cache import cached_for_anonymous
from ..http.database import db_read_session
from ..http.envelope import ok


@cached_for_anonymous
async def get_event_stats(id_: str, score: bool = True, overview: bool = True, spoilers: str = SHOW):
    mode = Spoilers.asked(spoilers)
    async with db_read_session() as db:
        vidswap = await stats_service.game_stats(db, id_, score=mode.stats(score), overview=mode.stats(overview))
    return ok({"vidswap": vidswap})
