#!/usr/bin/env bash
# The server the end-to-end tests run against: a fresh, seeded SQLite database of its own and the
# built webapp, on the port Playwright gives.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
data="$(mktemp -d)"
trap 'rm -rf "$data"' EXIT
export TOUCHLINE_DATABASE_URL="sqlite+aiosqlite:///$data/e2e.db"
export TOUCHLINE_VAR_DIR="$data"
export TOUCHLINE_WEBAPP_DIST="${E2E_DIST:-$root/webapp/dist}"
# Every test signs up and in from this one address: the per-address limit (server tests cover it)
# would refuse the suite's own accounts. The per-account limit stays as configured.
export TOUCHLINE_LOGIN_ATTEMPTS_PER_ADDRESS=1000
"$root/.venv/bin/touchline" db upgrade >/dev/null
"$root/.venv/bin/touchline" seed >/dev/null
"$root/.venv/bin/touchline" serve --port "${E2E_PORT:?}" &
server=$!
trap 'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null; rm -rf "$data"' EXIT INT TERM
wait "$server"
