"""Sheet page: the room's sheets in an editable grid; edits are written back and re-indexed.

The URL is the page's state (`?doc=<document id>&sheet=<sheet name>`, plus `&cell=E12&row=<row id>&col=<column>`
when a citation opened it): the cited cell is scrolled to, highlighted and flashed.  Large sheets are shown
a window of rows at a time (the window holding the cited row), so the grid stays quick at 100,000 rows.
Tables read from PDFs are listed too, read-only, with a link to their page.
"""

from __future__ import annotations

import json
import math
import re

import pandas as pd
import streamlit as st
from st_aggrid import AgGrid, JsCode

from core.cells import cell_ref
from core.errors import AccessDenied, EditError
from core.ingest.edits import Grid, field_of
from core.qa.exports import escape_markdown
from views._shared.common import page_room

# Rows sent to the browser at once.  Measured in tests/browser/test_sheet.py on a 100,000 x 20 sheet:
# every row at once took 48.6 s from click to highlighted cell (a 21 MB frame, 5 s to load it), a window
# of 5,000 rows 16.4 s, on two cores shared with a load average of 9-13.
WINDOW = 5_000
NUMERIC = {"number", "currency", "percent"}

wb, room = page_room("Sheet")
sheets = wb.sheets(room)
if not sheets:
    st.info("This room has no sheets yet: add a CSV or XLSX file from the sidebar.")
    st.stop()
by_id = {s.sheet_id: s for s in sheets}


def _param(name: str) -> str:
    return (st.query_params.get(name) or "").strip()


def _linked_sheet() -> int | None:
    """The sheet the URL names (`doc` and `sheet`), or None; a bad link says so and falls back."""
    doc, name = _param("doc"), _param("sheet")
    if not doc:
        return None
    if not re.fullmatch(r"\d{1,12}", doc):
        st.error(f"The link's `doc` should be a document number, not {doc!r}: showing the first sheet instead.")
        return None
    in_doc = [s for s in sheets if s.document_id == int(doc)]
    if not in_doc:
        elsewhere = wb.document_room(int(doc))
        if elsewhere and elsewhere != room:
            st.warning(f"The linked sheet is in the data room {elsewhere!r}, not {room!r}.")
            st.button(f"Open the data room {elsewhere!r}", key="sheet_switch_room",
                      on_click=lambda: st.session_state.update(room=elsewhere))  # fmt: skip
        else:
            st.error(f"Document {doc} is not a sheet of the data room {room!r} (it may have been deleted).")
        return None
    match = [s for s in in_doc if s.name == name] or [s for s in in_doc if s.name.casefold() == name.casefold()]
    if name and not match:
        st.warning(f"{in_doc[0].title} has no sheet called {name!r}: showing {in_doc[0].name!r}.")
    return (match or in_doc)[0].sheet_id


def _picked() -> None:
    # Another sheet: the URL names it (and no longer a cited cell, which belonged to the previous one).
    pick = by_id[st.session_state["sheet_pick"]]
    st.query_params.from_dict({"doc": str(pick.document_id), "sheet": pick.name})


linked = _linked_sheet()
if linked is not None:
    st.session_state["sheet_pick"] = linked
elif st.session_state.get("sheet_pick") not in by_id:
    st.session_state["sheet_pick"] = sheets[0].sheet_id
sheet = by_id[
    st.selectbox(
        "Sheet", list(by_id), format_func=lambda i: f"{by_id[i].label} — {by_id[i].n_rows:,} rows",
        key="sheet_pick", on_change=_picked,
    )
]  # fmt: skip
if sheet.page is not None:
    # A table read from a PDF: shown to check what was read; the PDF is the source, so its cells are not edited.
    st.caption(
        f"Read from page {sheet.page} of {escape_markdown(sheet.title)} (read-only): "
        f"[open the page](documents?doc={sheet.document_id}&page={sheet.page})"
    )
if sheet.sheet_title:
    st.caption(f"Title above the header: *{escape_markdown(sheet.sheet_title)}*")
