"""The evidence pane beside the chat: the sheet grid or the PDF page the URL names, with the cited cell or
passage highlighted. The Chat page shows it on the right, the Sheet page on the left (with its sheet picker).
"""

from __future__ import annotations

import calendar
import re
from urllib.parse import urlencode

import streamlit as st

from core.errors import WorkbenchError
from core.workbench import (
    ROLES,
    SCALES,
    SheetInfo,
    Turn,
    Workbench,
    claims_citing,
    escape_markdown,
    neutralise_bidi,
    passage_lines,
)
from views._shared.chat_pane import cited_rows
from views._shared.common import PAGES
from views._shared.grid import Target, sheet_grid
from views._shared.state import show_view, switch_room, view_param


def _int(name: str, digits: int = 12) -> int | None:
    raw = view_param(name)
    if not raw:
        return None
    if not re.fullmatch(rf"\d{{1,{digits}}}", raw):
        st.error(f"The link's `{name}` should be a number, not {escape_markdown(repr(raw))}: it is left out.")
        return None
    return int(raw)


def _linked_sheet(wb: Workbench, room: str, sheets: list[SheetInfo]) -> SheetInfo | None:
    """The sheet the URL names (`doc` and `sheet`), or None; a link into another room the user can see switches
    to it; a bad link says so."""
    doc, name = _int("doc"), view_param("sheet")
    if doc is None:
        return None
    in_doc = [s for s in sheets if s.document_id == doc]
    if not in_doc:
        elsewhere = wb.document_room(doc)
        if elsewhere and elsewhere != room:
            switch_room(elsewhere, "the linked sheet is there")
        st.error(
            f"Document {doc} is not a sheet of the data room {escape_markdown(repr(room))} (it may have been deleted)."
        )
        return None
    match = [s for s in in_doc if s.name == name] or [s for s in in_doc if s.name.casefold() == name.casefold()]
    if name and not match:
        st.warning(escape_markdown(f"{in_doc[0].title} has no sheet called {name!r}: showing {in_doc[0].name!r}."))
    return (match or in_doc)[0]


def _picked(key: str, by_id: dict[int, SheetInfo]) -> None:
    pick = by_id[st.session_state[key]]
    show_view({"doc": str(pick.document_id), "sheet": pick.name})


def cited_sheet(turns: list[Turn]) -> tuple[int, str] | None:
    """(document id, sheet name) of the first sheet cell the latest answer cites, or None."""
    for citation in turns[-1].citations if turns else ():
        if citation.kind == "cell" and citation.page is None and citation.sheet:
            return citation.document_id, citation.sheet
    return None


