"""FinanceBench retrieval: page-hit@5 of the workbench's search next to a BM25-over-pages baseline.

Usage: python -m bench.eval_retrieval ../shared/eval [--chunk-chars 1200 --overlap 200] [--k 5]

Each company's filings form one data room (as a user would set it up); a question scores a hit when
one of its evidence pages is among the pages of the top-k hits. The eval data is read from the
given folder and never copied into the repository.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

import bm25s
import psycopg

from core.config import Settings
from core.db import Database, embedded_url, q
from core.ingest.filing import read_filing
from core.qa.planner.pages import rerank_hints
from core.qa.planner.periods import FilingPeriod
from core.retrieval.search import search
from core.workbench import Workbench

_TOKEN = re.compile(r"[a-z0-9]+")


def held_out(question: dict) -> bool:
    """A fixed third of the questions, by a hash of their text: kept unseen while designing (totals only)."""
    return int(hashlib.sha256(question["question"].encode()).hexdigest()[:8], 16) % 3 == 0


def load_questions(eval_dir: Path) -> list[dict]:
    """FinanceBench dev questions (evidence pages are 0-based in the file)."""
    path = eval_dir / "financebench-dev" / "questions.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def evidence_pages(question: dict) -> set[tuple[str, int]]:
    """(document file name, 1-based page) of each evidence item."""
    return {(f"{question['doc_name']}.pdf", int(e["evidence_page_num"]) + 1) for e in question["evidence"]}


def open_database(home: Path, name: str, database_url: str | None) -> str:
    """Create (once) a database for this configuration on the embedded server; return its URI."""
    base = database_url or embedded_url(home)
    with psycopg.connect(base, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')
    return psycopg.conninfo.make_conninfo(base, dbname=name)


def drop_database(home: Path, name: str, database_url: str | None) -> None:
    """Drop a benchmark database made by open_database (to ingest again after a parsing change)."""
    with psycopg.connect(database_url or embedded_url(home), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def ingest_rooms(wb: Workbench, questions: list[dict], pdf_dir: Path) -> dict[str, float]:
    """One room per company holding all its filings; returns ingest seconds per room."""
    companies: dict[str, list[Path]] = defaultdict(list)
    for path in sorted(pdf_dir.glob("*.pdf")):
        company = next((q["company"] for q in questions if f"{q['doc_name']}.pdf" == path.name), None)
        if company:
            companies[company].append(path)
    timings = {}
    for company, paths in companies.items():
        started = time.perf_counter()
        for result in wb.ingest(paths, company):
            if result.status != "ready":
                print(f"  {result.title}: {result.error}", file=sys.stderr)
        timings[company] = time.perf_counter() - started
    return timings


def read_filings(wb: Workbench) -> int:
    """Store each document's filing columns when a home ingested before they were read (migration 022) left
    them empty: what ingestion now stores, read from the stored pages. Returns how many documents were read."""
    with wb.db.connection() as conn:
        docs = conn.execute("SELECT id, filename FROM documents WHERE form IS NULL AND kind = 'pdf'").fetchall()
        for doc_id, filename in docs:
            pages = conn.execute(
                "SELECT text FROM pages WHERE document_id = %s ORDER BY page_number LIMIT 10", (doc_id,)
            ).fetchall()
            filing = read_filing([text for (text,) in pages], filename)
            conn.execute(
                "UPDATE documents SET company = %s, form = %s, fiscal_year = %s, fiscal_quarter = %s,"
                " period_end = %s, fiscal_convention = %s WHERE id = %s",
                (filing.company, filing.form, filing.fiscal_year, filing.fiscal_quarter, filing.period_end,
                 filing.fiscal_convention, doc_id),
            )  # fmt: skip
    return len(docs)


def room_filings(wb: Workbench, room_id: int) -> list[FilingPeriod]:
    """The room's documents with their stored periods (what the planner scopes a question by)."""
    with wb.db.connection() as conn:
        return [FilingPeriod(*row) for row in conn.execute(q("room_filing_periods"), {"room_id": room_id})]


def bm25_baseline(wb: Workbench, company: str) -> tuple[bm25s.BM25, list[tuple[str, int]]]:
    """A plain BM25 index over the room's pages (one page = one document)."""
    with wb.db.connection() as conn:
        rows = conn.execute(
            "SELECT d.title, p.page_number, p.text FROM pages p JOIN documents d ON d.id = p.document_id"
            " JOIN rooms r ON r.id = d.room_id WHERE r.name = %s ORDER BY d.title, p.page_number",
            (company,),
        ).fetchall()
    keys = [(title, page) for title, page, _ in rows]
    retriever = bm25s.BM25()
    retriever.index(
        bm25s.tokenize([text for _, _, text in rows], stopwords="en", show_progress=False), show_progress=False
    )
    return retriever, keys


def ask_latency(settings: Settings, db: Database, questions: list[dict]) -> None:
    """Offline `ask` of every question in its room, with the rerank stage and without: p50 and p95 in ms."""
    for mode in ("on", "off", "on", "off"):  # interleaved: the machine's load weighs on both alike
        wb = Workbench(settings.model_copy(update={"rerank": mode, "llm": "offline"}), db=db)
        times = []
        for question in questions:
            started = time.perf_counter()
            for _ in wb.ask(question["question"], question["company"]):
                pass
            times.append((time.perf_counter() - started) * 1000)
        times.sort()
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        print(f"  offline ask, rerank {mode:<3}: p50 {statistics.median(times):.0f} ms, p95 {p95:.0f} ms")


