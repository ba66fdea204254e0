"""A quiet, quick command line (issue 11, item 8): no embedding model where no document is embedded, nothing but
the answer under --json, the same hits as with the model's own query vectors. Each command runs as its own
process (`python -m core`), as a user runs it, on the test's database."""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from core.retrieval.search import search
from tests.factories import FUNDING_CSV, MEMO_PAGES, ROOT, make_pdf, run_workbench

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


def test_no_progress_bar_under_json_even_on_a_terminal(env, tmp_path: Path) -> None:
    """`workbench ingest --json | jq` in a terminal: stderr is the terminal, and still shows no bar."""
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # tqdm draws nothing 0 wide
    shown = b""
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "core", "ingest", str(tmp_path / "funding.csv"), "--room", "S", "--json", "--wait"],
            cwd=ROOT,
            env={**os.environ, "HF_HUB_OFFLINE": "1", **env},
            stdout=subprocess.PIPE,
            stderr=terminal,
            text=True,
        )
        # Read while it runs: once the child has gone, Linux drops what the terminal still held.
        while proc.poll() is None or select.select([controller], [], [], 0)[0]:
            if select.select([controller], [], [], 0.1)[0]:
                shown += os.read(controller, 65536)
        out = proc.stdout.read()  # type: ignore[union-attr]
    finally:
        os.close(terminal)
        os.close(controller)
    assert proc.returncode == 0 and json.loads(out)["status"] == "ready"
    assert shown == b"", shown[-500:]


def test_verbose_logs_but_draws_no_bar(env, tmp_path: Path) -> None:
    run = run_workbench("-v", "ingest", str(tmp_path / "funding.csv"), "--room", "S", "--json", "--wait", env=env)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "INFO" in run.stderr  # -v logs what the workbench does ...
    assert "it/s]" not in run.stderr and "%|" not in run.stderr  # ... without a progress bar (tqdm's marks)
