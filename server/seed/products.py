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


# The demo products' descriptions in the webapp's other languages (`description` is English),
# served as `descriptions` ({name}: the league's or channel's title).
DESCRIPTIONS: dict[str, dict[str, str]] = {
    "ppv": {
        "de": "Sieh dir das Spiel live und 7 Tage lang auf Abruf an.",
        "es": "Mira el partido en directo y a la carta durante 7 días.",
        "fr": "Regardez le match en direct et à la demande pendant 7 jours.",
        "fr-CA": "Regardez le match en direct et sur demande pendant 7 jours.",
        "he": "צפו במשחק בשידור חי ולפי דרישה במשך 7 ימים.",
        "it": "Guarda la partita in diretta e on demand per 7 giorni.",
        "pl": "Oglądaj mecz na żywo i na żądanie przez 7 dni.",
        "pt": "Veja o jogo em direto e a pedido durante 7 dias.",
        "ca": "Mira el partit en directe i a la carta durant 7 dies.",
        "ko": "7일 동안 경기를 생중계와 다시보기로 시청하세요.",
        "zh": "7 天内观看比赛直播和点播。",
        "bs-BA": "Gledajte utakmicu uživo i na zahtjev 7 dana.",
        "uk-UA": "Дивіться матч наживо та на вимогу протягом 7 днів.",
    },
    "svod_league": {
        "de": "Jedes Spiel von {name}, live und auf Abruf.",
        "es": "Todos los partidos de {name}, en directo y a la carta.",
        "fr": "Tous les matchs de {name}, en direct et à la demande.",
        "fr-CA": "Tous les matchs de {name}, en direct et sur demande.",
        "he": "כל המשחקים של {name}, בשידור חי ולפי דרישה.",
        "it": "Tutte le partite di {name}, in diretta e on demand.",
        "pl": "Każdy mecz rozgrywek {name}, na żywo i na żądanie.",
        "pt": "Todos os jogos de {name}, em direto e a pedido.",
        "ca": "Tots els partits de {name}, en directe i a la carta.",
        "ko": "{name}의 모든 경기를 생중계와 다시보기로.",
        "zh": "{name} 的每场比赛，直播和点播。",
        "bs-BA": "Svaka utakmica takmičenja {name}, uživo i na zahtjev.",
        "uk-UA": "Кожен матч турніру {name} наживо та на вимогу.",
    },
    "svod_all": {
        "de": "Jedes Abo-Spiel aller Ligen.",
        "es": "Todos los partidos de suscripción de todas las ligas.",
        "fr": "Tous les matchs par abonnement de toutes les ligues.",
        "fr-CA": "Tous les matchs par abonnement de toutes les ligues.",
        "he": "כל משחקי המנוי של כל הליגות.",
        "it": "Tutte le partite in abbonamento di tutte le leghe.",
        "pl": "Każdy mecz w abonamencie ze wszystkich lig.",
        "pt": "Todos os jogos por subscrição de todas as ligas.",
        "ca": "Tots els partits de subscripció de totes les lligues.",
        "ko": "모든 리그의 구독 경기 전체.",
        "zh": "所有联赛的全部订阅比赛。",
        "bs-BA": "Svaka pretplatnička utakmica svih liga.",
        "uk-UA": "Кожен матч за підпискою в усіх лігах.",
    },
    "svod_season": {
        "de": "Ein ganzes Jahr lang jedes Abo-Spiel (nur in GB und IE).",
        "es": "Un año entero de todos los partidos de suscripción (solo GB e IE).",
        "fr": "Une année entière de tous les matchs par abonnement (GB et IE uniquement).",
        "fr-CA": "Une année entière de tous les matchs par abonnement (GB et IE seulement).",
        "he": "שנה שלמה של כל משחקי המנוי (בבריטניה ובאירלנד בלבד).",
        "it": "Un anno intero di tutte le partite in abbonamento (solo GB e IE).",
        "pl": "Cały rok wszystkich meczów w abonamencie (tylko GB i IE).",
        "pt": "Um ano inteiro de todos os jogos por subscrição (só GB e IE).",
        "ca": "Un any sencer de tots els partits de subscripció (només GB i IE).",
        "ko": "1년 동안 모든 구독 경기 (GB 및 IE 전용).",
        "zh": "一整年的全部订阅比赛（仅限 GB 和 IE）。",
        "bs-BA": "Cijela godina svih pretplatničkih utakmica (samo GB i IE).",
        "uk-UA": "Цілий рік усіх матчів за підпискою (лише GB та IE).",
    },
    "cvod": {
        "de": "{name}, rund um die Uhr.",
        "es": "{name}, las 24 horas.",
        "fr": "{name}, 24 heures sur 24.",
        "fr-CA": "{name}, 24 heures sur 24.",
        "he": "{name}, מסביב לשעון.",
        "it": "{name}, 24 ore su 24.",
        "pl": "{name} przez całą dobę.",
        "pt": "{name}, 24 horas por dia.",
        "ca": "{name}, les 24 hores.",
        "ko": "{name}, 24시간 내내.",
        "zh": "{name}，全天候播出。",
        "bs-BA": "{name}, 24 sata dnevno.",
        "uk-UA": "{name} цілодобово.",
    },
    "bundle": {
        "de": "Drei Pay-per-View-Spiele zum Preis von zwei.",
        "es": "Tres partidos de pago por visión por el precio de dos.",
        "fr": "Trois matchs à la carte pour le prix de deux.",
        "fr-CA": "Trois matchs à la carte pour le prix de deux.",
        "he": "שלושה משחקי תשלום לצפייה במחיר של שניים.",
        "it": "Tre partite pay-per-view al prezzo di due.",
        "pl": "Trzy mecze pay-per-view w cenie dwóch.",
        "pt": "Três jogos pay-per-view pelo preço de dois.",
        "ca": "Tres partits de pagament per visió pel preu de dos.",
        "ko": "유료 시청 경기 3개를 2개 가격에.",
        "zh": "三场按次付费比赛，只需两场的价格。",
        "bs-BA": "Tri pay-per-view utakmice po cijeni dvije.",
        "uk-UA": "Три матчі з оплатою за перегляд за ціною двох.",
    },
}


