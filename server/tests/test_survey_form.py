"""The built-in survey form (server/survey_form.py) as the server serves it."""

import base64
import hashlib
import re

import httpx
import pytest

from server.settings import SURVEY_DEFAULT_FORM_PATH, Settings
from server.survey_form import SCRIPT, STRINGS, STYLE
from server.web import static_app


@pytest.fixture
async def client(tmp_path):
    app = static_app(Settings(environment="test", webapp_dist=tmp_path))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://touchline.test") as client:
        yield client


def sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


async def test_the_form_has_its_own_strict_policy_and_only_this_server_may_frame_it(client):
    response = await client.get(SURVEY_DEFAULT_FORM_PATH)
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    policy = response.headers["content-security-policy"]
    assert "default-src 'none'" in policy and "frame-ancestors 'self'" in policy
    assert f"script-src {sha256(SCRIPT)}" in policy and f"style-src {sha256(STYLE)}" in policy
    assert response.headers["x-frame-options"] == "SAMEORIGIN"
    # Exactly one inline script and style, the ones hashed; nothing loads from anywhere.
    assert re.findall(r"<script>(.*?)</script>", response.text, re.S) == [SCRIPT]
    assert re.findall(r"<style>(.*?)</style>", response.text, re.S) == [STYLE]
    assert "src=" not in response.text and "href=" not in response.text


async def test_it_reports_to_its_own_origin_only():
    assert "postMessage(m,window.location.origin)" in SCRIPT and "'touchline-survey'" in SCRIPT


@pytest.mark.parametrize("lang", sorted(STRINGS))
async def test_every_locale_is_translated(client, lang):
    response = await client.get(SURVEY_DEFAULT_FORM_PATH, params={"lang": lang})
    assert f'lang="{lang}"' in response.text
    assert STRINGS[lang]["submit"] in response.text
    assert ('dir="rtl"' in response.text) == (lang == "he")
    assert set(STRINGS[lang]) == set(STRINGS["en"])


async def test_an_unknown_language_gets_english_and_markup_is_never_echoed(client):
    response = await client.get(SURVEY_DEFAULT_FORM_PATH, params={"lang": '"><script>alert(1)</script>'})
    assert 'lang="en"' in response.text and "alert(1)" not in response.text
