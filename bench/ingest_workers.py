"""Ingestion throughput through the job queue with 1 and 2 `workbench worker` processes on the same queue.

Usage: python -m bench.ingest_workers [--workers 1 2] [--runs 3] [--pdfs 6] [--csvs 6] [--pages 20] [--rows 2000]

Each run: a fresh database on one embedded Postgres; N worker processes started and registered with the queue
(model loaded) before the clock starts; then the files (generated, distinct: PDFs of `--pages` pages of
prose, CSVs of `--rows` rows) are queued as the sidebar queues uploads, and the clock stops when every job is
done (parsed in the memory-limited child, stored, embedded). Prints files/min per run and the median per worker
count, with the load average.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg
from psycopg.conninfo import make_conninfo

ROOT = Path(__file__).resolve().parents[1]
WORDS = (
    "revenue margin growth customers retention churn pipeline hiring engineers board approved series round "
    "warehouse robotics logistics contract renewal quarter fiscal guidance capital expenditure headcount"
).split()


def make_pdf(seed: int, pages: int) -> bytes:
    """A PDF of `pages` pages of generated prose (distinct per seed)."""
    import pymupdf

    rng = random.Random(seed)
    doc = pymupdf.open()
    for number in range(pages):
        page = doc.new_page()
        text = " ".join(
            f"{' '.join(rng.choice(WORDS) for _ in range(rng.randint(8, 16))).capitalize()}." for _ in range(30)
        )
        page.insert_textbox(pymupdf.Rect(50, 50, 550, 800), f"Page {number + 1} of memo {seed}. {text}", fontsize=9)
    return doc.tobytes()


def make_csv(seed: int, rows: int) -> bytes:
    """A CSV of `rows` rows of company funding data (distinct per seed)."""
    rng = random.Random(seed)
    countries = ["Canada", "France", "Germany", "Japan", "Brazil", "Kenya"]
    lines = ["Company,Country,Round,Date,Amount Raised (USD),Notes"]
    for i in range(rows):
        lines.append(
            f"Company {seed}-{i},{rng.choice(countries)},Series {rng.choice('ABC')},20{rng.randint(10, 24)}-0"
            f"{rng.randint(1, 9)}-1{rng.randint(0, 9)},{rng.randint(100_000, 90_000_000)},"
            f"{' '.join(rng.choice(WORDS) for _ in range(6))}"
        )
    return ("\n".join(lines) + "\n").encode()


def one_run(server_uri: str, name: str, home: Path, workers: int, files: list[tuple[str, bytes]]) -> float:
    """Files per minute through `workers` worker processes, on a fresh database `name`."""
    from core.config import Settings
    from core.workbench import Workbench

    with psycopg.connect(server_uri, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")
    url = make_conninfo(server_uri, dbname=name)
    settings = Settings.from_env({"DATABASE_URL": url, "WORKBENCH_HOME": str(home)})
    wb = Workbench(settings)
    wb.room("Bench", create=True)
    env = {**os.environ, "DATABASE_URL": url, "WORKBENCH_HOME": str(home), "HF_HUB_OFFLINE": "1"}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "core", "worker"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(workers)
    ]
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            deadline = time.monotonic() + 300
            while conn.execute("SELECT count(*) FROM procrastinate_workers").fetchone()[0] < workers:
                if time.monotonic() > deadline:
                    raise RuntimeError("the workers did not start")
                time.sleep(0.2)
        started = time.perf_counter()
        ids = [wb.enqueue_upload(data, filename, "Bench").id for filename, data in files]
        while True:
            jobs = wb.jobs("Bench", ids=ids, limit=len(ids))
            if all(job.finished for job in jobs):
                break
            time.sleep(0.2)
        seconds = time.perf_counter() - started
        failed = [job.label for job in jobs if job.status != "done"]
        if failed:
            raise RuntimeError(f"jobs failed: {failed}")
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(60)
        wb.db.close()
    return len(files) / seconds * 60


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pdfs", type=int, default=6)
    parser.add_argument("--csvs", type=int, default=6)
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--rows", type=int, default=2000)
    args = parser.parse_args()

    from core.db import embedded_url

    with tempfile.TemporaryDirectory(prefix="bench-workers-") as tmp:
        home = Path(tmp)
        server_uri = embedded_url(home)
        print(
            f"{args.pdfs} PDFs x {args.pages} pages + {args.csvs} CSVs x {args.rows} rows per run; {os.cpu_count()} cores"
        )
        results: dict[int, list[float]] = {}
        for run in range(args.runs):
            # Distinct bytes every run and worker count (the queue is idempotent by checksum).
            for workers in args.workers:
                seed = 1000 * run + 100 * workers
                files = [(f"memo_{seed + i}.pdf", make_pdf(seed + i, args.pages)) for i in range(args.pdfs)]
                files += [(f"rounds_{seed + i}.csv", make_csv(seed + i, args.rows)) for i in range(args.csvs)]
                rate = one_run(server_uri, f"bench_workers_{workers}_{run}", home, workers, files)
                results.setdefault(workers, []).append(rate)
                print(
                    f"run {run + 1}: {workers} worker(s): {rate:.1f} files/min (load average {os.getloadavg()[0]:.2f})"
                )
        for workers, rates in results.items():
            print(f"{workers} worker(s): median {statistics.median(rates):.1f} files/min over {len(rates)} runs")


if __name__ == "__main__":
    main()
