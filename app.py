"""Analyst Workbench: Streamlit entry point — navigation and the sidebar shared by every page."""

import streamlit as st

from core.errors import WorkbenchError
from views.common import get_workbench, sidebar

st.set_page_config(page_title="Analyst Workbench", page_icon="📊", layout="wide")

navigation = st.navigation(
    [
        st.Page("views/search.py", title="Search", url_path="search", default=True),
        st.Page("views/documents.py", title="Documents", url_path="documents"),
    ]
)
try:
    sidebar(get_workbench())
except WorkbenchError as exc:
    st.error(str(exc))
navigation.run()