def translated(kind: str, **values: str) -> dict[str, str]:
    """A description's texts in the other locales, with {name} filled in."""
    return {locale: text.format(**values) for locale, text in DESCRIPTIONS[kind].items()}


def _product(now: datetime, key: str, type_: str, title: str, description: str, price_minor: int, **columns) -> dict:
    row: dict[str, Any] = {
        "id": stable_id("product", key),
        "type": type_,
        "title": title,
        "description": description,
        "descriptions": {},
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


def channel_product_title(channel_title: str) -> str:
    """A channel subscription's name: the channel's title with "Channel", unless the title already
    ends with it ("Net Zone" → "Net Zone Channel", "Hockey Night Channel" stays as it is)."""
    words = channel_title.split()
    return channel_title if words and words[-1].lower() == "channel" else f"{channel_title} Channel"


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
                descriptions=translated("ppv"),
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
                    descriptions=translated("svod_league", name=league.title),
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
            descriptions=translated("svod_all"),
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
            descriptions=translated("svod_season"),
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
                    channel_product_title(channel["title"]),
                    f"{channel['title']}, around the clock.",
                    499,
                    descriptions=translated("cvod", name=channel["title"]),
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
            descriptions=translated("bundle"),
            bundle_start=now - timedelta(days=1),
            bundle_end=upcoming[-1]["event_date"] + timedelta(days=7),
        )
        products.append(bundle)
        items = [
            {"bundle_id": bundle["id"], "product_id": ppv_of[g["id"]]["id"], "position": n}
            for n, g in enumerate(upcoming)
        ]
    return products, items
