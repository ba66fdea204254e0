"""The rerank stage (core.retrieval.rerank) on the real Postgres: the right page first.

A room of two generated annual filings of one invented company, for two fiscal years, whose pages share their
words (the later filing's discussion names the earlier year as often as its own). The heuristic puts the filing
of the year asked first, and the cash-flow statement first for an amount asked; a chat model configured for the
stage (over HTTP, tests/openai_server.py) reorders the candidates by its scores, and a model that does not answer
in time leaves the heuristic's order.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from core.workbench import Workbench
from tests.factories import make_pdf
from tests.openai_server import Delay, OpenAIServer, Reply, pointed_at

COMPANY = "Kestrel Mills Inc."
DISCUSSION = {
    2021: "Management's discussion. Capital spending in 2021 went to the new mill. Capital expenditures were "
    "funded from operations.",
    # the later filing compares with the earlier year at length: its words match a question of 2021 better
    2022: "Management's discussion. Capital spending in 2022 rose above capital spending in 2021; capital "
    "expenditures in 2022 and capital expenditures in 2021 were funded from operations, as capital spending "
    "in 2021 and 2020 was. Capital expenditures and capital spending will fall in 2023.",
}


def cash_flows(year: int) -> str:
    """A cash-flow statement page as filings print it: the heading at the top, then lines of figures."""
    rows = [
        ("Net income", 1210),
        ("Depreciation and amortization", 344),
        ("Changes in working capital", -87),
        ("Net cash provided by operating activities", 1467),
        ("Purchases of property and equipment", -412),
        ("Proceeds from sales of assets", 23),
        ("Net cash used in investing activities", -389),
        ("Dividends paid", -250),
        ("Repurchases of common stock", -300),
        ("Net cash used in financing activities", -550),
        ("Net increase in cash", 528),
    ]
    lines = [f"{label}  {fig(v + year - 2021)}  {fig(v)}" for label, v in rows]
    return (
        f"CONSOLIDATED STATEMENTS OF CASH FLOWS\n{COMPANY}\n(in millions)  {year}  {year - 1}\n"
        + "\n".join(lines)
        + "\nCash at end of year  2,104  1,576"
    )


def fig(value: int) -> str:
    text = f"{abs(value) + 1000:,}"
    return f"({text})" if value < 0 else text


def annual_report(year: int) -> bytes:
    cover = (
        f"FORM 10-K\nANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d)\nFor the fiscal year ended December 31, {year}\n"
        f"{COMPANY}\n(Exact name of registrant as specified in its charter)"
    )
    return make_pdf([cover, DISCUSSION[year], cash_flows(year)])


@pytest.fixture
def room(workbench: Workbench) -> dict[int, int]:
    """Fiscal year -> document id; the file names do not say the year (the stored period does)."""
    ids = {}
    for year, name in ((2021, "kestrel-annual-a.pdf"), (2022, "kestrel-annual-b.pdf")):
        result = workbench.ingest_upload(annual_report(year), name, "K", embed=False)
        assert result.status == "ready" and result.period == f"FY{year}"
        ids[year] = result.document_id
    return ids


def test_a_question_naming_one_year_ranks_that_filing_first(workbench: Workbench, room: dict[int, int]) -> None:
    hits = workbench.search("Where did capital spending go in FY2021?", "K", k=3)
    assert hits[0].document_id == room[2021] and hits[0].page == 2
    # the same question without the rerank stage: the later filing's words win
    plain = Workbench(workbench.settings.model_copy(update={"rerank": "off"}), db=workbench.db)
    assert plain.search("Where did capital spending go in FY2021?", "K", k=3)[0].document_id == room[2022]


def test_an_amount_asked_ranks_the_statement_page_first(workbench: Workbench, room: dict[int, int]) -> None:
    hits = workbench.search("What was the capital expenditure of Kestrel Mills in FY2022?", "K", k=3)
    assert (hits[0].document_id, hits[0].page) == (room[2022], 3)
    assert "Purchases of property and equipment" in hits[0].quote


# -- the model path, over HTTP ---------------------------------------------------------------------------------


def scores_by_page(favourite: str) -> Any:
    """A scorer reply: 9 for the page holding `favourite`, 1 for the others."""

    def reply(body: dict[str, Any]) -> Reply:
        pages = body["messages"][-1]["content"].split("\n\n[")[1:]
        return Reply(json.dumps({"scores": [9 if favourite in page else 1 for page in pages]}))

    return reply


def test_the_models_scores_reorder_the_candidates(
    workbench: Workbench, room: dict[int, int], server: OpenAIServer
) -> None:
    scored = Workbench(pointed_at(workbench.settings, server, llm="offline", rerank_model="ranker"), db=workbench.db)
    server.chat_default = scores_by_page("Management's discussion. Capital spending in 2022 rose")
    hits = scored.search("What was the capital expenditure of Kestrel Mills in FY2022?", "K", k=3)
    # the heuristic alone puts the statement first (above); the model prefers the discussion
    assert (hits[0].document_id, hits[0].page) == (room[2022], 2)
    [request] = server.chat_requests()
    assert request["body"]["model"] == "ranker"
    assert "capital expenditure of Kestrel Mills" in request["body"]["messages"][-1]["content"]


def test_a_model_that_times_out_leaves_the_heuristic_order(
    workbench: Workbench, room: dict[int, int], server: OpenAIServer, caplog: pytest.LogCaptureFixture
) -> None:
    slow = pointed_at(workbench.settings, server, llm="offline", rerank_model="ranker", rerank_timeout=0.5)
    server.chat_default = Delay(3, Reply(json.dumps({"scores": []})))
    hits = Workbench(slow, db=workbench.db).search("What was the capital expenditure of Kestrel Mills in FY2022?", "K")
    assert (hits[0].document_id, hits[0].page) == (room[2022], 3)
    assert "rerank" in caplog.text and "heuristic order stands" in caplog.text
    # and a question is still answered
    result = [e for e in Workbench(slow, db=workbench.db).ask("What was the capital expenditure in FY2022?", "K")]
    assert result[-1].type == "done"