if sheet.uncalculated:
    listed = ", ".join(f"{escape_markdown(ref)} `{formula}`" for ref, formula in sheet.uncalculated[:5])
    more = f" and {len(sheet.uncalculated) - 5:,} more" if len(sheet.uncalculated) > 5 else ""
    st.warning(
        f"{len(sheet.uncalculated):,} formula cell(s) have no value saved in the file ({listed}{more}): "
        "they are shown empty and never used in answers. Open the workbook in Excel, save it so the values are "
        "calculated, and upload it again."
    )

# -- the cited cell, when the URL names one in this sheet -------------------------------------------
target_row: int | None = None
row_param, col_param, cell_param = _param("row"), _param("col"), _param("cell")
if linked == sheet.sheet_id and row_param:
    if re.fullmatch(r"\d{1,18}", row_param):
        target_row = int(row_param)
    else:
        st.error(f"The link's `row` should be a row id, not {row_param!r}.")
position = wb.row_position(sheet.sheet_id, target_row) if target_row is not None else None
if target_row is not None and position is None:
    st.warning(f"The cited cell {cell_param or ''} is no longer in {sheet.name!r} (its row was removed).")
    target_row = None

# -- which rows to show: a window of WINDOW rows, of the whole sheet or of the rows holding a text ---------
window_key, find_key = f"sheet_window_{sheet.sheet_id}", f"sheet_find_{sheet.sheet_id}"
nonce = int(st.session_state.get("citation_nonce", 0))
jump_id = (sheet.sheet_id, target_row, col_param, nonce)
if position is not None and st.session_state.get("sheet_jumped") != jump_id:
    # A citation (or the same one clicked again): show the window holding its row, whatever was looked for.
    st.session_state[window_key] = position // WINDOW
    st.session_state[find_key] = ""
    st.session_state["sheet_jumped"] = jump_id
left, right = st.columns([3, 2], vertical_alignment="bottom")
find = left.text_input(
    "Find rows", key=find_key, placeholder="Text in any cell of the sheet, e.g. Canada",
    on_change=lambda: st.session_state.update({window_key: 0}),
)  # fmt: skip
window = int(st.session_state.get(window_key) or 0)
grid: Grid = wb.grid(sheet.sheet_id, offset=window * WINDOW, limit=WINDOW, find=find)
n_windows = max(1, math.ceil(grid.n_matching / WINDOW))
if window >= n_windows:  # fewer rows than before (another text looked for): back to the first window
    window = st.session_state[window_key] = 0
    grid = wb.grid(sheet.sheet_id, offset=0, limit=WINDOW, find=find)
if n_windows > 1:
    what = "rows holding it" if grid.find else "data rows"
    window = right.selectbox(
        f"Rows ({WINDOW:,} at a time)", range(n_windows), key=window_key,
        format_func=lambda w: f"{what} {w * WINDOW + 1:,}–{min((w + 1) * WINDOW, grid.n_matching):,} of {grid.n_matching:,}",
    )  # fmt: skip
elif grid.find:
    right.caption(f"{grid.n_matching:,} of {sheet.n_rows:,} rows hold {grid.find!r}.")
if grid.find and not grid.n_matching:
    st.info(f"No cell of {sheet.name!r} holds {grid.find!r}. Clear the search to see every row.")
    st.stop()
columns = {c.name: c for c in grid.columns}
target_col = columns.get(col_param) if target_row is not None else None
if target_row is not None and target_col is None:
    st.warning(f"The cited column {col_param!r} is not in {sheet.name!r}: showing its row.")

# -- the grid data: strings, row ids as text (AG Grid row ids), None for empty cells ---------------
frame = grid.frame.copy()
frame["row_id"] = frame["row_id"].astype(str)
frame["row_number"] = frame["row_number"].astype("int32")

if target_row is not None:
    hit = frame[frame["row_id"] == str(target_row)]
    if not hit.empty:
        number = int(hit["row_number"].iloc[0])
        if target_col is not None:
            value = hit[field_of(target_col)].iloc[0]
            shown = "(empty)" if value is None else value
            cited = cell_ref(sheet.name, target_col.letter, number)
            st.caption(f"Cited cell **{escape_markdown(cited)}** = **{escape_markdown(shown)}**")
        else:
            st.caption(f"Cited row **{number}** of {escape_markdown(sheet.name)}")

