"""AppTest smoke tests of the Documents (PDF viewer) and Analytics pages."""

from __future__ import annotations

from datetime import date

import pytest
from streamlit.testing.v1 import AppTest

from core.config import get_settings
from core.qa.service import ask
from core.workbench import Workbench
from tests.factories import make_pdf


@pytest.fixture
def demo_wb(app: AppTest):
    """A second Workbench on the app's database (after the app's first run loaded the demo room)."""
    app.run()
    wb = Workbench(get_settings())
    yield wb
    wb.db.close()


def _memo_id(wb: Workbench) -> int:
    return next(d.id for d in wb.documents("Demo") if d.title == "portfolio_memo.pdf")


def _image_alts(app: AppTest) -> list[str]:
    return [img.alt for el in app.image for img in el.proto.imgs]


def _open_documents(app: AppTest, **params: str) -> AppTest:
    app.switch_page("views/documents.py")
    app.query_params = dict(params)
    return app.run()


def test_documents_page_opens_a_cited_passage_from_the_link(app: AppTest, demo_wb: Workbench) -> None:
    memo = _memo_id(demo_wb)
    _open_documents(app, doc=str(memo), page="2", chunk="1")
    assert not app.exception and not app.error
    assert app.title[0].value == "Documents"
    assert _image_alts(app) == ["portfolio_memo.pdf, page 2 with the cited passage highlighted"]
    assert app.selectbox(key="documents_pdf").value == memo
    assert app.number_input(key="documents_page_number").value == 2
    assert app.subheader[0].value == "Cited passage"
    assert "Highlighted in yellow on page 2." in [c.value for c in app.caption]
    assert any("Executive summary" in m.value for m in app.markdown)  # chunk 1 of the memo is on page 2
    assert f"[Open in new tab ↗](?room=Demo&doc={memo}&page=2&chunk=1)" in [m.value for m in app.markdown]
    # The documents table stays below the viewer, with links to the sheets.
    assert "portfolio_memo.pdf" in set(app.dataframe[0].value["Title"])


def test_documents_page_keeps_the_url_in_sync_when_paging(app: AppTest, demo_wb: Workbench) -> None:
    memo = _memo_id(demo_wb)
    _open_documents(app, doc=str(memo), page="2", chunk="1")
    app.button(key="documents_next").click().run()
    assert app.query_params == {"room": "Demo", "doc": str(memo), "page": "3", "chunk": "1"}
    assert _image_alts(app) == ["portfolio_memo.pdf, page 3"]
    assert "The passage is on page 2; this is page 3." in [c.value for c in app.caption]
    app.number_input(key="documents_page_number").set_value(5).run()
    assert app.query_params["page"] == "5" and _image_alts(app) == ["portfolio_memo.pdf, page 5"]
    app.button(key="documents_back").click().run()
    assert app.query_params["page"] == "2" and "highlighted" in _image_alts(app)[0]
    app.button(key="documents_previous").click().run()
    assert app.query_params["page"] == "1"
    assert app.button(key="documents_previous").disabled
    assert not app.exception


def test_documents_page_without_a_page_opens_at_the_passage(app: AppTest, demo_wb: Workbench) -> None:
    memo = _memo_id(demo_wb)
    _open_documents(app, doc=str(memo), chunk="1")
    assert app.query_params == {"room": "Demo", "doc": str(memo), "page": "2", "chunk": "1"}
    assert "highlighted" in _image_alts(app)[0]


def test_documents_page_explains_bad_links(app: AppTest, demo_wb: Workbench) -> None:
    memo = _memo_id(demo_wb)
    _open_documents(app, doc=str(memo), page="99")
    assert not app.exception
    assert [e.value for e in app.error] == ["portfolio_memo.pdf has 7 page(s): there is no page 99."]
    _open_documents(app, doc="987654")
    assert not app.exception and "There is no document 987654" in app.error[0].value
    assert app.selectbox(key="documents_pdf").value is None  # the user can still pick a PDF
    _open_documents(app, doc="abc")
    assert not app.exception and "should be a number" in app.error[0].value
    assert _image_alts(app) == ["portfolio_memo.pdf, page 1"]  # the room's first PDF instead
    sheet = next(d.id for d in demo_wb.documents("Demo") if d.kind == "sheet")
    _open_documents(app, doc=str(sheet))
    assert "open it on the Sheet page" in app.error[0].value


def test_documents_page_picker_switches_pdf_and_offers_sheet_links(app: AppTest, demo_wb: Workbench) -> None:
    demo_wb.ingest_upload(make_pdf(["Second PDF."]), "second.pdf", "Demo", embed=False)
    memo = _memo_id(demo_wb)
    _open_documents(app, doc=str(memo), page="3", chunk="1")
    second = next(d.id for d in demo_wb.documents("Demo") if d.title == "second.pdf")
    app.selectbox(key="documents_pdf").select(second).run()
    assert app.query_params == {"room": "Demo", "doc": str(second), "page": "1"}
    assert _image_alts(app) == ["second.pdf, page 1"]
    sheets = {d.id: d.title for d in demo_wb.documents("Demo") if d.kind == "sheet"}
    links = {(link.proto.label, link.proto.page, link.proto.query_string) for link in app.get("page_link")}
    assert links == {(f"Open {title} on the Sheet page", "sheet", f"doc={doc}") for doc, title in sheets.items()}


def test_analytics_page_explains_the_empty_state(app: AppTest, demo_wb: Workbench) -> None:
    app.switch_page("views/analytics.py").run()
    assert not app.exception
    assert app.title[0].value == "Analytics"
    assert app.multiselect[0].value == ["Demo"]
    assert "Ask questions on the Chat page; they appear here" in app.info[0].value
    assert not app.get("plotly_chart")


def test_analytics_page_charts_the_questions_asked(app: AppTest, demo_wb: Workbench) -> None:
    ids = []
    for question in (
        "Who is the CEO of Harvestquay?",
        "How many seed rounds were there?",
        "What is the boiling point of mercury at sea level?",
    ):
        ids += [e.result["query_id"] for e in ask(demo_wb, question, "Demo") if e.type == "done"]
    app.switch_page("views/analytics.py").run()
    assert not app.exception and not app.error
    metrics = {m.label: m.value for m in app.metric}
    assert metrics["Questions"] == "3" and metrics["Abstention rate"] == "33%"
    assert metrics["Helpful"] == "—"
    charts = app.get("plotly_chart")
    assert len(charts) == 4  # no votes yet: the helpful chart is replaced by a hint
    assert any("No thumbs up or down yet" in i.value for i in app.info)
    attention = app.dataframe[0].value
    assert list(attention["Question"]) == ["What is the boiling point of mercury at sea level?"]
    assert list(attention["Why"]) == ["abstained"]
    # A thumbs down (as the chat page stores it) adds the helpful chart and lists the question with its comment.
    with demo_wb.db.connection() as conn:
        conn.execute(
            "INSERT INTO qa_feedback (query_id, helpful, comment) VALUES (%s, false, 'wrong person')", (ids[0],)
        )
    app.run()
    assert {m.label: m.value for m in app.metric}["Helpful"] == "0%"
    assert len(app.get("plotly_chart")) == 5
    attention = app.dataframe[0].value
    assert list(attention["Why"]) == ["abstained", "thumbs down"]
    assert list(attention["Comment"]) == ["", "wrong person"]
    # A date range without questions says so instead of drawing empty charts.
    app.date_input[0].set_value((date(2020, 1, 1), date(2020, 1, 31))).run()
    assert not app.exception and "No questions between 2020-01-01 and 2020-01-31" in app.info[0].value
