# Touchline: `make run` serves everything at http://127.0.0.1:8080, `make test` runs every suite.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8080
export PORT
# Python's bytecode cache stays on: every test worker, and each server, CLI and seed process a
# test starts, imports the same modules, and with writing off (PYTHONDONTWRITEBYTECODE in the
# environment) each of them compiled them again, and pytest rewrote every test module's asserts
# again in every worker (about 1 s of CPU per process, 60-100 s over `make test`).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: system-deps-serve system-deps-test system-deps-bench run cluster dev test test-fast test-python test-webapp test-e2e webapp contract generate bench install migrate seed clean \
	lint lint-python lint-python-code lint-python-security lint-webapp lint-webapp-code lint-webapp-format lint-webapp-types \
	lint-contracts format

# The Debian packages (Node.js, Chromium, ffmpeg, HAProxy, …): installed when missing, with apt-get
# as root or through sudo; otherwise the script prints the command to run and stops (scripts/system-deps).
system-deps-serve system-deps-test system-deps-bench: system-deps-%:
	scripts/system-deps $*

$(BIN)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[test,lint,bench]"
	touch $@

install: $(BIN)/.installed

migrate: install
	$(BIN)/touchline db upgrade

seed: migrate
	$(BIN)/touchline seed

# The webapp: npm packages from the lock file, then a production build the server serves at /.
WEBAPP_SOURCES := $(shell find webapp/src webapp/public -type f 2>/dev/null) webapp/index.html \
	webapp/vite.config.ts webapp/tsconfig.json

webapp/node_modules/.installed: webapp/package.json webapp/package-lock.json
	cd webapp && npm ci --no-audit --no-fund --loglevel=error
	touch $@

webapp/dist/index.html: webapp/node_modules/.installed $(WEBAPP_SOURCES)
	cd webapp && npm run build --silent

webapp: webapp/dist/index.html

run: system-deps-serve seed webapp
	$(BIN)/touchline serve --port $(PORT)

# CLUSTER_WORKERS server processes behind HAProxy on PORT, on PostgreSQL and Redis (README).
CLUSTER_WORKERS ?= 2
cluster: install webapp
	$(BIN)/touchline cluster --workers $(CLUSTER_WORKERS) --port $(PORT)

# The server with auto-reload on PORT and Vite's dev server on 5173, proxying /api, /ws and /media to it.
# The server takes Vite's address as its public one: mail links, the ifa sign-on's return address
# and the socket's allowed Origin then point at the page the developer has open.
DEV_WEB := http://127.0.0.1:5173
dev: seed webapp/node_modules/.installed
	TOUCHLINE_PUBLIC_BASE_URL=$(DEV_WEB) TOUCHLINE_RESPONSE_VALIDATION=true \
	$(BIN)/touchline serve --port $(PORT) --reload & server=$$!; \
	trap 'kill $$server' EXIT INT TERM; cd webapp && PORT=$(PORT) npx vite --host 127.0.0.1 --port 5173 --strictPort

# Regenerate every generated artefact that is committed (a test fails when one drifts).
generate: install webapp/node_modules/.installed
	$(BIN)/python -m server.seed.artwork
	$(BIN)/python -m scripts.sample_video
	cd webapp && npm run generate

# In a random order (pytest-randomly: modules, then the tests in each), from a seed printed first;
# PYTEST_SEED=N replays that order. -q leaves out the header where pytest-randomly prints it.
# Twice as many workers as cores: many tests wait on processes they start (servers, nginx, ffmpeg),
# and two workers left a core idle a third of the time (alone on two cores: 12:55 with 2, 9:26 with 4).
# At most 8: a worker grows to 2-3 GB over a run.
PYTEST_WORKERS ?= $(shell w=$$(( 2 * $$(nproc) )); echo $$(( w > 8 ? 8 : w )))
test-python: install
	@seed=$${PYTEST_SEED:-$$RANDOM}; echo "pytest: --randomly-seed=$$seed (PYTEST_SEED=$$seed replays this order)"; \
	$(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) --dist loadfile --randomly-seed=$$seed

# Dredd and Schemathesis against a freshly seeded server.
openapi/node_modules/.installed: openapi/package.json openapi/package-lock.json
	cd openapi && npm ci --no-audit --no-fund --loglevel=error
	touch $@

