"""A measure named by a compound must be in the room as that compound (core.qa.measures), on real Postgres.

Each way a room may hold a measure links it (words in order with a word between, a sheet row with its column
names, a PDF table's row under its title), each test failing if that way is taken out; a measure the room never
prints abstains end to end with the reason, instead of answering from the net revenue line or a passage that
holds its words one by one.
"""

from __future__ import annotations

import pytest

from core.qa.measures import measures_held, unlinked_measures
from core.qa.metrics import metrics_held, unlinked_metrics
from core.qa.service import _focused, ask
from core.retrieval.retriever import Evidence
from core.retrieval.search import search
from tests.factories import csv_bytes, make_pdf, make_statement_pdf

ROOM = "Measures"
CAPITAL_ROWS = [
    ("Common equity tier 1", ("11.2", "10.5", "13.0")),
    ("Total capital", ("12.9", "12.2", "14.1")),
]


@pytest.fixture
def room(workbench) -> int:
    uploads = [
        (make_statement_pdf(), "ORCHARDALE_2022_10K.pdf"),  # net revenue line, and "net" / "score"-free prose
        (
            make_statement_pdf(rows=CAPITAL_ROWS, heading="REGULATORY CAPITAL RATIOS", unit="(percent)"),
            "CAPITAL_2022.pdf",
        ),
        (
            make_statement_pdf(
                rows=[("Interest expense", ("72", "80", "90")), ("Rental expense", ("232", "235", "250"))],
                heading="COMPUTATION OF RATIOS",
            ),
            "RATIOS_2022.pdf",
        ),
        (
            make_pdf(
                [
                    "The weighted average interest rate on borrowings was 4.1% in 2022. Each store is scored on net "
                    "sales. Revenue from services grew 4%, and the number of stores rose to 312. Costs grew with "
                    "sales, such as advertising. Orchardale settles card transactions. Value hedges are listed below. Orchardale "
                    "has assets to manage. The cost of capital rose. Funds for operations were ample. Net debt rose while "
                    "EBITDA fell. The covenant caps total debt-to-EBITDA at 3.0. Orchardale may issue debt or equity securities. "
                    "Operational cash flows improved. Impression materials sold well. Stockholders’ equity rose."
                ]
            ),
            "memo.pdf",
        ),
        (csv_bytes([["Load factor (%)", "Segment"], ["81.5", "Regional"], ["84.0", "Mainline"]]), "airline.csv"),
        (
            csv_bytes([["Asset", "2022"], ["Land", "120"], ["Buildings", "300"], ["Transaction costs", "8"]]),
            "assets.csv",
        ),
        (csv_bytes([["Cost", "Units"], ["500", "20"]]), "production.csv"),
        (csv_bytes([["Line", "2022"], ["Revenue from contracts with customers", "500"]]), "contracts.csv"),
        (csv_bytes([["Branch", "City"], ["Downtown", "Austin"], ["Airport", "Austin"]]), "branches.csv"),
    ]
    for data, name in uploads:
        assert workbench.ingest_upload(data, name, ROOM, embed=False).status == "ready"
    return workbench.room(ROOM).id


def test_a_measure_is_linked_where_the_room_holds_it(workbench, room: int) -> None:
    # a word between the measure's words ("weighted average interest rate")
    assert unlinked_measures(workbench.db, room, "What was the weighted interest rate in 2022?") == []
    # a sheet's row with its column names ("Regional" under "Segment", beside "Load factor"), not as a phrase
    assert unlinked_measures(workbench.db, room, "What is the regional load factor?") == []
    # a PDF table's row under its title ("Common equity tier 1" in "REGULATORY CAPITAL RATIOS")
    assert unlinked_measures(workbench.db, room, "What was the common equity tier 1 ratio in 2022?") == []
    # a count printed as "number of stores"; a value of the line the plan reads ("Land")
    assert unlinked_measures(workbench.db, room, "What was the store count in 2022?") == []
    # ... and by rows whose column names the things counted ("Branch: Downtown")
    assert unlinked_measures(workbench.db, room, "What was the branch count?") == []
    assert unlinked_measures(workbench.db, room, "What was the land value in 2022?", cells=["Land"]) == []
    # a noun phrase asked of a name, printed as such
    assert unlinked_measures(workbench.db, room, "How did the card transactions of Orchardale change?") == []
    assert unlinked_measures(workbench.db, room, "How many were Orchardale's stores in 2022?") == []
    assert unlinked_measures(workbench.db, room, "What was Orchardale's cost of capital?") == []
    assert unlinked_measures(workbench.db, room, "What was Orchardale's total debt to EBITDA?") == []
    # a metric narrowed by a word, in another wording and order ("revenue from services" for "services sales")
    assert unlinked_measures(workbench.db, room, "What were services sales in 2022?") == []


