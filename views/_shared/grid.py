"""A sheet in an editable AG Grid that scrolls to, highlights and flashes cited cells; shared by the Sheet page
and the Chat page's evidence pane.

The grid keeps one fixed key per sheet and window of rows, so a new citation reaches the live grid as new options
(no reload): a self-invoking function in `gridOptions.context` (JUMP) runs each time the component parses them
and moves to the target (see ../shared/notes/ui.md). Large sheets are shown a window of rows at a time (the
window holding the cited row), so the grid stays quick at 100,000 rows.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

import pandas as pd
import streamlit as st
from st_aggrid import AgGrid, JsCode

from core.errors import AccessDenied, EditError
from core.workbench import Column, Grid, SheetInfo, Workbench, cell_ref, escape_markdown, field_of
from views._shared.chip_jump import sheet_tag

# Rows sent to the browser at once.  Measured in tests/browser/test_sheet.py on a 100,000 x 20 sheet:
# every row at once took 48.6 s from click to highlighted cell (a 21 MB frame, 5 s to load it), a window
# of 5,000 rows 16.4 s, on two cores shared with a load average of 9-13.
WINDOW = 5_000
NUMERIC = {"number", "currency", "percent"}


@dataclass(frozen=True)
class Target:
    """What to show in a sheet: the cell scrolled to and flashed, and every cited cell to paint."""

    row: int | None = None  # sheet_rows id
    column: str | None = None  # column name
    cited: dict[int, set[str]] = field(default_factory=dict)  # row id -> column names, all painted
    only_cited: bool = False  # filter the grid to the cited rows
    nonce: int = 0  # a citation click: scroll and flash again even when the target is the same


CITED_RULE = JsCode("""function(params) {
  var t = params.context && params.context.target;
  if (!t || !params.data) { return false; }
  var id = String(params.data.row_id), f = params.colDef.field;
  if (t.cells && t.cells[id] && t.cells[id].indexOf(f) >= 0) { return true; }
  return id === t.row && (!t.col || f === t.col);
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
ON_READY = JsCode("function(params) { window.__sheetApi = params.api; }")
CSS = {
    ".sheet-cited": {"background-color": "#ffe08a", "outline": "2px solid #e0a100", "outline-offset": "-2px",
                     "font-weight": "600"},
    ".sheet-rownum": {"color": "#6b7280", "background-color": "#f6f7f9"},
    "#gridContainer": {"height": "100vh !important"},  # the grid fills its frame, whose height FRAME_CSS sets
}  # fmt: skip
# On a laptop's screen the grid's frame takes the window's height less what is drawn above it (the page's title,
# the width toggle, the sheet's picker, captions and "Find rows": about ABOVE_GRID px), never under 300 px: a 768 px
# screen shows the whole grid without scrolling the page, a 1080 px one more rows. (`height` is the first draw's.)
ABOVE_GRID = 430
FRAME_CSS = (
    f'<style>iframe[title="st_aggrid.AgGrid.agGrid"] {{ height: max(300px, calc(100vh - {ABOVE_GRID}px))'
    " !important; }</style>"
)


def _jump(target: dict | None) -> JsCode:
    """Runs each time the options reach the browser (the component evaluates every JsCode string as it parses
    them): it waits for the grid, puts the target in the live context, repaints, scrolls and flashes, once per
    citation click (the nonce) per grid."""
    return JsCode(
        "(function() { var target = "
        + json.dumps(target)
        + """;
  // Each parse of the options starts its own wait; a later one (a newer target) ends the earlier. The wait is long
  // (30 s): a first mount in a busy browser can be slow, and a cell's row may arrive a moment after the grid.
  var mine = window.__sheetJumpSeq = (window.__sheetJumpSeq || 0) + 1;
  var until = Date.now() + 30000, painted = null;
  function again() { if (Date.now() < until) { setTimeout(jump, 30); } }
  function drawn() {
    var cell = target.col ? ' .ag-cell[col-id="' + CSS.escape(target.col) + '"]' : '';
    return !!document.querySelector('.ag-row[row-id="' + CSS.escape(target.row) + '"]' + cell);
  }
  function show(api, node) {
    api.ensureNodeVisible(node, 'middle');
    if (target.col) { api.ensureColumnVisible(target.col); }
  }
  // Rows and columns out of view are not drawn at all. The columns are sized to their contents after the first rows
  // are drawn, which can move a cited column scrolled to a moment before out of view again: until the cell is drawn
  // (10 s at most), it is scrolled to again.
  function settle(api, node, deadline) {
    if (window.__sheetJumpSeq !== mine || api.isDestroyed() || drawn() || Date.now() > deadline) { return; }
    show(api, node);
    setTimeout(function() { settle(api, node, deadline); }, 150);
  }
  function jump() {
    if (window.__sheetJumpSeq !== mine) { return; }
    var api = window.__sheetApi;
    if (!api || api.isDestroyed()) { again(); return; }
    if (painted !== api) {
      var ctx = api.getGridOption('context') || {};
      ctx.target = target;
      api.refreshCells({force: true});
      painted = api;
    }
    if (!target || !target.row) { return; }
    // Once per citation click per grid: a grid made anew (its api another) is scrolled again.
    var done = JSON.stringify(target);
    if (window.__sheetJumped === done && window.__sheetJumpedApi === api) { return; }
    var node = api.getRowNode(target.row);
    if (!node) { again(); return; }
    window.__sheetJumped = done;
    window.__sheetJumpedApi = api;
    // Moved there already by the chip's click in the page (views/_shared/chip_jump.py): no second scroll and flash.
    var early = window.__sheetClientJump;
    if (early && early.row === target.row && early.col === target.col && Date.now() - early.at < 5000) { return; }
    show(api, node);
    setTimeout(function() {
      api.flashCells({rowNodes: [node], columns: target.col ? [target.col] : undefined, flashDuration: 1200, fadeDuration: 1200});
    }, 100);
    setTimeout(function() { settle(api, node, Date.now() + 10000); }, 150);
  }
  setTimeout(jump, 0);
  return true;
})()"""
    )


def _norm(value: object) -> str | None:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    text = str(value)
    return text if text.strip() else None


def _changed_cells(
    returned: pd.DataFrame, sent: pd.DataFrame, columns: tuple[Column, ...]
) -> list[tuple[int, str, str | None, str | None]]:
    """(row id, field, old, new) of each cell the grid holds differently from what it was given."""
    if returned is None or returned.empty or "row_id" not in returned.columns:
        return []
    given = sent.set_index("row_id")
    back = returned.assign(row_id=returned["row_id"].astype(str)).set_index("row_id")
    common = back.index.intersection(given.index)
    if len(common) == 0:
        return []
    changes = []
    for column in columns:
        name = field_of(column)
        if name not in back.columns or name not in given.columns:
            continue
        old = given.loc[common, name]
        new = back.loc[common, name]
        differs = [i for i, (a, b) in zip(common, zip(old, new, strict=True), strict=True) if _norm(a) != _norm(b)]
        changes.extend((int(i), name, _norm(given.at[i, name]), _norm(back.at[i, name])) for i in differs)
    return changes


def _frame(grid: Grid, only: set[int] | None) -> pd.DataFrame:
    frame = grid.frame.copy()
    if only is not None:
        frame = frame[frame["row_id"].isin(only)]
    frame["row_id"] = frame["row_id"].astype(str)
    frame["row_number"] = frame["row_number"].astype("int32")
    return frame


def _save_edits(wb: Workbench, sheet: SheetInfo, grid: Grid, grid_key: str, sent_key: str) -> bool:
    """Write the cells edited in the grid since the last run; True when anything was tried."""
    refused: set = st.session_state.setdefault("sheet_refused", set())
    previous = st.session_state.get(sent_key)
    returned = st.session_state.get(grid_key)
    if previous is None or returned is None:
        return False
    # The component's value as it last sent it: {"nodes": [{"id": ..., "data": {...}}, ...], ...}.
    raw = json.loads(returned) if isinstance(returned, str) else returned
    nodes = raw.get("nodes") if isinstance(raw, dict) else None
    back = pd.DataFrame([n.get("data", {}) for n in nodes or []])
    by_field = {field_of(c): c for c in grid.columns}
    tried = False
    for row_id, name, old, new in _changed_cells(back, previous, grid.columns):
        if (row_id, name, new) in refused:
            continue
        tried = True
        column = by_field[name]
        try:
            edit = wb.edit_cell(sheet.sheet_id, row_id, column.position, new)
        except (EditError, AccessDenied) as exc:
            refused.add((row_id, name, new))
            # Same data as last run: without a changed argument the grid would not be updated, and keep the bad text.
            st.session_state["sheet_revision"] = st.session_state.get("sheet_revision", 0) + 1
            st.error(
                escape_markdown(f"{exc} The cell keeps {old!r}." if old is not None else f"{exc} The cell stays empty.")
            )
            continue
        if edit.changed:
            shown = "(empty)" if edit.new is None else edit.new
            st.toast(
                escape_markdown(
                    f"Saved {edit.ref} = {shown} (was {edit.old or '(empty)'}); answers citing it are now marked stale."
                )
            )
    return tried


def _cited_caption(frame: pd.DataFrame, sheet: SheetInfo, row: int, target_col: Column | None) -> None:
    """The line above the grid naming the cited cell and its value (or the cited row)."""
    hit = frame[frame["row_id"] == str(row)]
    if hit.empty:
        return
    number = int(hit["row_number"].iloc[0])
    if target_col is not None:
        value = hit[field_of(target_col)].iloc[0]
        shown = "(empty)" if value is None else value
        cited = cell_ref(sheet.ref_tab, target_col.letter, number)
        st.caption(f"Cited cell **{escape_markdown(cited)}** = **{escape_markdown(shown)}**")
    else:
        st.caption(f"Cited row **{number}** of {escape_markdown(sheet.name)}")


def _column_defs(grid: Grid, sheet: SheetInfo) -> list[dict]:
    """AG Grid's column definitions: the hidden row id, the row number, then each column (editable unless the
    sheet is a PDF's table)."""
    column_defs: list[dict] = [
        {"field": "row_id", "hide": True, "editable": False},
        {"field": "row_number", "headerName": "Row", "pinned": "left", "editable": False, "width": 76,
         "cellClass": "sheet-rownum", "filter": "agNumberColumnFilter", "suppressMovable": True},
    ]  # fmt: skip
    for column in grid.columns:
        definition = {
            "field": field_of(column),
            "headerName": f"{column.letter} · {column.name}",
            "headerTooltip": f"{column.letter} · {column.name} ({column.dtype})",
            "editable": sheet.page is None,
            "cellClassRules": {"sheet-cited": CITED_RULE},
        }
        if column.dtype in NUMERIC:
            definition.update(type="rightAligned", comparator=NUMBER_ORDER)
        if column is grid.columns[0] and len(grid.columns) > 2:
            # Frozen like Excel's first column: the row's name stays in view when the grid scrolls to a cited column.
            definition.update(pinned="left", maxWidth=280)
        column_defs.append(definition)
    return column_defs


def sheet_grid(wb: Workbench, sheet: SheetInfo, target: Target, *, key: str, height: int = 560) -> None:
    """The sheet's grid (a window of rows, or the cited rows), scrolled to `target` and painting every cited cell;
    edits are written back (tables read from PDFs are read-only)."""
    position = wb.row_position(sheet.sheet_id, target.row) if target.row is not None else None
    if target.row is not None and position is None:
        st.warning(escape_markdown(f"The cited cell is no longer in {sheet.name!r} (its row was removed)."))
        target = Target(cited=target.cited, only_cited=target.only_cited, nonce=target.nonce)

    window_key, find_key = f"{key}_window_{sheet.sheet_id}", f"{key}_find_{sheet.sheet_id}"
    jump_id = (sheet.sheet_id, target.row, target.column, target.nonce)
    if position is not None and st.session_state.get(f"{key}_jumped") != jump_id:
        # A citation (or the same one clicked again): show the window holding its row, whatever was looked for.
        st.session_state[window_key] = position // WINDOW
        st.session_state[find_key] = ""
        st.session_state[f"{key}_jumped"] = jump_id
    only = set(target.cited) if target.only_cited and target.cited else None
    if only is not None:
        # The cited rows alone (a sum over 42 cells), fetched by id: the rest of the sheet is never read.
        grid = wb.grid(sheet.sheet_id, rows=only)
        window = 0
        st.caption(f"Showing the {len(only):,} cited rows of {sheet.n_rows:,}.")
    else:
        left, right = st.columns([3, 2], vertical_alignment="bottom")
        find = left.text_input(
            "Find rows", key=find_key, placeholder="Text in any cell of the sheet, e.g. Canada",
            on_change=lambda: st.session_state.update({window_key: 0}),
        )  # fmt: skip
        window = int(st.session_state.get(window_key) or 0)
        grid = wb.grid(sheet.sheet_id, offset=window * WINDOW, limit=WINDOW, find=find)
        n_windows = max(1, math.ceil(grid.n_matching / WINDOW))
        if window >= n_windows:  # fewer rows than before (another text looked for): back to the first window
            window = st.session_state[window_key] = 0
            grid = wb.grid(sheet.sheet_id, offset=0, limit=WINDOW, find=find)
        if n_windows > 1:
            what = "rows holding it" if grid.find else "data rows"
            n_matching = grid.n_matching
            window = right.selectbox(
                f"Rows ({WINDOW:,} at a time)", range(n_windows), key=window_key,
                format_func=lambda w: f"{what} {w * WINDOW + 1:,}–{min((w + 1) * WINDOW, n_matching):,} of {n_matching:,}",
            )  # fmt: skip
        elif grid.find:
            right.caption(escape_markdown(f"{grid.n_matching:,} of {sheet.n_rows:,} rows hold {grid.find!r}."))
        if grid.find and not grid.n_matching:
            st.info(
                escape_markdown(f"No cell of {sheet.name!r} holds {grid.find!r}. Clear the search to see every row.")
            )
            return
    columns = {c.name: c for c in grid.columns}
    target_col = columns.get(target.column or "") if target.row is not None else None
    if target.row is not None and target.column and target_col is None:
        st.warning(escape_markdown(f"The cited column {target.column!r} is not in {sheet.name!r}: showing its row."))

    frame = _frame(grid, only)
    if target.row is not None:
        _cited_caption(frame, sheet, target.row, target_col)

    grid_key = f"{key}_grid_{sheet.sheet_id}_{window}"
    sent_key = f"{key}_sent_{sheet.sheet_id}_{window}"
    if _save_edits(wb, sheet, grid, grid_key, sent_key):
        grid = wb.grid(sheet.sheet_id, rows=only) if only is not None else wb.grid(
            sheet.sheet_id, offset=window * WINDOW, limit=WINDOW, find=grid.find
        )  # fmt: skip
        frame = _frame(grid, only)

    by_name = {c.name: field_of(c) for c in grid.columns}
    shown_target = None
    if target.row is not None or target.cited:
        shown_target = {
            "row": str(target.row) if target.row is not None else None,
            "col": field_of(target_col) if target_col else None,
            "cells": {str(r): sorted(by_name[c] for c in cs if c in by_name) for r, cs in target.cited.items()},
            "nonce": target.nonce,
        }
    column_defs = _column_defs(grid, sheet)
    grid_options = {
        "columnDefs": column_defs,
        "defaultColDef": {"resizable": True, "sortable": True, "filter": True, "minWidth": 90},
        "getRowId": ROW_ID,
        "context": {
            "target": shown_target,
            "jump": _jump(shown_target),
            "revision": st.session_state.get("sheet_revision", 0),
            # Read by a chip's click in the page (views/_shared/chip_jump.py): which sheet this is, column fields.
            "sheet": sheet_tag(sheet.document_id, sheet.name),
            "fields": by_name,
        },
        "onGridReady": ON_READY,
        "autoSizeStrategy": {"type": "fitCellContents"},
        "stopEditingWhenCellsLoseFocus": True,
        "enableCellTextSelection": True,
        "tooltipShowDelay": 300,
    }
    st.html(FRAME_CSS)
    AgGrid(
        frame.copy(),  # AgGrid may add a column to (and convert dates in) the frame it is given
        gridOptions=grid_options,
        height=height,
        key=grid_key,
        data_return_mode="AS_INPUT",
        update_on=["cellValueChanged"],
        allow_unsafe_jscode=True,
        server_sync_strategy="server_wins",
        custom_css=CSS,
        show_toolbar=False,  # its floating buttons cover the last headers; "Find rows" searches the whole sheet
    )
    st.session_state[sent_key] = frame
