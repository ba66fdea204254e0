"""The names a question mentions (core.qa.grounding.question_names)."""

from __future__ import annotations

import pytest

from core.qa.grounding import abbreviates, question_names


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("What is the FY2018 capital expenditure amount (in USD millions) for 3M?", ["3M"]),
        ("Which debt securities are registered under American Express' name as of 2022?", ["American Express"]),
        ("Are Best Buy's gross margins historically consistent?", ["Best Buy"]),
        ("Does AMEX have an improving operating margin profile as of 2022?", ["AMEX"]),
        ("Roughly how many times has JnJ sold its inventory in FY2022?", ["JnJ"]),
        ("Did Johnson & Johnson's sales grow in Q2 of FY2023?", ["Johnson Johnson"]),
        ("Who is the CEO of Harvestquay?", ["Harvestquay"]),
        ("How much was raised in Canada in 2021?", ["Canada"]),
        # Sentence openers, periods, numbers, filing forms and metric acronyms name nothing.
        ("Which company raised the most?", []),
        ("What was EBITDA in FY2022 according to the 10-K? Give the answer in USD.", []),
        ("how many seed rounds were there in 2021?", []),
        # a span of periods is a period: a name the table's page must hold, it refused every table
        ("What is the average net income from 2017-2019?", []),
        ("What was EBIT in 2018/19 and FY18-FY19 at Harvestquay?", ["Harvestquay"]),
    ],
)
def test_question_names(question: str, names: list[str]) -> None:
    assert question_names(question) == names


def test_abbreviations_of_titles() -> None:
    assert abbreviates("AMEX", "AMERICANEXPRESS_2022_10K.pdf")
    assert abbreviates("JnJ", "JOHNSON_JOHNSON_2022_10K.pdf")
    assert not abbreviates("AMD", "ADOBE_2022_10K.pdf")
    assert not abbreviates("3M", "BESTBUY_2019_10K.pdf")
