"""What a question asks of a page (core.qa.planner.pages) and what a page is (core.retrieval.rerank). Invented."""

from __future__ import annotations

from core.qa.planner.pages import asks_figure, rerank_hints
from core.qa.planner.periods import FilingPeriod
from core.retrieval.rerank import (
    Page,
    RerankHints,
    discussion_page,
    heuristic_order,
    segment_page,
    statement_kind,
)

FILINGS = [FilingPeriod(1, 2021, None), FilingPeriod(2, 2022, None), FilingPeriod(3, 2023, 2)]


def test_the_period_asked_scopes_and_no_period_means_the_latest_year() -> None:
    assert rerank_hints("What drove Acme's margins in FY2021?", FILINGS).documents == (1,)
    latest = rerank_hints("Does Acme pay a dividend?", FILINGS)
    assert latest.documents == () and latest.latest == (2,)


def test_statements_named_and_implied_and_the_amount_asked() -> None:
    named = rerank_hints("Per the balance sheet, what was Acme's inventory at FY2022 year end?", FILINGS)
    assert named.statements == ("balance sheet",) and "inventories" in named.items
    implied = rerank_hints("What was the FY2022 capex of Acme?", FILINGS)
    assert implied.implied == ("cash flow statement",)
    assert "purchases of property and equipment" in implied.items
    # a reason asked: the statement is still a candidate, its line item is no amount asked
    why = rerank_hints("What drove the change in Acme's capex in FY2022?", FILINGS)
    assert why.implied == ("cash flow statement",) and why.items == ()
    assert asks_figure("How much did Acme spend on capex?") and not asks_figure("Why did capex rise?")
    assert "fy2022" not in implied.words and "capex" in implied.words


def statement(heading: str) -> str:
    return heading + "\n(in millions)\n" + "\n".join(f"Line {n}  {n},{n:03d}  {n + 1},{n:03d}" for n in range(12))


def test_a_statement_page_is_its_heading_at_the_top_and_a_page_of_figures() -> None:
    assert statement_kind(statement("Consolidated Statements of Cash Flows")) == "cash flow statement"
    assert statement_kind(statement("CONSOLIDATED BALANCE SHEE T")) == "balance sheet"  # split by extraction
    assert statement_kind(statement("Acme Corp\nStatements of Consolidated Income")) == "income statement"
    # a contents page names the statements but prints no figures; prose mentions one further down
    assert statement_kind("Index\nConsolidated Balance Sheets 41\nConsolidated Statements of Income 42") is None
    prose = "Note 7. Income taxes. " * 10 + "as included in the consolidated statements of income " + statement("")
    assert statement_kind(prose) is None


def test_the_period_and_the_statement_outrank_the_fused_order() -> None:
    hints = RerankHints("What was the FY2022 capex?", documents=(2,), implied=("cash flow statement",),
                        items=("purchases of property and equipment",), words=("capex",))  # fmt: skip
    pages = [
        Page(10, 1, "Capex rose in 2021. Capex capex.", 0),
        Page(11, 2, "Capex rose in 2022.", 1),
        Page(12, 2, statement("Consolidated Statements of Cash Flows") + "\nPurchases of property and equipment 5", 30),
    ]
    assert [p.key for p in heuristic_order(pages, hints)] == [12, 11, 10]


def test_a_question_on_the_segments_prefers_the_page_headed_by_them() -> None:
    asked = rerank_hints("Which segment of Acme grew the most in FY2022?", FILINGS)
    assert asked.segments and not rerank_hints("What was Acme's FY2022 revenue?", FILINGS).segments
    # a segment named in an aside is not what is asked
    assert not rerank_hints("What did Acme get for Acme Tools (formerly its Tools segment)?", FILINGS).segments
    table = (
        "Table of Contents\n\nSales and operating income by business segment:\n\nAcme Retail grew 1,200 Industrial 900"
    )
    one = "Table of Contents\n\nRetail Business (55% of sales):\n\nSales grew 4% in 2022, led by the Retail unit."
    prose = "Acme grew in 2022.\nOur outlook is strong.\nWe serve many markets.\nEach segment grew in 2022."
    assert segment_page(table) and not segment_page(one) and not segment_page(prose)
    pages = [Page(1, 2, one, 0), Page(2, 2, prose, 1), Page(3, 2, table, 4)]
    hints = RerankHints(asked.question, documents=(2,), words=asked.words, segments=True)
    assert heuristic_order(pages, hints)[0].key == 3
    # a question not about the segments keeps the fused order's lead
    plain = RerankHints(asked.question, documents=(2,), words=asked.words)
    assert heuristic_order(pages, plain)[0].key != 3


def test_a_reason_asked_is_read_and_a_discussion_page_explains_a_change() -> None:
    asked = rerank_hints("What drove the change in Acme's FY2022 gross margin?", FILINGS)
    assert asked.reason and asked.implied == ("income statement",) and asked.items == ()
    assert rerank_hints("What caused Acme's operating margin to fall in FY2022?", FILINGS).reason
    assert not rerank_hints("What was Acme's FY2022 gross margin?", FILINGS).reason
    words = ["freight", "margin"]
    assert discussion_page("Freight margin fell 2 points compared to the prior year.\n\nOther news.", words)
    assert not discussion_page("Freight margin fell 2 points.\n\nRevenue grew, driven by pricing.", words)
    # a margin is explained through its parts: cost of sales as a percent of sales
    parts = "Cost of products sold increased as a percent to sales driven by:\n- commodity inflation"
    assert discussion_page(parts, ["gross"], margin=True) and not discussion_page(parts, ["gross"])


def test_a_reason_asked_prefers_the_discussion_of_the_filing_asked() -> None:
    asked = rerank_hints("What drove the change in Acme's FY2022 gross margin?", FILINGS)
    discussion = (
        "Results of Operations\nAcme's gross margin decreased 120 basis points in 2022. Cost of sales, as a"
        " percent of sales, increased primarily due to higher freight costs, partially offset by pricing."
    )
    mention = "Risk factors\nAcme's gross margin may change in 2022 due to competition and other factors."
    filler = "Acme 2022 change. Acme stores and employees."
    pages = [
        Page(3, 1, discussion.replace("2022", "2021"), 0),  # the discussion of another year
        Page(2, 2, filler, 1),
        Page(1, 2, mention, 2),  # "due to" without the margin's parts
        Page(4, 2, filler, 3),
        Page(5, 2, discussion, 4),
    ]
    hints = RerankHints(asked.question, documents=(2,), words=asked.words, reason=True)
    assert heuristic_order(pages, hints)[0].key == 5
    # the same pages, the amount asked: the discussion is no better than its words
    amount = RerankHints(asked.question, documents=(2,), words=asked.words)
    assert heuristic_order(pages, amount)[0].key == 1
