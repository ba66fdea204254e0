"""Documents page: a PDF page viewer that highlights a cited passage, and the state of every file in the room.

The URL is the viewer's state (`?doc=<document id>&page=<n>&chunk=<chunk index>`): a citation click opens it,
paging updates it, and the same URL opened in a new tab shows the same view.
"""

import re
from urllib.parse import urlencode

import pandas as pd
import streamlit as st

from core.errors import WorkbenchError
from core.workbench import FORMS, escape_markdown, neutralise_bidi
from views._shared.common import PAGES, page_room
from views._shared.state import switch_room

wb, room = page_room("Documents")
docs = wb.documents(room)
pdfs = {d.id: d for d in docs if d.kind == "pdf" and d.status in ("ready", "incomplete")}


def _int_param(name: str) -> int | None:
    raw = st.query_params.get(name)
    if raw is None or raw == "":
        return None
    if not re.fullmatch(r"-?\d{1,9}", raw.strip()):
        st.error(
            f"The link's `{name}` should be a number, not {escape_markdown(repr(raw))}: showing the default instead."
        )
        return None
    return int(raw)


def _go(page: int) -> None:
    st.query_params["page"] = str(page)


def _typed_page() -> None:
    _go(int(st.session_state["documents_page_number"]))


def _picked() -> None:
    # Another PDF: start at its first page; the cited passage belonged to the previous one.
    st.query_params.from_dict({"room": room, "doc": str(st.session_state["documents_pdf"]), "page": "1"})


def _markdown_text(text: str) -> str:
    """Passage text shown literally (markdown and LaTeX markers escaped), reflowed: the PDF's line ends are
    layout, not meaning, in a column narrower than the page; paragraph breaks are kept."""
    return re.sub(r"(?<!\n)\n(?!\n)", " ", escape_markdown(text))


doc_id = _int_param("doc")
page = _int_param("page")
chunk = _int_param("chunk")
cell_row, cell_column = _int_param("row"), st.query_params.get("col")
cell = (cell_row, cell_column) if cell_row is not None and cell_column else None
if doc_id is None:
    doc_id, chunk, cell = (next(iter(pdfs)) if pdfs else None), None, None

if doc_id is None:
    st.info("This room has no PDFs yet: add some from the sidebar, or pick a sheet below.")
else:
    rendered = None
    try:
        rendered = wb.render_page(doc_id, page, chunk, cell)
    except WorkbenchError as exc:
        st.error(escape_markdown(str(exc)))
    if rendered is not None and rendered.room != room:  # a link into another room the user can see
        switch_room(rendered.room, "the linked PDF is there")
    options = list(pdfs)
    titles = {d.id: d.title for d in pdfs.values()}
    if rendered is not None and doc_id not in titles:  # a deep link into another room
        options.insert(0, doc_id)
        titles[doc_id] = f"{rendered.title} (room {rendered.room})"
    st.session_state["documents_pdf"] = doc_id if doc_id in titles else None
    if rendered is not None:
        st.session_state["documents_page_number"] = rendered.page

    bar = st.columns([4, 1.6, 1.2, 1.2, 1.6], vertical_alignment="bottom")
    bar[0].selectbox(
        "PDF",
        options,
        format_func=lambda i: neutralise_bidi(titles.get(i) or ""),
        key="documents_pdf",
        on_change=_picked,
        placeholder="Pick a PDF",
    )
    if rendered is not None:
        bar[1].number_input(
            f"Page (of {rendered.page_count})",
            min_value=1,
            max_value=rendered.page_count,
            step=1,
            key="documents_page_number",
            on_change=_typed_page,
        )
        bar[2].button(
            "◀ Previous",
            key="documents_previous",
            on_click=_go,
            args=(rendered.page - 1,),
            disabled=rendered.page <= 1,
            width="stretch",
        )
        bar[3].button(
            "Next ▶",
            key="documents_next",
            on_click=_go,
            args=(rendered.page + 1,),
            disabled=rendered.page >= rendered.page_count,
            width="stretch",
        )
        link = {"room": room, "doc": str(rendered.document_id), "page": str(rendered.page)}
        if chunk is not None:
            link["chunk"] = str(chunk)
        if cell is not None:
            link.update(row=str(cell[0]), col=cell[1])
        bar[4].markdown(f"[Open in new tab ↗](?{urlencode(link)})")
        # Keep the URL telling the truth (e.g. a link without a page opens at the passage's page).
        if st.query_params.get("doc") != link["doc"] or st.query_params.get("page") != link["page"]:
            st.query_params.update(link)

        view, side = st.columns([2, 1])
        # A border shows where the (usually white) page ends on the white app background.
        view.container(border=True).image(
            rendered.png,
            width="stretch",
            output_format="PNG",
            alt=f"{rendered.title}, page {rendered.page}"
            + (" with the cited passage highlighted" if rendered.highlighted else ""),
        )
        view.caption(
            f"{escape_markdown(rendered.title)} · page {rendered.page} of {rendered.page_count} · "
            f"rendered in {rendered.render_ms:.0f} ms"
        )
        with side:
            passage, cited = rendered.passage, rendered.cell
            if cell is not None and cited is None:
                st.warning(
                    "This PDF has no such table cell: the link may be from an older upload. "
                    "Showing the page without a highlight."
                )
            if cited is not None:
                st.subheader("Cited figure")
                st.markdown(
                    f"**{escape_markdown(cited.label or '(no label)')}** · {escape_markdown(cited.column)}: "
                    f"**{escape_markdown(cited.value or '(empty)')}**"
                )
                if rendered.highlighted:
                    st.caption(f"The line and the figure are highlighted in yellow on page {cited.page}.")
                elif cited.page != rendered.page:
                    st.caption(f"The figure is on page {cited.page}; this is page {rendered.page}.")
                    st.button(
                        f"Back to the figure (page {cited.page})", key="documents_back_cell", on_click=_go,
                        args=(cited.page,),
                    )  # fmt: skip
            if chunk is not None and passage is None:
                st.warning(
                    f"This PDF has no passage #{chunk}: the link may be from an older upload. "
                    "Showing the page without a highlight."
                )
            if passage is not None:
                st.subheader("Cited passage")
                if rendered.highlighted:
                    st.caption(f"Highlighted in yellow on page {passage.page}.")
                else:
                    st.caption(f"The passage is on page {passage.page}; this is page {rendered.page}.")
                    st.button(
                        f"Back to the passage (page {passage.page})",
                        key="documents_back",
                        on_click=_go,
                        args=(passage.page,),
                    )
                with st.container(border=True, height=420 if len(passage.text) > 900 else "content"):
                    st.markdown(_markdown_text(passage.text))
            elif cited is None:
                st.caption("Open a citation from the Chat page to see its passage highlighted here.")
            if rendered.room != room:
                st.info(
                    f"This PDF is in the data room {escape_markdown(repr(rendered.room))}, not {escape_markdown(repr(room))}."
                )

