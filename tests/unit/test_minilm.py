"""The numpy query encoder gives sentence-transformers' vectors (what the room's documents were embedded with)."""

from __future__ import annotations

import numpy as np

from core.providers.embeddings import LocalEmbedder

TEXTS = [
    "How much was raised in Canada in 2021?",
    "What is 3M's FY2018 capital expenditure amount (in USD millions)?",
    "Émilie's café — naïve résumé, ÄÖÜ, 中文, 😀",  # accents stripped, unknown characters, emoji
    "x",
    "revenue " * 400,  # past the 256 tokens the room's vectors were made with
    "",
]


def test_query_vectors_are_the_model_s_own() -> None:
    embedder = LocalEmbedder()
    ours = np.stack([embedder.embed_query(text) for text in TEXTS])
    theirs = embedder.embed(TEXTS)  # sentence-transformers on torch
    assert ours.dtype == np.float32 and ours.shape == (len(TEXTS), 384)
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    assert np.abs(ours - theirs).max() < 1e-5
    assert (np.sum(ours * theirs, axis=1) > 0.99999).all()
