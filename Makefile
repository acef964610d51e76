# Two commands do all set-up on a fresh machine: `make run` and `make test`.
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install run test lint format bench bench-smoke bench-http bench-deal-profile bench-scale-out bench-leagues bench-pages bench-standings bench-federation bench-tournament bench-erase page-weight fuzz fuzz-pages soak table-taps readme-screenshot messages clean
CHROMIUM ?= /usr/bin/chromium

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py help load_demo >/dev/null 2>&1 && $(PY) manage.py load_demo || true
	$(PY) manage.py runserver 127.0.0.1:8000

# The browser tests (tests/e2e) run when Chromium is installed; otherwise they are skipped
# and this says so plainly. CI sets E2E_REQUIRED=1 so they cannot skip there.
# On every core (pytest-xdist): each worker has its own test database (pytest-django
# suffixes its name), copied from a template migrated once and kept between runs while the
# migrations are unchanged (tests/template_db.py; TEST_DB_TEMPLATE=0 migrates in each
# worker), the migration tests run as one group on one worker (loadgroup).
# TEST_WORKERS=0 runs it in one process.
TEST_WORKERS ?= auto
test: install
	@test -x $(CHROMIUM) || echo "*** Browser tests SKIPPED: $(CHROMIUM) is not installed (apt-get install -y chromium) ***"
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadgroup
	@test -x $(CHROMIUM) || echo "*** Browser tests were SKIPPED: $(CHROMIUM) is not installed (apt-get install -y chromium) ***"

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# Benchmarks are commands, never timed tests. bench-http needs PostgreSQL and wrk.
# Each has a size knob (an environment variable); `make bench-smoke` runs them all tiny.
BENCH_RULES_DEALS ?= 20000
bench: install
	$(PY) -m scorebook.rules.bench --deals $(BENCH_RULES_DEALS)
	$(PY) deploy/bench/http_bench.py

# Every bench command above and below at a tiny size (seconds each): each must finish and
# print its figures; targets are judged only at full size. .ci/run runs it. Needs
# PostgreSQL, Redis, redis-server and wrk, as the benches do.
bench-smoke: install
	$(PY) deploy/bench/smoke.py

bench-http: install
	$(PY) deploy/bench/http_bench.py

# One deal entry's CPU beside the bare INSERT view in one process (PostgreSQL), the
# statements it runs; BENCH_PROFILE=1 adds a cProfile of deal entry.
bench-deal-profile: install
	$(PY) deploy/bench/deal_profile.py

# Two gunicorn instances on one PostgreSQL, phones racing and retrying: exactly once.
bench-scale-out: install
	$(PY) deploy/bench/scale_out.py

# A 20-entry double round robin's table computed on read, beside a 20-row indexed read
# (BENCH_ENTRIES, BENCH_RUNS).
bench-leagues: install
	$(PY) deploy/bench/leagues_bench.py

# A deal saved through the page beside the same deal through the API (target <= 1.3x).
# Uses PostgreSQL when BENCH_DATABASE_URL is set, else SQLite.
bench-pages: install
	$(PY) deploy/bench/pages_bench.py

# Pairing a Swiss round of 64, 256 and 512 entries: the maximum-weight matching the
# tournaments use beside a greedy pass, in the same run (pure Python, no database;
# BENCH_SIZES=64,256,512).
bench-tournament: install
	$(PY) deploy/bench/tournament_bench.py

# Standings on PostgreSQL with generated data (BENCH_DEALS, default 100000; needs wrk and
# redis-server): full rebuild vs one SQL pass, leaderboard vs a plain list, freshness p95.
bench-standings: install
	$(PY) deploy/bench/standings_bench.py

# A federation's night (issue 35 item 5): FED_CLUBS clubs (default 2,000) and FED_DEALS deals
# (default 10,000,000) by COPY, the demo's federation with every club a member; the rebuild
# against one SQL pass and its memory, the public federation pages (from the replica with
# FED_REPLICA_URL) against a plain 50-row read, freshness with 16 clients entering deals
# while the ranking and the championship's table are read, against the clients alone.
bench-federation: install
	$(PY) deploy/bench/federation_bench.py

# A club's ten years (BENCH_NIGHTS, default 500 nights, ~20,000 deals) imported from the
# template's CSV beside the same deals entered through the service functions in the same
# run (target <= 1.5x), and the import's peak memory (tracemalloc); then the preview of a
# 99,999-row file (BENCH_PREVIEW_ROWS): the upload's request time (target < 2 s), the
# check's time and the worker's peak memory (target < 200 MB). PostgreSQL when
# BENCH_DATABASE_URL is set, else SQLite.
bench-import: install
	$(PY) deploy/bench/import_bench.py
	$(PY) deploy/bench/preview_bench.py

# One erasure with BENCH_STORED (default 100,000) stored answers of idempotent POSTs
# around it, against the same erasure with none (median of BENCH_RUNS, target <= 5x).
bench-erase: install
	$(PY) deploy/bench/erase_bench.py

# Each page's HTML + CSS + JS, gzip-compressed (budget: 100 KB), on the demo club.
page-weight: install
	$(PY) manage.py migrate --noinput -v0
	$(PY) manage.py load_demo
	$(PY) manage.py page_weight

# schemathesis over the whole OpenAPI schema, as each role and anonymously, against gunicorn
# on PostgreSQL (FUZZ_DATABASE_URL): no 5xx, every answer as documented; then the import's
# file fuzzer through POST /api/v1/imports (FUZZ_FILES_SECONDS): no 5xx, nothing stored by
# a refused file. CI runs it.
fuzz: install
	$(PY) deploy/checks/fuzz.py

# Taps and keystrokes per deal through the real quick form on a phone (Playwright and
# /usr/bin/chromium, a throw-away database, Django's live server): 10 deals per family.
table-taps: install
	$(PY) deploy/checks/table_taps.py

# The README's picture of the table phone (docs/table-phone.png), taken anew on the demo
# club with Playwright and /usr/bin/chromium at 390 px.
readme-screenshot: install
	$(PY) deploy/checks/readme_screenshot.py

# Every form of every page (found in the URLconf and the pages' HTML) and every query
# parameter, with hostile values, as each role and anonymously, against gunicorn on
# PostgreSQL (FUZZ_PAGES_DATABASE_URL): no 5xx, nothing stored by a refused form. CI runs it.
fuzz-pages: install
	$(PY) deploy/checks/fuzz_pages.py

# The stateful test across the services (tests/crossings/, issue 31 item 3) with a much
# longer budget than the suite's: SOAK_EXAMPLES examples of SOAK_STEPS steps (about one
# in five that erased someone ends with the erasure crawl). SQLite unless DATABASE_URL is set.
SOAK_EXAMPLES ?= 300
SOAK_STEPS ?= 60
soak: install
	SOAK_EXAMPLES=$(SOAK_EXAMPLES) SOAK_STEPS=$(SOAK_STEPS) \
		$(PY) -m pytest tests/crossings -p no:randomly -p no:cacheprovider -q -s

# Refresh the Italian catalogue after changing messages; commit both .po and .mo.
messages: install
	$(PY) manage.py makemessages -l it --ignore=.venv --ignore=tests --no-obsolete
	$(PY) manage.py compilemessages -l it --ignore=.venv

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis *.egg-info
