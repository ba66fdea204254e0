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
            "How is the fleet utilisation rate calculated?",
            "The fleet utilisation rate is calculated by dividing hours on hire by hours available in the period.",
            "by dividing hours on hire by hours available in the period",
        ),
        (
            "What does the group rely upon to value its unlisted holdings?",
            "The group relies upon independent broker quotes to value its unlisted holdings.",
            "independent broker quotes",
        ),
        # a frequency
        (
            "How often does the company review its actuarial assumptions?",
            "The company reviews its actuarial assumptions on an annual basis and updates them where needed.",
            "annual basis",
        ),
        # "how often" asks the frequency, even when the question ends on the topic's predicate ("… based on?")
        (
            "How often does the council review the assumptions that its fare forecasts are based on?",
            "The council's fare forecasts are based on assumptions that the council reviews on an annual basis.",
            "annual basis",
        ),
        # the answer ends where the sentence gives its subject a second predicate ("… and is …")
        (
            "How was the fair value of the warrants determined?",
            "The fair value of the warrants issued in 2021 was determined using a lattice model and is reviewed each year.",
            "a lattice model",
        ),
        (
            "What does maintenance revenue consist of?",
            "Maintenance revenue consists of fees for patches and helpdesk access, and was 8% of revenue in 2021.",
            "fees for patches and helpdesk access",
        ),
        # a question ending on its predicate: what follows the same words
        (
            "What are the relocation expenses mainly attributable to?",
            "Relocation expenses are mainly attributable to moving the Leeds laboratory and temporary staff housing.",
            "moving the Leeds laboratory and temporary staff housing",
        ),
        (
            "What was the decline in order backlog driven by?",
            "The decline in order backlog was driven by cancellations from two rail customers.",
            "cancellations from two rail customers",
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
        # "included in" another line is not what a liability includes
        (
            "What is included in the loyalty scheme liability?",
            "Changes in the loyalty scheme liability are included in cost of sales in the income statement.",
        ),
        # a figure is not a span's to give
        ("What was freight revenue in 2021?", "Freight revenue was $4.2 million in 2021 due to volumes."),
    ],
)
def test_no_span_when_in_doubt(question: str, sentence: str) -> None:
    assert passage_span(question, sentence) is None
