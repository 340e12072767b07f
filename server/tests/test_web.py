"""The built webapp as the server serves it: client-side routes, cache headers, gzip copies."""

import gzip

import httpx
import pytest

from server.settings import Settings
from server.web import static_app

INDEX = "<!doctype html><html><body><div id=root></div>" + "<!-- padding -->" * 64 + "</body></html>"
SCRIPT = "console.log('touchline');" * 64


@pytest.fixture
def dist(tmp_path):
    (tmp_path / "assets").mkdir()
    (tmp_path / "index.html").write_text(INDEX)
    (tmp_path / "index.html.gz").write_bytes(gzip.compress(INDEX.encode()))
    (tmp_path / "assets" / "index-abc123.js").write_text(SCRIPT)
    (tmp_path / "assets" / "index-abc123.js.gz").write_bytes(gzip.compress(SCRIPT.encode()))
    return tmp_path


@pytest.fixture
async def client(dist):
    app = static_app(Settings(environment="test", webapp_dist=dist))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://touchline.test") as client:
        yield client


async def test_a_client_side_route_gets_the_app_page_revalidated_on_every_visit(client):
    response = await client.get("/de/league/3", headers={"Accept-Encoding": "identity"})
    assert response.status_code == 200 and response.text == INDEX
    assert response.headers["cache-control"] == "no-cache"


async def test_hashed_assets_are_cached_for_a_year(client):
    response = await client.get("/assets/index-abc123.js", headers={"Accept-Encoding": "identity"})
    assert response.status_code == 200 and response.text == SCRIPT
    assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert response.headers["content-type"].startswith("text/javascript")


async def test_browsers_accepting_gzip_get_the_precompressed_copy(client):
    response = await client.get("/assets/index-abc123.js", headers={"Accept-Encoding": "gzip, br"})
    assert response.headers["content-encoding"] == "gzip"
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.text == SCRIPT  # httpx decodes it: the copy holds the same file
    page = await client.get("/live", headers={"Accept-Encoding": "gzip"})
    assert page.headers["content-encoding"] == "gzip" and page.text == INDEX


async def test_a_missing_asset_is_a_404_not_the_app_page(client):
    response = await client.get("/assets/index-gone.js")
    assert response.status_code == 404
    assert response.json()["messageErrorCode"] == "not_found"
