"""A quiet, quick command line (issue 11, item 8): no embedding model where no document is embedded, nothing but
the answer under --json, the same hits as with the model's own query vectors. Each command runs as its own
process (`python -m core`), as a user runs it, on the test's database."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.retrieval.search import search
from tests.factories import FUNDING_CSV, MEMO_PAGES, make_pdf, run_workbench

HEAVY = ("torch", "sentence_transformers", "transformers")


@pytest.fixture
def env(settings, workbench, tmp_path: Path) -> dict[str, str]:
    """A room "R" with a sheet and a PDF, both embedded; the environment that points the CLI at it."""
    (tmp_path / "funding.csv").write_bytes(FUNDING_CSV)
    workbench.ingest_upload(FUNDING_CSV, "funding.csv", "R")
    workbench.ingest_upload(make_pdf(MEMO_PAGES), "memo.pdf", "R")
    assert workbench.room("R").embedding_model == "local:all-MiniLM-L6-v2"
    return {"DATABASE_URL": str(settings.database_url), "WORKBENCH_HOME": str(settings.home)}


def imported(*args: str, env: dict[str, str]) -> set[str]:
    """The modules `workbench ARGS` imported (Python's -X importtime list), after checking it succeeded."""
    run = run_workbench(*args, env={**env, "PYTHONPROFILEIMPORTTIME": "1"})
    assert run.returncode == 0, run.stderr[-2000:]
    return {line.split("|")[-1].strip() for line in run.stderr.splitlines() if line.startswith("import time:")}


@pytest.mark.parametrize(
    "args",
    [
        ("--help",),
        ("rooms", "--json"),
        ("search", "Acme Robotics chief executive", "--room", "R", "--json"),
        ("ask", "What is the total Amount Raised in Canada?", "--room", "R", "--json"),
        ("ask", "Who is the chief executive of Acme Robotics?", "--room", "R", "--json"),
    ],
    ids=["help", "rooms", "search", "ask-table", "ask-passage"],
)
def test_commands_that_embed_no_document_never_load_torch(env, args: tuple[str, ...]) -> None:
    modules = imported(*args, env=env)
    assert "core.cli" in modules  # the list is real
    assert not modules & set(HEAVY), sorted(modules & set(HEAVY))


@pytest.mark.parametrize(
    "args",
    [
        ("rooms", "--json"),
        ("search", "Acme Robotics chief executive", "--room", "R", "--json"),
        ("ask", "Who is the chief executive of Acme Robotics?", "--room", "R", "--json"),
        ("ingest", "{csv}", "--room", "S", "--json"),  # embeds: the model is loaded, and says nothing
    ],
    ids=["rooms", "search", "ask", "ingest"],
)
def test_json_output_is_the_json_alone(env, tmp_path: Path, args: tuple[str, ...]) -> None:
    args = tuple(a.format(csv=tmp_path / "funding.csv") for a in args)
    run = run_workbench(*args, env=env)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stderr == ""  # no progress bars, no model-loading chatter, no warnings
    for line in run.stdout.splitlines():
        json.loads(line)
    assert run.stdout.strip()


def test_search_from_the_command_line_finds_what_the_model_s_own_vectors_find(env, workbench) -> None:
    query = "Acme Robotics chief executive"
    run = run_workbench("search", query, "--room", "R", "--k", "5", "--json", env=env)
    assert run.returncode == 0, run.stderr[-2000:]
    cli_hits = [(h["document_id"], h["page"], h["chunk_index"], h["row_id"]) for h in json.loads(run.stdout)]
    # The same search with the query embedded by sentence-transformers (torch), as documents are.
    vector = workbench.embedder.embed([query])[0]
    model_hits = search(workbench.db, workbench.room("R"), query, k=5, query_vector=vector)
    assert cli_hits == [(h.document_id, h.page, h.chunk_index, h.row_id) for h in model_hits]
    assert len(cli_hits) == 5
