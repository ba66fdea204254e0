"""FinanceBench answers: how often the offline workbench gives the right figure, and how often a wrong one.

Usage: python -m bench.eval_financebench ../shared/eval [--verbose]

Each company's filings form one data room (tables found in the PDFs are stored as sheets of their filing).
Every question is asked in its company's room through core.qa.service.ask, offline. A question is *numeric*
when its reference answer is a figure alone ("$1577.00", "2.8%"); for those, an answer is right when one of
its `values` is within 1% of the figure (signs ignored: a cash-flow line prints capex as "(1,577)"), and a
*cited wrong figure* when it gave values and none is. Every question also counts as *figure in text* when any
number of the answer text is within 1% of the first number of the reference answer (lenient: a passage dump
can hold the figure by luck). Page-hit@5 of search is bench/eval_retrieval.py's.

The eval data is read from the given folder and never copied into the repository.
"""

from __future__ import annotations

import argparse
import re
import time
from collections import Counter, defaultdict
from pathlib import Path

from bench.eval_retrieval import drop_database, evidence_pages, ingest_rooms, load_questions, open_database
from core.cells import parse_number
from core.config import Settings
from core.db import Database
from core.qa.service import ask
from core.workbench import Workbench

_FIGURE = re.compile(r"\(?-?\$?\s*\d[\d,]*(?:\.\d+)?\s*%?\)?")
_ONLY_FIGURE = re.compile(r"\s*\(?-?\$?\s*\d[\d,]*(?:\.\d+)?\s*%?\)?\s*")


def numbers(text: str) -> list[float]:
    """The figures written in `text`, as numbers (years and footnote digits included: scoring is by tolerance)."""
    out = []
    for match in _FIGURE.finditer(text or ""):
        value = parse_number(match.group().strip())
        if value is not None:
            out.append(value)
    return out


def close(value: float, gold: float) -> bool:
    """Within 1% of the reference figure, signs ignored."""
    return abs(abs(value) - abs(gold)) <= 0.01 * abs(gold) + 1e-9


def main() -> None:
    """Ask every question in its company's room; print right figures, cited wrong figures and abstentions."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("eval_dir", type=Path, help="the shared eval folder (holds financebench-dev/)")
    parser.add_argument("--home", type=Path, default=Path(".workbench/eval"))
    parser.add_argument("--database-url", help="server to use instead of the embedded one")
    parser.add_argument("--verbose", action="store_true", help="print each question's outcome")
    parser.add_argument("--fresh", action="store_true", help="ingest again (after a change to parsing or tables)")
    args = parser.parse_args()

    questions = load_questions(args.eval_dir)
    # The rooms bench/eval_retrieval.py and eval_abstention.py use (same chunking): ingested once for all three.
    name = f"financebench_c{Settings().chunk_chars}_o{Settings().chunk_overlap}"
    if args.fresh:
        drop_database(args.home, name, args.database_url)
    url = open_database(args.home, name, args.database_url)
    settings = Settings.from_env({"DATABASE_URL": url, "WORKBENCH_HOME": str(args.home)})
    wb = Workbench(settings, db=Database(url))
    started = time.perf_counter()
    ingest_rooms(wb, questions, args.eval_dir / "financebench-dev" / "pdfs")
    print(f"rooms ready in {time.perf_counter() - started:.1f} s")
    with wb.db.connection() as conn:
        n_tables = conn.execute("SELECT count(*) FROM sheets WHERE page_number IS NOT NULL").fetchone()
    print(f"tables stored as sheets: {n_tables[0] if n_tables else 0}")

    tally = {"numeric": 0, "right": 0, "wrong": 0, "abstained": 0, "text": 0, "cited_page": 0, "cells": 0}
    by_type: dict[str, Counter] = defaultdict(Counter)  # question type -> right / wrong / abstained / answered
    for question in questions:
        result = next(e for e in ask(wb, question["question"], question["company"]) if e.type == "done").result or {}
        gold_numbers = numbers(question["answer"])
        numeric = bool(_ONLY_FIGURE.fullmatch(question["answer"])) and bool(gold_numbers)
        values = [v for v in (parse_number(x) for x in result.get("values", [])) if v is not None]
        in_text = bool(gold_numbers) and any(close(v, gold_numbers[0]) for v in numbers(result.get("answer", "")))
        cited = {(f"{c['title']}", c.get("page")) for c in result.get("citations", [])}
        tally["text"] += in_text
        tally["cited_page"] += bool(cited & evidence_pages(question))
        tally["abstained"] += bool(result.get("abstained"))
        tally["cells"] += any(s.get("kind") == "cells" for s in result.get("steps", []))
        outcome = "-"
        if numeric:
            tally["numeric"] += 1
            right = any(close(v, gold_numbers[0]) for v in values)
            tally["right"] += right
            tally["wrong"] += bool(values) and not right
            outcome = "right" if right else "WRONG FIGURE" if values else "no figure"
        kind = by_type[question.get("question_type") or "unknown"]
        kind["questions"] += 1
        kind[outcome if outcome in ("right", "no figure") else "wrong" if outcome == "WRONG FIGURE" else "-"] += 1
        kind["abstained"] += bool(result.get("abstained"))
        kind["figure in text"] += in_text
        if args.verbose:
            print(f"\n[{question['doc_name']}] {question['question'][:160]}")
            print(f"  gold: {question['answer'][:120]!r}  numeric: {numeric}  outcome: {outcome}  in text: {in_text}")
            print(f"  answer: {result.get('answer', '')[:300]!r}  values: {result.get('values')}")
    n = len(questions)
    print(f"\nFinanceBench dev, offline, {n} questions")
    print("| measure | share |")
    print("|---|---|")
    numeric = max(tally["numeric"], 1)
    print(f"| numeric questions answered with the right figure (within 1%) | {tally['right'] / numeric:.3f} "
          f"({tally['right']}/{tally['numeric']}) |")  # fmt: skip
    print(f"| numeric questions answered with a wrong figure | {tally['wrong'] / numeric:.3f} "
          f"({tally['wrong']}/{tally['numeric']}) |")  # fmt: skip
    print(f"| all questions: reference figure in the answer text | {tally['text'] / n:.3f} ({tally['text']}/{n}) |")
    print(f"| answers citing an evidence page | {tally['cited_page'] / n:.3f} ({tally['cited_page']}/{n}) |")
    print(f"| answered from table cells | {tally['cells'] / n:.3f} ({tally['cells']}/{n}) |")
    print(f"| abstained | {tally['abstained'] / n:.3f} ({tally['abstained']}/{n}) |")
    print("\nBy question type (numeric: a figure alone is the reference answer)")
    print("| type | questions | numeric right / wrong / no figure | abstained | reference figure in the text |")
    print("|---|---|---|---|---|")
    for name, kind in sorted(by_type.items()):
        print(f"| {name} | {kind['questions']} | {kind['right']} / {kind['wrong']} / {kind['no figure']} | "
              f"{kind['abstained']} | {kind['figure in text']} |")  # fmt: skip


if __name__ == "__main__":
    main()
