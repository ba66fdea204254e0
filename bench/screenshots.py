"""Screenshots of the Chat (an answer with its chips, the cited cell beside it), Sheet and Documents views at
laptop and desktop sizes, in headless Chromium: `python -m bench.screenshots OUT_DIR [--url URL]`.

Without `--url` the app is started as `make run` starts it (`workbench demo --no-embed`, `workbench serve`) in a
fresh WORKBENCH_HOME and stopped afterwards. Writes OUT_DIR/{chat,sheet,documents}-{1366x768,1920x1080}.png.
The question is an invented one about the demo sheet (a cell answer with several chips).
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

from bench.app_start import CHROMIUM_ARGS, serving

SIZES = ((1366, 768), (1920, 1080))
QUESTION = "What was the total amount raised in Canada in 2021?"
CHIP = "funding_rounds!"


def idle(tab, timeout: float = 120.0) -> None:  # type: ignore[no-untyped-def]
    """The script run finished: a title and no 'running' widget."""
    tab.wait_for_selector("h1", timeout=timeout * 1000)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and tab.locator('[data-testid="stStatusWidget"]').count():
        time.sleep(0.1)
    time.sleep(0.8)  # the grid's iframe and images settle


def take(browser, url: str, out: Path, width: int, height: int) -> list[Path]:  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": width, "height": height})
    tab = context.new_page()
    tab.set_default_timeout(120_000)
    size = f"{width}x{height}"
    written = []
    try:
        tab.goto(f"{url}/?room=Demo")
        idle(tab)
        box = tab.locator('[data-testid="stChatInput"] textarea')
        box.fill(QUESTION)
        box.press("Enter")
        tab.locator('[data-testid="stChatMessage"] button', has_text=CHIP).first.wait_for()
        idle(tab)
        tab.locator('[data-testid="stChatMessage"] button', has_text=CHIP).first.click()
        tab.frame_locator('iframe[title="st_aggrid.AgGrid.agGrid"]').locator(".ag-cell.sheet-cited").first.wait_for()
        idle(tab)
        grid = tab.frame_locator('iframe[title="st_aggrid.AgGrid.agGrid"]')
        for name, title in (("chat", None), ("sheet", "Sheet"), ("documents", "Documents")):
            if title:  # through the sidebar: the session (and its conversation) is kept
                tab.locator('[data-testid="stSidebarNav"] a', has_text=title).first.click()
                tab.get_by_role("heading", name=title).first.wait_for()
                idle(tab)
            if name == "sheet":
                grid.locator(".ag-row").first.wait_for()
            if name == "documents":
                tab.locator('[data-testid="stImage"] img').first.wait_for()
            while tab.locator('[data-testid="stSkeleton"]').count():
                time.sleep(0.2)
            tab.mouse.move(2, 2)  # no tooltip left open by the last click
            time.sleep(0.5)
            path = out / f"{name}-{size}.png"
            tab.screenshot(path=str(path))
            written.append(path)
    finally:
        context.close()
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder the PNGs are written to")
    parser.add_argument("--url", help="a running app (default: start one in a fresh home)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    from playwright.sync_api import sync_playwright

    home = Path(tempfile.mkdtemp(prefix="bench-screenshots-"))
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            if args.url:
                paths = [p for w, h in SIZES for p in take(browser, args.url.rstrip("/"), args.out, w, h)]
            else:
                with serving(home, demo=True) as url:
                    paths = [p for w, h in SIZES for p in take(browser, url, args.out, w, h)]
            browser.close()
    finally:
        shutil.rmtree(home, ignore_errors=True)
    for path in paths:
        print(path)


if __name__ == "__main__":
    main()
