"""Members page: who is in the room and with which role; owners add, change and remove members."""

import streamlit as st

from core.errors import WorkbenchError
from core.workbench import escape_markdown
from views._shared.common import page_room

wb, room = page_room("Members")
role = wb.my_role(room)
if wb.settings.auth_mode == "none":
    st.info(
        "Single-user mode: you own every room. Set WORKBENCH_AUTH=accounts (or Supabase's variables) to let a "
        "team sign in; each room then has owners, editors and viewers."
    )
st.caption(
    {
        "owner": "You own this room: you manage its members.",
        "editor": "You are an editor: you add files and edit cells; owners manage members.",
        "viewer": "You are a viewer: you read and ask; owners manage members.",
    }.get(role or "", "")
)

ROLES = ["owner", "editor", "viewer"]
people = wb.members(room)
owners = [p for p in people if p.role == "owner"]
for person in people:
    cols = st.columns([4, 2, 1])
    cols[0].markdown(
        f"**{escape_markdown(person.display_name)}**" + (f" · {escape_markdown(person.email)}" if person.email else "")
    )
    # An owner manages everyone, except that the last owner stays an owner (a room always has one).
    if role == "owner" and not (person.role == "owner" and len(owners) == 1):
        new_role = cols[1].selectbox(
            "Role", ROLES, index=ROLES.index(person.role), key=f"role_{person.user_id}", label_visibility="collapsed"
        )
        if new_role != person.role:
            wb.set_member(room, person.user_id, new_role)
            st.rerun()
        if cols[2].button("Remove", key=f"remove_{person.user_id}"):
            wb.remove_member(room, person.user_id)
            st.rerun()
    else:
        cols[1].text(person.role)

if role == "owner" and wb.settings.auth_mode != "none":
    with st.form("add_member", clear_on_submit=True):
        st.markdown("**Add a member**")
        email = st.text_input("E-mail of an existing account", key="add_member_email")
        new_role = st.selectbox("Role", ["viewer", "editor", "owner"], key="add_member_role")
        if st.form_submit_button("Add"):
            account = wb.find_user(email, room)
            if account is None:
                st.error(escape_markdown(f"No account for {email!r}: create it first (workbench user add {email})."))
            else:
                try:
                    wb.set_member(room, account.id, new_role)
                    st.success(escape_markdown(f"{account.display_name} is now {new_role} of {room}."))
                except WorkbenchError as exc:
                    st.error(escape_markdown(str(exc)))
