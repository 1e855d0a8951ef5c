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

.PHONY: help venv venv-pg lock run dev serve db-upgrade lint test test-db test-pg fuzz screenshots clean babel-extract babel-update babel-compile deploy test-deploy

help:
	@echo "make run      serve the table: every phone on this Wi-Fi, port 5000, with a QR code of"
	@echo "             the address (SQLite in instance/); HOST=127.0.0.1 make run: this computer only"
	@echo "make dev      Flask's auto-reloading development server on http://127.0.0.1:5000"
	@echo "make serve    gunicorn, WORKERS=4 x THREADS=4 on BIND=127.0.0.1:8000, after flask db upgrade"
	@echo "             (DATABASE_URL); slow clients cost no thread (HEADER_TIMEOUT, BODY_TIMEOUT)"
	@echo "             run, serve and dev start the background jobs' worker too (JOB_WORKERS=1)"
	@echo "make test     lint, then the test suite on every core (TEST_WORKERS=auto)"
	@echo "make test-pg  the test suite on PostgreSQL (installs and starts it: needs root)"
	@echo "make lint     ruff on everything, mypy --strict on referee/, the services and the models,"
	@echo "             the layers' import contracts"
	@echo "make venv     .venv/ from requirements/dev.txt (exact pins, hashes); venv-pg adds psycopg"
	@echo "make lock     re-resolve requirements/*.txt from pyproject.toml (UPGRADE=1: newest allowed)"
	@echo "sudo make deploy DOMAIN=scores.example.org   the hosted scorebook on this Debian server"
	@echo "             (HTTPS by Caddy, PostgreSQL, Redis, two gunicorns, daily backups); again: upgrade"
	@echo "make test-deploy  deploy onto this machine (TLS=internal) and try it in Chromium (root)"
	@echo "make fuzz     the JSON API fuzzed long (FUZZ_EXAMPLES=1000) on SQLite and PostgreSQL"
	@echo "make screenshots  the browser tests, saving phone-size pages to docs/screenshots/"
	@echo "make babel-extract | babel-update | babel-compile"
	@echo "make clean    remove .venv and caches (never the instance/ data)"

# The lock files (requirements/README.md): exact versions with their hashes, resolved by uv
# from the ranges in pyproject.toml. dev.txt is the app and its tools on SQLite; dev-pg.txt
# adds the PostgreSQL driver and Redis's client (the `pg` and `redis` extras), with the
# same versions of everything else; deploy.txt is the app, the driver and the client
# without the tools, at dev-pg.txt's versions (what `make deploy` installs on a server).
LOCK := requirements/dev.txt
PG_LOCK := requirements/dev-pg.txt
DEPLOY_LOCK := requirements/deploy.txt
PG_STAMP := $(VENV)/.installed-pg
# The PostgreSQL driver is installed when the database asked for is PostgreSQL.
ifneq ($(filter postgres%,$(DATABASE_URL)),)
APP_VENV := venv-pg
else
APP_VENV := venv
endif
ifneq ($(filter postgres%,$(TEST_DATABASE_URL)),)
TEST_VENV := venv-pg
else
TEST_VENV := venv
endif

# Exactly what a lock file says (pip refuses anything unpinned or with another hash), then
# the project itself, editable, without dependencies and built by the locked setuptools.
# It says what it is doing (the first run takes minutes with nothing else to show), and
# pip only speaks up for an error.
PIP_INSTALL := $(BIN)/python -m pip install --disable-pip-version-check --quiet --quiet \
	--no-input --root-user-action=ignore
define install_lock
	@test -x $(BIN)/python || { echo "Making .venv/, the site's own Python environment…"; \
		$(PYTHON) -m venv $(VENV); }
	@echo "Installing the site's Python packages into .venv/ (as $(1) pins them; the first time takes a few minutes)…"
	@$(PIP_INSTALL) --require-hashes -r $(1)
	@$(PIP_INSTALL) --no-deps --no-build-isolation -e .
	@echo "Installed."
endef

venv: $(STAMP)
venv-pg: $(PG_STAMP)

# Re-install whenever pyproject.toml or the lock changes.
$(STAMP): pyproject.toml $(LOCK)
	$(call install_lock,$(LOCK))
	@touch $(STAMP)

$(PG_STAMP): $(STAMP) $(PG_LOCK)
	$(call install_lock,$(PG_LOCK))
	@touch $(PG_STAMP)

# After changing a range in pyproject.toml: re-resolve the locks, keeping every other pin
# (UPGRADE=1 moves each package to the newest version its range allows). --universal: one
# lock for every platform and Python >= 3.11 (markers say where a package applies).
UV_COMPILE = $(BIN)/uv pip compile --quiet --generate-hashes --universal --python-version 3.11 \
	$(if $(UPGRADE),--upgrade) pyproject.toml requirements/build.in
