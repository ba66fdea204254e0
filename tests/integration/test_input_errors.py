"""Bad input gets a message, never a traceback: NUL bytes, blank names, over-long questions and searches,
ids that are not whole numbers, statements the database refuses; in core, on the command line and on a page."""

from __future__ import annotations

import json

import pytest

from core.errors import BadInput
from core.inputs import MAX_QUERY_CHARS, MAX_QUESTION_CHARS
from core.qa.service import ask
from tests.factories import run_workbench


def _cli(settings, *args: str):
    env = {"DATABASE_URL": settings.database_url, "WORKBENCH_HOME": str(settings.home), "WORKBENCH_RATE_LIMIT": "0"}
    return run_workbench(*args, env=env)


def _logged(wb) -> int:
    with wb.db.connection() as conn:
        return conn.execute("SELECT count(*) FROM qa_queries").fetchone()[0]


BAD_QUESTIONS = ["How much\x00 was raised?", "   ", "", "x" * (MAX_QUESTION_CHARS + 1), "bad \ud800 surrogate"]
BAD_SEARCHES = ["Acme\x00", " \t ", "y " * MAX_QUERY_CHARS]
BAD_ROOMS = ["", "   ", "Demo\x00", "r" * 201]


def test_core_refuses_bad_text_with_a_message_and_keeps_nothing(demo) -> None:
    before = _logged(demo)
    for question in BAD_QUESTIONS:
        with pytest.raises(BadInput, match="question"):
            list(ask(demo, question, "Demo"))
    for query in BAD_SEARCHES:
        with pytest.raises(BadInput, match="search"):
            demo.search(query, "Demo")
    for k in (0, -1, 10**6, "ten", 2.5, True):
        with pytest.raises(BadInput, match="number of hits"):
            demo.search("Acme", "Demo", k=k)
    for room in BAD_ROOMS:
        with pytest.raises(BadInput, match="room name"):
            demo.ingest_upload(b"a,b\n1,2\n", "x.csv", room, embed=False)
    with pytest.raises(BadInput, match="file name"):
        demo.ingest_upload(b"a,b\n1,2\n", "x\x00.csv", "Demo", embed=False)
    assert _logged(demo) == before and [r.name for r in demo.rooms()] == ["Demo"]
    # A question at the cap is still answered (or abstains).
    done = [e for e in ask(demo, "How much was raised in Canada in 2021? " * 100, "Demo") if e.type == "done"]
    assert len("How much was raised in Canada in 2021? " * 100) <= MAX_QUESTION_CHARS and done


def test_the_command_line_answers_every_bad_line_with_a_message(demo, settings, tmp_path) -> None:
    searches = tmp_path / "searches.jsonl"
    lines = [
        {"room": "Demo", "query": "Acme\x00"},
        {"room": "Demo", "query": "   "},
        {"room": "Demo", "query": "z" * (MAX_QUERY_CHARS + 1)},
        {"room": "Demo", "query": "Acme", "k": "ten"},
        {"room": "Demo", "query": "Acme", "k": 10**9},
        {"room": "Demo", "query": "Acme", "k": 1.5},
        {"query": "Acme"},
        {"room": "  ", "query": "Acme"},
        {"room": ["Demo"], "query": "Acme"},
        {"room": "Demo", "query": "Harvestquay", "k": 2},
    ]
    searches.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    questions = tmp_path / "questions.jsonl"
    asks = [
        {"room": "Demo", "question": "How much\x00?"},
        {"room": "Demo", "question": "q" * (MAX_QUESTION_CHARS + 1)},
        {"room": "Demo", "question": "How much?", "conversation": "abc"},
        {"room": "Demo", "question": "How much?", "conversation": 2**70},
        {"room": "Demo", "question": "How much?", "conversation": 1.5},
        {"room": "Demo"},
        {"room": "Demo", "question": "Who is the CEO of Harvestquay?"},
    ]
    questions.write_text("\n".join(json.dumps(line) for line in asks) + "\n")
    jobs = tmp_path / "jobs.jsonl"
    jobs.write_text(json.dumps({"room": "Demo", "path": "memo\x00.pdf"}) + "\n")
    attempts = got_through = 0
    run = _cli(settings, "search", "--batch", str(searches))
    results = [json.loads(line) for line in run.stdout.splitlines()]
    attempts += len(lines) - 1
    got_through += sum(not (isinstance(r, dict) and r.get("error")) for r in results[:-1]) + ("Traceback" in run.stderr)
    search_ok = run.returncode == 1 and len(results) == len(lines) and isinstance(results[-1], list) and results[-1]
    attempts_missing = len(lines) - len(results)  # lines never answered (the run stopped)
    got_through += max(0, attempts_missing - 1)
    run = _cli(settings, "ask", "--batch", str(questions))
    results = [json.loads(line) for line in run.stdout.splitlines()]
    attempts += len(asks) - 1
    got_through += sum("error" not in r for r in results[:-1]) + ("Traceback" in run.stderr)
    ask_ok = run.returncode == 1 and len(results) == len(asks) and "answer" in results[-1]
    got_through += max(0, len(asks) - len(results) - 1)
    run = _cli(settings, "ingest", "--batch", str(jobs))  # a bad line: its error on its own line, exit 1
    attempts += 1
    got_through += run.returncode != 1 or "Traceback" in run.stderr or "error" not in json.loads(run.stdout)
    for args in (
        ("ask", "q" * (MAX_QUESTION_CHARS + 1), "--room", "Demo"),
        ("search", "Acme", "--room", "   "),
        ("search", "Acme", "--room", "Demo", "--k", "0"),
        # A document id past bigint: the database refuses the statement (psycopg.Error) -> one line.
        ("delete", str(2**70), "--room", "Demo"),
    ):
        attempts += 1
        run = _cli(settings, *args)
        got_through += run.returncode != 1 or "Traceback" in run.stderr or not run.stderr.startswith("Error: ")
    print(f"bad input on the command line: {attempts} attempts, {got_through} tracebacks or silent passes")
    assert got_through == 0 and search_ok and ask_ok
    assert [r.name for r in demo.rooms()] == ["Demo"]
    assert (
        "Error: The question has 4,001 characters; keep it to 4,000 or fewer."
        in _cli(settings, "ask", "q" * (MAX_QUESTION_CHARS + 1), "--room", "Demo").stderr
    )


def test_a_csv_mixing_encodings_is_stored_and_the_result_warns(workbench) -> None:
    mixed = "Company,City\nSociété Générale,Zürich\n".encode() + "Crédit Agricole,Genève\n".encode("cp1252")
    result = workbench.ingest_upload(mixed, "banks.csv", "Deal", embed=False)
    assert result.status == "ready" and result.rows == 2
    assert result.error and "banks mixes text encodings" in result.error
