"""TAT-QA dev, offline mode: exact match of `ask`'s values against the gold answers.

Usage: python -m bench.eval_tatqa ../shared/eval [--limit N] [--verbose] [--pdf]

With --pdf, each context becomes one PDF: its table drawn as an unruled statement on page 1 (labels left,
figures right-aligned in columns, no lines: bench.pdf_tables.render) and each paragraph on a page of its
own after it; every question of the context (from the table, the text or both) is asked, so the PDF-table
path (core/ingest/pdf_tables.py -> a sheet of the PDF -> cell arithmetic) and the passages are measured
together. Exact match is broken down by where the answer comes from.

Without --pdf (below): the table part alone, as a CSV.

Each context's table is written as a CSV (its rows as they are, header rows included) into a
temporary folder outside the repository and ingested into a room of its own (keyword index only);
each question whose answer comes from the table (`answer_from == "table"`) is asked through
core.qa.service.ask, as `workbench ask --json` does, and its `values` are scored:
- numbers compare as numbers after removing $, commas, % and brackets-as-minus, rounded to 2 decimals
  (gold arithmetic answers are rounded to 2 decimals; the answer's scale (million, percent) is not
  part of the value);
- spans compare as normalised text; multi-span answers as sets.
Prints exact match over all table questions and over those with a numeric answer (what the issue
judges), broken down by answer type, by the planner's intent that fired (the plan's `intent`), and by slice:
a fixed 30% of the contexts (by hash of the table's uid, `bench.eval_wtq.held_out`) is held out from tuning,
and `--verbose` never prints its misses. The
eval data is read from the given folder, never copied into the repository.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
import tempfile
import time
from collections import Counter, defaultdict
from decimal import Decimal, InvalidOperation
from pathlib import Path

import pymupdf

from bench.eval_retrieval import open_database
from bench.eval_wtq import held_out
from bench.pdf_tables import render
from core.config import Settings
from core.db import Database
from core.qa.service import ask
from core.workbench import Workbench


def load_contexts(eval_dir: Path) -> list[dict]:
    """The dev contexts: table (rows of strings), paragraphs, questions."""
    return json.loads((eval_dir / "tatqa-dev" / "tatqa_dataset_dev.json").read_text(encoding="utf-8"))


def as_number(text: str) -> Decimal | None:
    """A number in an answer: '$1,496.5' -> 1496.5, '(12.6)' -> -12.6, '-22.22%' -> -22.22."""
    body = text.strip().replace(",", "").replace("$", "").replace("%", "").replace("€", "").replace("£", "").strip()
    negative = body.startswith("(") and body.endswith(")")
    body = body.strip("()").strip()
    if not re.fullmatch(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)", body):
        return None
    try:
        value = Decimal(body)
    except InvalidOperation:
        return None
    return -value if negative else value


def normalise(text: str) -> str:
    """Lower case, no punctuation, no articles, single spaces."""
    text = re.sub(r"[^\w\s.]", " ", text.lower())
    return " ".join(w for w in text.split() if w not in {"a", "an", "the"}).strip(" .")


def same(gold: str, guess: str) -> bool:
    """One gold value met by one predicted value."""
    g, p = as_number(str(gold)), as_number(str(guess))
    if g is not None and p is not None:
        return round(g, 2) == round(p, 2)
    return normalise(str(gold)) == normalise(str(guess))


def correct(gold: list[str] | str | float, predicted: list[str]) -> bool:
    """Exact match: as sets, each gold value met by a prediction and each prediction by a gold value."""
    golds = [str(g) for g in gold] if isinstance(gold, list) else [str(gold)]
    if len(golds) != len(predicted):
        return False
    return all(any(same(g, p) for p in predicted) for g in golds) and all(
        any(same(g, p) for g in golds) for p in predicted
    )


def numeric(gold: list[str] | str | float) -> bool:
    """Whether every gold value is a number."""
    golds = gold if isinstance(gold, list) else [gold]
    return all(as_number(str(g)) is not None for g in golds)


def context_pdf(context: dict) -> bytes:
    """A context as a small report: the table as an unruled statement on page 1, one paragraph a page after it."""
    data = render([[str(c) for c in row] for row in context["table"]["table"]], None, None, ruled=False)
    doc = pymupdf.open(stream=data, filetype="pdf")
    for paragraph in sorted(context["paragraphs"], key=lambda p: p["order"]):
        page = doc.new_page(width=612, height=792)
        page.insert_textbox(pymupdf.Rect(72, 72, 540, 740), paragraph["text"], fontsize=9, fontname="helv")
    out = doc.tobytes()
    doc.close()
    return out


def main() -> None:
    """Ingest every table, ask its table questions, print exact match and its breakdown."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("eval_dir", type=Path)
    parser.add_argument("--limit", type=int, default=0, help="only the first N contexts")
    parser.add_argument("--home", type=Path, default=Path(".workbench/eval-tatqa"))
    parser.add_argument("--verbose", action="store_true", help="print every wrong answer")
    parser.add_argument("--pdf", action="store_true", help="each context as a PDF (table + paragraphs)")
    args = parser.parse_args()

    contexts = load_contexts(args.eval_dir)
    if args.limit:
        contexts = contexts[: args.limit]
    url = open_database(args.home, "tatqa_dev_pdf" if args.pdf else "tatqa_dev", None)
    # No rate limit: a benchmark asks far more than a person's 60 questions an hour.
    env = {"DATABASE_URL": url, "WORKBENCH_LOAD_DEMO": "false", "WORKBENCH_RATE_LIMIT": "0"}
    wb = Workbench(Settings.from_env(env), db=Database(url))
    tally: dict[str, Counter] = defaultdict(Counter)
    by_intent: dict[str, Counter] = defaultdict(Counter)  # the planner's rule that fired (core.qa.planner.intents)
    started = time.perf_counter()
    timings = []
    existing = {r.name for r in wb.rooms()}  # rooms an earlier run left
    with tempfile.TemporaryDirectory() as tmp:
        for context in contexts:
            uid = context["table"]["uid"]
            room = f"tatqa-{uid[:8]}"
            if args.pdf:
                path = Path(tmp) / f"report_{uid[:8]}.pdf"
                path.write_bytes(context_pdf(context))
            else:
                path = Path(tmp) / f"table_{uid[:8]}.csv"
                buffer = io.StringIO()
                csv.writer(buffer).writerows(context["table"]["table"])
                path.write_text(buffer.getvalue(), encoding="utf-8")
            # A PDF's bytes differ per run (its ID and dates): without this the room would gather a copy of the
            # context per run, and two equal tables make every line item ambiguous (and an old parser's copy stays).
            for document in wb.documents(room) if room in existing else []:
                wb.delete_document(room, document.id)
            [result] = list(wb.ingest([path], room, embed=False))
            if result.status != "ready":
                print(f"{room}: {result.error}")
                continue
            for question in context["questions"]:
                if question["answer_from"] != "table" and not args.pdf:
                    continue
                t0 = time.perf_counter()
                done = next(e for e in ask(wb, question["question"], room) if e.type == "done").result
                timings.append(time.perf_counter() - t0)
                ok = correct(question["answer"], done["values"])
                kinds = ["all", question["answer_type"], f"from {question['answer_from']}"]
                kinds += ["numeric"] if numeric(question["answer"]) else []
                kinds += ["held-out" if held_out(uid) else "tuning"]
                # A value given that is not the answer: the cited wrong figure the product must not give.
                wrong = bool(done["values"]) and not ok
                for kind in kinds:
                    tally[kind]["n"] += 1
                    tally[kind]["ok"] += ok
                    tally[kind]["wrong"] += wrong
                by_intent[done["intent"]]["n"] += 1
                by_intent[done["intent"]]["ok"] += ok
                by_intent[done["intent"]]["wrong"] += wrong
                if args.verbose and not ok and not held_out(uid):
                    print(
                        f"- {question['question']} | gold {question['answer']} ({question['scale']}) "
                        f"| got {done['values']} ({done['intent']}) | {done['answer'][:120]}"
                    )
    print(
        f"TAT-QA dev, {'PDF contexts' if args.pdf else 'table questions'}, offline: {len(contexts)} contexts, "
        f"{tally['all']['n']} questions, "
        f"{time.perf_counter() - started:.0f} s (median ask {sorted(timings)[len(timings) // 2] * 1000:.0f} ms)"
    )
    kinds = [
        "all",
        "numeric",
        "span",
        "multi-span",
        "arithmetic",
        "count",
        "from table",
        "from text",
        "from table-text",
        "tuning",
        "held-out",
    ]
    for kind in kinds:
        n, ok, wrong = tally[kind]["n"], tally[kind]["ok"], tally[kind]["wrong"]
        if n:
            print(f"  {kind:<11} exact match {ok / n:.3f}  ({ok}/{n}), wrong value {wrong / n:.3f} ({wrong})")
    print("  by intent (the planner's rule that fired):")
    for intent, counts in sorted(by_intent.items(), key=lambda kv: -kv[1]["n"]):
        n = counts["n"]
        print(
            f"    {intent:<15} exact match {counts['ok'] / n:.3f}  ({counts['ok']}/{n}), wrong value {counts['wrong'] / n:.3f}"
        )
    scores = {
        k: {"n": v["n"], "em": round(v["ok"] / v["n"], 4), "wrong": round(v["wrong"] / v["n"], 4)}
        for k, v in tally.items()
        if v["n"]
    }
    intents = {
        k: {"n": v["n"], "em": round(v["ok"] / v["n"], 4), "wrong": round(v["wrong"] / v["n"], 4)}
        for k, v in by_intent.items()
    }
    print(json.dumps({**scores, "by_intent": intents}))


if __name__ == "__main__":
    main()