def sheet_view(
    wb: Workbench,
    room: str,
    turns: list[Turn],
    *,
    key: str,
    height: int,
    picker: bool,
    default: tuple[int, str] | None = None,
) -> None:
    """The linked sheet (else `default`, else the first) with its cited cell; a sheet picker when `picker`."""
    sheets = wb.sheets(room)
    if not sheets:
        st.info("This room has no sheets yet: add a CSV or XLSX file from the sidebar.")
        return
    by_id = {s.sheet_id: s for s in sheets}
    linked = _linked_sheet(wb, room, sheets)
    fallback = next((s for s in sheets if (s.document_id, s.name) == default), None)
    sheet = linked or fallback or by_id.get(st.session_state.get(f"{key}_pick", -1)) or sheets[0]
    if picker:
        st.session_state[f"{key}_pick"] = sheet.sheet_id
        # the picker and, beside it (no height of its own: the grid still fits a laptop's screen), how it was read
        left, right = st.columns([5, 2], vertical_alignment="bottom")
        left.selectbox(
            "Sheet", list(by_id), format_func=lambda i: neutralise_bidi(f"{by_id[i].label} — {by_id[i].n_rows:,} rows"),
            key=f"{key}_pick", on_change=_picked, args=(f"{key}_pick", by_id),
        )  # fmt: skip
        if sheet.model is not None:
            with right.popover("How it was read", width="stretch"):
                _reading(wb, room, sheet, key)
    else:
        st.markdown(f"**{escape_markdown(sheet.label)}** · {sheet.n_rows:,} rows")
    if sheet.page is not None:
        st.caption(
            f"Read from page {sheet.page} of {escape_markdown(sheet.title)} (read-only): "
            f"[open the page](documents?{urlencode({'room': room, 'doc': sheet.document_id, 'page': sheet.page})})"
        )
    if sheet.sheet_title:
        st.caption(f"Title above the header: *{escape_markdown(sheet.sheet_title)}*")
    if sheet.uncalculated:
        listed = ", ".join(
            (
                f"{escape_markdown(ref)} `{formula}`"
                if "`" not in formula
                else f"{escape_markdown(ref)} {escape_markdown(formula)}"
            )
            for ref, formula in sheet.uncalculated[:5]
        )
        more = f" and {len(sheet.uncalculated) - 5:,} more" if len(sheet.uncalculated) > 5 else ""
        st.warning(
            f"{len(sheet.uncalculated):,} formula cell(s) have no value saved in the file ({listed}{more}): "
            "they are shown empty and never used in answers. Open the workbook in Excel, save it so the values "
            "are calculated, and upload it again."
        )

    target = Target(nonce=int(st.session_state.get("citation_nonce", 0)))
    if linked is not None and linked.sheet_id == sheet.sheet_id:
        target = Target(row=_int("row", 18), column=view_param("col") or None, nonce=target.nonce)
        wanted = _int("all")
        if wanted is not None:
            turn = next((t for t in turns if t.query_id == wanted), None)
            cited = cited_rows(turn).get((sheet.document_id, sheet.name), {}) if turn else {}
            if cited:
                only = st.toggle("Cited rows only", value=True, key=f"{key}_only_{wanted}")
                target = Target(cited=cited, only_cited=only, nonce=target.nonce)
                n_cells = sum(len(c) for c in cited.values())
                st.caption(f"{n_cells} cells cited by “{escape_markdown(turn.question if turn else '')}” highlighted.")
            else:
                st.warning("That answer is not in this conversation: showing the sheet.")
    st.caption(
        f"{sheet.n_rows:,} rows × {sheet.n_cols} columns · "
        + ("read-only." if sheet.page is not None else "double-click a cell to edit, Enter to save.")
        + " Row numbers are those of the original file."
    )
    sheet_grid(wb, sheet, target, key=key, height=height)


def _go(page: int) -> None:
    st.query_params["page"] = str(page)


def _step(by: int, shown: int, page_count: int) -> None:
    """◀/▶: from the page the URL names now, not the one drawn when the button was: a second click that lands
    before the page is drawn again turns a second page (it used to turn the same one twice)."""
    raw = st.query_params.get("page") or ""
    current = int(raw) if raw.isdigit() else shown
    _go(min(max(current + by, 1), page_count))


def _quoting(turns: list[Turn], doc: int, chunk: int | None) -> list[str]:
    """The sentences of the answer named by `ans` (a turn on screen) that cite passage `chunk` of `doc`."""
    asked = _int("ans")
    turn = next((t for t in turns if t.query_id == asked), None) if asked is not None else None
    if turn is None or chunk is None:
        return []
    positions = [i for i, c in enumerate(turn.citations)
                 if c.kind == "page" and c.document_id == doc and c.chunk_index == chunk]  # fmt: skip
    if not positions:
        return []
    # Markers of answers written in this session are exact; the store's are inferred (core.qa.feedback.infer_markers).
    markers = st.session_state.get("chat_markers", {}).get(turn.query_id) or turn.markers
    return claims_citing(turn.answer, markers, positions)


