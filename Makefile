# Touchline: `make run` serves everything at http://127.0.0.1:8080, `make test` runs every suite.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8080
export PORT

.PHONY: run dev test test-python contract generate bench install migrate seed clean

$(BIN)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[test]"
	touch $@

install: $(BIN)/.installed

migrate: install
	$(BIN)/touchline db upgrade

seed: migrate
	$(BIN)/touchline seed

run: seed
	$(BIN)/touchline serve --port $(PORT)

dev: seed
	TOUCHLINE_RESPONSE_VALIDATION=true $(BIN)/touchline serve --port $(PORT) --reload

# Regenerate every generated artefact that is committed (a test fails when one drifts).
generate: install
	$(BIN)/python -m server.seed.artwork
	$(BIN)/python -m server.media.sample_video

test-python: install
	$(BIN)/python -m pytest -q

# Dredd and Schemathesis against a freshly seeded server; prints the operations still 501.
openapi/node_modules/.installed: openapi/package.json openapi/package-lock.json
	cd openapi && npm ci --no-audit --no-fund --loglevel=error
	touch $@

contract: install openapi/node_modules/.installed
	$(BIN)/touchline contract status
	$(BIN)/python -m server.checks.contract

# Contract checks first, so the run ends with pytest's own summary line.
test: contract test-python

bench: install
	$(BIN)/python -m server.bench
	$(BIN)/python -m server.bench.accounts
	$(BIN)/python -m server.bench.entitlements
	$(BIN)/python -m server.bench.live

clean:
	rm -rf var/bench var/contract