# -- edits: diff what the grid returns against what it was given ------------------------------------
grid_key = f"sheet_grid_{sheet.sheet_id}_{window}"
sent_key = f"sheet_sent_{sheet.sheet_id}_{window}"


def _norm(value: object) -> str | None:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    text = str(value)
    return text if text.strip() else None


def _changed_cells(returned: pd.DataFrame, sent: pd.DataFrame) -> list[tuple[int, str, str | None, str | None]]:
    """(row id, field, old, new) of each cell the grid holds differently from what it was given."""
    if returned is None or returned.empty or "row_id" not in returned.columns:
        return []
    given = sent.set_index("row_id")
    back = returned.assign(row_id=returned["row_id"].astype(str)).set_index("row_id")
    common = back.index.intersection(given.index)
    if len(common) == 0:
        return []
    changes = []
    for column in grid.columns:
        field = field_of(column)
        if field not in back.columns:
            continue
        old = given.loc[common, field]
        new = back.loc[common, field]
        differs = [i for i, (a, b) in zip(common, zip(old, new, strict=True), strict=True) if _norm(a) != _norm(b)]
        changes.extend((int(i), field, _norm(given.at[i, field]), _norm(back.at[i, field])) for i in differs)
    return changes


refused: set = st.session_state.setdefault("sheet_refused", set())
previous = st.session_state.get(sent_key)
returned = st.session_state.get(grid_key)
if previous is not None and returned is not None:
    # The component's value as it last sent it: {"nodes": [{"id": ..., "data": {...}}, ...], ...}.
    raw = json.loads(returned) if isinstance(returned, str) else returned
    nodes = raw.get("nodes") if isinstance(raw, dict) else None
    back = pd.DataFrame([n.get("data", {}) for n in nodes or []])
    by_field = {field_of(c): c for c in grid.columns}
    for row_id, field, old, new in _changed_cells(back, previous):
        if (row_id, field, new) in refused:
            continue
        column = by_field[field]
        try:
            edit = wb.edit_cell(sheet.sheet_id, row_id, column.position, new)
        except (EditError, AccessDenied) as exc:
            refused.add((row_id, field, new))
            # Same data as last run: without a changed argument the grid would not be updated, and keep the bad text.
            st.session_state["sheet_revision"] = st.session_state.get("sheet_revision", 0) + 1
            st.error(f"{exc} The cell keeps {old!r}." if old is not None else f"{exc} The cell stays empty.")
            continue
        if edit.changed:
            shown = "(empty)" if edit.new is None else edit.new
            st.toast(
                f"Saved {edit.ref} = {shown} (was {edit.old or '(empty)'}); answers citing it are now marked stale."
            )
    grid = wb.grid(sheet.sheet_id, offset=window * WINDOW, limit=WINDOW, find=find)
    frame = grid.frame.copy()
    frame["row_id"] = frame["row_id"].astype(str)
    frame["row_number"] = frame["row_number"].astype("int32")

# -- the grid --------------------------------------------------------------------------------------
target = None
if target_row is not None:
    target = {"row": str(target_row), "col": field_of(target_col) if target_col else None, "nonce": nonce}

