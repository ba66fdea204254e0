"""The local-mode bind guard in app.py itself: `streamlit run app.py --server.address 0.0.0.0` shows no room."""

from __future__ import annotations

from streamlit import config
from streamlit.testing.v1 import AppTest


def test_local_mode_on_every_interface_shows_the_fix_and_nothing_else(app: AppTest) -> None:
    config.set_option("server.address", "0.0.0.0")
    app.run()
    assert not app.exception
    assert [e.value for e in app.error] and "WORKBENCH_AUTH=accounts" in app.error[0].value
    assert "on 0.0.0.0" in app.error[0].value
    assert not app.sidebar.selectbox and not app.chat_input and not app.title  # no room, no page drawn


def test_local_mode_on_loopback_draws_the_page(app: AppTest) -> None:
    app.run()
    assert not app.exception and not app.error
    assert app.title and app.title[0].value == "Chat"
