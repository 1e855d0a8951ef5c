# Rummy Scorebook — developer entry points. Everything runs from .venv/.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
FLASK := $(BIN)/flask --app app
LANGUAGES := es it
BABEL_KEYWORDS := -k _ -k _l -k N_ -k gettext -k ngettext:1,2 -k lazy_gettext

.PHONY: help venv run dev serve db-upgrade lint test test-db test-pg fuzz screenshots clean babel-extract babel-update babel-compile

help:
	@echo "make run      serve the table: every phone on this Wi-Fi, port 5000, with a QR code of"
	@echo "             the address (SQLite in instance/); HOST=127.0.0.1 make run: this computer only"
	@echo "make dev      Flask's auto-reloading development server on http://127.0.0.1:5000"
	@echo "make serve    gunicorn, WORKERS=4 on BIND=127.0.0.1:8000, after flask db upgrade (DATABASE_URL)"
	@echo "make test     lint, then run the test suite"
	@echo "make test-pg  the test suite on PostgreSQL (installs and starts it: needs root)"
	@echo "make lint     ruff on everything, mypy --strict on referee/"
	@echo "make fuzz     the JSON API fuzzed long (FUZZ_EXAMPLES=1000) on SQLite and PostgreSQL"
	@echo "make screenshots  the browser tests, saving phone-size pages to docs/screenshots/"
	@echo "make babel-extract | babel-update | babel-compile"
	@echo "make clean    remove .venv and caches (never the instance/ data)"

venv: $(STAMP)

# Re-install whenever pyproject.toml changes (its pins or its packages).
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --disable-pip-version-check --quiet -e '.[dev]'
	@touch $(STAMP)

# The table's server (scorebook/table.py): gunicorn with threaded workers on HOST:PORT,
# printing the address the phones open and its QR code once it listens.
HOST ?= 0.0.0.0
PORT ?= 5000
run: venv babel-compile db-upgrade
	HOST=$(HOST) PORT=$(PORT) $(BIN)/python -m scorebook.table

# Developers: Flask's server, reloading on every change, on this computer only.
dev: venv babel-compile db-upgrade
	$(FLASK) run --debug --host 127.0.0.1 --port $(PORT)

# Production: gunicorn's sync workers on the configured database (DATABASE_URL,
# else the SQLite file in instance/). GUNICORN_ARGS adds options, e.g. --access-logfile -.
WORKERS ?= 4
BIND ?= 127.0.0.1:8000
serve: venv babel-compile db-upgrade
	$(BIN)/gunicorn --workers $(WORKERS) --bind $(BIND) $(GUNICORN_ARGS) "app:create_app()"

db-upgrade: venv
	@if ls migrations/versions/*.py >/dev/null 2>&1; then \
		$(FLASK) db upgrade; \
	else \
		$(FLASK) init-db; \
	fi

lint: venv
	$(BIN)/ruff check .
	@if [ -n "$$(find referee -name '*.py' 2>/dev/null | head -n 1)" ]; then \
		echo "$(BIN)/mypy --strict referee/"; \
		$(BIN)/mypy --strict referee/; \
	else \
		echo "referee/ has no Python files yet: mypy skipped"; \
	fi

test: venv
	@$(MAKE) --no-print-directory lint
	@$(MAKE) --no-print-directory babel-compile
	$(BIN)/pytest -q

# The suite without lint, on TEST_DATABASE_URL (in-memory SQLite when unset).
test-db: venv babel-compile
	$(BIN)/pytest -q

# The suite on the machine's PostgreSQL (.ci/postgres installs and starts it), in a
# database of its own, dropped afterwards: runs at the same time do not collide.
test-pg: venv
	@db=scorebook_test_$$$$; \
	port=$$(bash .ci/postgres $$db) || exit 1; \
	TEST_DATABASE_URL="postgresql+psycopg://scorebook:scorebook@127.0.0.1:$$port/$$db" \
		$(MAKE) --no-print-directory test-db; status=$$?; \
	bash .ci/postgres --drop $$db; exit $$status

# The JSON API fuzzed long (tests/web/test_api_fuzz.py: no 500; tests/web/test_api_document.py:
# the OpenAPI document agrees with the API both ways), FUZZ_EXAMPLES cases per operation and
# mode (CI runs 25): on SQLite, then on the machine's PostgreSQL like test-pg.
FUZZ_EXAMPLES ?= 1000
FUZZ_TESTS := tests/web/test_api_fuzz.py tests/web/test_api_document.py
fuzz: venv babel-compile
	FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) API_DOC_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/pytest -q $(FUZZ_TESTS)
	@db=scorebook_fuzz_$$$$; \
	port=$$(bash .ci/postgres $$db) || exit 1; \
	TEST_DATABASE_URL="postgresql+psycopg://scorebook:scorebook@127.0.0.1:$$port/$$db" \
		FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) API_DOC_EXAMPLES=$(FUZZ_EXAMPLES) $(BIN)/pytest -q $(FUZZ_TESTS); \
		status=$$?; \
	bash .ci/postgres --drop $$db; exit $$status

# The browser tests again, saving a 390x844 screenshot of every page they visit.
screenshots: venv babel-compile
	SCREENSHOTS=1 $(BIN)/pytest -q tests/browser

babel-extract: venv
	$(BIN)/pybabel extract -F babel.cfg $(BABEL_KEYWORDS) --add-location=file \
		--project="Rummy Scorebook" -o translations/messages.pot .

# Update each language's catalogue from the template, creating it the first time.
# New messages arrive untranslated (and a changed one as fuzzy): tests/web/test_i18n.py
# fails until each has a Spanish and an Italian translation.
babel-update: babel-extract
	@for lang in $(LANGUAGES); do \
		if [ -f translations/$$lang/LC_MESSAGES/messages.po ]; then \
			$(BIN)/pybabel update --ignore-obsolete -i translations/messages.pot -d translations -l $$lang || exit 1; \
		else \
			$(BIN)/pybabel init -i translations/messages.pot -d translations -l $$lang || exit 1; \
		fi; \
	done

# Compiled .mo files are not tracked; build them when any catalogue exists.
babel-compile: venv
	@if ls translations/*/LC_MESSAGES/messages.po >/dev/null 2>&1; then \
		$(BIN)/pybabel compile -d translations; \
	fi

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis *.egg-info build dist
	find . -name __pycache__ -type d -prune -not -path './.git/*' -exec rm -rf {} +
	find translations -name '*.mo' -delete 2>/dev/null || true
