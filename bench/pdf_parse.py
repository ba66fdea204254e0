"""Time core.ingest.pdf.parse_pdf on real PDFs and check its invariants: `python -m bench.pdf_parse PATH...`.

Each file runs in a fresh child process so that its peak RSS is its own. Per file it prints pages, chunks,
their mean length, the median wall and CPU time of 3 parses, the child's peak RSS (and, in brackets, the RSS after
importing PyMuPDF, before reading the file), and whether the invariants held: every chunk's
content is exactly its page text's [start_char:end_char], chunk_index runs 0..n-1, chunk sizes stay within
chunk_chars, every page with text has chunks, and every box lies inside its page.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

RUNS = 3


def measure(path: str, chunk_chars: int, overlap_chars: int) -> dict[str, object]:
    """Parse one file RUNS times in this process; return its figures and invariant violations."""
    from core.ingest.pdf import parse_pdf

    data = Path(path).read_bytes()
    # Peak RSS so far: the interpreter plus PyMuPDF's import, the floor under every file's figure.
    rss_before_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    times, cpu_times = [], []
    for _ in range(RUNS):
        started, cpu_started = time.perf_counter(), time.process_time()
        parsed = parse_pdf(data, chunk_chars=chunk_chars, overlap_chars=overlap_chars)
        times.append(time.perf_counter() - started)
        cpu_times.append(time.process_time() - cpu_started)
    problems: list[str] = []
    pages = {page.number: page for page in parsed.pages}
    if [c.chunk_index for c in parsed.chunks] != list(range(len(parsed.chunks))):
        problems.append("chunk_index does not run 0..n-1")
    with_chunks = {c.page_number for c in parsed.chunks}
    for page in parsed.pages:
        if page.text.strip() and page.number not in with_chunks:
            problems.append(f"page {page.number} has text but no chunks")
    for c in parsed.chunks:
        page = pages[c.page_number]
        if page.text[c.start_char : c.end_char] != c.content:
            problems.append(f"chunk {c.chunk_index}: offsets do not reproduce its content")
        if not c.content.strip() or len(c.content) > chunk_chars:
            problems.append(f"chunk {c.chunk_index}: size {len(c.content)}")
        if not c.boxes:
            problems.append(f"chunk {c.chunk_index}: no boxes")
        for x0, y0, x1, y1 in c.boxes:
            if not (0 <= x0 <= x1 <= page.width and 0 <= y0 <= y1 <= page.height):
                problems.append(f"chunk {c.chunk_index}: box {(x0, y0, x1, y1)} outside page {page.number}")
    sizes = [len(c.content) for c in parsed.chunks]
    return {
        "file": Path(path).name,
        "pages": parsed.page_count,
        "text_pages": sum(1 for p in parsed.pages if p.text),
        "chunks": len(parsed.chunks),
        "mean_chunk_chars": round(statistics.mean(sizes)) if sizes else 0,
        "median_s": statistics.median(times),
        # CPU time as well: on a shared machine wall time includes waiting for a core.
        "median_cpu_s": statistics.median(cpu_times),
        "rss_before_mb": rss_before_kb / 1024,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "title": parsed.title,
        "problems": problems[:5] + ([f"... {len(problems) - 5} more"] if len(problems) > 5 else []),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+")
    parser.add_argument("--chunk-chars", type=int, default=1200)
    parser.add_argument("--overlap-chars", type=int, default=200)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.paths[0], args.chunk_chars, args.overlap_chars)))
        return
    header = (
        f"{'file':48} {'pages':>5} {'chunks':>6} {'mean':>5} {'median s':>9} {'cpu s':>6} {'peak RSS MB':>11} "
        f"{'(import)':>8}  invariants"
    )
    print(header)
    failed = False
    for path in args.paths:
        command = [sys.executable, __file__, "--child", path]
        command += ["--chunk-chars", str(args.chunk_chars), "--overlap-chars", str(args.overlap_chars)]
        done = subprocess.run(command, capture_output=True, text=True, env=os.environ)
        if done.returncode != 0:
            failed = True
            print(f"{Path(path).name:48} FAILED: {done.stderr.strip().splitlines()[-1:]}")
            continue
        r = json.loads(done.stdout)
        ok = "ok" if not r["problems"] else "; ".join(r["problems"])
        failed = failed or bool(r["problems"])
        print(
            f"{r['file']:48} {r['pages']:>5} {r['chunks']:>6} {r['mean_chunk_chars']:>5} "
            f"{r['median_s']:>9.3f} {r['median_cpu_s']:>6.3f} {r['peak_rss_mb']:>11.0f} {r['rss_before_mb']:>8.0f}  {ok}"
        )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
