"""The words of a sentence that answer a reason, date, make-up or method question (core.qa.passage_spans)."""

from __future__ import annotations

import pytest

from core.qa.passage_spans import passage_span


@pytest.mark.parametrize(
    ("question", "sentence", "span"),
    [
        # a reason: from the one causal phrase to the end
        (
            "What caused the increase in freight revenue?",
            "The increase in freight revenue was primarily due to higher volumes on the northern routes.",
            "primarily due to higher volumes on the northern routes",
        ),
        (
            "Why did warehouse costs decrease in 2021?",
            "Warehouse costs decreased in 2021 as a result of the closure of two leased depots.",
            "as a result of the closure of two leased depots",
        ),
        # a date the question does not give
        (
            "When did Harvestquay complete the acquisition of Brightmill?",
            "Harvestquay completed the acquisition of Brightmill in March 2021 for cash.",
            "March 2021",
        ),
        # a make-up, a method, a reliance: what follows the question's verb, without a tail repeating the question
        (
            "What does subscription revenue consist of?",
            "Subscription revenue consists primarily of fees for hosted analytics and support.",
            "fees for hosted analytics and support",
        ),
        (
            "How is adjusted EBITDA calculated?",
            "Adjusted EBITDA is calculated by adding back depreciation and share-based payments to operating profit.",
            "by adding back depreciation and share-based payments to operating profit",
        ),
        (
            "What does the company rely on to record its royalty revenue?",
            "The company relies on quarterly reports received from licensees to record its royalty revenue.",
            "quarterly reports received from licensees",
        ),
        # a frequency
        (
            "How often does the company review its actuarial assumptions?",
            "The company reviews its actuarial assumptions on an annual basis and updates them where needed.",
            "annual basis",
        ),
        # a question ending on its predicate: what follows the same words
        (
            "What are the integration costs primarily related to?",
            "Integration costs are primarily related to third party advisory services and retention bonuses.",
            "third party advisory services and retention bonuses",
        ),
        (
            "What was the increase in free cash flow driven by?",
            "The increase in free cash flow was driven by lower capital expenditure.",
            "lower capital expenditure",
        ),
    ],
)
def test_the_answer_is_the_sources_words(question: str, sentence: str, span: str) -> None:
    assert passage_span(question, sentence) == span


@pytest.mark.parametrize(
    ("question", "sentence"),
    [
        # two causes: which one is meant is in doubt
        (
            "What caused the increase in freight revenue?",
            "Freight revenue increased due to higher volumes, and fuel costs rose because of the strike.",
        ),
        # two dates the question does not give
        (
            "When did Harvestquay acquire Brightmill?",
            "Harvestquay agreed to acquire Brightmill in March 2021 and completed it in June 2021.",
        ),
        # the sentence is about something else
        (
            "What caused the increase in freight revenue?",
            "Marketing costs rose primarily due to the new brand campaign.",
        ),
        # "included in" another line is not what a plan includes
        (
            "What is included in the restructuring plan?",
            "Costs of the restructuring plan are included in restructuring charges in the statements of operations.",
        ),
        # a figure is not a span's to give
        ("What was freight revenue in 2021?", "Freight revenue was $4.2 million in 2021 due to volumes."),
    ],
)
def test_no_span_when_in_doubt(question: str, sentence: str) -> None:
    assert passage_span(question, sentence) is None
