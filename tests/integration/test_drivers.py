"""Drivers and yes/no answers from the right sentence, and plain words first (issue 24 items 4 and 5), on the real
embedded Postgres with generated filing PDFs. An invented retailer's room: two quarterly releases and the year-end
release of one fiscal year, each giving a different reason for the same line's change."""

from __future__ import annotations

import pytest

from core.workbench import Workbench, claims_citing
from tests.factories import csv_bytes, make_pdf, make_statement_pdf

# (file key, headline words, period end, body lines): each release gives its own reason for the inventories' rise.
RELEASES = (
    ("q1", "First-Quarter", "May 1, 2021", (
        "Net sales increased 3% to $1,210 million.",
        "Inventories increased 6% to $410 million, primarily due to earlier receipt of holiday goods.",
        "Gross margin was 30.2% compared with 29.8% a year ago, reflecting lower markdowns.",
    )),
    ("q2", "Second-Quarter", "July 31, 2021", (
        "Net sales increased 2% to $1,190 million.",
        "Inventories increased 9% to $430 million, driven by higher freight costs on imported goods.",
        "Gross margin expanded on a favorable product mix, reflecting lower promotional activity.",
    )),
    ("fy", "Fourth-Quarter and Full-Year", "January 29, 2022", (
        "Net sales for the year were $4,900 million compared with $4,700 million in fiscal 2020.",
        "Inventories increased 8% to $445 million at year end, primarily due to the opening of two "
        "distribution centers.",
        "Gross margin was 31.0% compared with 32.5% last year.",
        "Store count ended the year at 212.",
    )),
)  # fmt: skip


def release(headline: str, ended: str, lines: tuple[str, ...]) -> bytes:
    """A one-page earnings release of the invented Ashgrove Provisions, one sentence a line."""
    head = f"Ashgrove Provisions, Inc. Reports {headline} 2021 Results\nFor the quarter ended {ended}\n"
    return make_pdf([head + "\n".join(lines)])


@pytest.fixture
def releases(workbench: Workbench) -> dict[str, int]:
    """The room "A": file key -> document id."""
    ids = {}
    for key, headline, ended, lines in RELEASES:
        result = workbench.ingest_upload(release(headline, ended, lines), f"ashgrove-{key}-2021.pdf", "A", embed=False)
        assert result.document_id is not None and result.form == "earnings release"
        ids[key] = result.document_id
    return ids


def ask(workbench: Workbench, question: str, room: str = "A") -> dict:
    done = [e for e in workbench.ask(question, room) if e.type == "done"]
    assert done and done[0].result is not None and done[0].answer is not None
    return {**done[0].result, "markers": done[0].answer.markers}


def test_a_driver_question_quotes_the_year_end_sentence_with_its_page_lit(workbench, releases) -> None:
    result = ask(workbench, "What drove the increase in inventories in fiscal 2021?")
    assert not result["abstained"], result["answer"]
    answer = result["answer"]
    # plain words first (the reason), then the sentence quoted whole, from the year-end release alone
    assert answer.startswith("Primarily due to the opening of two distribution centers: “Inventories increased 8%")
    assert "holiday goods" not in answer and "freight" not in answer
    assert result["values"] == ["primarily due to the opening of two distribution centers"]
    assert {(c["document_id"], c["page"]) for c in result["citations"]} == {(releases["fy"], 1)}
    # the chip's page lights the quoted sentence's lines, not the page's other lines
    cited = result["citations"][0]
    quoting = claims_citing(answer, result["markers"], [0])
    page = workbench.render_page(cited["document_id"], cited["page"], cited["chunk_index"], quoting=quoting)
    lines = [line for line in page.passage.text.split("\n") if line.strip()]
    lit = [lines[i] for i in page.quoted_lines]
    assert page.highlighted and lit and all("Inventories" in line or "distribution" in line for line in lit), lit


def test_a_why_question_without_a_period_quotes_the_latest_release(workbench, releases) -> None:
    result = ask(workbench, "Why did inventories increase?")
    assert not result["abstained"] and "distribution centers" in result["answer"]
    assert "(latest)" in result["answer"]
    assert {c["document_id"] for c in result["citations"]} == {releases["fy"]}


def test_no_driver_sentence_for_the_period_abstains_saying_so(workbench, releases) -> None:
    # the half-year release says what moved gross margin; the year-end release gives the figures and no reason
    result = ask(workbench, "What drove the decrease in gross margin in fiscal 2021?")
    assert result["abstained"] and result["citations"] == []
    assert "No passage of the FY2021 filings states what drove gross margin." in result["answer"]
    assert "promotional" not in result["answer"]


def test_a_yes_no_leads_with_the_word_and_both_figures_cited(workbench, releases) -> None:
    result = ask(workbench, "Did net sales increase or decrease in fiscal 2021?")
    assert not result["abstained"], result["answer"]
    assert result["answer"].startswith("Increased — $4,900 million against $4,700 million before:")
    assert result["values"] == ["Increased"]
    assert {c["document_id"] for c in result["citations"]} == {releases["fy"]}
    # "improving" of a line whose rise is better: a decrease is a "No", with both figures
    result = ask(workbench, "Is gross margin improving?")
    assert result["answer"].startswith("Q4 FY2021 (latest): No, it decreased — 31.0% against 32.5% before:")
    # never a yes/no from one figure: the store count is stated once
    result = ask(workbench, "Did the store count increase in fiscal 2021?")
    assert not result["answer"].startswith(("Yes", "No", "Increased", "Decreased")), result["answer"]


