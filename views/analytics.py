"""analytics page (being built)."""

import streamlit as st

from views.common import page_room

wb, room = page_room("Analytics")
