"""Documents page: what the room holds and the state of each file."""

import pandas as pd
import streamlit as st

from views.common import page_room

wb, room = page_room("Documents")

docs = wb.documents(room)
if not docs:
    st.info("This room is empty: add PDF, CSV or XLSX files from the sidebar.")
    st.stop()
table = pd.DataFrame(
    [
        {
            "Title": d.title,
            "Kind": d.kind or "—",
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
