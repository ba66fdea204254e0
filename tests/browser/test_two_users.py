"""Two users of a team install (WORKBENCH_AUTH=accounts) in two browser sessions: each signs in and sees
only their own rooms; a deep link to the other's PDF shows an error, never the page."""

from __future__ import annotations

import os

import pytest

from core.db import Database
from core.rooms.auth import create_account
from core.workbench import Workbench
from tests.browser.conftest import SCREENSHOTS, running_app, wait_idle
from tests.conftest import team_urls
from tests.factories import MEMO_PAGES, make_pdf

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def team_app(pg_server, template_db: str, tmp_path_factory: pytest.TempPathFactory):
    """The app in accounts mode on its own database, with Ann's and Bo's rooms."""
    name = f"browser_team_{os.getpid()}"
    with running_app(
        pg_server,
        template_db,
        tmp_path_factory.mktemp("team_home"),
        name,
        WORKBENCH_AUTH="accounts",
        WORKBENCH_LOAD_DEMO="false",
        **team_urls(pg_server.get_uri(database=name)),
    ) as url:
        db = Database(pg_server.get_uri(database=name), max_size=2)
        ann = create_account(db, "ann@example.com", "Ann", "ann's long password")
        bo = create_account(db, "bo@example.com", "Bo", "bo's long password")
        settings = Workbench(db=db).settings
        ann_wb, bo_wb = Workbench(settings, db=db.as_user(ann.id)), Workbench(settings, db=db.as_user(bo.id))
        memo = ann_wb.ingest_upload(make_pdf(MEMO_PAGES), "ann_memo.pdf", "Ann's deal", embed=False)
        bo_wb.ingest_upload(b"Company,Amount\nBocorp,7\n", "bo.csv", "Bo's deal", embed=False)
        yield url, memo.document_id
        db.close()


def sign_in(chromium, url: str, email: str, password: str):
    context = chromium.new_context(viewport={"width": 1400, "height": 900})
    tab = context.new_page()
    tab.set_default_timeout(60_000)
    fill_sign_in(tab, url, email, password)
    tab.get_by_role("heading", name="Chat").wait_for()
    wait_idle(tab)
    return context, tab


def fill_sign_in(tab, url: str, email: str, password: str) -> None:
    """Open `url`; the sign-in form shows (a new browser session is signed out) and is filled in."""
    tab.goto(url)
    tab.get_by_role("heading", name="Sign in").wait_for()
    tab.get_by_label("E-mail", exact=True).fill(email)
    tab.get_by_label("Password", exact=True).fill(password)
    tab.get_by_role("button", name="Sign in").click()


def room_options(tab) -> list[str]:
    """The rooms offered by the sidebar's room picker."""
    box = tab.locator('[data-testid="stSidebar"] [data-testid="stSelectbox"]').first
    box.wait_for()
    box.click()
    options = [o.strip() for o in tab.get_by_role("option").all_inner_texts()]
    tab.keyboard.press("Escape")
    return options


def test_each_user_sees_only_their_rooms(chromium, team_app) -> None:
    url, ann_pdf = team_app
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    wrong_context = chromium.new_context()
    wrong = wrong_context.new_page()
    wrong.goto(url)
    wrong.get_by_label("E-mail", exact=True).fill("ann@example.com")
    wrong.get_by_label("Password", exact=True).fill("not her password")
    wrong.get_by_role("button", name="Sign in").click()
    wrong.get_by_text("Wrong e-mail or password.").wait_for()
    wrong_context.close()

    ann_context, ann = sign_in(chromium, url, "ann@example.com", "ann's long password")
    bo_context, bo = sign_in(chromium, url, "bo@example.com", "bo's long password")
    try:
        assert room_options(ann) == ["Ann's deal"] and room_options(bo) == ["Bo's deal"]
        assert ann.get_by_text("Signed in as Ann").count() == 1 and bo.get_by_text("Signed in as Bo").count() == 1
        ann.screenshot(path=str(SCREENSHOTS / "two_users_ann.png"))
        bo.screenshot(path=str(SCREENSHOTS / "two_users_bo.png"))
        # Ann's PDF by its deep link: Ann sees the page, Bo an error and no image.
        # (Loading a URL starts a new session, which signs in again and lands on the linked page.)
        fill_sign_in(ann, f"{url}/documents?doc={ann_pdf}&page=1", "ann@example.com", "ann's long password")
        ann.locator('img[alt^="ann_memo.pdf, page 1"]').wait_for()
        fill_sign_in(bo, f"{url}/documents?doc={ann_pdf}&page=1", "bo@example.com", "bo's long password")
        bo.get_by_role("heading", name="Documents").wait_for()
        wait_idle(bo)
        bo.locator('[data-testid="stAlert"]').first.wait_for()
        assert bo.locator('img[alt^="ann_memo.pdf"]').count() == 0
        bo.screenshot(path=str(SCREENSHOTS / "two_users_bo_deep_link.png"))
        # Sign out returns to the form.
        bo.get_by_role("button", name="Sign out").click()
        bo.get_by_role("heading", name="Sign in").wait_for()
    finally:
        ann_context.close()
        bo_context.close()
