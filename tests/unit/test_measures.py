"""Measures a question names by a compound (core.qa.measures.asked_measures): what is read, what is left alone."""

from __future__ import annotations

import pytest

from core.qa.measures import asked_measures


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # a measure noun after the words that say which measure, in each way a question frames it
        ("What was Acme's net promoter score in FY2022?", ["net promoter score"]),
        ("How did the load factor of Acme change between FY2021 and FY2022?", ["load factor"]),
        ("What is the customer retention rate reported by Acme?", ["customer retention rate"]),
        ("What is the tier 1 capital ratio in 2022?", ["tier 1 capital ratio"]),
        ("What was the cash conversion cycle?", ["cash conversion cycle"]),
        # "X per Y": the measure ends at the word after "per"
        ("What was the revenue per employee in 2022?", ["revenue per employee"]),
        ("What was the special distribution per unit proposed for 2023?", ["special distribution per unit"]),
        # a count, a value, a lexicon metric narrowed by a word before it
        ("What was the store count in FY2022?", ["store count"]),
        ("How did the average order value change?", ["order value"]),
        ("What was the deferred revenue in 2022?", ["deferred revenue"]),
        ("What were services net sales in 2022?", ["services net sales"]),
        # whatever noun phrase a question asks of a name: after its possessive, or "the … of" / "reported by" it
        ("What was Acme's gross bookings in FY2022?", ["gross bookings"]),
        ("How did the monthly active users of Acme change between FY2021 and FY2022?", ["monthly active users"]),
        ("What is the fleet size reported by Acme?", ["fleet size"]),
        ("What was Acme's total fleet in 2022?", ["fleet"]),  # one word, after a possessive
        ("How did the cost of risk of Acme change?", ["cost of risk"]),  # through a preposition inside the name
        ("What was Acme's funds from operations in FY2022?", ["funds from operations"]),
        ("What was Acme's net debt to EBITDA in FY2022?", ["net debt to ebitda"]),  # "to" between two figures
        ("What was Acme's revenue from services?", ["services revenue"]),  # a metric narrowed, either order
        ("What was Acme's contribution to pension plans?", ["contribution", "pension plans"]),  # no ratio: each
        ("How did the net charge-offs to average loans of Acme change?", ["net charge offs", "average loans"]),
        ("What was the debt to capital ratio in 2022?", ["debt to capital ratio"]),  # no capital ratio
        ("What was the debt to total capital ratio?", ["debt to total capital ratio"]),
        ("What was Acme's cost of debt?", ["cost of debt"]),  # through a preposition: no kind of debt
        ("What was Acme's return on average equity?", ["return on average equity"]),  # the lexicon's is exact
        ("What was Acme's net cash from operating activities?", ["net cash"]),  # the lexicon's after "from"
        ("What was Acme's number of employees abroad in FY2022?", ["number of employees abroad"]),  # a count
        ("What is the free cash flow yield of Acme?", ["free cash flow yield"]),  # over a price, not the lexicon's
        ("How did the average fare of Acme change?", ["fare"]),  # one word of a name, "average" an operation
        # "and" inside a lexicon wording is inside the name, not between two
        ("What was Acme's research and development intensity?", ["research and development intensity"]),
        # an acronym naming the measure, after "the" or an owner's possessive
        ("What was Acme's EBITDAR margin in FY2022?", ["ebitdar margin"]),
        ("What is the NAV per share reported by Acme?", ["nav per share"]),
        ("How did the R&D intensity of Acme change?", ["r d intensity"]),
        # verbs and operations around a measure are not part of its name
        ("What drove the interest coverage ratio change in 2022?", ["interest coverage ratio"]),
        ("What was the average occupancy rate for 2018 and 2019?", ["occupancy rate"]),
        # only the asking sentence, after a lead-in's colon
        (
            "Suppose you review a filing. From the balance sheet: what is the efficiency ratio? Base your answer "
            "on the figures printed in the income statement.",
            ["efficiency ratio"],
        ),
    ],
)
def test_measures_named_by_a_compound(question: str, expected: list[str]) -> None:
    assert asked_measures(question) == expected


@pytest.mark.parametrize(
    "question",
    [
        "What is the ratio of debt to equity in 2019?",  # a quantity of two things, not a named measure
        "What percentage of revenue came from Europe?",
        "What was the operating margin in 2022?",  # the metric lexicon links it (core.qa.metrics)
        "How high was the quick ratio at the end of 2021?",
        "What is the FY2019 - FY2021 3 year average net profit margin for Acme?",  # a margin of net income
        "What is the debt-to-equity ratio in 2018?",
        "What was the debt to equity ratio in 2022?",  # the lexicon's, not an "equity ratio"
        "What was the rate in 2019?",  # a measure noun alone names no measure
        "What was the average EUR-CHF rate in fiscal 2021?",
        "What was the net revenue in 2022?",  # no measure noun: the lexicon's business
        "What was the total annual revenue in 2022?",  # words that narrow no metric
        "In which year was EBITDA lower?",
        "If the occupancy rate is not reported, what drove sales?",  # the question allows for its absence
        # a figure of a name the lexicon knows, or an operation on it
        "What was Acme's net revenue in FY2022?",
        "What was Acme's cost of goods sold in FY2022?",
        "How did Acme's revenue growth compare with its peers?",
        # a generic owner is no name; a noun of parts or kinds asks what the name holds
        "What mainly caused the decline in the Company's accrued warranty reserve?",
        "What are the components of Corporate Overhead?",
        "What are the kinds of Cloud Services units shown?",
        # an acronym before a verb is no part of a measure; two metrics joined by "and" are two
        "What is the ARPU targeted by Norvik for 2024?",
        "What were Acme's revenue and net income in 2022?",
        "What is the depreciation and amortization ratio of Acme?",  # a ratio of the lexicon's D&A, not of "amortization"
        # an expense line of the lexicon with a noun saying it is one: the lexicon's SG&A, R&D
        "What caused Acme's SG&A expenses to increase in 2022?",
        "What were Acme's R&D costs in FY2022?",
        "What was the research and development spending of Acme?",
    ],
)
def test_no_measure_to_link(question: str) -> None:
    assert asked_measures(question) == []


def test_names_are_left_to_the_name_check() -> None:
    # "EUR-CHF" and "Swiss Franc" are names (core.qa.grounding links them); the measure is the exchange rate
    assert asked_measures("What EUR-CHF exchange rate did the group average in fiscal 2021?") == ["exchange rate"]
    assert asked_measures("How did the Swiss Franc exchange rate move from 2020 to 2021?") == ["exchange rate"]
