"""The analytics page in a real browser: after questions are asked, its Plotly charts hold the logged data."""

from __future__ import annotations

import re

import pytest

from core.qa.service import ask
from tests.browser.conftest import SCREENSHOTS, wait_idle

pytestmark = pytest.mark.browser

QUESTIONS = (
    "Who is the CEO of Harvestquay?",
    "How many seed rounds were there?",
    "Which investor led the most rounds?",
    "What is the boiling point of mercury at sea level?",
)


def test_analytics_charts_the_questions_asked(page, app_url: str, app_workbench) -> None:
    results = [next(e.result for e in ask(app_workbench, q, "Demo") if e.type == "done") for q in QUESTIONS]
    with app_workbench.db.connection() as conn:
        conn.execute(
            "INSERT INTO qa_feedback (query_id, helpful, comment) VALUES (%s, false, 'wrong person')",
            (results[0]["query_id"],),
        )
    abstained = sum(r["abstained"] for r in results)
    assert 0 < abstained < len(results)

    page.goto(f"{app_url}/analytics")
    page.wait_for_function("() => document.querySelectorAll('.js-plotly-plot').length === 5")
    wait_idle(page)
    assert page.locator('[data-testid="stException"]').count() == 0
    metrics = dict(
        zip(
            page.locator('[data-testid="stMetricLabel"]').all_inner_texts(),
            page.locator('[data-testid="stMetricValue"]').all_inner_texts(),
            strict=True,
        )
    )
    assert metrics["Questions"] == str(len(results))
    assert metrics["Abstention rate"] == f"{abstained / len(results):.0%}"
    assert metrics["Helpful"] == "0%"

    # Each chart is drawn from the logged data: read what Plotly itself holds.
    charts = page.evaluate(
        "() => [...document.querySelectorAll('.js-plotly-plot')].map(el => ({"
        " title: el.layout.title.text,"
        " traces: el.data.map(t => ({name: t.name, y: t.y.filter(v => v !== null)}))}))"
    )
    by_title = {re.sub(r"<[^>]+>", "", c["title"]).split(" (")[0]: c["traces"] for c in charts}
    questions = {t["name"]: sum(t["y"]) for t in by_title["Questions per day"]}
    assert questions == {"Answered": len(results) - abstained, "Abstained": abstained, "Failed": 0}
    assert by_title["Abstention rate per day"][0]["y"][-1] == pytest.approx(abstained / len(results))
    latency = {t["name"]: t["y"] for t in by_title["Latency per day"]}
    assert set(latency) == {"Total p50", "Total p95", "First token p50", "First token p95"}
    assert all(values and all(v > 0 for v in values) for values in latency.values())
    answered = [len(r["citations"]) for r in results if not r["abstained"]]
    assert sum(by_title["Citations per answer"][0]["y"]) == len(answered)
    assert by_title["Helpful votes per day"][0]["y"] == [0]
    table = page.locator('[data-testid="stDataFrame"]')
    assert table.count() == 1
    page.set_viewport_size({"width": 1400, "height": 2000})  # the main area scrolls itself: show it all
    wait_idle(page)
    page.screenshot(path=str(SCREENSHOTS / "analytics_populated.png"))
