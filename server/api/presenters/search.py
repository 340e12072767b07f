"""API shape of a grouped search: names as the webapp links them, events as everywhere else."""

from typing import Any

from ...services.search import Named, SearchResults
from ...services.spoilers import SHOW
from ..http.envelope import ok, page_of
from .catalogue import event_presenter


def _team(item: Named) -> dict[str, Any]:
    return {
        "_id": item.id,
        "title": item.title,
        "shortTitle": item.short_title,
        "logo": item.image,
        "sportType": item.sport_type,
    }


def _identity(item: Named) -> dict[str, Any]:
    return {
        "_id": item.id,
        "title": item.title,
        "shortTitle": item.short_title,
        "imageUrl": item.image,
        "sportType": item.sport_type,
    }


def search_results(results: SearchResults, spoilers: str = SHOW) -> dict:
    """Grouped search results for the current viewer, in the success envelope."""
    return ok(
        {
            "teams": [_team(t) for t in results.teams],
            "leagues": [_identity(i) for i in results.leagues],
            "categories": [_identity(i) for i in results.categories],
            "sports": [{"sportType": s.sport_type, "title": s.title, "count": s.count} for s in results.sports],
            "events": page_of(results.events, event_presenter(spoilers=spoilers))["content"],
        }
    )
