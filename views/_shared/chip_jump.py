"""A cell chip's click lights its cell in the grid beside the chat at once, in the page itself.

A chip is a Streamlit button: its click reruns the script, which puts the citation in the URL and sends the grid
its new target (views/_shared/grid.py). On a loaded machine that round trip took 0.6-1 s before the cell lit. So
the chat also hands the page each chip's cell (button key -> sheet, row id, column name) and, once per page, a
click listener: when the grid on screen shows that sheet and holds that row, the listener paints, scrolls to and
flashes the cell through the grid's own API (the grid's frame is served from the app's origin) while the rerun
goes on as before; the grid's JUMP then sees the cell already shown and does not scroll and flash it twice. Any
other click (a PDF page, another sheet, a row outside the rows loaded) waits for the rerun, as before.
"""

from __future__ import annotations

import json

import streamlit as st

from core.models import Citation

KEY = "chip_jump"  # the hidden container of the script (layout.py hides .st-key-chip_jump)

_SCRIPT = """<script>
(function () {
  var w = window;
  w.__chipTargets = %s;
  if (w.__chipJumpInstalled) { return; }
  w.__chipJumpInstalled = true;
  function keyOf(element) {
    var box = element && element.closest ? element.closest('[class*="st-key-"]') : null;
    if (!box) { return null; }
    var found = null;
    box.classList.forEach(function (name) { if (name.indexOf('st-key-') === 0) { found = name.slice(7); } });
    return found;
  }
  document.addEventListener('click', function (event) {
    var key = keyOf(event.target);
    var t = key && (w.__chipTargets || {})[key];
    if (!t) { return; }
    var frames = document.querySelectorAll('iframe[title="st_aggrid.AgGrid.agGrid"]');
    for (var i = 0; i < frames.length; i++) {
      var inner, api;
      try { inner = frames[i].contentWindow; api = inner.__sheetApi; } catch (e) { continue; }
      if (!api || api.isDestroyed()) { continue; }
      var ctx = api.getGridOption('context') || {};
      if (ctx.sheet !== t.sheet) { continue; }
      var node = api.getRowNode(t.row);
      if (!node) { continue; }
      var col = (t.col && ctx.fields && ctx.fields[t.col]) || null;
      ctx.target = {row: t.row, col: col, cells: {}, nonce: -1};
      inner.__sheetClientJump = {row: t.row, col: col, at: Date.now()};
      api.refreshCells({force: true});
      api.ensureNodeVisible(node, 'middle');
      if (col) { api.ensureColumnVisible(col); }
      setTimeout(function () {
        api.flashCells({rowNodes: [node], columns: col ? [col] : undefined, flashDuration: 1200, fadeDuration: 1200});
      }, 100);
      return;
    }
  }, true);
})();
</script>"""


def sheet_tag(document_id: int, sheet: str) -> str:
    """The name a grid and a chip give one sheet (the grid's context.sheet, the chip's target.sheet)."""
    return f"{document_id}:{sheet}"


def cell_target(citation: Citation) -> dict[str, str] | None:
    """What the page needs to light a cited cell of a sheet (None for a PDF's page or table)."""
    if citation.kind != "cell" or citation.page is not None or not citation.sheet or citation.row_id is None:
        return None
    return {"sheet": sheet_tag(citation.document_id, citation.sheet), "row": str(citation.row_id),
            "col": citation.column or ""}  # fmt: skip


def install(targets: dict[str, dict[str, str]]) -> None:
    """Hand the page the chips' cells (button key -> target) and, the first time, the click listener."""
    data = json.dumps(targets, sort_keys=True).replace("<", "\\u003c")  # no "</script>" inside the script
    with st.container(key=KEY):
        st.html(_SCRIPT % data, unsafe_allow_javascript=True)
