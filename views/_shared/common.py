"""What every page shares: the page table, the workbench resource, citation links, the room picker and uploads."""

from __future__ import annotations

import gc
import logging

import streamlit as st

from core.models import Citation
from core.workbench import Workbench, neutralise_bidi
from views._shared.auth import session_workbench, sign_out_button
from views._shared.layout import PAGE_CSS
from views._shared.state import citation_params, resolve_room, set_room, show_notes
from views._shared.uploads import embed_demo_when_needed, queue_uploads, room_status

log = logging.getLogger(__name__)

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
NEW_ROOM_POPOVER = "sidebar_new_room_popover"


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


@st.cache_resource(show_spinner="Starting the workbench (database, demo data room)…")
def get_workbench() -> Workbench:
    """The process-wide workbench: database pool, embedder, demo room loaded on first start."""
    wb = Workbench()
    if wb.settings.load_demo:
        wb.ensure_demo(embed=False)
        embed_demo_when_needed(wb)  # a worker makes the vectors; keyword search works meanwhile
    # Streamlit, pandas, PyMuPDF and the rest are ~185,000 objects alive for good: frozen, the garbage collector's
    # full collections (one every page run or two) stop walking them (core/providers/embeddings.py does the same
    # for the model).
    gc.freeze()
    return wb


def page_room(title: str) -> tuple[Workbench, str]:
    """Title the page and return the session user's workbench and the sidebar's room; stop the page when
    there is none (or show the sign-in form when nobody is signed in)."""
    wb = session_workbench(get_workbench())
    st.html(PAGE_CSS)
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
            st.selectbox("Data room", names, key="sidebar_room", on_change=_picked_room, format_func=neutralise_bidi)
        # Stateful (a key and on_change): Create's callback closes it, out of the way of the controls under it.
        with st.popover("New data room", key=NEW_ROOM_POPOVER, on_change="rerun"):
            st.text_input("Name", key="sidebar_new_room")
            # A callback: it runs before the room selectbox exists, the only time its value may be set.
            st.button("Create", key="sidebar_create_room", on_click=_create_room, args=(wb,))
        if room:
            if wb.can_edit(room):  # viewers read and ask: no upload box (the database refuses their files too)
                queue_uploads(wb, room)
            room_status(wb, room)
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
        st.session_state[NEW_ROOM_POPOVER] = False