def main() -> None:
    """Run the evaluation and print page-hit@k per method."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("eval_dir", type=Path, help="the shared eval folder (holds financebench-dev/)")
    parser.add_argument("--chunk-chars", type=int, default=Settings().chunk_chars)
    parser.add_argument("--overlap", type=int, default=Settings().chunk_overlap)
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--home", type=Path, default=Path(".workbench/eval"))
    parser.add_argument("--database-url", help="server to use instead of the embedded one")
    parser.add_argument("--verbose", action="store_true", help="print each question's outcome")
    parser.add_argument("--ask", action="store_true", help="also time offline ask per question, rerank on and off")
    args = parser.parse_args()

    questions = load_questions(args.eval_dir)
    url = open_database(args.home, f"financebench_c{args.chunk_chars}_o{args.overlap}", args.database_url)
    settings = Settings.from_env(
        {
            "DATABASE_URL": url,
            "WORKBENCH_CHUNK_CHARS": str(args.chunk_chars),
            "WORKBENCH_CHUNK_OVERLAP": str(args.overlap),
            "WORKBENCH_HOME": str(args.home),
        }
    )
    wb = Workbench(settings, db=Database(url))
    ingest_s = ingest_rooms(wb, questions, args.eval_dir / "financebench-dev" / "pdfs")
    read_filings(wb)

    methods = [
        "hybrid+rerank",
        "hybrid",
        "hybrid+mmr",
        "hybrid vw=1",
        "hybrid vw=0.25",
        "vector",
        "keyword",
        "bm25-pages",
    ]
    hits: dict[str, list[bool]] = {m: [] for m in methods}
    latency: list[float] = []
    rerank_ms: list[float] = []
    baselines = {}
    for question in questions:
        company, gold = question["company"], evidence_pages(question)
        room = wb.room(company)
        vector = wb.embedder.embed_query(question["question"])
        started = time.perf_counter()
        found = {"hybrid": search(wb.db, room, question["question"], k=args.k, query_vector=vector)}
        latency.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        hints = rerank_hints(question["question"], room_filings(wb, room.id))
        found["hybrid+rerank"] = search(wb.db, room, question["question"], k=args.k, query_vector=vector, rerank=hints)
        rerank_ms.append((time.perf_counter() - started) * 1000)
        found["hybrid+mmr"] = search(wb.db, room, question["question"], k=args.k, query_vector=vector, mmr=True)
        for weight in (1, 0.25):
            found[f"hybrid vw={weight}"] = search(
                wb.db, room, question["question"], k=args.k, query_vector=vector, vector_weight=weight
            )
        found["vector"] = search(wb.db, room, "", k=args.k, query_vector=vector)
        found["keyword"] = search(wb.db, room, question["question"], k=args.k)
        pages = {m: {(h.title, h.page) for h in hs} for m, hs in found.items()}
        if company not in baselines:
            baselines[company] = bm25_baseline(wb, company)
        retriever, keys = baselines[company]
        docs, _ = retriever.retrieve(
            bm25s.tokenize([question["question"]], stopwords="en", show_progress=False),
            k=min(args.k, len(keys)),
            show_progress=False,
        )
        pages["bm25-pages"] = {keys[i] for i in docs[0]}
        for method in methods:
            hits[method].append(bool(pages[method] & gold))
        if args.verbose and not held_out(question):
            mark = "HIT " if hits["hybrid+rerank"][-1] else "miss"
            print(
                f"{mark} {question['doc_name']} {sorted(p for _, p in gold)} <- "
                f"{sorted(pages['hybrid+rerank'])} | {question['question'][:70]}"
            )

    if args.ask:
        ask_latency(settings, wb.db, questions)
    n = len(questions)
    print(f"\nFinanceBench dev: {n} questions, chunk_chars={args.chunk_chars} overlap={args.overlap}, k={args.k}")
    print("ingest (parse+store+embed) seconds per room: " + ", ".join(f"{c} {s:.0f}" for c, s in ingest_s.items()))
    unseen = [held_out(question) for question in questions]
    for method in methods:
        seen = [h for h, u in zip(hits[method], unseen, strict=True) if not u]
        kept = [h for h, u in zip(hits[method], unseen, strict=True) if u]
        print(
            f"  page-hit@{args.k} {method:<15} {sum(hits[method]) / n:.3f}  ({sum(hits[method])}/{n}; "
            f"design {sum(seen)}/{len(seen)}, held out {sum(kept)}/{len(kept)})"
        )
    print(f"  hybrid search latency (query embedding excluded): median {statistics.median(latency):.1f} ms")
    print(f"  hybrid+rerank latency (question read, search, rerank): median {statistics.median(rerank_ms):.1f} ms")
    print(
        json.dumps(
            {
                "questions": n,
                "chunk_chars": args.chunk_chars,
                "overlap": args.overlap,
                "k": args.k,
                **{f"page_hit@{args.k}:{m}": round(sum(hits[m]) / n, 3) for m in methods},
            }
        )
    )


if __name__ == "__main__":
    main()