def pdf_view(wb: Workbench, room: str, turns: list[Turn], *, key: str) -> None:
    """The linked PDF page, the cited passage (the lines the answer quotes, or a table cell read from the page)
    highlighted; paging."""
    doc, page, chunk, row = _int("doc"), _int("page", 6), _int("chunk", 9), _int("row", 18)
    column = view_param("col")
    cell = (row, column) if row is not None and column else None
    if doc is None:
        return
    try:
        rendered = wb.render_page(doc, page, chunk, cell, quoting=_quoting(turns, doc, chunk))
    except WorkbenchError as exc:
        st.error(escape_markdown(str(exc)))
        return
    if rendered.room != room:
        switch_room(rendered.room, "the linked PDF is there")
    bar = st.container(horizontal=True, gap="small", vertical_alignment="center")
    bar.markdown(f"**{escape_markdown(rendered.title)}** · page {rendered.page} of {rendered.page_count}")
    bar.button("◀ Previous page", key=f"{key}_previous", on_click=_step, args=(-1, rendered.page, rendered.page_count),
               disabled=rendered.page <= 1)  # fmt: skip
    bar.button("Next page ▶", key=f"{key}_next", on_click=_step, args=(1, rendered.page, rendered.page_count),
               disabled=rendered.page >= rendered.page_count)  # fmt: skip
    params = {k: v for k, v in st.query_params.to_dict().items() if k != "conversation"}
    bar.page_link(PAGES["documents"][0], label="Documents page", query_params={**params, "room": room})
    cited = rendered.cell or rendered.passage
    if cited is not None and not rendered.highlighted:
        st.caption(f"The cited {'figure' if rendered.cell else 'passage'} is on page {cited.page}.")
        st.button(f"Back to page {cited.page}", key=f"{key}_back", on_click=_go, args=(cited.page,))
    elif rendered.quoted_lines and rendered.passage is not None:
        n, of = len(rendered.quoted_lines), len(passage_lines(rendered.passage.text))
        st.caption(f"Highlighted: the {n} line{'s' if n != 1 else ''} of the cited passage ({of} lines) that the "
                   "answer quotes or takes figures from.")  # fmt: skip
    with st.container(border=True):
        st.image(
            rendered.png,
            width="stretch",
            output_format="PNG",
            alt=f"{rendered.title}, page {rendered.page}"
            + (" with the cited passage highlighted" if rendered.highlighted else ""),
        )


def evidence_pane(
    wb: Workbench,
    room: str,
    turns: list[Turn],
    *,
    key: str,
    height: int,
    picker: bool,
    hint: str = "Click a citation under an answer: its cell or page opens here, highlighted.",
) -> None:
    """The PDF page or the sheet the URL names; with nothing named, the first sheet (`picker`) or a hint."""
    if view_param("doc") and view_param("page"):
        pdf_view(wb, room, turns, key=f"{key}_pdf")
    elif view_param("doc") or picker:
        sheet_view(wb, room, turns, key=key, height=height, picker=picker)
    elif (cited := cited_sheet(turns)) is not None:
        # The sheet the latest answer cites, mounted before its first chip is clicked: the grid's first load
        # (its script, the rows) is over by then, and the click only scrolls and paints (issue 26: first chip).
        st.caption("The sheet the last answer cites: click a chip under it to see its cell highlighted.")
        sheet_view(wb, room, turns, key=key, height=height, picker=False, default=cited)
    else:
        st.caption(hint)


def _reading(wb: Workbench, room: str, sheet: SheetInfo, key: str) -> None:
    """How the sheet was read (header rows, sections, totals, units, periods), and an editor's correction of it."""
    model = sheet.model
    assert model is not None
    st.markdown("**How this sheet was read**")
    st.markdown("\n".join(f"- {escape_markdown(line)}" for line in model.describe()) or "- one header row, data below")
    if sheet.page is not None or not wb.can_edit(room):
        return
    st.caption("Correct it: every later answer reads the correction (a ? marks a total whose lines did not add up).")
    with st.form(f"{key}_model_{sheet.sheet_id}", border=False):
        left, middle, right = st.columns(3)
        scales = ["(as read)", *SCALES]
        scale = left.selectbox("Figures in", scales, key=f"{key}_scale_{sheet.sheet_id}")
        months = ["(as read)", *calendar.month_name[1:]]
        month = middle.selectbox("Fiscal year starts in", months, key=f"{key}_fiscal_{sheet.sheet_id}")
        numbers = [r.row_number for r in model.rows]
        row = right.selectbox("Row", ["(none)", *numbers], key=f"{key}_row_{sheet.sheet_id}")
        role = right.selectbox("is a", ROLES, key=f"{key}_role_{sheet.sheet_id}")
        if st.form_submit_button("Save the correction"):
            try:
                wb.correct_sheet(
                    sheet.sheet_id,
                    scale=None if scale == "(as read)" else scale,
                    fiscal_start=None if month == "(as read)" else months.index(month),
                    roles=None if row == "(none)" else {int(row): role},
                )
            except WorkbenchError as exc:
                st.error(str(exc))
            else:
                st.rerun()
