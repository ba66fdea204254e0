"""AppTest smoke tests of the Sheet page: the grid is there, deep links pick the sheet and the cell, bad links explain.

AppTest does not run custom components: the AgGrid element is opaque, its arguments are read from its proto.
"""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from core.config import get_settings
from core.db import Database


def grid_args(app: AppTest) -> dict:
    """The AgGrid component's arguments."""
    [grid] = app.get("component_instance")
    return json.loads(grid.proto.json_args)


def open_sheet_page(app: AppTest, **params: str) -> AppTest:
    app.run()
    app.query_params.update(params)
    return app.switch_page("views/sheet.py").run()


def valuations_cell(row_index: int = 150, column: str = "Post-money Valuation (USD)") -> dict:
    """A cell of the demo workbook's second sheet, from the app's database."""
    db = Database(get_settings().database_url, max_size=1, run_migrations=False)
    try:
        with db.connection() as conn:
            doc, sheet, row_id, number, letter, value = conn.execute(
                "SELECT s.document_id, s.name, r.id, r.row_number, c.letter, r.values ->> c.position"
                " FROM sheets s JOIN documents d ON d.id = s.document_id JOIN sheet_rows r ON r.sheet_id = s.id"
                " JOIN sheet_columns c ON c.sheet_id = s.id AND c.name = %s"
                " WHERE d.title = 'funding_rounds.xlsx' AND s.name = 'Valuations' AND r.row_index = %s",
                (column, row_index),
            ).fetchone()
    finally:
        db.close()
    return {"doc": str(doc), "sheet": sheet, "row": str(row_id), "cell": f"{letter}{number}", "col": column,
            "value": value}  # fmt: skip


def test_the_sheet_page_shows_the_first_sheet_in_an_editable_grid(app: AppTest) -> None:
    open_sheet_page(app)
    assert not app.exception and not app.error
    assert app.title[0].value == "Sheet"
    picker = app.selectbox(key="sheet_pick")
    assert picker.options == [
        "funding_rounds.csv — 307 rows",
        "funding_rounds.xlsx · Portfolio — 60 rows",
        "funding_rounds.xlsx · Valuations — 212 rows",
        # the memo's table, read from its PDF (read-only)
        "portfolio_memo.pdf · p2 Table 1. Ten largest companies by… — 10 rows",
    ]
    assert picker.index == 0
    args = grid_args(app)
    options = args["gridOptions"]
    headers = [c.get("headerName") for c in options["columnDefs"] if not c.get("hide")]
    assert headers[:3] == ["Row", "A · Company", "B · Country"]
    assert all(c["editable"] for c in options["columnDefs"][2:])
    assert "row_id" in options["getRowId"]
    assert args["data_return_mode"] == "AS_INPUT" and args["update_on"] == ["cellValueChanged"]
    assert options["context"]["target"] is None
    assert not [c for c in app.caption if c.value.startswith("Cited cell")]


def test_a_deep_link_selects_the_sheet_and_targets_the_cell(app: AppTest) -> None:
    app.run()
    cell = valuations_cell()
    open_sheet_page(app, **{k: v for k, v in cell.items() if k != "value"})
    assert not app.exception and not app.error and not app.warning
    picker = app.selectbox(key="sheet_pick")
    assert picker.options[picker.index] == "funding_rounds.xlsx · Valuations — 212 rows"
    target = grid_args(app)["gridOptions"]["context"]["target"]
    assert target["row"] == cell["row"] and target["col"] == "c" + str(ord(cell["cell"][0]) - ord("A"))
    captions = [c.value for c in app.caption if c.value.startswith("Cited cell")]
    assert captions == [f"Cited cell **Valuations!{cell['cell']}** = **{cell['value']}**"]  # '!' opens no image alone


def test_bad_links_explain_and_fall_back_to_the_first_sheet(app: AppTest) -> None:
    open_sheet_page(app, doc="abc", sheet="x")
    assert not app.exception
    assert "`doc` should be a number" in app.error[0].value
    assert app.selectbox(key="sheet_pick").index == 0
    open_sheet_page(app, doc="424242", sheet="x")
    assert not app.exception
    assert "Document 424242 is not a sheet of the data room 'Demo'" in app.error[0].value


def test_find_rows_searches_the_whole_sheet(app: AppTest) -> None:
    open_sheet_page(app)
    app.text_input(key="sheet_find_1").input("Canada").run()
    assert not app.exception and not app.error
    held = [c.value for c in app.caption if "rows hold" in c.value]
    assert held and held[0].endswith("of 307 rows hold 'Canada'.") and int(held[0].split()[0]) > 10
    app.text_input(key="sheet_find_1").input("no such text anywhere").run()
    assert "No cell of 'funding_rounds' holds 'no such text anywhere'" in app.info[0].value
    assert not app.get("component_instance")


def test_formula_cells_without_saved_values_are_flagged(app: AppTest) -> None:
    from core.workbench import Workbench
    from tests.factories import make_xlsx

    data = make_xlsx({"Model": [["Item", "Revenue", "Cost", "Margin"], ["A", 100, 60, "=B2-C2"], ["B", 80, 50, 30]]})
    wb = Workbench(get_settings())
    try:
        assert wb.ingest_upload(data, "model.xlsx", "Demo", embed=False).status == "ready"
        [sheet] = [s for s in wb.sheets("Demo") if s.title == "model.xlsx"]
    finally:
        wb.db.close()
    open_sheet_page(app, doc=str(sheet.document_id), sheet="Model")
    assert not app.exception
    [warning] = [w.value for w in app.warning if "formula cell" in w.value]
    assert "D2 `=B2-C2`" in warning and "Open the workbook in Excel" in warning


def test_the_sheet_page_says_how_the_sheet_was_read_and_takes_a_correction(app: AppTest) -> None:
    open_sheet_page(app)
    assert not app.exception and not app.error

    def reading() -> str:
        [said] = [m.value for m in app.markdown if m.value.startswith("- header row")]
        return said

    assert "header row 1" in reading()
    sheet_id = app.selectbox(key="sheet_pick").value
    app.selectbox(key=f"sheet_scale_{sheet_id}").set_value("thousands")
    [save] = [b for b in app.button if b.label == "Save the correction"]
    save.click().run()
    assert not app.exception and not app.error
    assert "corrected by an editor: figures in thousands" in reading()