contract: install openapi/node_modules/.installed
	$(BIN)/python -m server.checks.contract

# The webapp: types, unit tests (Vitest), then end-to-end tests in Chromium against a seeded server.
# Vitest shuffles the files and the tests in each from a seed printed first; VITEST_SEED=N replays it.
test-webapp: webapp/node_modules/.installed
	@seed=$${VITEST_SEED:-$$RANDOM}; echo "vitest: --sequence.seed=$$seed (VITEST_SEED=$$seed replays this order)"; \
	cd webapp && npx tsc -b && npx vitest run --sequence.shuffle --sequence.seed=$$seed

test-e2e: install webapp
	cd webapp && E2E_BUILT=1 npx playwright test

# The house rules: formatters, linters, type checks and import boundaries (ARCHITECTURE.md).
# The Python and webapp checks run side by side (both cores); each tool keeps a cache of what it
# found (mypy's, eslint's, Prettier's and tsc's under node_modules/.cache), so a second run only
# reads what changed. CI starts from a clean clone, with no caches: it checks everything.
lint:
	$(MAKE) --no-print-directory --output-sync=target -j 3 \
		lint-webapp-code lint-python-code lint-webapp-types lint-webapp-format lint-python-security lint-contracts

lint-python: lint-python-code lint-python-security

lint-python-code: install
	$(BIN)/ruff format --check --quiet .
	$(BIN)/ruff check --quiet .
	$(BIN)/mypy
	$(BIN)/lint-imports

lint-python-security: install
	$(BIN)/bandit --configfile pyproject.toml --recursive --quiet server cli

lint-webapp: lint-webapp-code lint-webapp-format lint-webapp-types

lint-webapp-code: webapp/node_modules/.installed
	cd webapp && npm run --silent lint:code

lint-webapp-format: webapp/node_modules/.installed
	cd webapp && npm run --silent lint:format

lint-webapp-types: webapp/node_modules/.installed
	cd webapp && npx tsc -b

# The contracts under outside validators: Spectral's OpenAPI rules (openapi/.spectral.yaml; a
# warning fails too) and the official AsyncAPI parser (openapi/scripts/check-asyncapi.mjs).
lint-contracts: openapi/node_modules/.installed
	cd openapi && npx spectral lint --quiet --fail-severity=warn --ruleset .spectral.yaml openapi.yaml
	cd openapi && node scripts/check-asyncapi.mjs

# Rewrite what the formatters own (Python and the webapp), then lint.
format: install webapp/node_modules/.installed
	$(BIN)/ruff format --quiet .
	$(BIN)/ruff check --quiet --fix .
	cd webapp && npm run --silent format

# Every suite, in waves whose stages run side by side (scripts/test_stages.py), with the time of
# each stage printed at the end. What the stages share is installed and built first, once.
TEST_WAVES ?= "lint" "test-python contract" "test-e2e test-webapp"
test: system-deps-test install webapp/node_modules/.installed openapi/node_modules/.installed webapp
	$(BIN)/python scripts/test_stages.py $(TEST_WAVES)

# The inner loop: the house rules and the unit suites, no browser and no contract run (README).
test-fast: install webapp/node_modules/.installed openapi/node_modules/.installed
	$(BIN)/python scripts/test_stages.py "lint" "test-webapp test-python"

bench: system-deps-bench install
	$(BIN)/python -m server.bench
	$(BIN)/python -m server.bench.accounts
	$(BIN)/python -m server.bench.signed_in
	$(BIN)/python -m server.bench.uncached
	$(BIN)/python -m server.bench.search
	$(BIN)/python -m server.bench.entitlements
	$(BIN)/python -m server.bench.live
	$(BIN)/python -m server.bench.media_library
	$(BIN)/python -m server.bench.kickoff
	$(BIN)/python -m server.bench.costs
	$(BIN)/python -m server.bench.ingest
	$(BIN)/python -m server.bench.edge
	$(BIN)/python -m server.bench.live_alerts
	$(BIN)/python -m server.bench.qoe
	$(MAKE) webapp
	cd webapp && node scripts/bench.mjs

clean:
	rm -rf var/bench var/contract webapp/dist
