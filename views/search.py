"""Search page: hybrid search in the room, each hit citing its page or cell."""

import streamlit as st

from core.errors import WorkbenchError
from core.qa.exports import escape_markdown
from views._shared.common import page_room

wb, room = page_room("Search")

query = st.text_input("Search this data room", key="search_query", placeholder="e.g. Series B in Canada")
k = st.slider("Hits", 5, 50, 10, key="search_k")
if query:
    try:
        hits = wb.search(query, room, k=k)
    except WorkbenchError as exc:
        st.error(str(exc))
        st.stop()
    if not hits:
        st.info("No hits. Try other words.")
    for n, hit in enumerate(hits, start=1):
        with st.container(border=True):
            if hit.kind == "cell":
                st.markdown(f"**[{n}] {hit.ref}** · {hit.title} · `{hit.column}` = {hit.value}")
            else:
                st.markdown(f"**[{n}] {hit.title} · p. {hit.page}**")
            # Escaped so "$4.2M ... $5M" in a filing is not read as LaTeX.
            st.caption(escape_markdown(hit.preview, math_only=True))
