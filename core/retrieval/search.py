"""Hybrid search in one room: pgvector HNSW + Postgres full-text, fused by reciprocal rank, optional MMR."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import psycopg
from psycopg.rows import dict_row

from core.cells import cell_ref
from core.db import Database, q
from core.models import SearchHit, period_label
from core.providers.embeddings import Embedder
from core.retrieval import rerank as rr
from core.rooms.store import RoomRef, check_embedding_model
from core.text import YEAR

RRF_K = 60
# all-MiniLM-L6-v2 alone ranks filing pages far worse than the IDF-weighted keywords (FinanceBench dev
# page-hit@5 0.24 vs 0.45, bench/eval_retrieval.py), so its ranks count half in the fusion.
VECTOR_WEIGHT = 0.5
# Terms in more than this share of a room's chunks score candidates but do not select them.
COMMON_TERM_SHARE = 0.2
# Keyword candidates are gathered from rare terms until their chunk counts add up to this (at least one term).
KEYWORD_CANDIDATE_ROWS = 2000
# The bonus of a chunk in a document the query names, in reciprocal-rank units (1/61 = a first rank).
TITLE_BOOST = 1 / (60 + 1)
_NO_VECTOR = np.eye(1, 384, dtype=np.float32)[0]
_WORD = re.compile(r"[^\W_]+(?:[.'][^\W_]+)*", re.UNICODE)
_PHRASE = re.compile(r'"([^"]+)"')


def query_words(text: str) -> list[str]:
    """The words and quoted phrases of a query, plus the bare years inside words like "FY2018"."""
    phrases = [f'"{p.strip()}"' for p in _PHRASE.findall(text) if p.strip()]
    rest = _PHRASE.sub(" ", text)
    # "or" and "and" are operators or stop words to websearch_to_tsquery: leave them out.
    words = [w for w in _WORD.findall(rest) if w.lower() not in {"or", "and", "not"}]
    years = [m for w in words for m in YEAR.findall(w) if m != w]
    return list(dict.fromkeys(phrases + words + years))


@dataclass(frozen=True)
class KeywordTerms:
    """The query's lexemes with their IDF in the room, and the tsquery that picks keyword candidates."""

    lexemes: list[str]
    idfs: list[float]
    filter: str


def _tsquery_literal(lexeme: str) -> str:
    # A lexeme quoted for a tsquery: it is used as it is, not normalised again.
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"


def keyword_terms(cur: psycopg.Cursor[Any], room_id: int, query: str) -> KeywordTerms | None:
    """Weigh the query's words by their rarity in the room (BM25's IDF); None when no word is in the room."""
    rows = cur.execute(q("query_terms"), {"room_id": room_id, "text": " ".join(query_words(query))}).fetchall()
    present = [(r["lexeme"], r["df"], r["n_chunks"]) for r in rows if r["df"] > 0]
    if not present:
        return None
    n = max(present[0][2], 1)
    weighted = sorted(
        ((lexeme, math.log(1 + (n - df + 0.5) / (df + 0.5)), df) for lexeme, df, _ in present),
        key=lambda t: -t[1],
    )
    # Candidates come from the rarest terms only, up to about KEYWORD_CANDIDATE_ROWS chunks: a common
    # word would make most of the room a candidate, and ranking them all is what made search slow.
    informative: list[tuple[str, float, int]] = []
    rows_so_far = 0
    for term in weighted:  # rarest first
        if informative and (term[2] > COMMON_TERM_SHARE * n or rows_so_far + term[2] > KEYWORD_CANDIDATE_ROWS):
            break
        informative.append(term)
        rows_so_far += term[2]
    return KeywordTerms(
        lexemes=[_tsquery_literal(t[0]) for t in weighted],
        idfs=[t[1] for t in weighted],
        filter=" | ".join(_tsquery_literal(t[0]) for t in informative),
    )


@lru_cache(maxsize=65536)
def _name_words(text: str) -> frozenset[str]:
    # Cached: a room's file names are read on every search.
    return frozenset(w.lower() for w in query_words(text.replace("_", " ")))