lock: venv
	$(UV_COMPILE) --extra dev --extra pg --extra redis -o $(PG_LOCK)
	$(UV_COMPILE) --extra dev -c $(PG_LOCK) -o $(LOCK)
	$(UV_COMPILE) --extra pg --extra redis -c $(PG_LOCK) -o $(DEPLOY_LOCK)

# The table's server (scorebook/table.py): gunicorn with threaded workers on HOST:PORT
# (make serve's worker: scorebook/serving.py), printing the address the phones open and
# its QR code once it listens.
HOST ?= 0.0.0.0
PORT ?= 5000
run: $(APP_VENV) babel-compile db-upgrade
	HOST=$(HOST) PORT=$(PORT) $(BIN)/python -m scorebook.table

# Developers: Flask's server, reloading on every change, on this computer only, and the
# background jobs' worker beside it (stopped with it).
dev: $(APP_VENV) babel-compile db-upgrade
	@$(BIN)/python -m scorebook.worker & worker=$$!; \
	trap 'kill $$worker 2>/dev/null; wait $$worker' EXIT INT TERM; \
	RATINGS_CATCH_UP=job $(FLASK) run --debug --host 127.0.0.1 --port $(PORT)

# Production: gunicorn on the configured database (DATABASE_URL, else the SQLite file in
# instance/), WORKERS processes of THREADS threads (4) each, every request read ahead
# before a thread takes it (scorebook/serving.py: HEADER_TIMEOUT, BODY_TIMEOUT). The
# same worker as make run's; gunicorn's master starts JOB_WORKERS (1) background job
# workers beside it (python -m scorebook.worker). GUNICORN_ARGS adds options, e.g.
# --access-logfile -.
WORKERS ?= 4
BIND ?= 127.0.0.1:8000
serve: $(APP_VENV) babel-compile db-upgrade
	$(BIN)/gunicorn --config python:scorebook.serving --workers $(WORKERS) --bind $(BIND) \
		$(GUNICORN_ARGS) "app:create_app()"

# The hosted scorebook (deploy/deploy.sh; README, "Deploying"): DOMAIN, TLS=internal for
# Caddy's own certificate authority, EMAIL, BACKUP_DAYS (14); WORKERS and THREADS per
# gunicorn instance when given here (2 and 4 otherwise). Root; no .venv needed.
deploy:
	DOMAIN="$(DOMAIN)" TLS="$(or $(TLS),auto)" EMAIL="$(EMAIL)" BACKUP_DAYS="$(or $(BACKUP_DAYS),14)" \
		$(if $(filter command line,$(origin WORKERS)),WORKERS="$(WORKERS)") \
		$(if $(filter command line,$(origin THREADS)),THREADS="$(THREADS)") \
		bash deploy/deploy.sh

# deploy onto this machine (a test domain, TLS=internal) and try the site in Chromium
# (deploy/test-deploy.sh); CI runs it after the suites.
test-deploy: venv
	bash deploy/test-deploy.sh

db-upgrade: $(APP_VENV)
	@if ls migrations/versions/*.py >/dev/null 2>&1; then \
		$(FLASK) db upgrade; \
	else \
		$(FLASK) init-db; \
	fi

# mypy --strict on the rules engine, the services and the models, and on what they import
# of ours (pyproject.toml [tool.mypy] says which libraries are read how, and which modules
# are still left out).
TYPED := referee/ scorebook/services scorebook/models.py

lint: venv
	$(BIN)/ruff check .
	$(BIN)/mypy --strict $(TYPED)
	$(BIN)/lint-imports

# The suite on every core (pytest-xdist); TEST_WORKERS=4 runs four worker processes,
# TEST_WORKERS=0 none (all in this process). Each worker has its own server, browser and
# temporary files, and on PostgreSQL its own database named after TEST_DATABASE_URL's
# (tests/conftest.py creates and drops it).
TEST_WORKERS ?= auto
PYTEST := $(BIN)/pytest -q -n $(TEST_WORKERS)

test: venv
	@$(MAKE) --no-print-directory lint
	@$(MAKE) --no-print-directory babel-compile
	$(PYTEST)

# The suite without lint, on TEST_DATABASE_URL (in-memory SQLite when unset).
test-db: $(TEST_VENV) babel-compile
	$(PYTEST)

# The suite on the machine's PostgreSQL (.ci/postgres installs and starts it), in a
# database of its own, dropped afterwards (with its workers' copies): runs at the same
# time do not collide.
test-pg: venv-pg
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
fuzz: venv-pg babel-compile
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