CITED_RULE = JsCode("""function(params) {
  var t = params.context && params.context.target;
  return !!t && !!params.data && String(params.data.row_id) === t.row && (!t.col || params.colDef.field === t.col);
}""")
ROW_ID = JsCode("function(params) { return String(params.data.row_id); }")
NUMBER_ORDER = JsCode("""function(a, b) {
  function num(v) {
    if (v === null || v === undefined) { return null; }
    var s = String(v).trim();
    var m = s.match(/[0-9][0-9,]*[.]?[0-9]*(e[-+]?[0-9]+)?/i);
    if (!m) { return null; }
    var x = parseFloat(m[0].replace(/,/g, ''));
    var tail = s.slice(m.index + m[0].length).trim().replace(/^[^A-Za-z]*/, '');
    if (/^(MM|mn|M)/.test(tail)) { x = x * 1e6; } else if (/^(bn|Bn|BN|B)/.test(tail)) { x = x * 1e9; }
    else if (/^[Kk]/.test(tail)) { x = x * 1e3; }
    if (s.indexOf('(') >= 0 || /^[^0-9]*[-\u2212]/.test(s)) { x = -x; }
    return x;
  }
  var x = num(a), y = num(b);
  if (x === null && y === null) { return 0; }
  if (x === null) { return -1; }
  if (y === null) { return 1; }
  return x - y;
}""")
# Runs each time the options reach the browser (the component evaluates every JsCode string as it parses
# them): it waits for the grid, puts the target in the live context, repaints, scrolls and flashes, once
# per citation click (the nonce) per grid.
JUMP = JsCode(
    "(function() { var target = "
    + json.dumps(target)
    + """;
  var tries = 0;
  function jump() {
    var api = window.__sheetApi;
    if (!api || api.isDestroyed()) { if (tries++ < 100) { setTimeout(jump, 50); } return; }
    var ctx = api.getGridOption('context') || {};
    ctx.target = target;
    api.refreshCells({force: true});
    if (!target) { return; }
    var done = JSON.stringify(target);
    if (window.__sheetJumped === done) { return; }
    var node = api.getRowNode(target.row);
    if (!node) { if (tries++ < 100) { setTimeout(jump, 50); } return; }
    window.__sheetJumped = done;
    api.ensureNodeVisible(node, 'middle');
    if (target.col) { api.ensureColumnVisible(target.col); }
    setTimeout(function() {
      api.flashCells({rowNodes: [node], columns: target.col ? [target.col] : undefined, flashDuration: 1200, fadeDuration: 1200});
    }, 150);
  }
  setTimeout(jump, 0);
  return true;
})()"""
)
ON_READY = JsCode("function(params) { window.__sheetApi = params.api; }")

column_defs: list[dict] = [
    {"field": "row_id", "hide": True, "editable": False},
    {"field": "row_number", "headerName": "Row", "pinned": "left", "editable": False, "width": 76,
     "cellClass": "sheet-rownum", "filter": "agNumberColumnFilter", "suppressMovable": True},
]  # fmt: skip
for column in grid.columns:
    numeric = column.dtype in NUMERIC
    definition = {
        "field": field_of(column),
        "headerName": f"{column.letter} · {column.name}",
        "headerTooltip": f"{column.letter} · {column.name} ({column.dtype})",
        "editable": sheet.page is None,
        "cellClassRules": {"sheet-cited": CITED_RULE},
    }
    if numeric:
        definition.update(type="rightAligned", comparator=NUMBER_ORDER)
    if column is grid.columns[0] and len(grid.columns) > 2:
        # Frozen like Excel's first column: the row's name stays in view when the grid scrolls to a cited column.
        definition.update(pinned="left", maxWidth=280)
    column_defs.append(definition)

grid_options = {
    "columnDefs": column_defs,
    "defaultColDef": {"resizable": True, "sortable": True, "filter": True, "minWidth": 90},
    "getRowId": ROW_ID,
    "context": {"target": target, "jump": JUMP, "revision": st.session_state.get("sheet_revision", 0)},
    "onGridReady": ON_READY,
    "autoSizeStrategy": {"type": "fitCellContents"},
    "stopEditingWhenCellsLoseFocus": True,
    "enableCellTextSelection": True,
    "tooltipShowDelay": 300,
}
css = {
    ".sheet-cited": {"background-color": "#ffe08a", "outline": "2px solid #e0a100", "outline-offset": "-2px",
                     "font-weight": "600"},
    ".sheet-rownum": {"color": "#6b7280", "background-color": "#f6f7f9"},
}  # fmt: skip

st.caption(
    f"{grid.sheet.label} · {sheet.n_rows:,} rows × {len(grid.columns)} columns · double-click a cell to edit, "
    "Enter to save. Row numbers are those of the original file."
)
AgGrid(
    frame.copy(),  # AgGrid may add a column to (and convert dates in) the frame it is given
    gridOptions=grid_options,
    height=560,
    key=grid_key,
    data_return_mode="AS_INPUT",
    update_on=["cellValueChanged"],
    allow_unsafe_jscode=True,
    server_sync_strategy="server_wins",
    custom_css=css,
    show_toolbar=False,  # its floating buttons cover the last headers; "Find rows" searches the whole sheet
)
st.session_state[sent_key] = frame
