"""AppTest: an owner deletes a document from the Documents page (after saying yes)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def test_an_owner_deletes_a_document_from_the_documents_page(app: AppTest) -> None:
    app.run()
    app.switch_page("views/documents.py").run()
    assert not app.exception
    assert app.button(key="delete_go").disabled  # not before the box is ticked
    options = app.selectbox(key="delete_doc").options
    app.selectbox(key="delete_doc").select_index(options.index("portfolio_memo.pdf (ready)")).run()
    app.checkbox(key="delete_sure").check().run()
    app.button(key="delete_go").click().run()
    assert not app.exception and not app.error, [e.value for e in app.error]
    assert sorted(app.dataframe[0].value["Title"]) == ["funding_rounds.csv", "funding_rounds.xlsx"]
