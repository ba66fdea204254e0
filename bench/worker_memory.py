"""The ingestion worker's own peak memory on hostile files: does it stay bounded whatever one file holds?

Usage: python -m bench.worker_memory [--home DIR] [--mb 190] [--cases baseline csv-field ...]

Each case: a fresh database on one embedded Postgres; a real `workbench worker` process (its embedding model
loaded) started on it; one file queued as the sidebar queues uploads; the clock waits until the job ends. Printed
per case: the worker's own peak resident memory (VmHWM of its process: the parse child is a process of its own,
its peak reported by the job), the job's status and the first words of its error, and the parse child's peak.
The files are generated here (a hostile file is its size, not its content):
- baseline: a small CSV (the worker's peak with the model loaded and one ordinary file);
- csv-field: a CSV whose one quoted field runs on for --mb megabytes;
- csv-line: one unquoted line of --mb megabytes (no delimiter);
- xlsx-cell: an XLSX whose one inline cell holds --mb megabytes (it compresses to a few hundred KB);
- csv-rows: --mb megabytes of ordinary rows (over the file's character cap).
"""

from __future__ import annotations

import argparse
import io
import os
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

from bench.eval_retrieval import drop_database, open_database
from core.config import Settings
from core.db import Database
from core.workbench import Workbench

ROOT = Path(__file__).resolve().parents[1]
MB = 1024 * 1024


def _xlsx_with_inline_cell(chars: int) -> bytes:
    """A one-sheet workbook whose B2 is an inline string of `chars` characters, written by hand (openpyxl cuts a
    cell at 32,767 characters)."""
    sheet = (
        '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/'
        '2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Company</t></is></c><c r="B1" '
        't="inlineStr"><is><t>Notes</t></is></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>Acme</t></is></c>'
        f'<c r="B2" t="inlineStr"><is><t>{"word " * (chars // 5)}</t></is></c></row></sheetData></worksheet>'
    )
    parts = {
        "[Content_Types].xml": '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/'
        'package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
        'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/'
        'workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
        '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.'
        'spreadsheetml.worksheet+xml"/></Types>',
        "_rels/.rels": '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/'
        'package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/'
        '2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
        "xl/workbook.xml": '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/'
        'spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
        '<sheets><sheet name="Notes" sheetId="1" r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels": '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.'
        'openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.'
        'org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
        "xl/worksheets/sheet1.xml": sheet,
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in parts.items():
            zf.writestr(name, text)
    return out.getvalue()


def make_file(case: str, mb: int) -> tuple[bytes, str]:
    """The file of one case, and its name."""
    size = mb * MB
    if case == "baseline":
        return b"Company,Amount\n" + b"".join(b"Acme %d,%d\n" % (i, i * 10) for i in range(2000)), "baseline.csv"
    if case == "csv-field":
        return b'Company,Notes\nAcme,"' + b"word " * (size // 5) + b'"\n', "field.csv"
    if case == "csv-line":
        return b"x" * size + b"\n", "line.csv"
    if case == "xlsx-cell":
        return _xlsx_with_inline_cell(size), "cell.xlsx"
    if case == "csv-rows":
        row = b"Acme Holdings,North,2024-01-31,123456.78,some words of a note\n"
        return b"Company,Region,Date,Amount,Note\n" + row * (size // len(row)), "rows.csv"
    raise SystemExit(f"unknown case {case!r}")


def vm_hwm(pid: int) -> int:
    """Peak resident memory (bytes) of a running process."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmHWM")


def run_case(home: Path, case: str, mb: int, timeout: float) -> dict:
    """One case on a fresh database: the worker's peak, the job's outcome and the parse child's peak."""
    name = f"worker_memory_{case.replace('-', '_')}"
    drop_database(home, name, None)
    url = open_database(home, name, None)
    wb = Workbench(Settings.from_env({"DATABASE_URL": url, "WORKBENCH_HOME": str(home)}), db=Database(url))
    data, filename = make_file(case, mb)
    job = wb.enqueue_upload(data, filename, "Bench")
    file_mb = round(len(data) / MB, 2)
    del data
    env = {**os.environ, "DATABASE_URL": url, "WORKBENCH_HOME": str(home), "HF_HUB_OFFLINE": "1"}
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen([sys.executable, "-m", "core", "worker"], cwd=ROOT, env=env, stdout=log, stderr=log)
        try:
            started = time.monotonic()
            while True:
                done = wb.jobs("Bench", ids=[job.id])[0]
                if done.finished or time.monotonic() - started > timeout:
                    break
                time.sleep(0.5)
            peak = vm_hwm(proc.pid)
        finally:
            proc.terminate()
            proc.wait(30)
    drop_database(home, name, None)
    return {
        "case": case,
        "file_mb": file_mb,
        "worker_peak_mb": round(peak / MB),
        "status": done.status,
        "error": (done.error or "")[:110],
        "child_peak_mb": done.parse_peak_mb,
        "seconds": round(time.monotonic() - started, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--home", type=Path, default=Path(".workbench/bench-worker-memory"))
    parser.add_argument("--mb", type=int, default=190)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--cases", nargs="+", default=["baseline", "csv-field", "csv-line", "xlsx-cell", "csv-rows"])
    args = parser.parse_args()
    print(f"load {os.getloadavg()[0]:.1f}; files of {args.mb} MB")
    for case in args.cases:
        r = run_case(args.home, case, args.mb, args.timeout)
        print(
            f"  {r['case']:<10} file {r['file_mb']:>7} MB  worker peak {r['worker_peak_mb']:>5} MB  "
            f"child peak {r['child_peak_mb']} MB  {r['status']} in {r['seconds']} s  {r['error']}",
            flush=True,
        )


if __name__ == "__main__":
    main()
