"""Fast checks of the bench harness: output parsing and the baseline apps. No load runs."""

import json

import pytest
from starlette.testclient import TestClient

from server.bench.baselines import bare_asgi_app, body_of_size, connexion_app
from server.bench.load import lua_script, parse_wrk_output

# Captured from wrk 4.1.0 (Debian) with the harness's Lua script, against the bare ASGI app.
WRK_OK = """\
Running 2s test @ http://127.0.0.1:60447/
  2 threads and 64 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     2.34ms    4.16ms  60.62ms   97.31%
    Req/Sec    17.34k     4.28k   26.98k    67.50%
  Latency Distribution
     50%    1.54ms
     75%    2.12ms
     90%    3.33ms
     99%   18.71ms
  69309 requests in 2.04s, 47.99MB read
Requests/sec:  33976.07
Transfer/sec:     23.52MB
BENCH_JSON {"requests":69309,"duration_us":2039936,"p50_us":1545,"p99_us":18714,"errors":0,"non_2xx":0}
"""

# Captured the same way against an unknown Connexion path (every answer a 404).
WRK_404 = """\
Running 2s test @ http://127.0.0.1:49359/api/nope
  2 threads and 64 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    15.13ms    7.75ms  83.36ms   85.08%
    Req/Sec     2.22k   382.86     3.03k    67.50%
  Latency Distribution
     50%   13.53ms
     75%   15.65ms
     90%   22.64ms
     99%   44.09ms
  8829 requests in 2.00s, 1.88MB read
  Non-2xx or 3xx responses: 8829
Requests/sec:   4412.63
Transfer/sec:      0.94MB
BENCH_JSON {"requests":8829,"duration_us":2000849,"p50_us":13534,"p99_us":44091,"errors":0,"non_2xx":8829}
"""


def _text_only(sample: str) -> str:
    return "\n".join(line for line in sample.splitlines() if not line.startswith("BENCH_JSON"))


def test_parse_done_summary():
    r = parse_wrk_output(WRK_OK, "bare")
    assert r.requests == 69309 and r.errors == 0
    assert r.requests_per_s == pytest.approx(69309 / 2.039936)
    assert (r.p50_ms, r.p99_ms) == (1.545, 18.714)


def test_parse_latency_text_fallback():
    r = parse_wrk_output(_text_only(WRK_OK))
    assert r.requests_per_s == 33976.07 and r.requests == 69309
    assert (r.p50_ms, r.p99_ms) == (1.54, 18.71)


@pytest.mark.parametrize("sample", [WRK_404, _text_only(WRK_404)])
def test_non_2xx_count_as_errors(sample):
    r = parse_wrk_output(sample)
    assert r.errors == 8829
    assert r.p99_ms == pytest.approx(44.09, abs=0.01)


def test_unrecognised_output_raises():
    with pytest.raises(ValueError):
        parse_wrk_output("wrk: connection refused\n")


def test_lua_script_escapes_body():
    body = '{"a":"]]\\n","é":"\\""}'.encode()
    script = lua_script("POST", body, {"Content-Type": "application/json"})
    assert 'wrk.method = "POST"' in script
    assert 'wrk.headers["Content-Type"] = "application/json"' in script
    assert r'wrk.body = "{\034a\034:\034]]\092n\034,\034\195\169\034:\034\092\034\034}"' in script
    assert "done = function" in script


@pytest.mark.parametrize("size", [64, 5000, 12345])
def test_bare_asgi_body_has_requested_size(size):
    assert len(body_of_size(size)) == size
    resp = TestClient(bare_asgi_app(size)).get("/")
    assert resp.status_code == 200
    assert len(resp.content) == size
    assert resp.json()["error"] is False


def test_trivial_connexion_answers_200():
    app = connexion_app(2000)
    with app.test_client() as client:
        resp = client.get("/api/ping", params={"limit": 3})
        assert resp.status_code == 200
        assert json.loads(resp.content) == json.loads(body_of_size(2000))
        assert client.get("/api/ping", params={"limit": 0}).status_code == 400


def test_a_bulk_filled_postgresql_database_is_analyzed_before_it_is_measured():
    import psycopg

    from server.bench.servers import analyzed
    from server.tests.conftest import _drop_postgres_database, _postgres_database

    name = _postgres_database()
    try:
        dsn = f"postgresql://postgres@127.0.0.1:5432/{name}"
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute("CREATE TABLE filled (n integer)")
            conn.execute("INSERT INTO filled SELECT generate_series(1, 1000)")
        assert analyzed(f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}").endswith(name)
        with psycopg.connect(dsn, autocommit=True) as conn:
            row = conn.execute("SELECT reltuples FROM pg_class WHERE relname = 'filled'").fetchone()
        assert row is not None and row[0] == 1000
    finally:
        _drop_postgres_database(name)
