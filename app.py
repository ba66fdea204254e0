"""Analyst Workbench: Streamlit entry point — navigation and the sidebar shared by every page."""

import psycopg
import streamlit as st

from core.errors import WorkbenchError
from core.workbench import refusal
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
except psycopg.Error as exc:
    st.error(refusal(exc))
# The pages' error boundary: what a page did not handle itself is a message, never a traceback on screen
# (WorkbenchError carries its fix; a statement the database refused is one line).
try:
    navigation.run()
except WorkbenchError as exc:
    st.error(str(exc))
except psycopg.Error as exc:
    st.error(refusal(exc))
