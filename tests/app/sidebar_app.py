"""The app's sidebar alone, for AppTest.

AppTest (Streamlit 1.67) drops sidebar elements from its element tree on every run after the first
when the script calls st.navigation, so the upload flow, which needs several runs, is exercised
through this script; the real app is covered by the browser tests.
"""

import streamlit as st

from views._shared.common import get_workbench, sidebar

room = sidebar(get_workbench())
st.write(f"room: {room}")
