"""Hybrid search against the embedded Postgres: citations, room scoping, keyword-before-embedding."""

from __future__ import annotations

import numpy as np
import pytest

from core.errors import EmbeddingMismatch
from core.retrieval.search import query_words, search
from tests.factories import FUNDING_CSV, MEMO_PAGES, make_pdf


@pytest.fixture
def room_with_files(workbench):
    workbench.ingest_upload(make_pdf(MEMO_PAGES), "memo.pdf", "R", embed=True)
    workbench.ingest_upload(FUNDING_CSV, "funding.csv", "R", embed=True)
    return workbench


def test_query_words_keep_phrases_whole() -> None:
    assert query_words('Who leads "Acme Robotics" or Cobalt?') == ['"Acme Robotics"', "Who", "leads", "Cobalt"]
    assert query_words("  ,,, ") == []


def test_page_hit_cites_the_passage(room_with_files, db) -> None:
    hits = room_with_files.search("Who is the chief executive of Acme Robotics?", "R", k=5)
    top = hits[0]
    assert top.kind == "page" and top.title == "memo.pdf" and top.page == 1
    with db.connection() as conn:
        text = conn.execute(
            "SELECT text FROM pages WHERE document_id = %s AND page_number = %s", (top.document_id, top.page)
        ).fetchone()[0]
    assert text[top.start_char : top.end_char] == top.quote
    assert "Mara Quill" in " ".join(top.quote.split())


def test_cell_hit_cites_the_matching_cell(room_with_files) -> None:
    hits = room_with_files.search("Cobalt Pay Germany", "R", k=5)
    cell = next(h for h in hits if h.kind == "cell")
    assert cell.sheet == "funding" and cell.ref in {"funding!A4", "funding!B4"}
    assert cell.value in {"Cobalt Pay", "Germany"} and "Series B" in cell.preview


def test_semantic_match_without_shared_words(room_with_files) -> None:
    hits = room_with_files.search("staff hiring plans", "R", k=3)
    assert any(h.kind == "page" and h.page == 1 for h in hits)


def test_keyword_search_works_before_embedding(workbench) -> None:
    workbench.ingest_upload(make_pdf(MEMO_PAGES), "memo.pdf", "Fresh", embed=False)
    hits = workbench.search("regulatory licence", "Fresh", k=3)
    assert hits and hits[0].page == 2


def test_search_never_leaves_the_room(workbench) -> None:
    workbench.ingest_upload(make_pdf(MEMO_PAGES), "memo.pdf", "A", embed=True)
    big = "\n\n".join(f"Section {i}. Regulatory licence review number {i} in Germany." for i in range(400))
    workbench.ingest_upload(make_pdf([big[i : i + 2500] for i in range(0, len(big), 2500)]), "big.pdf", "B", embed=True)
    a_docs = {d.id for d in workbench.documents("A")}
    hits = workbench.search("regulatory licence Germany", "A", k=10)
    assert hits and {h.document_id for h in hits} <= a_docs
    # The room filter never starves the vector side: a query far from room A's text still fills k.
    room_a = workbench.room("A")
    n_a = sum(d.n_chunks for d in workbench.documents("A"))
    vector = workbench.embedder.embed(["Section 7 regulatory licence review"])[0]
    vec_hits = search(workbench.db, room_a, "zzzz", k=10, query_vector=vector)
    assert len(vec_hits) == min(10, n_a)


def test_mmr_returns_k_distinct_hits(room_with_files) -> None:
    hits = room_with_files.search("Acme Robotics", "R", k=4, mmr=True)
    assert len(hits) == 4 and len({(h.document_id, h.chunk_index, h.row_id) for h in hits}) == 4


def test_room_never_mixes_embedding_models(room_with_files, db) -> None:
    class Other:
        name = "openai:text-embedding-3-small"

        def embed(self, texts: list[str]) -> np.ndarray:
            return np.ones((len(texts), 384), dtype=np.float32) / np.sqrt(384)

    with pytest.raises(EmbeddingMismatch, match="WORKBENCH_EMBEDDINGS"):
        search(db, room_with_files.room("R"), "Acme", embedder=Other())


def test_rare_words_outweigh_common_ones(workbench, db) -> None:
    pages = [f"Quarterly revenue update number {i}. Revenue grew in the quarter." for i in range(12)]
    pages.append("Revenue note: the zeppelin division was sold.")
    workbench.ingest_upload(make_pdf(pages), "notes.pdf", "R", embed=False)
    with db.connection() as conn:
        n_chunks, df_revenue, df_zeppelin = conn.execute(
            "SELECT r.n_chunks, (SELECT df FROM term_stats WHERE room_id = r.id AND lexeme = 'revenu'),"
            " (SELECT df FROM term_stats WHERE room_id = r.id AND lexeme = 'zeppelin') FROM rooms r WHERE name = 'R'"
        ).fetchone()
    assert (n_chunks, df_revenue, df_zeppelin) == (13, 13, 1)
    hits = workbench.search("revenue revenue of the zeppelin", "R", k=3)
    assert hits[0].page == 13
