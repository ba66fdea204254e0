"""Tables from PDF pages (core.ingest.pdf_tables): `python -m bench.pdf_tables ../shared/eval [--pymupdf]`.

1. TAT-QA dev: each context's table is drawn into a one-page PDF twice, as a ruled grid (lines between every
   row and column, labels left, other cells centred, a wrapped label's figures on its first line) and as an
   unruled statement (labels left and wrapped at 180 pt with the figures on the last line, other cells
   right-aligned, no lines), each with the context's heading above when short and a prose paragraph below.
   Cell accuracy: blank rows and columns are dropped from the source and from the extracted table, then the
   extracted grid is shifted by the (row, column) offset in [-3, 3] x [-2, 2] that matches most cells; a source
   cell counts when its whitespace-folded text equals the extracted cell at its shifted position. Of several
   tables found on a page the best-matching one is scored. "found" is the share of pages with any table.
   `--pymupdf` also scores PyMuPDF's own page.find_tables (strategy "lines" on the ruled variant, "text" on
   the unruled one, without its layout model, which costs ~0.5 s a page).
2. FinanceBench dev: find_tables' time per page (the caller's TextPage made outside the clock; median of 3 runs
   over all pages), tables found, and for each question's evidence pages whether a table was found there and
   whether the answer's figures that appear on the page as words also appear as table cells. 3M and Best Buy
   are the tuning documents; American Express and Johnson & Johnson are held out. Then the grids of a few
   statement pages are printed for reading.

The eval data is read from the given folder, never copied into the repository.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

import pymupdf

from core.cells import parse_number
from core.ingest.pdf import TEXT_FLAGS
from core.ingest.pdf_tables import PdfTable, find_tables

RUNS = 3
FONT_SIZE = 8.0
PITCH = 11.0  # line pitch in points
LABEL_WIDTH = 180.0  # labels wider than this wrap
COLUMN_GAP = 18.0
MARGIN = 50.0
DEV_COMPANIES = ("3M", "BESTBUY")
# Statement pages to print (0-based page indices, located by searching for their titles).
DEV_PAGES = (("3M_2018_10K", 55), ("3M_2018_10K", 59), ("BESTBUY_2019_10K", 52), ("BESTBUY_2019_10K", 51))
HELD_OUT_PAGES = (
    ("JOHNSON_JOHNSON_2022_10K", 46),
    ("JOHNSON_JOHNSON_2022_10K", 45),
    ("AMERICANEXPRESS_2022_10K", 95),
    ("AMERICANEXPRESS_2022_10K", 97),
)

Grid = list[list[str]]


def _fold(text: object) -> str:
    return " ".join(str(text or "").split())


# Fonts as Font objects written through a TextWriter: insert_text's simple encoding turns "—" into "·".
_FONT = pymupdf.Font("helv")
_BOLD = pymupdf.Font("hebo")


def _width(text: str) -> float:
    return float(_FONT.text_length(text, fontsize=FONT_SIZE))


def _wrap(text: str, width: float) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and _width(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines or [""]


# ------------------------------------------------------------------------------------------- TAT-QA


def render(table: Grid, heading: str | None, paragraph: str | None, ruled: bool) -> bytes:
    """One PDF page holding the table (ruled grid or unruled statement), a heading above, prose below."""
    n_cols = max(len(r) for r in table)
    rows = [[_fold(c) for c in r] + [""] * (n_cols - len(r)) for r in table]
    label_w = min(max(_width(r[0]) for r in rows), LABEL_WIDTH)
    widths = [max(_width(r[c]) for r in rows) for c in range(1, n_cols)]
    pad = 4.0 if ruled else 0.0
    lefts = [MARGIN]
    x = MARGIN + label_w + COLUMN_GAP
    for w in widths:
        lefts.append(x)
        x += w + COLUMN_GAP + 2 * pad
    right = x - COLUMN_GAP
    page_w = max(612.0, right + MARGIN)
    labels = [_wrap(r[0], label_w) for r in rows]
    prose = _wrap(paragraph, page_w - 2 * MARGIN)[:6] if paragraph else []
    page_h = max(792.0, 120 + PITCH * (sum(len(lines) for lines in labels) + len(rows) * 0.5 + len(prose) + 4))
    doc = pymupdf.open()
    page = doc.new_page(width=page_w, height=page_h)
    writer = pymupdf.TextWriter(page.rect)
    y = 70.0
    if heading:
        writer.append((MARGIN, y), heading, font=_BOLD, fontsize=FONT_SIZE + 2)
        y += 2 * PITCH
    top = y - PITCH + 2
    edges = [top]
    for row, lines in zip(rows, labels, strict=True):
        for k, line in enumerate(lines):
            writer.append((MARGIN + pad, y + k * PITCH), line, font=_FONT, fontsize=FONT_SIZE)
        figure_y = y if ruled else y + (len(lines) - 1) * PITCH
        for c in range(1, n_cols):
            text = row[c]
            if not text:
                continue
            w = _width(text)
            if ruled:  # centred in its cell
                tx = lefts[c] + pad + (widths[c - 1] - w) / 2
            else:  # right-aligned
                tx = lefts[c] + widths[c - 1] - w
            writer.append((tx, figure_y), text, font=_FONT, fontsize=FONT_SIZE)
        y += len(lines) * PITCH + (4 if ruled else 0)
        edges.append(y - PITCH + 2)
    if ruled:
        for e in edges:
            page.draw_line((MARGIN - 2, e), (right + 2, e), width=0.5)
        for left in [MARGIN - 2, *(left_x - COLUMN_GAP / 2 for left_x in lefts[1:]), right + 2]:
            page.draw_line((left, edges[0]), (left, edges[-1]), width=0.5)
    y += PITCH * 1.5
    for line in prose:
        writer.append((MARGIN, y), line, font=_FONT, fontsize=FONT_SIZE)
        y += PITCH
    writer.write_text(page)
    data = doc.tobytes()
    doc.close()
    return data


def _compact(grid: Sequence[Sequence[object]]) -> Grid:
    """The grid without blank rows and columns, cells whitespace-folded."""
    rows = [[_fold(c) for c in r] for r in grid]
    rows = [r for r in rows if any(r)]
    if not rows:
        return []
    n = max(len(r) for r in rows)
    rows = [r + [""] * (n - len(r)) for r in rows]
    keep = [c for c in range(n) if any(r[c] for r in rows)]
    return [[r[c] for c in keep] for r in rows]


def score(source: Grid, extracted: Sequence[Sequence[object]]) -> int:
    """Source cells found at their position in the extracted grid, under the best (row, column) offset."""
    src, ext = _compact(source), _compact(extracted)
    best = 0
    for dr in range(-3, 4):
        for dc in range(-2, 3):
            hits = 0
            for r, row in enumerate(src):
                er = r + dr
                if not 0 <= er < len(ext):
                    continue
                for c, cell in enumerate(row):
                    ec = c + dc
                    if cell and 0 <= ec < len(ext[er]) and ext[er][ec] == cell:
                        hits += 1
            best = max(best, hits)
    return best


def _pymupdf_grids(page: pymupdf.Page, ruled: bool) -> list[list[list[object]]]:
    found = page.find_tables(strategy="lines" if ruled else "text", use_layout=False)
    return [[list(r) for r in t.extract()] for t in found.tables]


def run_tatqa(eval_dir: Path, with_pymupdf: bool) -> None:
    contexts = json.loads((eval_dir / "tatqa-dev" / "tatqa_dataset_dev.json").read_text(encoding="utf-8"))
    methods = ["pdf_tables"] + (["pymupdf"] if with_pymupdf else [])
    print(f"TAT-QA dev: {len(contexts)} tables, each drawn as a ruled grid and as an unruled statement")
    print(f"{'variant':10} {'method':11} {'tables':>6} {'found':>7} {'cells':>6} {'cell acc':>8} {'ms/page':>8}")
    for ruled in (True, False):
        stats = {m: [0, 0, 0, 0.0] for m in methods}  # found, hits, cells, seconds
        for context in contexts:
            table = context["table"]["table"]
            paragraphs = [p["text"] for p in context["paragraphs"]]
            heading = paragraphs[0] if paragraphs and len(paragraphs[0]) <= 90 else None
            paragraph = next((p for p in paragraphs if len(p) > 100), None)
            data = render(table, heading, paragraph, ruled)
            total = sum(1 for r in _compact(table) for c in r if c)
            with pymupdf.open(stream=data, filetype="pdf") as doc:
                page = doc[0]
                textpage = page.get_textpage(flags=TEXT_FLAGS)
                for method in methods:
                    started = time.perf_counter()
                    if method == "pdf_tables":
                        grids = [list(map(list, t.records)) for t in find_tables(page, textpage, 1)]
                    else:
                        grids = _pymupdf_grids(page, ruled)
                    stats[method][3] += time.perf_counter() - started
                    stats[method][0] += bool(grids)
                    # Stacked tables in one source grid come out as several: score them one under another too.
                    stacked = [row for g in grids for row in g]
                    stats[method][1] += max([score(table, g) for g in grids] + [score(table, stacked)])
                    stats[method][2] += total
        n = len(contexts)
        for method, (found, hits, cells, seconds) in stats.items():
            print(
                f"{'ruled' if ruled else 'unruled':10} {method:11} {n:>6} {found / n:>7.1%} {cells:>6} "
                f"{hits / cells:>8.1%} {seconds / n * 1000:>8.1f}"
            )


# ------------------------------------------------------------------------------------------- FinanceBench

_ANSWER_NUMBER = re.compile(r"(?<![A-Za-z\d.])\d[\d,]*(?:\.\d+)?")


def _figures(answer: str) -> list[float]:
    """The figures of an answer, without years: "$1577.00" -> [1577.0]."""
    out = []
    for match in _ANSWER_NUMBER.finditer(answer):
        text = match.group().rstrip(",")
        if re.fullmatch(r"(?:19|20)\d\d", text):
            continue
        out.append(float(text.replace(",", "")))
    return out


def _values(texts: Sequence[str]) -> list[float]:
    out = []
    for text in texts:
        value = parse_number(text.replace(" ", ""))
        if value is not None:
            out.append(abs(value))
    return out


def _same(a: float, values: Sequence[float]) -> bool:
    return any(abs(a - v) < 0.006 for v in values)


def _timed_tables(doc: pymupdf.Document) -> tuple[float, dict[int, list[PdfTable]]]:
    """Median seconds over RUNS of find_tables on every page (TextPages made outside the clock), and the tables."""
    pages = [doc[i] for i in range(doc.page_count)]
    textpages = [p.get_textpage(flags=TEXT_FLAGS) for p in pages]
    times = []
    tables: dict[int, list[PdfTable]] = {}
    for _ in range(RUNS):
        started = time.perf_counter()
        tables = {i: find_tables(p, tp, i + 1) for i, (p, tp) in enumerate(zip(pages, textpages, strict=True))}
        times.append(time.perf_counter() - started)
    return statistics.median(times), tables


def show(table: PdfTable) -> None:
    """Print a table as aligned text."""
    print(f"  title: {table.title!r}")
    widths = [min(max(len(r[c]) for r in table.records), 70) for c in range(len(table.records[0]))]
    for row in table.records:
        print("  | " + " | ".join(cell[:70].ljust(w) for cell, w in zip(row, widths, strict=True)) + " |")


def run_financebench(eval_dir: Path, pages_only: bool) -> None:
    folder = eval_dir / "financebench-dev"
    questions = [json.loads(line) for line in (folder / "questions.jsonl").read_text().splitlines() if line.strip()]
    all_tables: dict[str, dict[int, list[PdfTable]]] = {}
    if not pages_only:
        print("\nFinanceBench dev: find_tables on every page (median of 3 runs)")
        print(f"{'document':42} {'pages':>5} {'ms/page':>8} {'tables':>6} {'pages w/ table':>14}")
        total_pages, total_seconds, total_tables = 0, 0.0, 0
        for path in sorted((folder / "pdfs").glob("*.pdf")):
            with pymupdf.open(path) as doc:
                seconds, tables = _timed_tables(doc)
                count = doc.page_count
            all_tables[path.stem] = tables
            n_tables = sum(len(t) for t in tables.values())
            with_table = sum(1 for t in tables.values() if t)
            total_pages += count
            total_seconds += seconds
            total_tables += n_tables
            print(f"{path.stem:42} {count:>5} {seconds / count * 1000:>8.2f} {n_tables:>6} {with_table:>14}")
        print(f"{'all':42} {total_pages:>5} {total_seconds / total_pages * 1000:>8.2f} {total_tables:>6}")
        _question_quality(folder, questions, all_tables)
    for label, chosen in (("tuning", DEV_PAGES), ("held-out", HELD_OUT_PAGES)):
        for doc_name, index in chosen:
            with pymupdf.open(folder / "pdfs" / f"{doc_name}.pdf") as doc:
                page = doc[index]
                tables = find_tables(page, page.get_textpage(flags=TEXT_FLAGS), index + 1)
            print(f"\n[{label}] {doc_name} page index {index}: {len(tables)} table(s)")
            for table in tables:
                show(table)


def _question_quality(folder: Path, questions: list[dict], all_tables: dict[str, dict[int, list[PdfTable]]]) -> None:
    rows = {"tuning (3M, Best Buy)": [0, 0, 0, 0, 0], "held-out (AmEx, J&J)": [0, 0, 0, 0, 0]}
    for q in questions:
        group = "tuning (3M, Best Buy)" if q["doc_name"].startswith(DEV_COMPANIES) else "held-out (AmEx, J&J)"
        figures = _figures(q["answer"])
        with pymupdf.open(folder / "pdfs" / f"{q['doc_name']}.pdf") as doc:
            for evidence in q["evidence"]:
                index = evidence["evidence_page_num"]
                tables = all_tables[q["doc_name"]].get(index, [])
                words = [w[4] for w in doc[index].get_text("words")]
                on_page = [f for f in figures if _same(f, _values(words))]
                cells = _values([c for t in tables for r in t.records for c in r])
                stat = rows[group]
                stat[0] += 1
                stat[1] += bool(tables)
                stat[2] += bool(on_page)
                stat[3] += bool(on_page) and all(_same(f, cells) for f in on_page)
                stat[4] += bool(on_page) and any(_same(f, cells) for f in on_page)
    print("\nFinanceBench evidence pages: a table found; answer figures printed on the page found as table cells")
    print(f"{'questions':24} {'pages':>5} {'w/ table':>8} {'figures on page':>15} {'all in cells':>12} {'any':>5}")
    for group, (pages, with_table, on_page, all_in, any_in) in rows.items():
        print(f"{group:24} {pages:>5} {with_table:>8} {on_page:>15} {all_in:>12} {any_in:>5}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("eval_dir", type=Path)
    parser.add_argument("--pymupdf", action="store_true", help="also score PyMuPDF's page.find_tables on TAT-QA")
    parser.add_argument("--pages-only", action="store_true", help="only print the statement pages' grids")
    args = parser.parse_args()
    if not args.pages_only:
        run_tatqa(args.eval_dir, args.pymupdf)
    run_financebench(args.eval_dir, args.pages_only)


if __name__ == "__main__":
    main()
