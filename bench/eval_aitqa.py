"""AIT-QA dev: real airline 10-K tables with stacked headers, laid out as analysts' workbooks, asked offline.

Usage: python -m bench.eval_aitqa ../shared/eval [--layouts stacked,columns] [--verbose] [--home DIR]

AIT-QA gives each table as header paths and printed strings, not as a file.  Each table is laid out here as an
analyst would hold it, in more than one way, since users' files differ:
- ``stacked``: a title row (the airline), the column header paths as stacked header rows with the repeated
  upper levels merged across their columns, the row paths as parent rows ("Consolidated:") with their children
  below, indented one level per depth (the cell's indent); figures typed (numbers as numbers, "83.6%" as a
  percent-formatted fraction, "(12)" as -12), text as text;
- ``columns``: no title (the airline in the file name), one header row whose names are the column paths joined
  ("Year Ended December 31, 2018"), the row path as label columns (the parent repeated on each row), every
  figure kept as the printed text ("1,234", "83.6%").
One room per table and layout; every question of the table is asked through ``core.qa.service.ask`` (the whole
product, offline) and scored right (the answer's values hold a gold answer: numbers compared as numbers, a
percentage as a share or in percent), wrong (values that are not the gold: a cited wrong figure) or abstained
(``abstained`` or no values).  Printed per layout and per the data set's classes (KPI-driven / Table-driven,
row hierarchy needed).  The eval data is read from the given folder and never copied into the repository.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font

from bench.eval_retrieval import drop_database, open_database
from bench.scoring import same_figure
from core.config import Settings
from core.db import Database
from core.qa.service import ask
from core.workbench import Workbench

LAYOUTS = ("stacked", "columns")
# The airline a table belongs to is not in AIT-QA's table; its questions name it.  The bench puts it in the file
# name and title row, as an analyst's workbook would say whose figures it holds.
AIRLINES = ("United", "Southwest", "Delta", "American", "Alaska", "JetBlue", "Hawaiian", "Spirit", "Allegiant",
            "SkyWest", "Frontier", "Virgin America")  # fmt: skip


def load(eval_dir: Path) -> tuple[dict[str, dict], list[dict]]:
    folder = eval_dir / "aitqa-dev"
    tables = {t["id"]: t for t in map(json.loads, (folder / "tables.jsonl").read_text().splitlines()) if t}
    questions = [json.loads(line) for line in (folder / "questions.jsonl").read_text().splitlines() if line.strip()]
    return tables, questions


def airline_of(table_id: str, questions: list[dict]) -> str:
    named = Counter(
        a for q in questions if q["table_id"] == table_id for a in AIRLINES if a.lower() in q["question"].lower()
    )
    return named.most_common(1)[0][0] if named else "Airline"


_FIGURE = re.compile(r"\(?-?\$?\s*[\d,]*\.?\d+\)?%?")


def typed(text: str) -> tuple[object, str | None]:
    """A printed figure as an analyst's typed cell: (value, number format) — text stays text."""
    t = text.strip()
    if not t or not _FIGURE.fullmatch(t) or not re.search(r"\d", t):
        return text, None
    negative = (t.startswith("(") and t.endswith(")")) or t.startswith("-")
    body = re.sub(r"[()$,\s-]", "", t)
    percent = body.endswith("%")
    body = body.rstrip("%")
    try:
        value = float(body)
    except ValueError:
        return text, None
    value = -value if negative else value
    decimals = len(body.partition(".")[2])
    if percent:
        return value / 100, "0." + "0" * decimals + "%" if decimals else "0%"
    number_format = "#,##0" + ("." + "0" * decimals if decimals else "")
    if negative and t.startswith("("):
        number_format += f";({number_format})"
    return (int(value) if not decimals and value.is_integer() else value), number_format