def test_a_measure_the_room_never_prints_is_unlinked(workbench, room: int) -> None:
    # every word is in the room ("net", "score", "sales", "rate") but never the measure
    assert unlinked_measures(workbench.db, room, "What was the net promoter score in 2022?") == ["net promoter score"]
    assert unlinked_measures(workbench.db, room, "What was the sales tax rate in 2022?") == ["sales tax rate"]
    # words of one row, but not of one measure: "capital" is in the capital table, "rate" is not
    assert unlinked_measures(workbench.db, room, "What was the total capital rate in 2022?") == ["capital rate"]
    # a row that mentions customers ("Revenue from contracts with customers") does not count them
    assert unlinked_measures(workbench.db, room, "What was the customer count?") == ["customer count"]
    assert unlinked_measures(workbench.db, room, "What was the average order value?") == ["order value"]
    assert unlinked_measures(workbench.db, room, "What was the deferred revenue in 2022?") == ["deferred revenue"]
    # a noun phrase asked of a name is found as a phrase: "Land" in a sheet's Asset column is no "land assets"
    assert unlinked_measures(workbench.db, room, "What were Orchardale's land assets in 2022?") == ["land assets"]
    # a name holding a preposition is found with it: "assets to manage" is no "assets under management"
    assert unlinked_measures(workbench.db, room, "What were Orchardale's assets under management?") == [
        "assets under management"
    ]
    # ... and its preposition as written ("funds for operations" is not it), "to" between figures too
    assert unlinked_measures(workbench.db, room, "What were Orchardale's funds from operations?") == [
        "funds from operations"
    ]
    assert unlinked_measures(workbench.db, room, "What was Orchardale's net debt to EBITDA?") == ["net debt to ebitda"]
    # a figure asked by one plural noun is printed as that plural: "impression materials" are no impressions
    assert unlinked_measures(workbench.db, room, "What were Orchardale's impressions in 2022?") == ["impressions"]
    # a row holds the words as written: "Revenue from contracts" is no contracted revenue (one stem)
    assert unlinked_measures(workbench.db, room, "What was the contracted revenue?") == ["contracted revenue"]
    # "X per Y": a row of costs beside units is no cost per unit
    assert unlinked_measures(workbench.db, room, "What was the cost per unit?") == ["cost per unit"]
    # a row of amounts under a title that says "Ratios" shows no ratio (the tier 1 row above shows ratios)
    assert unlinked_measures(workbench.db, room, "What was the expense ratio in 2022?") == ["expense ratio"]
    # a value of a line only the plan's cells can show: a row merely holding the word is another line
    assert unlinked_measures(workbench.db, room, "What was the land value in 2022?") == ["land value"]
    assert unlinked_measures(workbench.db, room, "What is the transaction value?") == ["transaction value"]
    # words of two sentences ("transactions. Value hedges") or two clauses are not one measure; a metric after
    # the narrowing word only as "revenue from services": "sales, such as advertising" is not it
    assert unlinked_measures(workbench.db, room, "What was advertising revenue?") == ["advertising revenue"]


def test_a_value_of_a_line_the_plan_reads_is_answered(workbench, room: int) -> None:
    result = next(e for e in ask(workbench, "What was the land value in 2022?", ROOM) if e.type == "done").result
    assert not result["abstained"] and "Land; 2022: 120 [1]" in result["answer"] and result["citations"]


@pytest.mark.parametrize(
    "question",
    [
        "What was the revenue per employee in 2022?",
        "What was the net promoter score in 2022?",
        "What was the deferred revenue in 2022?",  # not the net revenue line
        "What were Orchardale's gross bookings in 2022?",  # a noun phrase asked of a name the room never prints
    ],
)
def test_a_measure_the_room_lacks_abstains_with_the_reason(workbench, room: int, question: str) -> None:
    events = list(ask(workbench, question, ROOM))
    result = events[-1].result
    assert result["abstained"] and not result["citations"], result["answer"]
    assert any(e.type == "step" and "no column or passage about" in (e.text or "") for e in events)


