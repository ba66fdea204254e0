"""The workspace's state lives in the URL: reload, back/forward, a new tab or a shared link show the same view.

Query parameters (the page is the path: `/`, `/sheet`, `/documents`, ...):

    room          the data room (every page)
    conversation  the conversation on screen (Chat and Sheet pages)
    doc, sheet, cell, row, col     a sheet and its cited cell (`row` is the sheet_rows id, `col` the column name)
    doc, page, chunk | row, col    a PDF page with a cited passage (`chunk`) or a cell of a table read from it
    ans           the answer (qa_queries id) whose citation opened the passage: its lines that it quotes are lit
    all           the answer whose cited rows of the sheet are shown ("Show all N cited rows")

The URL wins over the session when it names something: a link (or back/forward) into another room the user
can see switches to that room and says so; a room the user cannot see gets an error and the session's room.
"""

from __future__ import annotations

import time

import streamlit as st

from core.models import Citation
from core.workbench import Workbench, escape_markdown

VIEW_PARAMS = ("doc", "sheet", "cell", "row", "col", "page", "chunk", "all", "ans")
_NOTES = "workspace_notes"
_RUN_STARTED = "run_started_at"


def mark_run_start() -> None:
    """Note when this script run began (app.py's first line of work): a question's wait is timed from it."""
    st.session_state[_RUN_STARTED] = time.perf_counter()


def run_started() -> float:
    """When this script run began (now, when app.py did not note it: a page run alone)."""
    started = st.session_state.get(_RUN_STARTED)
    return float(started) if started is not None else time.perf_counter()


def note(text: str, kind: str = "info") -> None:
    """A message for the top of the page drawn next (kept across st.rerun)."""
    st.session_state.setdefault(_NOTES, []).append((kind, text))


def show_notes() -> None:
    """Draw (once) the messages left by note(), as plain text (they carry room names and link values)."""
    for kind, text in st.session_state.pop(_NOTES, []):
        (st.error if kind == "error" else st.info)(escape_markdown(text))


def resolve_room(wb: Workbench) -> str | None:
    """The session's room, following `?room=` when the user can see it; written back to the URL."""
    names = [room.name for room in wb.rooms()]
    if not names:
        return None
    asked = (st.query_params.get("room") or "").strip()
    current = st.session_state.get("room")
    if asked and asked != current:
        if asked in names:
            if current is not None:  # same browser session: a link followed, or back/forward
                note(f"Switched to the data room {asked!r}: the link you followed points there.")
            st.session_state["room"] = asked
        else:
            note(
                f"There is no data room {asked!r} that you can see: ask one of its owners to add you, "
                "or pick a room in the sidebar.",
                "error",
            )
            # The rest of the link belonged to that room.
            for name in (*VIEW_PARAMS, "conversation"):
                st.query_params.pop(name, None)
    if st.session_state.get("room") not in names:
        demo = wb.settings.demo_room
        st.session_state["room"] = demo if demo in names else names[0]
    room: str = st.session_state["room"]
    if st.query_params.get("room") != room:
        st.query_params["room"] = room
    return room


def set_room(room: str) -> None:
    """Another room picked (sidebar, new room): the URL names it alone (the old view belonged to the old room)."""
    st.session_state["room"] = room
    st.session_state.pop("chat_conversation", None)
    st.query_params.from_dict({"room": room})


def switch_room(room: str, why: str) -> None:
    """Follow a link into another room the user can see: switch, say why, draw the page again."""
    params = {k: v for k, v in st.query_params.to_dict().items() if k != "room"}
    st.session_state["room"] = room
    st.query_params.from_dict({"room": room, **params})
    note(f"Switched to the data room {room!r}: {why}.")
    st.rerun()


def citation_params(citation: Citation) -> dict[str, str]:
    """The view parameters that show a citation (cell of a sheet, PDF page, cell of a table read from a PDF)."""
    if citation.kind == "cell" and citation.page is not None:
        return {
            "doc": str(citation.document_id),
            "page": str(citation.page),
            "row": str(citation.row_id or ""),
            "col": citation.column or "",
        }
    if citation.kind == "cell":
        return {
            "doc": str(citation.document_id),
            "sheet": citation.sheet or "",
            "cell": (citation.ref or "").rsplit("!", 1)[-1],
            "row": str(citation.row_id or ""),
            "col": citation.column or "",
        }
    params = {"doc": str(citation.document_id), "page": str(citation.page or 1)}
    if citation.chunk_index is not None:
        params["chunk"] = str(citation.chunk_index)
    return params


def show_view(params: dict[str, str]) -> None:
    """Put a view (a cited cell or page, a sheet) in the URL, keeping the room and conversation; the page's
    pane draws it. Call from a widget callback: the run that follows draws the new view."""
    kept = {k: v for k, v in st.query_params.to_dict().items() if k not in VIEW_PARAMS}
    st.query_params.from_dict({**kept, **params})
    st.session_state["citation_nonce"] = st.session_state.get("citation_nonce", 0) + 1


def view_param(name: str) -> str:
    """A view parameter of the URL, stripped ('' when absent)."""
    return (st.query_params.get(name) or "").strip()
