"""AppTest smoke tests of the shared parts: first start, sidebar uploads, search and documents pages."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.app.conftest import wait_for_background_embedding
from tests.factories import FUNDING_CSV


def test_first_start_loads_the_demo_room(app: AppTest) -> None:
    app.run()
    assert not app.exception
    assert app.title[0].value == "Chat"
    assert app.sidebar.selectbox(key="sidebar_room").value == "Demo"
    captions = " ".join(c.value for c in app.sidebar.caption)
    for name in ("funding_rounds.csv", "funding_rounds.xlsx", "portfolio_memo.pdf"):
        assert name in captions
    assert "Offline mode" in captions


def test_search_page_shows_cited_hits(app: AppTest) -> None:
    app.run()
    wait_for_background_embedding()
    app.switch_page("views/search.py").run()
    app.text_input(key="search_query").input("Who is the CEO of Harvestquay?").run()
    assert not app.exception
    hits = [m.value for m in app.markdown if m.value.startswith("**[")]
    assert hits and "portfolio_memo.pdf · p." in hits[0]  # an intraword _ makes no emphasis: left as it is
    # The words the hit matched are shown, in bold in its text and listed under it.
    assert any("**CEO**" in m.value and "**Harvestquay**" in m.value for m in app.markdown)
    assert any(c.value.startswith("Matches: ") and "harvestquay" in c.value for c in app.caption)
    # "Open" shows the hit's page, highlighted, in the pane beside the hits; the URL keeps it.
    app.button(key="search_open_1").click().run()
    assert not app.exception
    assert app.query_params["page"] and app.query_params["room"] == "Demo"
    alts = [img.alt for el in app.image for img in el.proto.imgs]
    assert alts and alts[0].startswith("portfolio_memo.pdf, page") and alts[0].endswith("highlighted")


def test_documents_page_lists_the_room(app: AppTest) -> None:
    app.run()
    app.switch_page("views/documents.py").run()
    assert not app.exception
    assert app.title[0].value == "Documents"
    frame = app.dataframe[0].value
    assert sorted(frame["Title"]) == ["funding_rounds.csv", "funding_rounds.xlsx", "portfolio_memo.pdf"]
    assert set(frame["Status"]) == {"ready"}


def test_upload_from_the_sidebar_queues_jobs_and_shows_how_they_end(sidebar_app: AppTest) -> None:
    app = sidebar_app
    app.run()
    app.sidebar.file_uploader[0].set_value(
        [("funding.csv", FUNDING_CSV, "text/csv"), ("empty.pdf", b"", "application/pdf")]
    )
    app.run()
    app.sidebar.button(key="sidebar_ingest").click().run()
    assert not app.exception
    # Queued, and the uploader cleared (its key changed) so the files are not queued twice.
    bars = [m.value for m in app.sidebar.markdown if "wb-job" in m.value]
    assert len(bars) == 2 and all('data-status="queued"' in bar for bar in bars)
    assert "funding.csv: queued" in bars[0] and "empty.pdf: queued" in bars[1]
    assert app.sidebar.file_uploader[0].value in (None, [])
    wait_for_background_embedding()  # a worker runs the jobs
    app.run()
    bars = [m.value for m in app.sidebar.markdown if "wb-job" in m.value]
    assert 'data-status="done"' in bars[0] and "funding.csv: ready (4 rows, 4 chunks)" in bars[0]
    assert 'data-status="failed"' in bars[1] and "empty.pdf: failed" in bars[1]
    # The failure is one line; its reason is inside the expander.
    failed = [e for e in app.sidebar.expander if e.label == "✗ empty.pdf — failed"]
    assert len(failed) == 1 and "empty.pdf is empty (0 bytes)" in failed[0].markdown[0].value
    captions = " ".join(c.value for c in app.sidebar.caption)
    assert "✓ funding.csv — 4 rows" in captions
    app.sidebar.button(key="sidebar_clear_jobs").click().run()
    assert not [m for m in app.sidebar.markdown if "wb-job" in m.value]


def test_the_document_list_shows_embedding_progress(sidebar_app: AppTest) -> None:
    app = sidebar_app
    app.run()
    captions = " ".join(c.value for c in app.sidebar.caption)
    assert "✓ portfolio_memo.pdf — 7 p. · embedding 0 of 21 chunks" in captions
    wait_for_background_embedding()
    app.run()
    captions = " ".join(c.value for c in app.sidebar.caption)
    assert "✓ portfolio_memo.pdf — 7 p." in captions and "embedding" not in captions


def test_documents_and_failed_files_are_counted_apart(sidebar_app: AppTest) -> None:
    app = sidebar_app
    app.run()
    app.sidebar.file_uploader[0].set_value([("broken.pdf", b"%PDF-1.7\nthis is not really a PDF\n", "application/pdf")])
    app.run()
    app.sidebar.button(key="sidebar_ingest").click().run()
    wait_for_background_embedding()
    app.run()
    assert not app.exception
    assert [e.label for e in app.sidebar.expander] == ["✗ broken.pdf — failed"]
    heads = [m.value for m in app.sidebar.markdown if m.value.startswith("**Documents**")]
    assert heads == ["**Documents** (3) · 1 failed"]  # the demo's three; the broken file apart


def test_an_embedding_job_shows_the_time_left_from_its_measured_rate(sidebar_app: AppTest, db) -> None:
    app = sidebar_app
    app.run()
    app.sidebar.file_uploader[0].set_value([("funding.csv", FUNDING_CSV, "text/csv")])
    app.run()
    app.sidebar.button(key="sidebar_ingest").click().run()

    def at(done: int, seconds_ago: float) -> None:  # what the worker's progress writes, `seconds_ago` back
        with db.connection() as conn:
            conn.execute(
                "UPDATE ingest_jobs SET status = 'running', stage = 'embedding', done = %s, total = 478,"
                " updated_at = now() - make_interval(secs => %s)",
                (done, seconds_ago),
            )

    at(32, 4.0)
    app.run()
    bars = [m.value for m in app.sidebar.markdown if "wb-job" in m.value]
    assert "funding.csv: embedding 32 of 478 chunks" in bars[0] and "left" not in bars[0]  # no rate yet
    at(96, 0.0)  # 64 chunks in 4 s: 16 a second, 382 to go
    app.run()
    assert not app.exception
    bars = [m.value for m in app.sidebar.markdown if "wb-job" in m.value]
    assert "funding.csv: embedding 96 of 478 chunks · about 24 s left" in bars[0]


def test_a_search_preview_is_centred_on_the_matching_sentence(app: AppTest, workbench) -> None:
    from tests.factories import make_pdf

    def filler(n: int) -> str:
        return " ".join(
            f"Paragraph {i} of the review covers staffing, leases and the outlook of the group." for i in range(n)
        )

    # One passage (under the 1,200 characters of a chunk) whose matching sentence is past its first 400.
    page = filler(8) + " The Zorblax warehouse in Quillford was sold in March for 12 million. " + filler(3)
    assert 400 < page.index("Zorblax") and len(page) < 1150
    workbench.ingest_upload(make_pdf([page]), "review.pdf", "Demo", embed=False)
    app.run()
    app.switch_page("views/search.py").run()
    app.text_input(key="search_query").input("Zorblax warehouse Quillford").run()
    assert not app.exception
    shown = [m.value for m in app.markdown if "**Zorblax**" in m.value]
    assert shown and "**Quillford**" in shown[0] and "**warehouse**" in shown[0]
    notes = [c.value for c in app.caption if c.value.startswith("Matches: ")]
    assert notes and "zorblax" in notes[0] and "not in this passage" not in notes[0]


def test_an_incomplete_document_is_marked_and_one_button_embeds_the_rest(sidebar_app: AppTest, settings) -> None:
    """Issue 41: a document whose embedding was cut off is shown incomplete, not ready, and a writer finishes it
    with one button (an embedding job for the missing chunks alone)."""
    import psycopg

    from core.config import get_settings
    from core.workbench import Workbench

    app = sidebar_app
    app.run()
    wait_for_background_embedding()
    with psycopg.connect(settings.database_url, autocommit=True) as conn:  # as a worker killed mid-embedding leaves it
        conn.execute(
            "DELETE FROM chunk_embeddings WHERE chunk_id IN (SELECT c.id FROM chunks c JOIN documents d "
            "ON d.id = c.document_id WHERE d.title = 'portfolio_memo.pdf' ORDER BY c.id DESC LIMIT 5)"
        )
        conn.execute(
            "UPDATE documents SET status = 'incomplete', embedded_at = NULL WHERE title = 'portfolio_memo.pdf'"
        )
    app.run()
    captions = " ".join(c.value for c in app.sidebar.caption)
    assert "⚠ portfolio_memo.pdf — 7 p. · embedding 16 of 21 chunks · incomplete" in captions, captions
    assert "1 document is incomplete" in captions
    app.sidebar.button(key="sidebar_resume_embedding").click().run()
    assert not app.exception
    wb = Workbench(get_settings())
    try:
        wb.run_worker(burst=True)
        memo = next(d for d in wb.documents("Demo") if d.title == "portfolio_memo.pdf")
        assert memo.status == "ready" and memo.embedded
    finally:
        wb.db.close()
    app.run()
    assert "incomplete" not in " ".join(c.value for c in app.sidebar.caption)
