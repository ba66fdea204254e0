"""Load: 20 concurrent question streams against the demo room while files are ingested into it.

`python -m bench.load [--streams 20] [--seconds 60]`

One process, as the app is one process: a Workbench (one connection pool, WORKBENCH_POOL_MAX
connections, default 10) on a fresh database of the embedded server (or --database-url). The demo
room is loaded (with embeddings, so every question is embedded by the local model), then for
--seconds: --streams threads each keep one conversation and ask the demo questions
(data/demo/questions.md, follow-ups and off-topic ones) one after another through core.qa.service.ask in
offline mode, while another thread ingests generated CSVs and PDFs into the same room (text only,
keyword-searchable at once; --embed-uploads to embed them too). Only local traffic.

Prints questions answered, errors (must be 0), qa_queries rows logged vs questions answered (must
match), files ingested, latency p50/p95 over all questions and the median of the per-stream p50/p95,
the machine's load average, and one JSON line. The streams are one local user: the per-user rate limit
(WORKBENCH_RATE_LIMIT) would stop them after 60 questions, so it is off here unless --rate-limit is given.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import sys
import threading
import time

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from bench.search_latency import server_url
from core.config import Settings
from core.db import Database, migrate
from core.qa.service import ask
from core.rooms.ratelimit import set_rule
from core.workbench import DEMO_DIR, Workbench
from tests.factories import make_pdf

DATABASE = "bench_load"
EXTRA = [
    "What about in France?",
    "How many Series A rounds were there in 2022?",
    "What is the boiling point of mercury at sea level?",
    "How much did Initech raise in its Series B?",
]


def questions() -> list[str]:
    """The numbered bold questions of data/demo/questions.md, then follow-ups and off-topic ones."""
    text = (DEMO_DIR / "questions.md").read_text()
    return re.findall(r"^\d+\.\s+\*\*(.+?)\*\*", text, flags=re.MULTILINE) + EXTRA


def fresh_database(admin_url: str) -> str:
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(DATABASE)))
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(DATABASE)))
    url = make_conninfo(admin_url, dbname=DATABASE)
    migrate(url)
    return url


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


def upload(i: int) -> tuple[bytes, str]:
    """The i-th generated file: a 2,000-row CSV, or every third one a 20-page PDF."""
    rng = random.Random(i)
    if i % 3 == 2:
        pages = [
            f"Board pack {i}, page {p}. "
            + " ".join(
                rng.choice(["revenue", "churn", "pipeline", "hiring", "margin", "Canada", "France", "runway"])
                for _ in range(180)
            )
            for p in range(20)
        ]
        return make_pdf(pages), f"board_pack_{i}.pdf"
    rows = "".join(
        f"Load Co {i}-{j},{rng.choice(['Canada', 'France', 'Japan'])},Seed,2023-0{1 + j % 9}-1{j % 10},"
        f"{rng.randint(100_000, 9_000_000)}\n"
        for j in range(2000)
    )
    return f"Company,Country,Round,Date,Amount Raised (USD)\n{rows}".encode(), f"load_{i}.csv"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pgdata", default=".workbench/bench-pg", help="data directory of the embedded server")
    parser.add_argument("--database-url", default=None, help="a Postgres server to use instead of the embedded one")
    parser.add_argument("--streams", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--pool-max", type=int, default=Settings().pool_max)
    parser.add_argument("--rate-limit", type=int, default=0, help="WORKBENCH_RATE_LIMIT for the run (0 = off)")
    parser.add_argument("--embed-uploads", action="store_true", help="embed the files ingested during the run")
    args = parser.parse_args()

    admin_url = server_url(args)
    url = fresh_database(admin_url)
    settings = Settings.from_env(
        {
            "DATABASE_URL": url,
            "WORKBENCH_RATE_LIMIT": str(args.rate_limit),
            "WORKBENCH_POOL_MAX": str(args.pool_max),
            "WORKBENCH_LLM": "offline",
        }
    )
    wb = Workbench(settings, db=Database(url, max_size=args.pool_max))
    if args.rate_limit:  # the limit's size is the owner's rule (migration 027)
        set_rule(url, "question", args.rate_limit)
    room = settings.demo_room
    loaded = wb.ensure_demo(embed=True)
    assert all(r.status == "ready" for r in loaded), loaded
    asked = questions()
    list(ask(wb, asked[0], room))  # warm-up: the embedding model, the schema cache
    with wb.db.connection() as conn:
        logged_before = conn.execute("SELECT count(*) FROM qa_queries").fetchone()[0]

    latencies: list[list[float]] = [[] for _ in range(args.streams)]
    errors: list[str] = []
    ingested: list[str] = []
    stop = threading.Event()
    start_gate = threading.Barrier(args.streams + 1)

    def stream(n: int) -> None:
        conversation: int | None = None
        i = n  # streams start at different questions
        start_gate.wait()
        while not stop.is_set():
            question = asked[i % len(asked)]
            i += 1
            started = time.perf_counter()
            try:
                done = list(ask(wb, question, room, conversation_id=conversation))[-1]
                conversation = done.result["conversation_id"]
                latencies[n].append((time.perf_counter() - started) * 1000)
            except Exception as exc:
                errors.append(f"stream {n}: {type(exc).__name__}: {exc}")

    def feeder() -> None:
        i = 0
        while not stop.is_set():
            data, name = upload(i)
            result = wb.ingest_upload(data, name, room, embed=args.embed_uploads)
            if result.status != "ready":
                errors.append(f"ingest {name}: {result.error}")
            else:
                ingested.append(name)
            i += 1

    load_before = os.getloadavg()
    threads = [threading.Thread(target=stream, args=(n,)) for n in range(args.streams)]
    for thread in threads:
        thread.start()
    uploader = threading.Thread(target=feeder)
    start_gate.wait()
    started = time.perf_counter()
    uploader.start()
    time.sleep(args.seconds)
    stop.set()
    for thread in threads:
        thread.join()
    uploader.join()
    elapsed = time.perf_counter() - started
    load_after = os.getloadavg()

    with wb.db.connection() as conn:
        logged = conn.execute("SELECT count(*) FROM qa_queries").fetchone()[0] - logged_before
    answered = sum(len(x) for x in latencies)
    every = [ms for x in latencies for ms in x]
    per_stream = [x for x in latencies if x]
    figures = {
        "streams": args.streams,
        "seconds": round(elapsed, 1),
        "questions_answered": answered,
        "errors": len(errors),
        "qa_queries_logged": logged,
        "logged_matches": logged == answered,
        "files_ingested": len(ingested),
        "questions_per_second": round(answered / elapsed, 2),
        "p50_ms": round(percentile(every, 50), 1) if every else None,
        "p95_ms": round(percentile(every, 95), 1) if every else None,
        "median_stream_p50_ms": round(statistics.median(percentile(x, 50) for x in per_stream), 1)
        if per_stream
        else None,
        "median_stream_p95_ms": round(statistics.median(percentile(x, 95) for x in per_stream), 1)
        if per_stream
        else None,
        "pool_max": args.pool_max,
        "rate_limit": args.rate_limit,
        "cpus": os.cpu_count(),
        "loadavg_1m_before": round(load_before[0], 2),
        "loadavg_1m_after": round(load_after[0], 2),
    }
    print(f"{args.streams} streams for {elapsed:.1f} s while {len(ingested)} files were ingested into {room!r}")
    print(f"questions answered: {answered} ({figures['questions_per_second']}/s); errors: {len(errors)}")
    print(
        f"qa_queries rows logged: {logged} (questions answered: {answered}) -> "
        f"{'match' if logged == answered else 'MISMATCH'}"
    )
    print(
        f"latency over all questions: p50 {figures['p50_ms']} ms, p95 {figures['p95_ms']} ms; "
        f"median of per-stream p50 {figures['median_stream_p50_ms']} ms, p95 {figures['median_stream_p95_ms']} ms"
    )
    print(
        f"machine: {os.cpu_count()} CPUs, 1-minute load average {load_before[0]:.2f} before, {load_after[0]:.2f} after"
    )
    for error in errors[:10]:
        print("  error:", error)
    print(json.dumps(figures))
    wb.db.close()
    sys.exit(1 if errors or logged != answered else 0)


if __name__ == "__main__":
    main()
