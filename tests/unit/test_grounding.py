"""The names a question mentions (core.qa.grounding.question_names)."""

from __future__ import annotations

import pytest

from core.qa.grounding import abbreviates, question_names


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("What was the FY2021 freight spend (in USD millions) for K9?", ["K9"]),
        ("Which notes are listed under Northwind Mills' name as of 2021?", ["Northwind Mills"]),
        ("Are Copper Kettle's payroll costs steady across the years?", ["Copper Kettle"]),
        ("Does MERX show a widening gross margin as of 2021?", ["MERX"]),
        ("About how often did HnF turn over its stock in FY2021?", ["HnF"]),
        ("Did Harlow & Finch's bookings rise in Q3 of FY2022?", ["Harlow Finch"]),
        ("Who is the CEO of Harvestquay?", ["Harvestquay"]),
        ("How much was raised in Canada in 2021?", ["Canada"]),
        # Sentence openers, periods, numbers, filing forms and metric acronyms name nothing.
        ("Which company raised the most?", []),
        ("What was EBITDA in FY2022 according to the 10-K? Give the answer in USD.", []),
        ("how many seed rounds were there in 2021?", []),
        # a span of periods is a period: a name the table's page must hold, it refused every table
        ("What is the mean operating cost over 2019-2021?", []),
        ("What was EBIT in 2018/19 and FY18-FY19 at Harvestquay?", ["Harvestquay"]),
        # a count of periods is no name: "2-year average" named nothing the statement's page could hold
        ("What is Harvestquay's 2-year average of capex as a percentage of revenue?", ["Harvestquay"]),
        ("What was the 3-month average of Harvestquay's 10-day backlog?", ["Harvestquay"]),
    ],
)
def test_question_names(question: str, names: list[str]) -> None:
    assert question_names(question) == names


def test_abbreviations_of_titles() -> None:
    assert abbreviates("MERX", "MERIDIANEXPORTS_2021_10K.pdf")
    assert abbreviates("HnF", "HARLOW_FINCH_2021_10K.pdf")
    assert not abbreviates("ADM", "ACORN_2021_10K.pdf")
    assert not abbreviates("K9", "COPPERKETTLE_2020_10K.pdf")
