"""The `workbench` CLI contract: --json shapes and the --batch forms, on the embedded Postgres."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from core.cli import cli
from core.config import get_settings
from tests.factories import FUNDING_CSV, MEMO_PAGES, make_pdf


@pytest.fixture
def run(settings, db, monkeypatch):
    """Invoke the CLI in-process against the test's database."""
    monkeypatch.setenv("DATABASE_URL", settings.database_url)
    monkeypatch.setenv("WORKBENCH_HOME", str(settings.home))
    get_settings.cache_clear()

    def invoke(*args: str) -> tuple[int, str]:
        result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
        return result.exit_code, result.stdout

    yield invoke
    get_settings.cache_clear()


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    paths = {"csv": tmp_path / "funding.csv", "pdf": tmp_path / "memo.pdf", "bad": tmp_path / "bad.pdf"}
    paths["csv"].write_bytes(FUNDING_CSV)
    paths["pdf"].write_bytes(make_pdf(MEMO_PAGES))
    paths["bad"].write_bytes(b"")
    return paths


def test_ingest_json_contract(run, files) -> None:
    code, out = run("ingest", str(files["csv"]), str(files["pdf"]), "--room", "R", "--json", "--wait")
    assert code == 0
    results = [json.loads(line) for line in out.splitlines()]
    assert [r["kind"] for r in results] == ["sheet", "pdf"]
    for r in results:
        assert {"document_id", "title", "kind", "chunks", "status", "error", "seconds"} <= r.keys()
        assert r["status"] == "ready" and r["error"] is None
    assert results[0]["rows"] == 4 and results[1]["pages"] == 3


def test_ingest_exits_1_when_a_file_failed(run, files) -> None:
    code, out = run("ingest", str(files["bad"]), str(files["csv"]), "--room", "R", "--json", "--no-embed", "--wait")
    assert code == 1
    statuses = [json.loads(line)["status"] for line in out.splitlines()]
    assert statuses == ["failed", "ready"]


def test_search_and_rooms_json(run, files) -> None:
    run("ingest", str(files["pdf"]), str(files["csv"]), "--room", "R", "--json", "--wait")
    code, out = run("search", "chief executive of Acme Robotics", "--room", "R", "--k", "3", "--json")
    assert code == 0
    hits = json.loads(out)
    assert len(hits) == 3
    assert {"kind", "document_id", "title", "score", "preview"} <= hits[0].keys()
    assert any(h["kind"] == "page" and h["page"] == 1 for h in hits)
    code, out = run("rooms", "--json")
    rooms = json.loads(out)
    assert [(r["name"], r["documents"], r["embedded_chunks"] == r["chunks"]) for r in rooms] == [("R", 2, True)]


def test_batch_forms_answer_line_by_line(run, files, tmp_path: Path) -> None:
    ingest_batch = tmp_path / "ingest.jsonl"
    ingest_batch.write_text(
        "\n".join(
            json.dumps(x) for x in [{"room": "A", "path": str(files["csv"])}, {"room": "B", "path": str(files["pdf"])}]
        )
    )
    code, out = run("ingest", "--batch", str(ingest_batch), "--wait")
    assert code == 0 and [json.loads(line)["title"] for line in out.splitlines()] == ["funding.csv", "memo.pdf"]
    search_batch = tmp_path / "search.jsonl"
    search_batch.write_text(
        "\n".join(
            json.dumps(x)
            for x in [
                {"room": "A", "query": "Cobalt Pay", "k": 2},
                {"room": "B", "query": "churn", "k": 1},
                {"room": "Nope", "query": "x"},
            ]
        )
    )
    code, out = run("search", "--batch", str(search_batch))
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and len(lines) == 3  # a line failed: every line answered, the exit code says so
    assert len(lines[0]) == 2 and lines[0][0]["kind"] == "cell"
    assert lines[1][0]["page"] == 2
    assert "No data room named 'Nope'" in lines[2]["error"] and lines[2]["line"] == 3