def test_a_yes_no_on_a_statement_line_reads_both_cells(workbench) -> None:
    workbench.ingest_upload(make_statement_pdf(), "tallow-2022-10k.pdf", "S", embed=False)
    result = ask(workbench, "Did cost of sales rise in 2022?", "S")
    assert result["answer"].startswith("Yes — Cost of sales increased from 2021 (37,075 million) to 2022 (40,576")
    assert result["values"] == ["Yes"] and [s["kind"] for s in result["steps"]] == ["cells"]
    assert sorted(c["column"] for c in result["citations"]) == ["2021", "2022"]
    result = ask(workbench, "Did gross profit fall in 2022?", "S")
    assert result["answer"].startswith("No — Gross profit increased from 2021") and result["values"] == ["No"]


def test_a_table_answer_opens_with_plain_words(workbench) -> None:
    rows = [["Rep", "Region", "Q1 Sales"], ["Alice", "North", 150], ["Bob", "South", 120], ["Alice", "South", 240],
            ["Cara", "East", 100], ["Total", "", 610]]  # fmt: skip
    workbench.ingest_upload(csv_bytes(rows), "sales.csv", "T", embed=False)
    result = ask(workbench, "Who has the most Q1 sales?", "T")
    assert result["answer"].startswith("Alice has the highest total Q1 Sales: 390 [1]"), result["answer"]
    assert "!=" not in result["answer"] and "top 1 of" not in result["answer"]
    assert "Rep ≠ Total" in result["plan"]  # the operator notation stays in the plan
    result = ask(workbench, "What are the total Q1 sales?", "T")
    assert result["answer"].startswith("The total Q1 Sales is 610, over 4 rows [1]"), result["answer"]


def test_a_drivers_sentence_in_the_page_passage_after_a_table_is_read(workbench: Workbench) -> None:
    """A page is found by its best passage (here a summary table full of the question's words); the sentence that
    states the driver sits in the page's later passage. A driver question reads the first pages found whole."""
    table = "Summary of Cash Flows (in millions) 2024 2023\n" + "\n".join(
        f"Net cash provided by operating activities, {name} {a} {b}"
        for name, a, b in (("as reported", "5,120", "6,980"), ("continuing operations", "4,980", "6,610"),
                           ("before tax payments", "5,640", "7,020"), ("excluding divestitures", "5,010", "6,700"),
                           ("per segment total", "5,120", "6,980"), ("net of restricted cash", "5,090", "6,950"))
    )  # fmt: skip
    table += "\nDecrease in operating cash flow 2024 (1,860)\nOperating cash flow decrease, Harrow Instruments (1,860)"
    filler = " ".join(
        f"The Company manages its {topic} under policies reviewed each year by the Board and its committees."
        for topic in ("liquidity", "debt maturities", "pension funding", "foreign exchange exposure",
                      "commercial paper program", "credit facilities", "hedging program", "investment portfolio",
                      "capital allocation", "dividend policy", "share repurchase program", "insurance coverage",
                      "supplier financing", "lease portfolio")
    )  # fmt: skip
    reason = (
        "In 2024, cash flows provided by operating activities decreased $1,860 million compared with 2023, "
        "primarily due to lower net income and higher income tax payments."
    )
    pdf = make_pdf([f"Harrow Instruments Corp. Annual Report 2024\n{table}\n{filler}\n{reason}\n{filler[:700]}"])
    workbench.ingest_upload(pdf, "harrow-2024-10k.pdf", "H", embed=False)
    result = ask(workbench, "What drove the decrease in Harrow Instruments' operating cash flow in 2024?", "H")
    assert not result["abstained"], result["answer"]
    assert "lower net income and higher income tax payments" in result["answer"]
    assert result["citations"] and all(c["page"] == 1 for c in result["citations"])


def _overview_beneath(workbench: Workbench, risk: str) -> None:
    """A 10-K of 13 pages of `risk` over an overview page stating the move of member loans and its reason: the
    driver question quotes the overview's sentence, cited on its page."""
    filler = " ".join(f"The bank reviews its {t} each quarter." for t in ("liquidity", "capital", "funding", "pricing"))
    overview = (
        f"Overview of 2024. {filler} Member loans increased 22 percent in 2024, driven by growth in billed business."
    )
    pdf = make_pdf([f"Corvid Bank Annual Report 2024\n{risk}"] + [risk] * 12 + [overview])
    workbench.ingest_upload(pdf, "corvid-2024-10k.pdf", "C", embed=False)
    result = ask(workbench, "What drove the increase in Corvid Bank's member loans in 2024?", "C")
    assert not result["abstained"], result["answer"]
    assert "driven by growth in billed business" in result["answer"]
    assert {c["page"] for c in result["citations"]} == {14}


