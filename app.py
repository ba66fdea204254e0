"""Analyst Workbench: Streamlit entry point — navigation and the sidebar shared by every page."""

import streamlit as st

from core.errors import WorkbenchError
from views._shared.auth import session_workbench
from views._shared.common import DEFAULT_PAGE, PAGES, get_workbench, sidebar

st.set_page_config(page_title="Analyst Workbench", page_icon="📊", layout="wide")

navigation = st.navigation(
    [st.Page(path, title=title, url_path=url, default=(url == DEFAULT_PAGE)) for url, (path, title) in PAGES.items()]
)
# The session's user (sign-in form and stop when WORKBENCH_AUTH asks for one and nobody is signed in).
wb = session_workbench(get_workbench())
try:
    sidebar(wb)
except WorkbenchError as exc:
    st.error(str(exc))
navigation.run()