def named_documents(cur: psycopg.Cursor[Any], room_id: int, query: str) -> list[int]:
    """The documents whose file names share the most words with the query, when that singles some out.

    "FY2019 capex of K9" names K9_2019_10K.pdf over K9_2021_10K.pdf: both share "K9", only one "2019".
    """
    words = _name_words(query)
    docs = cur.execute(q("room_document_names"), {"room_id": room_id}).fetchall()
    overlap = {d["id"]: len(words & _name_words(Path(d["filename"]).stem)) for d in docs}
    if not overlap:
        return []
    best = max(overlap.values())
    if best == 0 or best == min(overlap.values()):
        return []
    return [doc_id for doc_id, count in overlap.items() if count == best]


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
    vector_weight: float = VECTOR_WEIGHT,
    keyword_weight: float = 1.0,
    one_per_page: bool = True,
    within: str = "",
    documents: Sequence[int] = (),
    rerank: rr.RerankHints | None = None,
    scorer: rr.Scorer | None = None,
) -> list[SearchHit]:
    """The room's best `k` passages and rows for `query`, each a citation with a preview.

    With `one_per_page`, a PDF page appears once (its best passage), so k hits show k places. With `within` (a
    tsquery's text), only passages and rows matching it, ranked by the query's keywords: the passages naming a
    metric the question asks (core.qa.service), however far down the plain ranking they fall. With `documents`,
    only those documents' passages and rows (a question scoped to filings or a period). With `rerank` (what
    the question asks of a page, core.qa.planner.pages), the first pages are reranked (core.retrieval.rerank),
    by `scorer` (a model) when given, else (or when it fails) by the heuristic.
    """
    if within:
        embedder, query_vector = None, None  # nearest vectors ignore the filter
        rerank = None  # the pages it would add need not match the filter
    if query_vector is None and embedder is not None and room.embedding_model:
        check_embedding_model(room, embedder.name)
        query_vector = embedder.embed_query(query)
    pool = max(k * 3, 30) if (mmr or one_per_page) else k
    if rerank is not None:
        pool = max(pool, 2 * rr.RERANK_PAGES)
    with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        terms = keyword_terms(cur, room.id, query)
        if within:
            terms = KeywordTerms(terms.lexemes, terms.idfs, within) if terms else KeywordTerms([], [], within)
        if query_vector is None and terms is None:
            return []
        params: dict[str, Any] = {
            "room_id": room.id,
            "use_vector": query_vector is not None,
            "use_keywords": terms is not None,
            "embedding": query_vector if query_vector is not None else _NO_VECTOR,
            "lexemes": terms.lexemes if terms else [],
            "idfs": terms.idfs if terms else [],
            "filter": terms.filter if terms else "",
            "room_token": _tsquery_literal(f"room:{room.id}"),
            # a scoped search filters the nearest vectors after their cut: take more of them
            "candidates": max(candidates, pool) * (4 if documents else 1),
            "only_documents": list(documents),
            "rrf_k": RRF_K,
            "vector_weight": vector_weight,
            "keyword_weight": keyword_weight,
            "limit": pool,
        }
        params["named_documents"] = named_documents(cur, room.id, query)
        params["title_boost"] = TITLE_BOOST
        fused = cur.execute(q("search_hybrid"), params).fetchall()
        if not fused:
            return []
        ids = [row["id"] for row in fused]
        details = {row["id"]: row for row in cur.execute(q("chunk_details"), {"ids": ids})}
        order = [i for i in ids if i in details]
        if one_per_page:
            order = _best_per_page(order, details)
        if rerank is not None:
            order = _reranked(cur, room.id, order, details, rerank, scorer, documents)
        sheet_ids = sorted({row["sheet_id"] for row in details.values() if row["sheet_id"] is not None})
        columns: dict[int, list[dict[str, Any]]] = {}
        if sheet_ids:
            for col in cur.execute(q("sheet_columns"), {"sheet_ids": sheet_ids}):
                columns.setdefault(col["sheet_id"], []).append(col)
    scores = {row["id"]: float(row["score"]) for row in fused}
    scores.update({i: 0.0 for i in order if i not in scores})  # a statement page the rerank added
    if mmr and query_vector is not None:
        order = _mmr(order, scores, details, query_vector, k, mmr_lambda)
    return [_hit(details[i], scores[i], columns, query) for i in order[:k]]


