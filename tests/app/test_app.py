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
    assert hits and "portfolio\\_memo.pdf · p." in hits[0]
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


def test_upload_from_the_sidebar_reports_each_file(sidebar_app: AppTest) -> None:
    app = sidebar_app
    app.run()
    app.sidebar.file_uploader[0].set_value(
        [("funding.csv", FUNDING_CSV, "text/csv"), ("empty.pdf", b"", "application/pdf")]
    )
    app.run()
    app.sidebar.button(key="sidebar_ingest").click().run()
    assert not app.exception
    assert any("funding.csv: ready (4 rows" in s.value for s in app.sidebar.success)
    assert any("empty.pdf is empty (0 bytes)" in e.value for e in app.sidebar.error)
    captions = " ".join(c.value for c in app.sidebar.caption)
    assert "✓ funding.csv — 4 rows" in captions and "✗ empty.pdf" in captions
    # The picked files are cleared: another rerun ingests nothing twice.
    app.run()
    assert not app.sidebar.success and not app.sidebar.error