def test_a_metric_is_linked_by_the_cell_the_plan_reads(workbench) -> None:
    """A "Total" line on a page about assets is the total assets, though the filing never prints the phrase:
    the metric is linked by the cell the plan reads, and answered from it."""
    rows = [("Cold Chain", ("1,846.3", "1,702.9", "1,655.0")), ("Parcel Services", ("2,531.6", "2,208.4", "1,987.2"))]
    rows.append(("Total", tuple(f"{a + b:,.1f}" for a, b in [(1846.3, 2531.6), (1702.9, 2208.4), (1655.0, 1987.2)])))
    data = make_statement_pdf(rows=rows, heading="ASSETS BY SEGMENT", unit="(in millions)")
    assert workbench.ingest_upload(data, "HARBORLINE_2022_10K.pdf", "Segments", embed=False).status == "ready"
    result = next(
        e
        for e in ask(workbench, "What were the total assets at the end of fiscal 2022?", "Segments")
        if e.type == "done"
    )
    assert result.result["values"] == ["4,377.9"], result.result["answer"]  # 1,846.3 + 2,531.6


def test_a_metric_wording_is_found_as_written(workbench, room: int) -> None:
    """A lexicon wording of several words is found as written: "debt or equity securities" is no debt to equity
    (the phrase query skips a stop word's position, not its word), "operational cash flows" no operating cash
    flow (one stem)."""
    assert unlinked_metrics(workbench.db, room, "What was the debt to equity ratio in 2022?") == [
        "debt-to-equity ratio"
    ]
    # the stemmer makes "operational cash flows" an operating cash flow: each word must begin as written
    assert unlinked_metrics(workbench.db, room, "What was the operating cash flow?") == ["operating cash flow"]
    # an apostrophe is no word: "Stockholders’ equity" (curly) is the wording "stockholders' equity"
    assert unlinked_metrics(workbench.db, room, "What was the stockholders' equity?") == []
    # as written, in another line of the room
    assert unlinked_metrics(workbench.db, room, "What was the cost of sales in 2022?") == []


def test_the_passages_retrieved_must_hold_what_is_asked(workbench) -> None:
    """A room that holds a metric somewhere ("attrition", a wording of churn) links it, but the passages retrieved
    for the question are its answer: a page of interest rates is no answer to "the churn rate" (the passage that
    names it is searched for and found, and says no figure: the answer abstains rather than cite 4.1%)."""
    pages = [
        "Customer attrition is reviewed by the board each quarter.",
        "The weighted average interest rate on borrowings was 4.1% in 2022. The rate in 2021 was 3.2%.",
    ]
    assert workbench.ingest_upload(make_pdf(pages), "memo.pdf", "Churn", embed=False).status == "ready"
    events = list(ask(workbench, "What was the churn rate in 2022?", "Churn"))
    result = events[-1].result
    assert result["abstained"] and not result["citations"], result["answer"]
    # a passage that holds it answers
    result = next(
        e for e in ask(workbench, "What was the interest rate on borrowings in 2022?", "Churn") if e.type == "done"
    )
    assert not result.result["abstained"] and "4.1%" in result.result["answer"], result.result["answer"]


def test_the_answer_is_drawn_from_the_passages_that_name_what_is_asked(workbench) -> None:
    """Of the passages retrieved, those naming the metric asked are the answer: "the churn rate" is the attrition
    rate on its page, not the interest rate on another page that matches "rate" and "2022" as well."""
    pages = [
        "The weighted average interest rate on borrowings was 4.1% in 2022.",
        "The customer attrition rate was 5.2% in 2022.",
    ]
    assert workbench.ingest_upload(make_pdf(pages), "memo.pdf", "Attrition", embed=False).status == "ready"
    result = next(e for e in ask(workbench, "What was the churn rate in 2022?", "Attrition") if e.type == "done")
    answer = result.result["answer"]
    assert "5.2%" in answer and "4.1%" not in answer, answer
    assert [c["page"] for c in result.result["citations"]] == [2]


