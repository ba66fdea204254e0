"""Analyst Workbench: Streamlit entry point — navigation and the sidebar shared by every page."""

import streamlit as st

from core.errors import WorkbenchError
from views.common import PAGES, get_workbench, sidebar

st.set_page_config(page_title="Analyst Workbench", page_icon="📊", layout="wide")

navigation = st.navigation([st.Page(path, title=title, url_path=url, default=(url == "chat"))
                            for url, (path, title) in PAGES.items()])
try:
    sidebar(get_workbench())
except WorkbenchError as exc:
    st.error(str(exc))
navigation.run()
