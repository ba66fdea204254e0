"""From a click on a cell chip to the cited cell highlighted in the grid beside the chat, in headless Chromium:
`python -m bench.chip_latency [--runs N] [--url URL]`.

Two times per click: until the cell is painted in the grid (what the user waits for; views/_shared/chip_jump.py
paints it in the page when the grid holds it), and until the URL names the cell (the server's rerun).

Each run opens a fresh tab (1366 x 768) on the Chat page, asks an invented question about the demo sheet (a sum
whose answer cites cells of several rows), then clicks its first chip (the first chip of the sheet in that tab:
issue 26 asks <= 0.8 s) and five more chips of other rows (<= 0.3 s median). Printed: each run's times and the
medians over the runs, with the load average. Without `--url` the app is started as `make run` starts it, in a
fresh home whose demo room is embedded first (the steady state: no background embedding on the two cores).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

from bench.app_start import CHROMIUM_ARGS, serving
from bench.screenshots import CHIP, QUESTION, idle

GRID = 'iframe[title="st_aggrid.AgGrid.agGrid"]'


# True once a row of the grid whose "Row" number is `number` shows a painted (cited) cell.
LIT = """(number) => {
  const pinned = [...document.querySelectorAll('.ag-pinned-left-cols-container .ag-row')]
    .find((row) => row.querySelector('[col-id="row_number"]')?.textContent.trim() === String(number));
  if (!pinned) { return false; }
  const id = pinned.getAttribute('row-id');
  return !!document.querySelector(`.ag-center-cols-container .ag-row[row-id="${id}"] .ag-cell.sheet-cited`);
}"""


def click_and_wait(tab, label: str) -> tuple[float, float]:  # type: ignore[no-untyped-def]
    """Click the chip `label` ("sheet!F132"); seconds until its cell is painted in the grid (what the user sees),
    and until the URL names it (the server's rerun: a reload or a shared link shows the same)."""
    chip = tab.locator('[data-testid="stChatMessage"] button:visible', has_text=label).last
    cell = label.rsplit("!", 1)[1]
    number = int("".join(ch for ch in cell if ch.isdigit()))
    grid = tab.query_selector(GRID).content_frame()
    started = time.perf_counter()
    chip.click()
    grid.wait_for_function(LIT, arg=number, timeout=60_000, polling=10)
    lit = time.perf_counter() - started
    tab.wait_for_url(lambda url: parse_qs(urlparse(url).query).get("cell") == [cell], timeout=60_000)
    row = parse_qs(urlparse(tab.url).query)["row"][0]
    tab.frame_locator(GRID).locator(f'.ag-row[row-id="{row}"] .ag-cell.sheet-cited').first.wait_for(timeout=60_000)
    return lit, time.perf_counter() - started


def one_run(browser, url: str) -> tuple[tuple[float, float], list[tuple[float, float]]]:  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    tab = context.new_page()
    tab.set_default_timeout(120_000)
    try:
        tab.goto(f"{url}/?room=Demo")
        idle(tab)
        box = tab.locator('[data-testid="stChatInput"] textarea')
        box.fill(QUESTION)
        box.press("Enter")
        tab.locator('[data-testid="stChatMessage"] button', has_text=CHIP).first.wait_for()
        idle(tab)
        labels = [b.inner_text().strip() for b in tab.locator('[data-testid="stChatMessage"] button:visible').all()]
        chips = [label for label in labels if label.startswith(CHIP)]
        rows: dict[str, str] = {}
        for label in chips:
            rows.setdefault(label[len(CHIP) + 1 :], label)  # one chip per row number
        by_row = list(rows.values())
        first = click_and_wait(tab, chips[0])
        idle(tab)
        later = []
        for label in (by_row[1:] + by_row[:1] + by_row[1:])[:5]:
            later.append(click_and_wait(tab, label))
            idle(tab)
        return first, later
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--url", help="a running app (default: start one in a fresh home)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    load = os.getloadavg()
    print(f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores", flush=True)
    home = Path(tempfile.mkdtemp(prefix="bench-chips-"))
    firsts: list[tuple[float, float]] = []
    laters: list[tuple[float, float]] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)

            def runs(url: str) -> None:
                for n in range(args.runs):
                    first, later = one_run(browser, url)
                    firsts.append(first)
                    laters.extend(later)
                    print(f"run {n + 1}: first chip lit {first[0]:.2f} s (URL {first[1]:.2f}); later lit "
                          f"{', '.join(f'{t[0]:.2f}' for t in later)} (URL {', '.join(f'{t[1]:.2f}' for t in later)}) "
                          f"(load {os.getloadavg()[0]:.2f})", flush=True)  # fmt: skip

            if args.url:
                runs(args.url.rstrip("/"))
            else:
                env = {**os.environ, "WORKBENCH_HOME": str(home), "HF_HUB_OFFLINE": "1"}
                env.pop("DATABASE_URL", None)
                subprocess.run([sys.executable, "-m", "core", "demo", "--quiet"], env=env, check=True)
                with serving(home, demo=False) as url:
                    runs(url)
            browser.close()
    finally:
        shutil.rmtree(home, ignore_errors=True)
    print(f"median first chip: cell lit {statistics.median(t[0] for t in firsts):.2f} s, URL "
          f"{statistics.median(t[1] for t in firsts):.2f} s over {len(firsts)} runs; later chips: cell lit "
          f"{statistics.median(t[0] for t in laters):.2f} s, URL {statistics.median(t[1] for t in laters):.2f} s "
          f"over {len(laters)} clicks")  # fmt: skip
    load = os.getloadavg()
    print(f"load average after: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


if __name__ == "__main__":
    main()
