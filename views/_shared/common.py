"""What every page shares: the page table, the workbench resource, citation links, the room picker and uploads."""

from __future__ import annotations

import logging
import threading

import streamlit as st

from core.errors import WorkbenchError
from core.models import Citation
from core.workbench import SUPPORTED_SUFFIXES, Workbench
from views._shared.auth import session_workbench, sign_out_button
from views._shared.state import citation_params, resolve_room, set_room, show_notes

log = logging.getLogger(__name__)
_embed_lock = threading.Lock()

# url path -> (page file, title); the first is the default page. Every page opens by URL (/sheet?...).
PAGES: dict[str, tuple[str, str]] = {
    "chat": ("views/chat.py", "Chat"),
    "sheet": ("views/sheet.py", "Sheet"),
    "documents": ("views/documents.py", "Documents"),
    "search": ("views/search.py", "Search"),
    "analytics": ("views/analytics.py", "Analytics"),
    "members": ("views/members.py", "Members"),
}
# The default page is served at "/" (Streamlit answers "Page not found" at its own path).
DEFAULT_PAGE = "chat"


def citation_link(citation: Citation) -> tuple[str, dict[str, str]]:
    """The page file and query parameters that show a citation on its own page (Sheet or Documents).

    Cells open the sheet page at `?doc=<document id>&sheet=<sheet name>&cell=<A1 ref without the sheet>`
    (plus `row=<sheet_rows id>&col=<column name>` so the grid can find the row by id); pages open the
    documents page at `?doc=<document id>&page=<1-based page>&chunk=<chunk index>`; a cell of a table read from a
    PDF opens its page with the cell's line highlighted (`?doc=…&page=…&row=<sheet_rows id>&col=<column name>`).
    The room stays the session's (`room=`): a citation never changes the room.
    """
    params = citation_params(citation)
    room = st.session_state.get("room")
    if room:
        params = {"room": room, **params}
    page = "sheet" if "sheet" in params else "documents"
    return PAGES[page][0], params


def open_citation(citation: Citation) -> None:
    """Go to the page that shows `citation` (call inside an `if st.button(...)` branch)."""
    page, params = citation_link(citation)
    st.session_state["citation_nonce"] = st.session_state.get("citation_nonce", 0) + 1
    st.switch_page(page, query_params=params)


def _embed_in_background(wb: Workbench, room: str) -> None:
    """Embed a room's pending chunks off the request thread; keyword search works meanwhile."""

    def run() -> None:
        with _embed_lock:
            try:
                wb.embed_pending(room)
            except WorkbenchError as exc:
                log.warning("embedding room %s: %s", room, exc)

    threading.Thread(target=run, name=f"embed-{room}", daemon=True).start()


@st.cache_resource(show_spinner="Starting the workbench (database, demo data room)…")
def get_workbench() -> Workbench:
    """The process-wide workbench: database pool, embedder, demo room loaded on first start."""
    wb = Workbench()
    if wb.settings.load_demo:
        wb.ensure_demo(embed=False)
        _embed_in_background(wb, wb.settings.demo_room)
    return wb


def page_room(title: str) -> tuple[Workbench, str]:
    """Title the page and return the session user's workbench and the sidebar's room; stop the page when
    there is none (or show the sign-in form when nobody is signed in)."""
    wb = session_workbench(get_workbench())
    st.title(title)
    show_notes()
    room = st.session_state.get("room")
    if not room:
        st.info("Create a data room and add files from the sidebar.")
        st.stop()
    return wb, room


def current_room(wb: Workbench) -> str | None:
    """The session's room (session_state['room'], following the URL's `?room=`; see views/_shared/state.py)."""
    return resolve_room(wb)


def _picked_room() -> None:
    set_room(st.session_state["sidebar_room"])


def sidebar(wb: Workbench) -> str | None:
    """Room picker, new-room form, uploads with progress, and the room's documents."""
    with st.sidebar:
        room = current_room(wb)
        names = [r.name for r in wb.rooms()]
        if names and room:
            # The picker shows the session's room (the URL's), whatever the widget kept from an earlier page.
            st.session_state["sidebar_room"] = room
            st.selectbox("Data room", names, key="sidebar_room", on_change=_picked_room)
        with st.popover("New data room"):
            st.text_input("Name", key="sidebar_new_room")
            # A callback: it runs before the room selectbox exists, the only time its value may be set.
            st.button("Create", key="sidebar_create_room", on_click=_create_room, args=(wb,))
        if room:
            _uploads(wb, room)
            _documents(wb, room)
        sign_out_button(wb)
        mode = wb.settings.llm_provider
        st.caption(
            f"Model: {wb.settings.chat_model}"
            if mode == "openai"
            else "Offline mode — set OPENAI_API_KEY for model-written answers"
        )
    return room


def _create_room(wb: Workbench) -> None:
    name = st.session_state.get("sidebar_new_room", "").strip()
    if name:
        wb.room(name, create=True)
        set_room(name)
        st.session_state["sidebar_new_room"] = ""


def _uploads(wb: Workbench, room: str) -> None:
    files = st.file_uploader(
        "Add files (PDF, CSV, XLSX)",
        type=[suffix.lstrip(".") for suffix in SUPPORTED_SUFFIXES],
        accept_multiple_files=True,
        key=f"sidebar_upload_{st.session_state.get('upload_round', 0)}",
    )
    if not files or not st.button("Ingest", key="sidebar_ingest", type="primary"):
        return
    for upload in files:
        bar = st.progress(0.0, text=f"{upload.name}: reading")

        def progress(stage: str, done: int, total: int, bar=bar, name=upload.name) -> None:
            bar.progress(min(done / total, 1.0) if total else 0.0, text=f"{name}: {stage}")

        result = wb.ingest_upload(upload.getvalue(), upload.name, room, embed=False, progress=progress)
        bar.progress(1.0, text=f"{upload.name}: {result.status}")
        if result.status == "failed":
            st.error(result.error or f"{upload.name} failed.")
        elif result.duplicate:
            st.info(f"{upload.name} is already in this room.")
        else:
            st.success(f"{upload.name}: ready ({result.size}, {result.chunks} chunks); embedding in the background.")
    _embed_in_background(wb, room)
    # A new uploader key clears the picked files so a rerun does not ingest them again.
    st.session_state["upload_round"] = st.session_state.get("upload_round", 0) + 1


def _documents(wb: Workbench, room: str) -> None:
    docs = wb.documents(room)
    st.markdown(f"**Documents** ({len(docs)})")
    for doc in docs:
        if doc.status == "failed":
            st.caption(f"✗ {doc.title} — {doc.error}")
        else:
            size = f"{doc.page_count} p." if doc.kind == "pdf" else f"{doc.n_rows} row{'' if doc.n_rows == 1 else 's'}"
            state = "" if doc.embedded else " · embedding…"
            st.caption(f"✓ {doc.title} — {size}{state}")