def test_passages_naming_what_is_asked_are_searched_for_when_none_was_retrieved(workbench) -> None:
    """The passages retrieved first hold "rate" and "2022" but not the churn rate: the passages naming it
    ("attrition") are searched for, however far down the plain ranking, and are the answer."""
    pages = [f"The rate on notes series {i} was 4.{i}% in 2022; the 2022 rate was fixed." for i in range(1, 13)]
    pages.append(
        "The customer attrition rate was 5.2% in 2022, as the board, its audit committee and the management of "
        "each business reviewed in every quarter of the year, among the many other matters they discussed."
    )
    assert workbench.ingest_upload(make_pdf(pages), "notes.pdf", "Notes", embed=False).status == "ready"
    first = search(workbench.db, workbench.room("Notes"), "What was the churn rate in 2022?", k=8)
    assert 13 not in [hit.page for hit in first]  # the plain ranking does not reach it
    result = next(e for e in ask(workbench, "What was the churn rate in 2022?", "Notes") if e.type == "done").result
    assert "5.2%" in result["answer"] and "4." not in result["answer"], result["answer"]
    assert [c["page"] for c in result["citations"]] == [13]


def test_evidence_naming_nothing_asked_is_no_answer(workbench) -> None:
    """Of the evidence, the pieces naming every metric asked are kept and renumbered; when none names one, the
    names are returned (core.qa.service then searches the room's passages naming them, and abstains with
    UNHELD when those do not either)."""
    rate = Evidence(n=1, kind="passage", content="The interest rate was 4.1% in 2022.", citations=[])
    attrition = Evidence(n=2, kind="passage", content="The customer attrition rate was 5.2% in 2022.", citations=[])
    kept, unheld = _focused(workbench, "What was the churn rate in 2022?", [rate, attrition], 5)
    assert unheld == [] and [(e.n, e.content) for e in kept] == [(1, attrition.content)]
    kept, unheld = _focused(workbench, "What was the churn rate in 2022?", [rate], 5)
    assert unheld == ["churn"] and kept == [rate]


def test_what_the_evidence_holds_is_tested_as_the_room_is(workbench) -> None:
    """The evidence's test is the room's: a measure in one clause, each word as written; a metric in any wording,
    as written; a sheet row with its column names (a row, not a passage)."""
    risk = "Changes in credit ratings could increase the cost of funding. Pension costs, funds and yields rose."
    other = "Subscriber attrition was low."

    def measures(question: str, passages: list, rows: list | None = None) -> dict[str, set[int]]:
        return measures_held(workbench.db, question, passages, rows or [None] * len(passages))

    assert measures("What was Acme's average cost of funds?", [other, risk]) == {"cost of funds": {1}}
    # words of two clauses ("costs, funds") are no measure
    assert measures("What was Acme's net promoter score?", [risk]) == {"net promoter score": set()}
    assert measures("What was the pension fund rate?", [risk]) == {"pension fund rate": set()}
    row = "Segment: Regional; Load factor (%): 81.5"
    assert measures("What is the regional load factor?", [risk, None], [None, row]) == {"regional load factor": {1}}
    assert measures("What is the regional load factor?", [row]) == {"regional load factor": set()}
    assert metrics_held(workbench.db, "What was the churn rate?", [risk, other]) == {"churn": {1}}
    # "debt or equity securities" is no debt to equity, in the evidence as in the room
    securities = "It may issue debt or equity securities."
    assert metrics_held(workbench.db, "What is the debt to equity ratio?", [securities]) == {
        "debt-to-equity ratio": set()
    }


def test_a_count_is_linked_by_a_figure_before_the_things_counted(workbench) -> None:
    """ "The number of patents" asked of a name is a count: held where the room prints a figure before the things
    ("1,250 active patents"), not where it merely mentions them, nor after a year ("In 2022 licenses were …")."""
    pages = ["Acme holds 1,250 active patents worldwide. In 2022 licenses were renewed; licenses cost more."]
    assert workbench.ingest_upload(make_pdf(pages), "acme.pdf", "Counts", embed=False).status == "ready"
    room = workbench.room("Counts").id
    assert unlinked_measures(workbench.db, room, "What is Acme's number of patents?") == []
    assert unlinked_measures(workbench.db, room, "What is the number of licenses reported by Acme?") == [
        "number of licenses"
    ]
    held = measures_held(workbench.db, "How did the number of patents of Acme change?", pages, [None])
    assert held == {"number of patents": {0}}
    held = measures_held(workbench.db, "What is Acme's number of licenses?", pages, [None])
    assert held == {"number of licenses": set()}