def test_a_malformed_batch_line_is_reported_and_every_other_line_runs(run, files, tmp_path: Path) -> None:
    """`ask --batch` stopped at the first malformed line (18 of 20 later lines never answered); `ingest --batch`
    refused the whole file for one bad line. Each bad line is now an error object on its own output line."""
    ingest_batch = tmp_path / "ingest.jsonl"
    good = [json.dumps({"room": "A", "path": str(files["csv"])}), json.dumps({"room": "B", "path": str(files["pdf"])})]
    ingest_batch.write_text("\n".join([good[0], "{not json", '["a list"]', json.dumps({"room": "B"}), good[1]]) + "\n")
    code, out = run("ingest", "--batch", str(ingest_batch), "--wait", "--no-embed")
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and len(lines) == 5
    assert [line.get("title") for line in lines] == ["funding.csv", None, None, None, "memo.pdf"]
    assert [line.get("line") for line in lines[1:4]] == [2, 3, 4]
    assert "is not JSON" in lines[1]["error"] and "must be a JSON object" in lines[2]["error"]
    assert 'has no "path"' in lines[3]["error"]
    questions = tmp_path / "ask.jsonl"
    asked = [json.dumps({"room": "A", "question": f"Which company raised the most? ({n})"}) for n in range(4)]
    questions.write_text("\n".join([asked[0], "{oops", asked[1], "42", asked[2], "", asked[3]]) + "\n")
    code, out = run("ask", "--batch", str(questions))
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and len(lines) == 6  # the blank line is no line
    assert ["answer" in line for line in lines] == [True, False, True, False, True, True]
    assert (lines[1]["line"], lines[3]["line"]) == (2, 4)


def test_unknown_room_is_a_clear_error(run) -> None:
    code, _out = run("search", "anything", "--room", "Missing")
    assert code == 1


def test_accounts_members_and_delete_from_the_command_line(run, files) -> None:
    code, out = run("ingest", str(files["csv"]), str(files["pdf"]), "--room", "R", "--json", "--no-embed", "--wait")
    memo_id = json.loads(out.splitlines()[1])["document_id"]
    code, out = run("user", "add", "ann@example.com", "--name", "Ann", "--password", "a long password")
    assert code == 0 and out.startswith("created ann@example.com (Ann)")
    assert run("member", "add", "R", "ann@example.com", "--role", "viewer")[0] == 0
    code, out = run("member", "list", "R")
    assert code == 0 and out.splitlines() == ["owner   Local user", "viewer  Ann ann@example.com"]
    code, out = run("delete", str(memo_id), "--room", "R")
    assert code == 0 and out.strip() == "deleted memo.pdf"
    code, out = run("rooms", "--json")
    assert json.loads(out)[0]["documents"] == 1


def test_demo_is_loaded_once_then_skipped_until_the_files_or_database_change(run, settings, monkeypatch) -> None:
    """`make run` calls `workbench demo` on every start: once loaded, the next start opens no database."""
    import subprocess
    import sys

    import core.cli

    assert run("demo", "--no-embed", "--quiet") == (0, "")
    assert (settings.home / "demo-loaded").is_file()
    stamp = subprocess.run([sys.executable, "-m", "core.demo_stamp"], check=False)
    assert stamp.returncode == 0  # what `make run` asks before calling `workbench demo`

    def no_database() -> None:
        raise AssertionError("the demo was loaded already: no workbench should be opened")

    monkeypatch.setattr(core.cli, "_workbench", no_database)
    assert run("demo", "--no-embed", "--quiet") == (0, "")
    # Another database (here: another demo room name in it) is checked and loaded again.
    monkeypatch.undo()
    monkeypatch.setenv("DATABASE_URL", settings.database_url)
    monkeypatch.setenv("WORKBENCH_HOME", str(settings.home))
    monkeypatch.setenv("WORKBENCH_DEMO_ROOM", "Demo two")
    get_settings.cache_clear()
    opened = []
    real = core.cli._workbench
    monkeypatch.setattr(core.cli, "_workbench", lambda: opened.append(1) or real())
    assert run("demo", "--no-embed", "--quiet")[0] == 0
    assert opened == [1]


def test_user_add_takes_the_password_from_standard_input(settings, tmp_path) -> None:
    """Issue 41: `user add` could not take a password without a prompt (scripts, provisioning)."""
    import subprocess

    from tests.factories import ROOT

    env = {**os.environ, "DATABASE_URL": settings.database_url, "WORKBENCH_HOME": str(tmp_path), "HF_HUB_OFFLINE": "1"}
    command = [sys.executable, "-m", "core", "user", "add", "bo@example.com", "--name", "Bo", "--password-stdin"]
    made = subprocess.run(command, input="bo's long password\n", env=env, cwd=ROOT, capture_output=True, text=True)
    assert made.returncode == 0 and made.stdout.startswith("created bo@example.com (Bo)"), made.stderr
    short = subprocess.run(
        [*command[:5], "cy@example.com", "--password-stdin"], input="short\n", env=env, cwd=ROOT,
        capture_output=True, text=True,
    )  # fmt: skip
    assert short.returncode == 1 and "Traceback" not in short.stderr and "10" in short.stderr, short.stderr
    empty = subprocess.run(
        [*command[:5], "dee@example.com", "--password-stdin"], input="", env=env, cwd=ROOT,
        capture_output=True, text=True,
    )  # fmt: skip
    assert empty.returncode != 0 and "Traceback" not in empty.stderr and "standard input" in empty.stderr
