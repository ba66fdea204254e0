"""Hybrid search in one room: pgvector HNSW + Postgres full-text, fused by reciprocal rank, optional MMR."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
from psycopg.rows import dict_row

from core.db import Database, q
from core.embeddings import Embedder
from core.models import SearchHit
from core.sheets import cell_ref
from core.store import RoomRef, check_embedding_model

RRF_K = 60
_WORD = re.compile(r"[^\W_]+(?:[.'][^\W_]+)*", re.UNICODE)
_PHRASE = re.compile(r'"([^"]+)"')


def keyword_query(text: str) -> str:
    """A websearch_to_tsquery string matching any of the text's words (quoted phrases kept whole)."""
    phrases = [f'"{p.strip()}"' for p in _PHRASE.findall(text) if p.strip()]
    rest = _PHRASE.sub(" ", text)
    # "or" and "and" are operators or stop words to websearch_to_tsquery: leave them out.
    words = [w for w in _WORD.findall(rest) if w.lower() not in {"or", "and", "not"}]
    return " or ".join(phrases + words)


def search(
    db: Database,
    room: RoomRef,
    query: str,
    *,
    k: int = 10,
    embedder: Embedder | None = None,
    query_vector: np.ndarray | None = None,
    mmr: bool = False,
    mmr_lambda: float = 0.7,
    candidates: int = 50,
) -> list[SearchHit]:
    """The room's best `k` passages and rows for `query`, each a citation with a preview."""
    if query_vector is None and embedder is not None and room.embedding_model:
        check_embedding_model(room, embedder.name)
        query_vector = embedder.embed([query])[0]
    keywords = keyword_query(query)
    pool = max(k * 3, 30) if mmr else k
    params: dict[str, Any] = {
        "room_id": room.id,
        "keywords": keywords,
        "candidates": max(candidates, pool),
        "rrf_k": RRF_K,
        "limit": pool,
    }
    with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        if query_vector is not None:
            fused = cur.execute(q("search_hybrid"), {**params, "embedding": query_vector}).fetchall()
        elif keywords:
            fused = cur.execute(q("search_keyword"), params).fetchall()
        else:
            return []
        if not fused:
            return []
        ids = [row["id"] for row in fused]
        details = {row["id"]: row for row in cur.execute(q("chunk_details"), {"ids": ids})}
        sheet_ids = sorted({row["sheet_id"] for row in details.values() if row["sheet_id"] is not None})
        columns: dict[int, list[dict[str, Any]]] = {}
        if sheet_ids:
            for col in cur.execute(q("sheet_columns"), {"sheet_ids": sheet_ids}):
                columns.setdefault(col["sheet_id"], []).append(col)
    scores = {row["id"]: float(row["score"]) for row in fused}
    order = ids
    if mmr and query_vector is not None:
        order = _mmr(ids, scores, details, query_vector, k, mmr_lambda)
    return [_hit(details[i], scores[i], columns, query) for i in order[:k] if i in details]


def _mmr(
    ids: list[int],
    scores: dict[int, float],
    details: dict[int, dict[str, Any]],
    query_vector: np.ndarray,
    k: int,
    lam: float,
) -> list[int]:
    """Maximal marginal relevance over the fused candidates: relevant, but not near-duplicates."""
    top = max(scores.values()) or 1.0
    vectors = {
        i: _as_array(details[i]["embedding"]) for i in ids if i in details and details[i]["embedding"] is not None
    }
    chosen: list[int] = []
    remaining = [i for i in ids if i in details]
    while remaining and len(chosen) < k:
        def value(i: int) -> float:
            redundancy = max(
                (float(vectors[i] @ vectors[j]) for j in chosen if i in vectors and j in vectors), default=0.0
            )
            return lam * scores[i] / top - (1 - lam) * redundancy

        best = max(remaining, key=value)
        chosen.append(best)
        remaining.remove(best)
    return chosen


def _as_array(value: Any) -> np.ndarray:
    # pgvector's loader gives a Vector object (to_numpy) or, in older releases, an ndarray.
    return np.asarray(value.to_numpy() if hasattr(value, "to_numpy") else value, dtype=np.float32)


def _best_column(columns: list[dict[str, Any]], values: list[str | None], query: str) -> int:
    """The position of the cell that best matches the query's words (the first non-empty cell if none)."""
    words = {w.lower() for w in _WORD.findall(query)}
    best, best_overlap = None, 0
    for col in columns:
        value = values[col["position"]] if col["position"] < len(values) else None
        if not value:
            continue
        if best is None:
            best = col["position"]
        overlap = len(words & {w.lower() for w in _WORD.findall(value)})
        if overlap > best_overlap:
            best, best_overlap = col["position"], overlap
    return best if best is not None else 0


def _hit(row: dict[str, Any], score: float, columns: dict[int, list[dict[str, Any]]], query: str) -> SearchHit:
    if row["row_id"] is None:
        return SearchHit(
            kind="page",
            document_id=row["document_id"],
            title=row["title"],
            page=row["page_number"],
            chunk_index=row["chunk_index"],
            start_char=row["start_char"],
            end_char=row["end_char"],
            quote=row["content"],
            score=score,
            preview=row["content"][:400],
        )
    cols = columns.get(row["sheet_id"], [])
    values: list[str | None] = row["values"]
    position = _best_column(cols, values, query)
    column = next((c for c in cols if c["position"] == position), None)
    return SearchHit(
        kind="cell",
        document_id=row["document_id"],
        title=row["title"],
        sheet=row["sheet_name"],
        row_id=row["row_id"],
        column=column["name"] if column else None,
        ref=cell_ref(row["sheet_name"], column["letter"], row["row_number"]) if column else None,
        value=values[position] if position < len(values) else None,
        score=score,
        preview=row["content"][:400],
    )
