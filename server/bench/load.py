"""Load generators.

Saturated: wrk, closed loop, N connections as fast as the server answers (throughput).
Rated: an aiohttp open-loop generator sending at a fixed rate. Each request's latency is
measured from its *scheduled* send time, so a stalled server shows up in p99 instead of
silently lowering the send rate (wrk's coordinated omission; wrk2 is not packaged here).
"""

import asyncio
import gc
import json
import os
import re
import subprocess
import tempfile
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1e3, "m": 60e3, "h": 3600e3}
_MARK = "BENCH_JSON "

# done() runs once in wrk's main Lua state and sees the merged statistics; it gives
# exact microsecond percentiles instead of wrk's rounded text.
_DONE = r"""
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "BENCH_JSON {\"requests\":%d,\"duration_us\":%d,\"p50_us\":%d,\"p99_us\":%d," ..
    "\"errors\":%d,\"non_2xx\":%d}\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, e.status))
end
"""


@dataclass
class LoadResult:
    name: str
    mode: str  # "saturated" or "rated N/s"
    requests_per_s: float
    p50_ms: float
    p99_ms: float
    requests: int = 0
    errors: int = 0  # socket errors, timeouts and non-2xx/3xx answers
    body_bytes: int | None = None
    note: str = ""


def lua_string(data: bytes) -> str:
    """A Lua string literal holding exactly `data` (decimal escapes for anything unsafe)."""
    return '"' + "".join(chr(b) if 32 <= b < 127 and b not in b'"\\' else f"\\{b:03d}" for b in data) + '"'


def lua_script(method: str = "GET", body: bytes | None = None, headers: dict | None = None) -> str:
    lines = [f"wrk.method = {lua_string(method.encode())}"]
    if body is not None:
        lines.append(f"wrk.body = {lua_string(body)}")
    for key, value in (headers or {}).items():
        lines.append(f"wrk.headers[{lua_string(key.encode())}] = {lua_string(value.encode())}")
    return "\n".join(lines) + "\n" + _DONE


def _ms(value: str, unit: str) -> float:
    return float(value) * _UNITS[unit]


def parse_wrk_output(text: str, name: str = "", mode: str = "saturated") -> LoadResult:
    """Read wrk's output; prefer the exact done() summary, fall back to --latency text."""
    for line in text.splitlines():
        if line.startswith(_MARK):
            d = json.loads(line[len(_MARK) :])
            return LoadResult(
                name,
                mode,
                d["requests"] / (d["duration_us"] / 1e6),
                d["p50_us"] / 1e3,
                d["p99_us"] / 1e3,
                d["requests"],
                d["errors"] + d["non_2xx"],
            )
    pct = {p: _ms(v, u) for p, v, u in re.findall(r"^\s+(\d+)%\s+([\d.]+)(us|ms|s|m|h)\s*$", text, re.M)}
    rps = re.search(r"^Requests/sec:\s+([\d.]+)", text, re.M)
    if rps is None or "50" not in pct or "99" not in pct:
        raise ValueError(f"unrecognised wrk output:\n{text}")
    total = re.search(r"^\s+(\d+) requests in", text, re.M)
    errors = sum(map(int, re.findall(r"(?:connect|read|write|timeout) (\d+)", text)))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    return LoadResult(
        name,
        mode,
        float(rps.group(1)),
        pct["50"],
        pct["99"],
        int(total.group(1)) if total else 0,
        errors + (int(non2xx.group(1)) if non2xx else 0),
    )


def run_wrk(
    url: str,
    name: str,
    *,
    method: str = "GET",
    body: bytes | None = None,
    headers: dict | None = None,
    duration: int = 10,
    connections: int = 64,
    threads: int = 1,
    warmup: int = 2,
) -> LoadResult:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as f:
        f.write(lua_script(method, body, headers))
    try:

        def wrk(seconds: int) -> str:
            cmd = [
                "wrk",
                "-t",
                str(threads),
                "-c",
                str(connections),
                "-d",
                f"{seconds}s",
                "--timeout",
                "5s",
                "--latency",
                "-s",
                f.name,
                url,
            ]
            return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout

        if warmup:  # fill pools and caches; not reported
            wrk(warmup)
        return parse_wrk_output(wrk(duration), name)
    finally:
        os.unlink(f.name)


def _percentile(sorted_values: list[float], p: float) -> float:
    if not sorted_values:
        return float("nan")
    k = max(0, min(len(sorted_values) - 1, round(p / 100 * len(sorted_values)) - 1))
    return sorted_values[k]


async def _rated(url, method, body, headers, rate, duration, connections) -> dict:
    import aiohttp

    latencies: list[float] = []
    errors = 0
    max_lag = 0.0
    timeout = aiohttp.ClientTimeout(total=10)
    connector = aiohttp.TCPConnector(limit=connections)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        now = time.perf_counter  # uvloop's loop.time() ticks in whole milliseconds

        async def one(scheduled: float) -> None:
            nonlocal errors
            # Late: count from the schedule (queueing is latency). Early (batched): from send.
            began = min(scheduled, now())
            try:
                async with session.request(method, url, data=body, headers=headers) as r:
                    await r.read()
                    if r.status >= 400:
                        errors += 1
            except (TimeoutError, aiohttp.ClientError):
                errors += 1
            latencies.append(now() - began)

        total, tasks = int(rate * duration), []
        start = now() + 0.05
        for i in range(total):
            scheduled = start + i / rate
            delay = scheduled - now()
            if delay > 0.001:  # batch the sub-millisecond gaps; the timer is ~1 ms anyway
                await asyncio.sleep(delay)
            max_lag = max(max_lag, now() - scheduled)
            tasks.append(asyncio.create_task(one(scheduled)))
        await asyncio.gather(*tasks)
        elapsed = now() - start
    latencies.sort()
    return {
        "n": len(latencies),
        "elapsed": elapsed,
        "errors": errors,
        "lag": max_lag,
        "p50": _percentile(latencies, 50),
        "p99": _percentile(latencies, 99),
    }


def run_rated(
    url: str,
    name: str,
    *,
    rate: float,
    method: str = "GET",
    body: bytes | None = None,
    headers: dict | None = None,
    duration: int = 10,
    connections: int = 64,
) -> LoadResult:
    """Open-loop run at `rate` req/s; p50/p99 count queueing behind a slow server."""
    runner: Callable[[Coroutine[Any, Any, dict]], dict]
    try:
        import uvloop

        runner = uvloop.run
    except ImportError:
        runner = asyncio.run
    # The generator's own full GC passes over thousands of live tasks stalled it by
    # 20-90 ms (seen as server p99); a 10 s run's garbage fits in memory.
    gc.collect()
    gc.disable()
    try:
        r = runner(_rated(url, method, body, headers, rate, duration, connections))
    finally:
        gc.enable()
    # A late generator would understate the offered load: say so rather than hide it.
    note = f"generator lag up to {r['lag'] * 1e3:.0f} ms" if r["lag"] > 0.005 else ""
    ok = r["n"] - r["errors"]  # failed or timed-out requests are not throughput
    return LoadResult(
        name, f"rated {rate:g}/s", ok / r["elapsed"], r["p50"] * 1e3, r["p99"] * 1e3, r["n"], r["errors"], note=note
    )
