"""Demo products for the seeded catalogue, so every way to pay has something to buy:

- a pay-per-view for every paid (ppv or transactional) game;
- a monthly pass per league whose games are in the subscription, an "All Access" monthly pass
  covering everything, and a yearly season pass sold only in GB and IE (the region rule);
- a monthly channel subscription per channel sold by cvod, carrying its sport's leagues;
- a bundle of the next three upcoming pay-per-view games.

Ids are stable (derived from what they sell), so re-seeding updates them in place.
"""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any

from .fixtures import CatalogueSpec, stable_id

PAID = ("commerce_ppv_media", "commerce_transactional_media")
PPV_PRICES = (499, 799, 999, 1299)


def _product(now: datetime, key: str, type_: str, title: str, description: str, price_minor: int, **columns) -> dict:
    row: dict[str, Any] = {
        "id": stable_id("product", key),
        "type": type_,
        "title": title,
        "description": description,
        "event_id": None,
        "price_minor": price_minor,
        "currency": "EUR",
        "on_sale": True,
        "offer_start": None,
        "offer_end": None,
        "renewable": False,
        "duration": None,
        "duration_units": None,
        "regions": [],
        "identity_items": [],
        "bundle_start": None,
        "bundle_end": None,
        "auto_renew": False,
        "created": now - timedelta(days=30),
        "updated": now - timedelta(days=30),
    }
    row.update(columns)
    return row


def build_products(
    spec: CatalogueSpec, events: list[dict], event_identities: list[dict], league_id, now: datetime
) -> tuple[list[dict], list[dict]]:
    """(products, bundle_items) rows for the seeded `events`."""
    rng = random.Random(2026)
    leagues_of: dict[str, list[str]] = defaultdict(list)
    for link in event_identities:
        if link["identity_type"] == "identity_item":
            leagues_of[link["event_id"]].append(link["identity_id"])
    games = [e for e in events if e["media_type"] == "event" and e["event_type"] != "channel"]
    products: list[dict] = []

    ppv_of: dict[str, dict] = {}
    for game in games:
        if game["commerce_type"] in PAID or "ppv" in game["commerce_modes"]:
            row = _product(
                now,
                f"ppv:{game['external_id']}",
                "ppv",
                f"Pay-per-view: {game['title']}",
                "Watch the match live and on demand for 7 days.",
                rng.choice(PPV_PRICES),
                event_id=game["id"],
                duration=7,
                duration_units="days",
            )
            ppv_of[game["id"]] = row
            products.append(row)

    subscribed = {
        league
        for g in games
        if "svod" in g["commerce_modes"] or g["commerce_type"] == "commerce_subscription-basic_media"
        for league in leagues_of[g["id"]]
    }
    for league in spec.leagues:
        lid = league_id(league.slug)
        if lid in subscribed and not league.archived:
            products.append(
                _product(
                    now,
                    f"svod:{league.slug}",
                    "svod",
                    f"{league.title} Pass",
                    f"Every {league.title} match, live and on demand.",
                    999,
                    renewable=True,
                    duration=1,
                    duration_units="months",
                    identity_items=[lid],
                )
            )
    products.append(
        _product(
            now,
            "svod:all-access",
            "svod",
            "Touchline All Access",
            "Every subscription match of every league.",
            1999,
            renewable=True,
            duration=1,
            duration_units="months",
        )
    )
    products.append(
        _product(
            now,
            "svod:season",
            "svod",
            "Touchline Season Pass",
            "A whole year of every subscription match (GB and IE only).",
            14999,
            renewable=True,
            duration=1,
            duration_units="years",
            regions=["GB", "IE"],
        )
    )

    for channel in (e for e in events if e["event_type"] == "channel"):
        if "cvod" in channel["commerce_modes"]:
            sport = spec.sport_by_type(channel["sport_type"]) if channel["sport_type"] else None
            sport_leagues = [league_id(lg.slug) for lg in (sport.leagues if sport else ()) if not lg.archived]
            products.append(
                _product(
                    now,
                    f"cvod:{channel['external_id']}",
                    "cvod",
                    f"{channel['title']} Channel",
                    f"{channel['title']}, around the clock.",
                    499,
                    event_id=channel["id"],
                    renewable=True,
                    duration=1,
                    duration_units="months",
                    identity_items=sport_leagues,
                )
            )

    upcoming = sorted(
        (g for g in games if g["status"] == "upcoming" and g["id"] in ppv_of), key=lambda g: g["event_date"]
    )[:3]
    items: list[dict] = []
    if len(upcoming) == 3:
        bundle = _product(
            now,
            "bundle:next-three",
            "bundle",
            "The next three big matches",
            "Three pay-per-view matches for the price of two.",
            sum(ppv_of[g["id"]]["price_minor"] for g in upcoming[:2]),
            bundle_start=now - timedelta(days=1),
            bundle_end=upcoming[-1]["event_date"] + timedelta(days=7),
        )
        products.append(bundle)
        items = [
            {"bundle_id": bundle["id"], "product_id": ppv_of[g["id"]]["id"], "position": n}
            for n, g in enumerate(upcoming)
        ]
    return products, items
