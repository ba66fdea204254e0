"""Parsing a large sheet: a generated 100,000 x 20 XLSX and the same as CSV, read into tables (with their models).

Usage: python -m bench.parse_sheets [--rows 100000] [--runs 3]

Prints the median seconds of `parse_xlsx` and `parse_csv` over the runs (the parse stage of ingestion, where the
table model is built; storing is measured by `bench.ingest_speed`). The files are generated here with a fixed seed
(ids, names, amounts, decimals, cities and 15 integer columns) into a temporary folder.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import time

from openpyxl import Workbook

from core.ingest.sheets.csv import parse_csv
from core.ingest.sheets.xlsx import parse_xlsx


def records(rows: int) -> list[list[object]]:
    rng = random.Random(5)
    out: list[list[object]] = [[f"col{j}" for j in range(20)]]
    for i in range(rows):
        out.append([i, f"name {i % 500}", rng.randint(0, 10**6), round(rng.random() * 1000, 2), f"city {i % 40}",
                    *(rng.randint(0, 9999) for _ in range(15))])  # fmt: skip
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    table = records(args.rows)
    book = Workbook(write_only=True)
    sheet = book.create_sheet("Data")
    for row in table:
        sheet.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    xlsx = buffer.getvalue()
    csv = "\n".join(",".join(map(str, row)) for row in table).encode()
    for name, parse in (("xlsx", lambda: parse_xlsx(xlsx)), ("csv", lambda: parse_csv(csv, "big"))):
        times = []
        for _ in range(args.runs):
            started = time.perf_counter()
            parse()
            times.append(time.perf_counter() - started)
        shown = ", ".join(f"{t:.2f}" for t in times)
        print(f"{name} {args.rows:,} x 20: median {statistics.median(times):.2f} s ({shown})")


if __name__ == "__main__":
    main()
