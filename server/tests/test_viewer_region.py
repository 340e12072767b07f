"""One rule for the viewer's region, which the API and the media routes both ask (server.viewer_region)."""

import pytest

from server.settings import Settings
from server.viewer_region import viewer_region

BEHIND_CDN = Settings(environment="test", region_header="CloudFront-Viewer-Country", default_region="GB")


@pytest.mark.parametrize(
    ("sent", "region"),
    [("FR", "FR"), (" ie ", "IE"), (None, "GB"), ("", "GB"), ("FRA", "GB"), ("1A", "GB"), ("--", "GB")],
)
def test_the_cdns_header_names_the_region_else_the_default(sent, region):
    headers = {"CloudFront-Viewer-Country": sent} if sent is not None else {}
    assert viewer_region(BEHIND_CDN, headers.get) == region


def test_without_a_header_setting_everyone_is_in_the_default_region():
    assert viewer_region(Settings(environment="test", default_region="DE"), {"X-Country": "FR"}.get) == "DE"
