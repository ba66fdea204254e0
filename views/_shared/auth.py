"""Sign-in for the team modes (WORKBENCH_AUTH=accounts or supabase) and the session's workbench view."""

from __future__ import annotations

import streamlit as st

from core.errors import AuthError
from core.workbench import LOCAL, User, Workbench, escape_markdown


def session_user(wb: Workbench) -> User | None:
    """The signed-in user of this browser session (the local user when sign-in is off)."""
    if wb.settings.auth_mode == "none":
        return LOCAL
    found = st.session_state.get("user")
    return User(**found) if found else None


def session_workbench(base: Workbench) -> Workbench:
    """The workbench acting for this session's user; shows the sign-in form and stops when nobody is."""
    user = session_user(base)
    if user is None:
        _sign_in_form(base)
        st.stop()
    return base if user.id == LOCAL.id else base.as_user(user.id)


def _sign_in_form(wb: Workbench) -> None:
    st.title("Sign in")
    mode = wb.settings.auth_mode
    st.caption(
        "Supabase account"
        if mode == "supabase"
        else "Workbench account (ask an owner to create one: `workbench user add EMAIL`)"
    )
    with st.form("sign_in"):
        email = st.text_input("E-mail", key="sign_in_email")
        password = st.text_input("Password", type="password", key="sign_in_password")
        submitted = st.form_submit_button("Sign in", type="primary")
    if submitted:
        try:
            user = wb.sign_in(email, password)
        except AuthError as exc:
            st.error(escape_markdown(str(exc)))
            return
        st.session_state["user"] = {"id": user.id, "display_name": user.display_name, "email": user.email}
        st.session_state.pop("room", None)
        st.rerun()


def sign_out_button(wb: Workbench) -> None:
    """'Signed in as …' and a sign-out button (team modes only)."""
    user = session_user(wb)
    if wb.settings.auth_mode == "none" or user is None:
        return
    st.caption(escape_markdown(f"Signed in as {user.display_name}" + (f" ({user.email})" if user.email else "")))
    if st.button("Sign out", key="sign_out"):
        for key in ("user", "room", "conversation_id"):
            st.session_state.pop(key, None)
        st.rerun()
