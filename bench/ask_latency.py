"""`ask` end to end, offline mode, in a room of 50,000 chunks: `python -m bench.ask_latency`.

The room is bench/search_latency.py's 50k scenario (50,000 synthetic chunks with vectors; built on
first use, reused after) cloned into its own database, plus the demo data room's files (the funding
sheets and the memo PDF) ingested into the same room, so the demo questions have real tables and
passages to find among 50,000 other chunks. The room's vectors are re-labelled with the local
model's name so each question is embedded by the real local model (that time is included).

Each run asks (--passes times) every question of data/demo/questions.md plus follow-ups and off-topic questions
through core.qa.service.ask (plan, name check, retrieval, table math, synthesis, logging) and records the
wall time; the script prints p50/p95/max per run and the median over --runs runs.
Target (issue 3): p95 <= 300 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import time

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

from bench.search_latency import SCENARIOS, prepare_database, room_name, server_url
from core.config import Settings
from core.db import Database, migrate
from core.qa.service import ask
from core.workbench import DEMO_DIR, Workbench

CLONE = "bench_ask_50k"
EXTRA = [
    "What about in France?",  # a follow-up of the question before it
    "How many Series A rounds were there in 2022?",
    "What is the boiling point of mercury at sea level?",
    "How much did Initech raise in its Series B?",
]


def demo_questions() -> list[str]:
    """The numbered bold questions of data/demo/questions.md."""
    text = (DEMO_DIR / "questions.md").read_text()
    return re.findall(r"^\d+\.\s+\*\*(.+?)\*\*", text, flags=re.MULTILINE)


def clone(admin_url: str, source: str) -> str:
    """A fresh copy of the loaded 50k database (a file copy: seconds)."""
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(CLONE)))
        admin.execute(
            sql.SQL("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = {}").format(
                sql.Literal(source)
            )
        )
        admin.execute(sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(sql.Identifier(CLONE), sql.Identifier(source)))
    return make_conninfo(admin_url, dbname=CLONE)


def main() -> None:
    """Build the room, ask the questions --runs times, print the figures and a JSON line."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pgdata", default=".workbench/bench-pg", help="data directory of the embedded server")
    parser.add_argument("--database-url", default=None, help="a Postgres server to use instead of the embedded one")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--passes", type=int, default=3, help="times each run asks the question list")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    args.reload = False
    args.build_workers = 0

    admin_url = server_url(args)
    _source, _ = prepare_database(admin_url, SCENARIOS["50k"], args)
    url = clone(admin_url, SCENARIOS["50k"].database)
    migrate(url)
    # No rate limit: a benchmark asks far more than a person's 60 questions an hour.
    env = {"DATABASE_URL": url, "WORKBENCH_LOAD_DEMO": "false", "WORKBENCH_RATE_LIMIT": "0"}
    # WORKBENCH_RERANK=off measures ask without the rerank stage (docs/answering.md), for comparison.
    env["WORKBENCH_RERANK"] = os.environ.get("WORKBENCH_RERANK", "on")
    wb = Workbench(Settings.from_env(env), db=Database(url))
    room = room_name(args.seed, 0)
    with wb.db.connection() as conn:
        conn.execute("UPDATE rooms SET embedding_model = %s WHERE name = %s", (wb.embedder.name, room))
    files = sorted(p for p in DEMO_DIR.iterdir() if p.suffix in {".csv", ".xlsx", ".pdf"})
    results = list(wb.ingest(files, room, embed=True))
    chunks = wb.room(room)
    print(f"room {room}: {chunks.id=}, demo files {[r.status for r in results]}")
    with wb.db.connection() as conn:
        n_chunks = conn.execute("SELECT count(*) FROM chunks WHERE room_id = %s", (chunks.id,)).fetchone()[0]
    print(f"chunks in the room: {n_chunks:,}")

    questions = demo_questions() + EXTRA
    wb.embedder.embed(["warm up"])  # load the model before timing
    list(ask(wb, questions[0], room))  # warm caches (sheet load) as a running app would have them
    runs = []
    abstained = 0
    for run in range(args.runs):
        times = []
        conversation = None
        for index, question in enumerate(questions * args.passes):
            t0 = time.perf_counter()
            done = next(e for e in ask(wb, question, room, conversation_id=conversation) if e.type == "done")
            times.append((time.perf_counter() - t0) * 1000)
            conversation = done.result["conversation_id"] if question.startswith("How much was raised") else None
            abstained += run == 0 and index < len(questions) and done.result["abstained"]  # first pass only
        times.sort()
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        runs.append({"p50": statistics.median(times), "p95": p95, "max": times[-1]})
        print(
            f"run {run + 1}: {len(times)} questions  p50 {runs[-1]['p50']:.1f} ms  p95 {p95:.1f} ms  "
            f"max {times[-1]:.1f} ms"
        )
    summary = {k: statistics.median(r[k] for r in runs) for k in ("p50", "p95", "max")}
    print(
        f"median of {args.runs} runs: p50 {summary['p50']:.1f} ms  p95 {summary['p95']:.1f} ms  "
        f"max {summary['max']:.1f} ms  (abstained {abstained} of {len(questions)} in run 1)"
    )
    print(json.dumps({"chunks": n_chunks, "questions": len(questions), "runs": runs, "median": summary}))


if __name__ == "__main__":
    main()
