"""Drivers and yes/no read from sentences (core.qa.passage_drivers, core.qa.planner.changes). Invented examples."""

from __future__ import annotations

from core.qa.passage_drivers import driver_quote, yes_no
from core.qa.planner.changes import asks_driver, topic, yes_no_asked
from core.retrieval.retriever import Evidence
from tests.factories import PAGE


def passage(n: int, text: str) -> Evidence:
    return Evidence(n=n, kind="passage", content=text, citations=[PAGE])


def test_driver_questions_and_their_topic() -> None:
    assert asks_driver("What drove the rise in freight costs in FY2023?")
    assert asks_driver("Why did inventories decrease?")
    assert not asks_driver("Why is the company exposed to currency risk?")  # a reason, but of no change
    assert topic("What drove the rise in freight costs in FY2023 for Brindle Foods? Explain.") == "freight costs"
    # a possessive name of several words, with its corporate suffix: the company's, not the line's
    assert topic("What drove the decrease in Brindle Foods, Inc.'s net sales in fiscal 2022?") == "net sales"
    assert topic("Why did Brindle Foods' inventories increase in FY2023?") == "inventories"


def test_the_driver_sentence_names_the_line_and_a_cause() -> None:
    text = (
        "Freight costs were discussed at length. Freight costs increased 12%, driven by higher diesel prices. "
        "Inventories increased 3% because of new stores."
    )
    quote = driver_quote("What drove the increase in freight costs?", [passage(1, text)])
    assert quote is not None and quote.text.startswith("Freight costs increased 12%, driven by")
    assert quote.span == "driven by higher diesel prices"


def test_a_reason_in_the_next_sentence_is_quoted_with_its_line() -> None:
    text = "Warranty expense rose to $41 million. This was primarily due to a recall of older heaters."
    quote = driver_quote("Why did warranty expense rise?", [passage(2, text)])
    assert quote is not None and quote.n == 2
    assert quote.text == text


def test_a_sentence_of_the_other_direction_is_no_driver() -> None:
    text = "Warranty expense decreased 5%, primarily due to fewer claims."
    assert driver_quote("What drove the increase in warranty expense?", [passage(1, text)]) is None


def test_a_yes_no_needs_both_figures_in_one_sentence() -> None:
    assert yes_no_asked("Did warranty expense increase in 2023?") is not None
    assert yes_no_asked("Why did warranty expense increase?") is None
    two = passage(1, "Operating margin fell to 8.1% in 2023 from 9.4% in 2022.")
    found = yes_no("Did operating margin improve in 2023?", [two])
    assert found is not None and found.word == "No" and not found.rose
    assert (found.current.text, found.prior.text) == ("8.1%", "9.4%")
    found = yes_no("Did operating margin increase or decrease?", [two])
    assert found is not None and found.word == "Decreased"
    # "from A to B": the later figure is the second
    found = yes_no(
        "Did selling expenses go up?", [passage(1, "Selling expenses went from $12 million to $15 million.")]
    )
    assert found is not None and found.word == "Yes" and found.current.text == "$15 million"
    # a lower cost improves; one figure alone answers nothing
    found = yes_no(
        "Are selling expenses improving?", [passage(1, "Selling expenses were $15 million compared with $12 million.")]
    )
    assert found is not None and found.word == "No"
    assert yes_no("Did selling expenses rise?", [passage(1, "Selling expenses were $15 million.")]) is None


def test_a_name_opening_with_a_digit_is_the_companys_and_the_line_that_moved_is_quoted_first() -> None:
    """ "7G's operating cash flow": 7G is the company. Of two sentences naming operating cash, the one saying it
    moved is quoted, not the one naming it among the reasons of another line's move."""
    assert topic("What drove the decrease in 7G's operating cash flow in 2022?") == "operating cash flow"
    text = (
        "Cash and equivalents decreased $0.9 billion, primarily because operating cash flow was offset by dividend "
        "payments and share repurchases. In 2022, cash flows provided by operating activities decreased $1.9 "
        "billion, primarily due to lower net income and higher tax payments."
    )
    quote = driver_quote("What drove the decrease in 7G's operating cash flow in 2022?", [passage(1, text)])
    assert quote is not None and quote.text.startswith("In 2022, cash flows provided by operating activities")