st.subheader("Files in this room")
if not docs:
    st.info("This room is empty: add PDF, CSV or XLSX files from the sidebar.")
    st.stop()
table = pd.DataFrame(
    [
        {
            "Title": neutralise_bidi(d.title),
            "Kind": d.kind or "—",
            "Company": d.company or "",
            "Form": d.form or "",
            "Period": d.period or "",
            "Period end": d.period_end,
            "Status": d.status,
            "Pages / rows": d.page_count if d.kind == "pdf" else d.n_rows,
            "Chunks": d.n_chunks,
            "Embedded": d.embedded,
            "Added": d.created_at,
            "Error": d.error or "",
        }
        for d in docs
    ]
)
st.dataframe(table, hide_index=True, width="stretch")
if wb.my_role(room) in ("owner", "editor") and pdfs:
    with st.expander("Correct a filing's company, form or period"):
        fixed = pdfs[st.selectbox("PDF", list(pdfs), format_func=lambda i: pdfs[i].title, key="filing_doc")]
        forms = ["", *FORMS]
        with st.form(f"filing_edit_{fixed.id}"):
            company = st.text_input("Company", value=fixed.company or "", key=f"filing_company_{fixed.id}")
            form = st.selectbox("Form", forms, index=forms.index(fixed.form) if fixed.form in forms else 0)
            period = st.text_input(
                "Period (FY2022, Q3 FY2023)", value=fixed.period or "", key=f"filing_period_{fixed.id}"
            )
            ended = st.text_input(
                "Period end (YYYY-MM-DD)",
                value=fixed.period_end.isoformat() if fixed.period_end else "",
                key=f"filing_period_end_{fixed.id}",
            )
            if st.form_submit_button("Save"):
                try:
                    wb.edit_document(room, fixed.id, company=company, form=form, period=period, period_end=ended)
                except WorkbenchError as exc:
                    st.error(str(exc))
                else:
                    st.toast(f"Saved what {escape_markdown(fixed.title)} is.")
                    st.rerun()
sheets = [d for d in docs if d.kind == "sheet" and d.status in ("ready", "incomplete")]
for d in sheets:
    st.page_link(
        PAGES["sheet"][0], label=f"Open {escape_markdown(d.title)} on the Sheet page", query_params={"doc": str(d.id)}
    )

if wb.my_role(room) == "owner":
    with st.expander("Delete a document"):
        doomed = st.selectbox(
            "Document", docs, format_func=lambda d: neutralise_bidi(f"{d.title} ({d.status})"), key="delete_doc"
        )
        sure = st.checkbox("Delete it, with its pages, rows and everything cited from it", key="delete_sure")
        if st.button("Delete", key="delete_go", disabled=not sure, type="primary"):
            try:
                title = wb.delete_document(room, doomed.id)
            except WorkbenchError as exc:
                st.error(escape_markdown(str(exc)))
            else:
                st.session_state.pop("delete_sure", None)
                if st.query_params.get("doc") == str(doomed.id):
                    st.query_params.clear()  # the viewer was showing it: show the room's first PDF instead
                st.session_state.pop("documents_pdf", None)
                st.toast(f"Deleted {escape_markdown(title)}.")
                st.rerun()
