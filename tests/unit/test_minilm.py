"""The numpy encoder gives sentence-transformers' vectors: for a query, and for a batch of documents.

Rooms embedded by either path (WORKBENCH_LOCAL_EMBEDDER=numpy, the default, or torch) are searched with the other
path's vectors, so the two must agree to float32 rounding. sentence-transformers comes with the `test` extra.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from core.providers.embeddings import LocalEmbedder

TEXTS = [
    "How much was raised in Canada in 2021?",
    "How much did Norvale Foods spend on new plant in FY2021 (EUR thousands)?",
    "Émilie's café — naïve résumé, ÄÖÜ, 中文, 😀",  # accents stripped, unknown characters, emoji
    "x",
    "revenue " * 400,  # past the 256 tokens the room's vectors were made with
    "",
]

# Documents of mixed lengths, as a batch of chunks is: a heading, passages, a table row, one past 256 tokens.
DOCUMENTS = [
    "portfolio_memo.pdf, page 3\nNet revenue retention was 118% in fiscal 2023, up from 111% a year earlier, "
    "driven by expansion in the enterprise segment and lower churn among mid-market customers.",
    "Risk factors",
    "funding_rounds.csv, row 17\ncompany: Acme Robotics | country: Canada | year: 2021 | amount_usd: 12,500,000",
    " ".join(
        f"Clause {i}: the lessee shall maintain the premises and report any damage within {i} days." for i in range(40)
    ),
    "The board approved a dividend of $0.42 per share, payable on 15 March to holders of record on 1 March.",
    "x",
    "Management's discussion: gross margin fell 2.1 points to 38.4% as freight and component costs rose; "
    "operating expenses were flat at 21% of revenue. " * 3,
]


@pytest.fixture(scope="module")
def torch_embedder() -> LocalEmbedder:
    pytest.importorskip("sentence_transformers", reason="the `torch` extra (pulled by `test`) is not installed")
    return LocalEmbedder("torch")


@pytest.fixture(scope="module")
def numpy_embedder() -> LocalEmbedder:
    return LocalEmbedder("numpy")


def test_query_vectors_are_the_model_s_own(numpy_embedder: LocalEmbedder, torch_embedder: LocalEmbedder) -> None:
    ours = np.stack([numpy_embedder.embed_query(text) for text in TEXTS])
    theirs = torch_embedder.embed(TEXTS)  # sentence-transformers on torch
    assert ours.dtype == np.float32 and ours.shape == (len(TEXTS), 384)
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    assert np.abs(ours - theirs).max() < 1e-5
    assert (np.sum(ours * theirs, axis=1) > 0.99999).all()


def test_batched_document_vectors_are_the_model_s_own(
    numpy_embedder: LocalEmbedder, torch_embedder: LocalEmbedder
) -> None:
    assert len(numpy_embedder._encoder.tokenizer.encode(DOCUMENTS[3]).ids) == 256  # truncated: was longer
    texts = DOCUMENTS + TEXTS
    ours = numpy_embedder._encoder.encode_batch(texts, batch_size=4)  # several batches, each padded
    theirs = torch_embedder.embed(texts)
    assert ours.dtype == np.float32 and ours.shape == (len(texts), 384)
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    assert np.abs(ours - theirs).max() < 1e-5
    # What a search compares: each text's cosine with every other, the same whichever path made the vectors.
    assert np.abs(ours @ ours.T - theirs @ theirs.T).max() < 1e-5
    assert np.array_equal(numpy_embedder.embed(texts), numpy_embedder._encoder.encode_batch(texts))


def test_padding_does_not_change_a_text_s_vector(numpy_embedder: LocalEmbedder) -> None:
    encoder = numpy_embedder._encoder
    batched = encoder.encode_batch(DOCUMENTS, batch_size=len(DOCUMENTS))  # all padded to the longest
    alone = np.stack([encoder.encode_batch([text])[0] for text in DOCUMENTS])
    assert np.abs(batched - alone).max() < 1e-6
    assert np.abs(alone - np.stack([encoder.encode(text) for text in DOCUMENTS])).max() < 1e-6
    assert encoder.encode_batch([]).shape == (0, 384)


def fresh_python(code: str) -> str:
    """What `code` prints, run in a fresh interpreter (the modules and libraries it loads are its own)."""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout.strip()


def test_the_numpy_path_never_imports_torch() -> None:
    code = (
        "import sys; from core.providers.embeddings import LocalEmbedder; e = LocalEmbedder(); "
        "v = e.embed(['a passage', 'another, longer passage of the document']); q = e.embed_query('a question'); "
        "assert v.shape == (2, 384) and q.shape == (384,); "
        "print(sorted(m for m in ('torch', 'transformers', 'sentence_transformers') if m in sys.modules))"
    )
    assert fresh_python(code) == "[]"


def test_a_query_is_encoded_on_one_blas_thread(numpy_embedder: LocalEmbedder, monkeypatch: pytest.MonkeyPatch) -> None:
    """A query's products are small: on two OpenBLAS threads one took 284 ms (up to 1 s) beside a busy core, on one
    16 ms (bench/ask_latency.py). Its whole forward pass runs on one thread; the count is restored after."""
    from threadpoolctl import threadpool_info

    def blas_threads() -> list[int]:
        return [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]

    numpy_embedder.embed_query("warm up")
    encoder = numpy_embedder._encoder
    forward, seen = encoder._forward, []

    def spy(*args):  # type: ignore[no-untyped-def]
        seen.append(blas_threads())
        return forward(*args)

    monkeypatch.setattr(encoder, "_forward", spy)
    before = blas_threads()
    encoder.encode("How much was raised in Canada in 2021?")
    assert seen and seen[0] and all(n == 1 for n in seen[0])
    assert blas_threads() == before


def test_a_blas_library_loaded_after_the_first_query_is_held_to_one_thread_too() -> None:
    """A test run loads scipy's own OpenBLAS after the first query (bm25s, sentence-transformers): a thread limit
    set up once, at the first query, left that library on two threads. Run in a fresh interpreter, so the order is
    this one whatever ran before."""
    pytest.importorskip("scipy", reason="the `test` extra brings scipy (a second OpenBLAS)")
    code = (
        "from threadpoolctl import threadpool_info\n"
        "from core.providers.embeddings import LocalEmbedder\n"
        "e = LocalEmbedder('numpy'); e.embed_query('warm up')\n"
        "import scipy.linalg\n"
        "enc = e._encoder; forward = enc._forward; seen = []\n"
        "def spy(*a):\n"
        "    seen.append([l['num_threads'] for l in threadpool_info() if l['user_api'] == 'blas'])\n"
        "    return forward(*a)\n"
        "enc._forward = spy; enc.encode('a question')\n"
        "print(seen[0])\n"
    )
    threads = [int(n) for n in fresh_python(code).strip("[]").split(",")]
    assert len(threads) >= 2 and threads == [1] * len(threads)