def page_passages(db: Database, room: RoomRef, hits: Sequence[SearchHit]) -> dict[tuple[int, int], list[SearchHit]]:
    """Every passage of the PDF pages of `hits`, in their order on the page, by (document id, page): a page is
    ranked by its best passage, and the sentence that answers may sit in the page's next one (after a table)."""
    pages = sorted({(h.document_id, h.page) for h in hits if h.kind == "page" and h.page is not None})
    if not pages:
        return {}
    params = {"room_id": room.id, "docs": [d for d, _ in pages], "pages": [p for _, p in pages]}
    with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        ids = [row["id"] for row in cur.execute(q("page_chunk_ids"), params)]
        details = {row["id"]: row for row in cur.execute(q("chunk_details"), {"ids": ids})} if ids else {}
    out: dict[tuple[int, int], list[SearchHit]] = {}
    for i in ids:
        row = details[i]
        out.setdefault((row["document_id"], row["page_number"]), []).append(_hit(row, 0.0, {}, ""))
    return out


def _reranked(
    cur: psycopg.Cursor[Any],
    room_id: int,
    order: list[int],
    details: dict[int, dict[str, Any]],
    hints: rr.RerankHints,
    scorer: rr.Scorer | None,
    documents: Sequence[int],
) -> list[int]:
    """`order` with its first pages reranked (core.retrieval.rerank); the statement pages the question asks for
    join the candidates (their chunks added to `details`)."""
    head = [i for i in order if details[i]["page_number"] is not None][: rr.RERANK_PAGES]
    taken = set(head)
    known = {(details[i]["document_id"], details[i]["page_number"]) for i in head}
    added = [
        r
        for r in rr.statement_pages(cur, room_id, hints, documents)
        if (r["document_id"], r["page_number"]) not in known
    ]
    if added:
        for row in cur.execute(q("chunk_details"), {"ids": [r["id"] for r in added]}):
            details[row["id"]] = row
    texts = rr.page_texts(cur, [(details[i]["document_id"], details[i]["page_number"]) for i in head])
    pages = [
        rr.Page(i, details[i]["document_id"], texts.get((details[i]["document_id"], details[i]["page_number"]), ""), n)
        for n, i in enumerate(head)
    ] + [rr.Page(r["id"], r["document_id"], r["text"], rr.RERANK_PAGES) for r in added if r["id"] in details]
    ranked = rr.heuristic_order(pages, hints)
    if scorer is not None:
        ranked = rr.model_order(ranked, hints, scorer)
    # The reranked pages take the places the first pages held (a sheet's rows keep theirs); added pages follow.
    queue = [p.key for p in ranked]
    if not head:
        return order + queue
    out: list[int] = []
    for i in order:
        if i not in taken:
            out.append(i)
            continue
        out.append(queue.pop(0))
        if i == head[-1]:
            out += queue
    return out


def _best_per_page(order: list[int], details: dict[int, dict[str, Any]]) -> list[int]:
    """Keep the first (best) chunk of each PDF page; spreadsheet rows are each their own place."""
    seen: set[tuple[int, int]] = set()
    kept = []
    for i in order:
        row = details[i]
        if row["page_number"] is not None:
            page = (row["document_id"], row["page_number"])
            if page in seen:
                continue
            seen.add(page)
        kept.append(i)
    return kept


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
    """A hit from a chunk row: its page passage, or the cell of its sheet row that best matches the query."""
    where: dict[str, Any]
    if row["row_id"] is None:
        where = {
            "kind": "page",
            "page": row["page_number"],
            "chunk_index": row["chunk_index"],
            "start_char": row["start_char"],
            "end_char": row["end_char"],
            "quote": row["content"],
        }
    else:
        cols = columns.get(row["sheet_id"], [])
        values: list[str | None] = row["values"]
        position = _best_column(cols, values, query)
        column = next((c for c in cols if c["position"] == position), None)
        where = {
            "kind": "cell",
            "sheet": row["sheet_name"],
            "row_id": row["row_id"],
            "column": column["name"] if column else None,
            "ref": cell_ref(row["tab"], column["letter"], row["row_number"]) if column else None,
            "value": values[position] if position < len(values) else None,
        }
    return SearchHit(
        document_id=row["document_id"],
        title=row["title"],
        score=score,
        preview=row["content"][:400],
        period=period_label(row["fiscal_year"], row["fiscal_quarter"]),
        **where,
    )
