"""AppTest: a filing's company, form and period on the Documents page and in the sidebar; an owner corrects them."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from core.workbench import Workbench
from tests.factories import make_pdf

COVER = (
    "FORM 10-K\nANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d)\nFor the fiscal year ended December 31, 2021\n"
    "Kestrel Mills Inc.\n(Exact name of registrant as specified in its charter)"
)


def test_a_filing_shows_what_it_is_and_an_owner_corrects_it(app: AppTest, sidebar_app: AppTest) -> None:
    app.run()  # loads the demo room
    Workbench().ingest_upload(make_pdf([COVER, "Revenue grew."]), "kestrel.pdf", "Demo", embed=False)
    app.switch_page("views/documents.py").run()
    assert not app.exception
    frame = app.dataframe[0].value
    row = frame[frame["Title"] == "kestrel.pdf"].iloc[0]
    assert (row["Company"], row["Form"], row["Period"]) == ("Kestrel Mills Inc.", "10-K", "FY2021")
    picker = app.selectbox(key="filing_doc")
    picker.select_index(picker.options.index("kestrel.pdf")).run()
    field = {t.label: t for t in app.text_input}
    assert field["Company"].value == "Kestrel Mills Inc." and field["Period (FY2022, Q3 FY2023)"].value == "FY2021"
    field["Period (FY2022, Q3 FY2023)"].set_value("FY2020")
    next(b for b in app.button if b.label == "Save").click().run()
    assert not app.exception and not app.error, [e.value for e in app.error]
    frame = app.dataframe[0].value
    assert frame[frame["Title"] == "kestrel.pdf"].iloc[0]["Period"] == "FY2020"
    sidebar_app.run()
    captions = " ".join(c.value for c in sidebar_app.sidebar.caption)
    assert "✓ kestrel.pdf — 2 p. · 10-K · FY2020" in captions  # a hyphen inside a word needs no escape
