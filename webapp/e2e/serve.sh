#!/usr/bin/env bash
# The server the end-to-end tests run against: a fresh, seeded SQLite database of its own and the
# built webapp, on the port Playwright gives.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
data="$(mktemp -d)"
trap 'rm -rf "$data"' EXIT
export TOUCHLINE_DATABASE_URL="sqlite+aiosqlite:///$data/e2e.db"
export TOUCHLINE_VAR_DIR="$data"
# No nginx-rtmp: several e2e servers run at once and would all want its ports. A spec of the live
# ingest starts a server of its own with E2E_INGEST=true, on ports it found free
# (TOUCHLINE_RTMP_PORT, TOUCHLINE_SRT_PORTS; e2e/ingest-support.ts).
export TOUCHLINE_INGEST_ENABLED="${E2E_INGEST:-false}"
export TOUCHLINE_WEBAPP_DIST="${E2E_DIST:-$root/webapp/dist}"
# Every test signs up and in from this one address: the per-address limit (server tests cover it)
# would refuse the suite's own accounts. The per-account limit stays as configured.
export TOUCHLINE_LOGIN_ATTEMPTS_PER_ADDRESS=1000
# The player's ad deadlines (GET /api/config `ads`), stretched for two browsers and servers sharing
# two cores: past them an ad is dropped, as it should be for a viewer, but the ad tests want it
# shown. A VAST that answers after 10 s (e2e/player-ads.spec.ts) is still past the first.
export TOUCHLINE_AD_VAST_DEADLINE_MS=4000
export TOUCHLINE_AD_START_DEADLINE_MS=10000
# The ladders the e2e tests transcode (uploads, test patterns) with x264's fastest preset: the same
# renditions for about half the CPU, on two cores that three browsers and servers share.
export TOUCHLINE_X264_PRESET="${TOUCHLINE_X264_PRESET:-ultrafast}"
# Confirmation mails are also written here (test-only), for the tests to open the sign-up link
# (playwright.config.ts sets the directory; e2e/mailbox.ts reads it).
export TOUCHLINE_MAIL_DROP_DIR="${TOUCHLINE_MAIL_DROP_DIR:-$data/mail}"
"$root/.venv/bin/touchline" db upgrade >/dev/null
"$root/.venv/bin/touchline" seed >/dev/null
"$root/.venv/bin/touchline" serve --port "${E2E_PORT:?}" &
server=$!
# The server may have gone first (a stop signals the whole group): under `set -e` a failing kill or
# the server's exit status would end the trap before the data is removed.
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$data"' EXIT INT TERM
wait "$server"
