"""Analyst Workbench: Streamlit entry point — navigation and the sidebar shared by every page."""
# ruff: noqa: E402 (the imports wait for core.preload's)

import core.preload

core.preload.wait()  # `workbench serve` imports what follows in the background while the server starts

import psycopg
import streamlit as st

from core.config import get_settings
from core.errors import WorkbenchError
from core.workbench import Workbench, escape_markdown, refusal
from views._shared.auth import session_workbench
from views._shared.common import DEFAULT_PAGE, PAGES, get_workbench, sidebar
from views._shared.state import mark_run_start

st.set_page_config(page_title="Analyst Workbench", page_icon="📊", layout="wide")
# A question's wait runs from here (the run its Enter started) to its last word drawn: the sidebar, the page and
# its earlier turns, drawn before the question box, are part of what the user waited.
mark_run_start()

# Local mode has no sign-in: served beyond this computer (`--server.address 0.0.0.0`, or no address at all,
# which Streamlit takes as every interface), it would give every room to whoever reaches the port.
exposed = Workbench.exposure_refusal(get_settings(), st.get_option("server.address"))
if exposed:
    st.error(exposed)
    st.stop()

navigation = st.navigation(
    [st.Page(path, title=title, url_path=url, default=(url == DEFAULT_PAGE)) for url, (path, title) in PAGES.items()]
)
# The session's user (sign-in form and stop when WORKBENCH_AUTH asks for one and nobody is signed in).
wb = session_workbench(get_workbench())
try:
    sidebar(wb)
except WorkbenchError as exc:
    st.error(escape_markdown(str(exc)))
except psycopg.Error as exc:
    st.error(escape_markdown(refusal(exc)))
# The pages' error boundary: what a page did not handle itself is a message, never a traceback on screen
# (WorkbenchError carries its fix; a statement the database refused is one line).
try:
    navigation.run()
except WorkbenchError as exc:
    st.error(escape_markdown(str(exc)))
except psycopg.Error as exc:
    st.error(escape_markdown(refusal(exc)))
