"""A folder of workbooks and questions written by someone else: right / wrong / abstained per class, offline.

Usage: python -m bench.eval_folder FOLDER [--verbose] [--log FILE] [--home DIR]

FOLDER holds ``files/`` (the workbooks, CSVs or PDFs) and ``questions.jsonl``, one object a line:
``{"id", "file", "question", "answers": [...], "kind": "number"|"name"|"ambiguous"|"absent", "class"}``.  Each file is
ingested into a room of its own; each question is asked of its file's room through ``core.qa.service.ask`` (the
whole product, offline) and scored:
- right: a value of the answer meets a gold answer (numbers as numbers with a small tolerance, a percentage as a
  share or in percent; names compared folded); for ``ambiguous`` questions (the sheet holds several readings),
  right is a question back (``clarify`` options) or an abstention, since any one figure is a guess; for ``absent``
  questions (no cell holds the answer), right is an abstention;
- wrong: values that are not the gold (the cited wrong figure; for ``ambiguous`` and ``absent``, any figure);
- abstained: ``abstained`` or no values.
A probe is scored once before any work on it (its first-sight figure) and then again after; nothing of it is
committed: the folder is an argument.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter, defaultdict
from pathlib import Path

from bench.eval_retrieval import drop_database, open_database
from bench.scoring import same_figure
from core.config import Settings
from core.db import Database
from core.qa.service import ask
from core.workbench import Workbench


def same(gold: str, value: str) -> bool:
    """One gold value met by one answered value."""
    figures = same_figure(gold, value)
    if figures is not None:
        return figures
    return " ".join(str(gold).lower().split()) == " ".join(str(value).lower().split())


def score(item: dict, done: dict) -> str:
    """right, wrong or abstained."""
    values = [str(v) for v in done.get("values") or []]
    asked_back = bool(done.get("clarify"))
    if item.get("kind") in ("ambiguous", "absent"):
        return "right" if asked_back or done.get("abstained") or not values else "wrong"
    if asked_back or done.get("abstained") or not values:
        return "abstained"
    return "right" if any(same(str(g), v) for g in item["answers"] for v in values) else "wrong"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folder", type=Path, help="holds files/ and questions.jsonl")
    parser.add_argument("--home", type=Path, default=Path(".workbench/eval-folder"))
    parser.add_argument("--verbose", action="store_true", help="print each miss")
    parser.add_argument("--log", type=Path, help="write every answer as JSON lines here")
    args = parser.parse_args()

    items = [json.loads(line) for line in (args.folder / "questions.jsonl").read_text().splitlines() if line.strip()]
    database = "probe_" + re.sub(r"\W", "_", args.folder.resolve().name)[:40]
    drop_database(args.home, database, None)
    url = open_database(args.home, database, None)
    env = {"DATABASE_URL": url, "WORKBENCH_LOAD_DEMO": "false", "WORKBENCH_RATE_LIMIT": "0"}
    wb = Workbench(Settings.from_env(env), db=Database(url))
    for name in sorted({item["file"] for item in items}):
        path = args.folder / "files" / name
        result = wb.ingest_upload(path.read_bytes(), path.name, f"probe-{name}", embed=False)
        if result.status != "ready":
            print(f"{name}: {result.error}")
    tally: dict[str, Counter] = defaultdict(Counter)
    log = args.log.open("w") if args.log else None
    for item in items:
        done = next(e for e in ask(wb, item["question"], f"probe-{item['file']}") if e.type == "done").result
        outcome = score(item, done)
        for klass in ("all", item.get("class", "?"), f"file {item['file']}"):
            tally[klass][outcome] += 1
        if log:
            cited = [c.get("ref") for c in done.get("citations") or []][:6]
            log.write(json.dumps({"id": item["id"], "outcome": outcome, "values": done.get("values"), "cited": cited,
                                  "answer": done.get("answer", "")[:400]}) + "\n")  # fmt: skip
        if args.verbose and outcome != "right":
            print(f"- [{outcome}] {item['question']} | gold {item['answers']} | got {done.get('values')} "
                  f"| {done.get('answer', '')[:160]!r}")  # fmt: skip
    print(f"{args.folder.name}: {len(items)} questions, offline")
    print(f"  {'class':<44} {'right':>6} {'wrong':>6} {'abst.':>6}")
    for klass in sorted(tally, key=lambda k: (k != "all", k.startswith("file"), k)):
        c = tally[klass]
        print(f"  {klass:<44} {c['right']:>6} {c['wrong']:>6} {c['abstained']:>6}")
    print(json.dumps({k: dict(c) for k, c in tally.items()}))


if __name__ == "__main__":
    main()
