"""The demo products: names read as a person would write them."""

from server.seed.products import channel_product_title


def test_a_channel_subscription_is_named_after_its_channel():
    assert channel_product_title("Net Zone") == "Net Zone Channel"
    assert channel_product_title("Courtside TV") == "Courtside TV Channel"


def test_a_channel_whose_title_ends_with_channel_gets_no_second_one():
    assert channel_product_title("Hockey Night Channel") == "Hockey Night Channel"
    assert channel_product_title("Sports channel") == "Sports channel"


def test_every_demo_product_describes_itself_in_every_other_locale():
    from datetime import UTC, datetime

    from server.page_routes import DEFAULT_LOCALE, LOCALES
    from server.seed.catalogue import build_catalogue

    data = build_catalogue(now=datetime(2026, 11, 22, 12, tzinfo=UTC))
    others = set(LOCALES) - {DEFAULT_LOCALE}
    assert data.products
    for row in data.products:
        assert set(row["descriptions"]) == others, row["title"]
        assert all(text.strip() and "{" not in text for text in row["descriptions"].values()), row["title"]
    league_pass = next(row for row in data.products if row["title"] == "Northern Premier Division Pass")
    assert league_pass["descriptions"]["de"] == "Jedes Spiel von Northern Premier Division, live und auf Abruf."
