"""CMCD (CTA-5004, query mode) on media requests: the server keeps what players say of each one
(the view's session, buffer length, measured throughput, requested bitrate), and the parameter
changes neither the answer nor what a token opens."""

import json
import logging
from urllib.parse import quote

from server.media.delivery import cmcd

from .test_edge_routes import edge_url

SENT = 'bl=21300,br=2800,cid="65a1f0c2e4b0a1b2c3d4e5f6",d=2000,mtp=25400,ot=v,sf=h,sid="view-6e2fb550c457",su'


def test_the_query_value_is_read_as_cta_5004_says():
    assert cmcd.parse(SENT) == {
        "bl": 21300,
        "br": 2800,
        "cid": "65a1f0c2e4b0a1b2c3d4e5f6",
        "d": 2000,
        "mtp": 25400,
        "ot": "v",
        "sf": "h",
        "sid": "view-6e2fb550c457",
        "su": True,
    }


def test_what_does_not_follow_the_format_is_left_out():
    assert cmcd.parse('bl=abc def,br=,sid="unterminated,nrr="0-100",xyz=1,mtp=1.5') == {"mtp": 1.5}
    assert cmcd.parse("") == {} and cmcd.parse("," * 5000) == {}
    assert cmcd.parse('sid="' + "x" * 65 + '"') == {}


async def test_a_segment_request_with_cmcd_is_answered_and_its_data_kept(settings, media, tmp_path):
    with cmcd.writing(tmp_path) as path:
        url = edge_url(settings, "vod/football/index.m3u8")
        plain = await media.get(url)
        with_cmcd = await media.get(f"{url}&CMCD={quote(SENT)}")
        logging.getLogger("touchline.cmcd").handlers[-1].flush()
        lines = path.read_text().splitlines()
    assert plain.status_code == with_cmcd.status_code == 200 and plain.content == with_cmcd.content
    [line] = lines  # the request without CMCD writes nothing
    kept = json.loads(line.split(" ", 2)[2])
    assert kept["path"] == "vod/football/index.m3u8"
    assert (kept["sid"], kept["bl"], kept["mtp"], kept["br"]) == ("view-6e2fb550c457", 21300, 25400, 2800)