def write_stacked(table: dict, airline: str, path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    ws.title = "Table"
    ws.cell(1, 1, f"{airline}").font = Font(bold=True)
    headers = table["column_header"]
    depth = max(len(h) for h in headers)
    labelled = any(table["row_header"])
    first_col = 2 if labelled else 1
    top = 3
    for level in range(depth):
        row = top + level
        j = 0
        while j < len(headers):
            text = headers[j][level] if level < len(headers[j]) else ""
            k = j
            # Repeated upper levels (same path so far) are one merged cell across their columns.
            while (level < depth - 1 and k + 1 < len(headers) and level < len(headers[k + 1])
                   and headers[k + 1][: level + 1] == headers[j][: level + 1]):  # fmt: skip
                k += 1
            ws.cell(row, first_col + j, text).font = Font(bold=True)
            if k > j:
                ws.merge_cells(start_row=row, start_column=first_col + j, end_row=row, end_column=first_col + k)
            j = k + 1
    row = top + depth
    shown: list[str] = []
    for r, values in enumerate(table["data"]):
        path_ = table["row_header"][r] if labelled else []
        for level, label in enumerate(path_[:-1]):
            if level >= len(shown) or shown[level] != label:
                ws.cell(row, 1, label).alignment = Alignment(indent=level)
                shown = [*shown[:level], label]
                row += 1
        if labelled:
            ws.cell(row, 1, path_[-1] if path_ else "").alignment = Alignment(indent=max(0, len(path_) - 1))
            shown = shown[: len(path_) - 1]
        for j, text in enumerate(values):
            value, number_format = typed(text)
            cell = ws.cell(row, first_col + j, value)
            if number_format:
                cell.number_format = number_format
        row += 1
    wb.save(path)


def write_columns(table: dict, path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    ws.title = "Table"
    depth = max((len(p) for p in table["row_header"]), default=0)
    labels = ["Category", "Item", "Line"][:depth] if depth > 1 else (["Item"] if depth else [])
    header = labels + [" ".join(h) for h in table["column_header"]]
    ws.append(header)
    for r, values in enumerate(table["data"]):
        path_ = list(table["row_header"][r]) if depth else []
        # The parent levels in their own columns; a shorter path leaves the deeper columns blank.
        ws.append([*path_[:-1], *[""] * (depth - len(path_)), *path_[-1:], *values])
    wb.save(path)


def same(gold: str, value: str) -> bool:
    figures = same_figure(gold, value, tolerance=0.001, scaled=True)
    if figures is not None:
        return figures
    return " ".join(str(gold).lower().split()) == " ".join(str(value).lower().split())


def score(golds: list[str], done: dict) -> str:
    values = [str(v) for v in done.get("values") or []]
    if done.get("abstained") or not values:
        return "abstained"
    return "right" if any(same(g, v) for g in golds for v in values) else "wrong"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("eval_dir", type=Path, help="the shared eval folder (holds aitqa-dev/)")
    parser.add_argument("--layouts", default=",".join(LAYOUTS))
    parser.add_argument("--home", type=Path, default=Path(".workbench/eval-aitqa"))
    parser.add_argument("--verbose", action="store_true", help="print each miss")
    parser.add_argument("--log", type=Path, help="write every answer as JSON lines here")
    args = parser.parse_args()

    tables, questions = load(args.eval_dir)
    layouts = [name for name in args.layouts.split(",") if name]
    drop_database(args.home, "aitqa_dev", None)
    url = open_database(args.home, "aitqa_dev", None)
    env = {"DATABASE_URL": url, "WORKBENCH_LOAD_DEMO": "false", "WORKBENCH_RATE_LIMIT": "0"}
    wb = Workbench(Settings.from_env(env), db=Database(url))
    tally: dict[tuple[str, str], Counter] = defaultdict(Counter)
    log = args.log.open("w") if args.log else None
    with tempfile.TemporaryDirectory() as tmp:
        for layout in layouts:
            for table_id, table in tables.items():
                airline = airline_of(table_id, questions)
                path = Path(tmp) / f"{airline} {table_id} {layout}.xlsx"
                if layout == "stacked":
                    write_stacked(table, airline, path)
                else:
                    write_columns(table, path)
                result = wb.ingest_upload(path.read_bytes(), path.name, f"{layout}-{table_id}", embed=False)
                if result.status != "ready":
                    print(f"{layout} {table_id}: {result.error}")
        for layout in layouts:
            for q in questions:
                done = next(e for e in ask(wb, q["question"], f"{layout}-{q['table_id']}") if e.type == "done").result
                outcome = score(q["answers"], done)
                hierarchy = "row path" if q["row_hierarchy_needed"] == "Yes" else "flat row"
                for klass in ("all", q["type"], hierarchy):
                    tally[(layout, klass)][outcome] += 1
                if log:
                    log.write(json.dumps({"layout": layout, "id": q["id"], "outcome": outcome,
                                          "values": done.get("values"), "answer": done.get("answer", "")[:300]}) + "\n")  # fmt: skip
                if args.verbose and outcome != "right":
                    print(f"- [{layout} {outcome}] {q['question']} | gold {q['answers']} | got {done.get('values')} "
                          f"| {done.get('answer', '')[:140]!r}")  # fmt: skip
    print(f"AIT-QA dev, offline: {len(questions)} questions x {len(layouts)} layouts")
    print(f"  {'layout':<10} {'class':<14} {'right':>6} {'wrong':>6} {'abst.':>6}   (shares)")
    for layout in layouts:
        for klass in ("all", "KPI-driven", "Table-driven", "row path", "flat row"):
            c = tally[(layout, klass)]
            n = sum(c.values()) or 1
            print(f"  {layout:<10} {klass:<14} {c['right']:>6} {c['wrong']:>6} {c['abstained']:>6}   "
                  f"{c['right'] / n:.2f}/{c['wrong'] / n:.2f}/{c['abstained'] / n:.2f}")  # fmt: skip
    print(json.dumps({f"{layout}|{klass}": dict(c) for (layout, klass), c in tally.items()}))


if __name__ == "__main__":
    main()
