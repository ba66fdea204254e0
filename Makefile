# The two commands of the README: `make run` (install + start the app) and `make test` (install + run every test).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-fast test-team check schema golden install demo-data clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e ".[test]"
	touch $(STAMP)

install: $(STAMP)

# The app and one ingestion worker beside it (stopped with the app); more workers: `workbench worker` anywhere.
# `workbench serve` is `streamlit run app.py`, listening on 127.0.0.1 only in local mode (WORKBENCH_AUTH=none).
run: $(STAMP)
	HF_HUB_OFFLINE=1 $(BIN)/workbench demo --no-embed --quiet
	HF_HUB_OFFLINE=1 $(BIN)/workbench worker & worker=$$!; trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	HF_HUB_OFFLINE=1 $(BIN)/workbench serve

test: $(STAMP)
	HF_HUB_OFFLINE=1 WORKBENCH_NO_SKIPS=1 $(BIN)/python -m pytest

# The security and integration tests again, on a second Postgres (16) started on 127.0.0.1 with password logins
# and an owner that is not a superuser, as a team's managed server (tests/team_server.py). The tests use
# WORKBENCH_TEST_DATABASE_URL (set it to use a server of your own instead). The bomb test is the main run's alone
# (memory, not the database), to keep this run near 10 minutes.
TEAM_TESTS := tests/integration/test_team_roles.py tests/integration/test_rls.py tests/integration/test_identity.py \
	tests/integration/test_auth.py tests/integration/test_privacy.py tests/integration/test_policy_gaps.py \
	tests/integration/test_ratelimit.py tests/integration/test_jobs.py
test-team: $(STAMP)
	HF_HUB_OFFLINE=1 WORKBENCH_NO_SKIPS=1 $(BIN)/python -m tests.team_server -q $(TEAM_TESTS) \
		--deselect tests/integration/test_jobs.py::test_bombs_fail_clearly_under_a_worker_whose_memory_stays_bounded

# Unit and database tests only (no page, browser or slow tests): the quick loop while coding.
test-fast: $(STAMP)
	HF_HUB_OFFLINE=1 $(BIN)/python -m pytest tests/unit tests/integration -m "not slow and not browser"

# Lint, formatting and types; CI runs it before the tests.
check: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# core/sql/schema.sql: the schema the migrations build, dumped from a freshly migrated database.
schema: $(STAMP)
	WORKBENCH_WRITE_SCHEMA=1 $(BIN)/python -m pytest -q tests/integration/test_schema.py

# tests/golden/planner_plans.json: the offline planner's plans, frozen (review the diff before committing).
golden: $(STAMP)
	WORKBENCH_WRITE_GOLDEN=1 HF_HUB_OFFLINE=1 $(BIN)/python -m pytest -q tests/integration/test_planner_golden.py

demo-data: $(STAMP)
	$(BIN)/python data/generate_demo.py

clean:
	rm -rf $(VENV) .workbench .pytest_cache