def test_a_drivers_sentence_on_a_page_ranked_low_is_found_by_its_words(workbench: Workbench) -> None:
    """Pages of risk factors naming the line over and over outrank the overview page stating its move and reason;
    the passages holding the line's words and a reason's word are searched for besides, and the overview's
    sentence is quoted."""
    risk = (
        "Risk factors for 2024. Our member loans expose Corvid Bank to credit risk. An increase in member loans in "
        "2024 may increase losses, and member loans performance depends on member loans underwriting. If member "
        "loans increase, member loans reserves may need to increase as well in 2024; member loans are funded by "
        "deposits. Corvid Bank member loans."
    )
    _overview_beneath(workbench, risk)


def test_the_sentence_stating_the_lines_move_is_found_beneath_pages_naming_it_with_reasons(
    workbench: Workbench,
) -> None:
    """More pages than are gathered name the line beside a reason's word (another line's move "driven by member loans
    balances", risks "due to" it) and outrank the overview: the passages where the line's name stands just before
    a verb of change are searched for first, and the overview's sentence is quoted."""
    risk = (
        "Risk factors for 2024. Our member loans expose Corvid Bank to credit risk, primarily due to concentration. "
        "Net interest income increased, primarily driven by member loans balances. Member loans performance depends "
        "on member loans underwriting, mainly due to member loans pricing; member loans are funded by deposits."
    )
    _overview_beneath(workbench, risk)


def test_a_segments_driver_is_read_under_its_heading(workbench: Workbench) -> None:
    """A 10-K discusses the company, then each segment under its heading, in sentences naming no segment ("Our SG&A
    decreased …"). Asked of a segment, its own heading's sentence is quoted and labelled with it; asked of the
    company, the company's; a segment's line named with "segment" ("segment SG&A") is no measure the passages
    must print."""
    company = (
        "Results of Operations\nConsolidated Results\nThe decrease in revenue in 2024 was primarily driven by lower "
        "store traffic across both segments.\nOur SG&A decreased in 2024, primarily due to lower advertising."
    )
    segment = (
        "{name} Segment\nSelected financial data for the {name} segment was as follows.\nRevenue $ 3,504 $ 3,931\n"
        "SG&A $ 638 $ 689\nThe decrease in revenue in 2024 was primarily driven by {revenue}.\n"
        "Our SG&A decreased in 2024, primarily due to {sga}."
    )
    pages = [
        f"Fenwick Outfitters, Inc. Annual Report 2024\n{company}",
        segment.format(name="Retail", revenue="fewer mall visits", sga="lower store payroll"),
        segment.format(name="Wholesale", revenue="a lost department-store account", sga="lower incentive pay"),
        "Liquidity and Capital Resources\nCash decreased in 2024, primarily due to share repurchases.",
    ]
    workbench.ingest_upload(make_pdf(pages), "fenwick-2024-10k.pdf", "F", embed=False)
    result = ask(workbench, "What drove the decline in Fenwick's Wholesale segment revenue in 2024?", "F")
    assert not result["abstained"], result["answer"]
    assert "Wholesale Segment" in result["answer"] and "a lost department-store account" in result["answer"]
    assert {c["page"] for c in result["citations"]} == {3}
    result = ask(workbench, "Why did Fenwick's Retail segment SG&A decrease in 2024?", "F")
    assert not result["abstained"], result["answer"]
    assert "Retail Segment" in result["answer"] and "lower store payroll" in result["answer"]
    result = ask(workbench, "What drove the decrease in Fenwick's revenue in 2024?", "F")
    assert "lower store traffic" in result["answer"] and "Segment:" not in result["answer"], result["answer"]
    # a segment the filing does not discuss abstains, never another segment's sentence
    result = ask(workbench, "Why did Fenwick's Online segment SG&A decrease in 2024?", "F")
    assert result["abstained"], result["answer"]


def test_a_driver_asked_of_a_move_the_statement_shows_the_other_way_says_so_with_both_cells(workbench) -> None:
    """ "What drove the decrease in gross profit in 2022?" of a statement whose gross profit rose, and no sentence
    giving a reason: the premise is not the filing's, said with the line's two cells, never an abstention or another
    line's reason; a move the question has right with no reason stated still abstains."""
    workbench.ingest_upload(make_statement_pdf(), "tallow-2022-10k.pdf", "S", embed=False)
    result = ask(workbench, "What drove the decrease in gross profit in 2022?", "S")
    assert not result["abstained"], result["answer"]
    assert result["answer"].startswith(
        "Gross profit rose, not fell: Gross profit increased from 2021 (42,399 million) to 2022 (45,816 million)"
    ), result["answer"]
    assert sorted(c["column"] for c in result["citations"]) == ["2021", "2022"]
    result = ask(workbench, "What drove the increase in gross profit in 2022?", "S")
    assert result["abstained"] and "No passage" in result["answer"], result["answer"]
    # a share of revenue moves apart from its amount's line: the line's rise says nothing of it
    result = ask(workbench, "What drove the decrease in cost of sales as a percent of revenue in 2022?", "S")
    assert result["abstained"] and "rose, not fell" not in result["answer"], result["answer"]
