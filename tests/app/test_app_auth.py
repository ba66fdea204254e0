"""AppTest of the team mode (WORKBENCH_AUTH=accounts): sign-in form, a signed-in user's rooms, Members page."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from core.db import Database
from core.rooms.access import members
from core.rooms.auth import create_account
from core.workbench import Workbench
from tests.conftest import team_urls


def test_sign_in_then_only_your_rooms_and_the_members_page(app: AppTest, settings, monkeypatch) -> None:
    monkeypatch.setenv("WORKBENCH_AUTH", "accounts")
    for name, url in team_urls(settings.database_url).items():  # the team modes connect as their own logins
        monkeypatch.setenv(name, url)
    db = Database(settings.database_url, max_size=2)
    ann = create_account(db, "ann@example.com", "Ann", "a long password")
    bo = create_account(db, "bo@example.com", "Bo", "another password")
    Workbench(settings, db=db.as_user(ann.id)).ingest_upload(
        b"Company,Amount\nAcme,5\n", "a.csv", "Ann's deal", embed=False
    )
    app.run()
    assert not app.exception
    assert app.title[0].value == "Sign in"
    app.text_input(key="sign_in_email").input("ann@example.com")
    app.text_input(key="sign_in_password").input("wrong password")
    app.button[0].click().run()
    assert [e.value for e in app.error] == ["Wrong e-mail or password."]
    app.text_input(key="sign_in_password").input("a long password")
    app.button[0].click().run()
    assert not app.exception and app.title[0].value == "Chat"
    assert app.session_state["room"] == "Ann's deal"  # her room, not the local user's Demo room
    app.switch_page("views/members.py").run()
    assert not app.exception and app.title[0].value == "Members"
    assert any("You own this room" in c.value for c in app.caption)
    app.text_input(key="add_member_email").input("bo@example.com")
    app.selectbox(key="add_member_role").select("editor")
    app.button(key="FormSubmitter:add_member-Add").click().run()
    assert any("Bo is now editor" in s.value for s in app.success)
    ann_wb = Workbench(settings, db=db.as_user(ann.id))
    room_id = ann_wb.room("Ann's deal").id
    assert {(m.display_name, m.role) for m in members(ann_wb.db, room_id)} == {("Ann", "owner"), ("Bo", "editor")}
    bo_wb = Workbench(settings, db=db.as_user(bo.id))
    assert [r.name for r in bo_wb.rooms()] == ["Ann's deal"]
    db.close()


def test_viewers_get_no_upload_box(app: AppTest, settings, monkeypatch) -> None:
    """A viewer reads and asks: the sidebar offers no upload (the database would refuse their files anyway)."""
    from tests.app.conftest import APP

    monkeypatch.setenv("WORKBENCH_AUTH", "accounts")
    for name, url in team_urls(settings.database_url).items():  # the team modes connect as their own logins
        monkeypatch.setenv(name, url)
    db = Database(settings.database_url, max_size=2)
    ann = create_account(db, "ann@example.com", "Ann", "a long password")
    vic = create_account(db, "vic@example.com", "Vic", "another password")
    ann_wb = Workbench(settings, db=db.as_user(ann.id))
    ann_wb.ingest_upload(b"Company,Amount\nAcme,5\n", "a.csv", "Ann's deal", embed=False)
    ann_wb.set_member("Ann's deal", vic.id, "viewer")
    try:
        for user, uploads in ((vic, 0), (ann, 1)):
            test = app if user is vic else AppTest.from_file(str(APP), default_timeout=120)
            test.session_state["user"] = {"id": user.id, "display_name": user.display_name, "email": user.email}
            test.run()
            assert not test.exception and test.session_state["room"] == "Ann's deal"
            assert len(test.sidebar.file_uploader) == uploads, user.display_name
    finally:
        db.close()
