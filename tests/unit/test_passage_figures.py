"""The figure a question asks of a sentence: given only when the sentence leaves no doubt (one test per class)."""

from __future__ import annotations

import pytest

from core.models import Citation
from core.qa.passage_figures import asked_periods, figures, passage_figure, subject
from core.qa.synth import synthesize_offline
from core.retrieval.retriever import Evidence


def _figure(question: str, sentence: str) -> str | None:
    found = passage_figure(question, sentence)
    return found.text if found else None


def test_the_value_is_the_figure_and_the_text_keeps_its_qualifier() -> None:
    found = passage_figure(
        "How much inventory was written off in 2020?",
        "In 2020, approximately $310 million of inventory was written off.",
    )
    assert found is not None and (found.text, found.value) == ("approximately $310 million", "$310 million")


@pytest.mark.parametrize(
    ("question", "sentence", "expected"),
    [
        # Periods listed in order with as many figures: "respectively".
        (
            "What was the depreciation of delivery vans for the year ended March 31, 2020?",
            "The depreciation of delivery vans for the years ended March 31, 2021, 2020 and 2019 was "
            "$41.3 million, $38.6 million, and $29.9 million, respectively.",
            "$38.6 million",
        ),
        # "rose to X in 2019 from Y in 2018": each figure with the year after it.
        (
            "What was the freight cost in 2018?",
            "Freight cost rose to $5.2 million in 2019 from $4.1 million in 2018.",
            "$4.1 million",
        ),
        # One figure, the asked period alone in the sentence.
        (
            "What was the hosting cost in 2018?",
            "In 2018, hosting cost was $9.5 million.",
            "$9.5 million",
        ),
        # No period asked: the sentence's only figure.
        (
            "How much was the investment in Brightwater Labs?",
            "The Company's investment in Brightwater Labs was $6.5 million.",
            "$6.5 million",
        ),
        # A count, with the day of a date not read as one.
        (
            "How many employees were in research at fiscal year 2020?",
            "At March 31, 2020, we had 2,340 employees in research.",
            "2,340",
        ),
        # A percent asked: the percent, not the amount beside it.
        (
            "What was the royalty rate in 2020?",
            "The royalty rate was 7.5% in 2020, a royalty expense of $3.0 million.",
            "7.5%",
        ),
        # A bracketed negative in pounds, written as the source writes it.
        (
            "What was the restatement of the opening reserve in 2016?",
            "The restatement of the opening reserve in 2016 was £(4.7m).",
            "£(4.7m)",
        ),
        # A duration.
        (
            "Over how many years will the unrecognized compensation cost be recognized?",
            "The unrecognized compensation cost will be recognized over 2.5 years.",
            "2.5 years",
        ),
    ],
)
def test_the_figure_is_read_when_it_binds_without_doubt(question: str, sentence: str, expected: str) -> None:
    assert _figure(question, sentence) == expected


@pytest.mark.parametrize(
    ("question", "sentence"),
    [
        # Two metrics, one period: which figure is the revenue is a guess.
        ("What was the revenue in 2019?", "Revenue was $5.2 million and cost of sales was $3.1 million in 2019."),
        # The asked period is not in the sentence.
        ("What was the hosting cost in 2017?", "Hosting cost was $9.5 million in 2018."),
        # Two figures, two periods, one of them not asked for the order to hold: 1 year named, 2 figures.
        ("What was the freight cost in 2019?", "Freight cost increased by $1.1 million to $5.2 million in 2019."),
        # A reason, not a figure.
        ("Why did the freight cost increase in 2019?", "Freight cost rose to $5.2 million in 2019 due to fuel prices."),
        # An operation over periods: the cell arithmetic's job.
        (
            "What was the change in freight cost between 2018 and 2019?",
            "Freight cost rose to $5.2 million in 2019 from $4.1 million in 2018.",
        ),
        # The sentence is about something else.
        ("What was the hosting cost in 2018?", "Interest expense was $2.0 million in 2018."),
        # No period asked, but the sentence has figures of two periods.
        ("How much was the hosting cost?", "Hosting cost was $9.5 million in 2019 and $7.1 million in 2018."),
        # A label number is no figure: "Note 12" leaves no count to give.
        ("How many leases are described in Note 12?", "The leases are described in Note 12."),
    ],
)
def test_no_figure_when_in_doubt(question: str, sentence: str) -> None:
    assert _figure(question, sentence) is None


def test_years_days_and_labels_are_not_figures() -> None:
    found = [
        f.text for f in figures("On December 31, 2019 (see Note 7 and ASC 606), the balance was $1,234.5 thousand.")
    ]
    assert found == ["$1,234.5 thousand"]


def test_periods_and_subject() -> None:
    assert asked_periods("What was revenue in FY19 and 2019?") == ["2019"]
    assert subject("What was the hosting cost in 2018?") == "The hosting cost in 2018"
    assert subject("How many employees were there?") == subject("How much did it cost?") == ""


def _passage(n: int, text: str) -> Evidence:
    citation = Citation(kind="page", document_id=1, title="report", page=n, chunk_index=0)
    return Evidence(n=n, kind="passage", content=text, citations=[citation])


def test_offline_answer_leads_with_the_figure_and_gives_it_as_value() -> None:
    evidence = [
        _passage(
            1, "Overview of the year. Hosting cost was $9.5 million and $7.1 million in 2018 and 2017, respectively."
        )
    ]
    answer = synthesize_offline("What was the hosting cost in 2018?", evidence)
    assert answer.values == ["$9.5 million"]
    assert answer.text.startswith("The hosting cost in 2018: $9.5 million [1].")
    assert answer.citations and not answer.abstained


def test_offline_answer_without_a_sure_figure_quotes_and_gives_no_value() -> None:
    evidence = [_passage(1, "Revenue was $5.2 million and cost of sales was $3.1 million in 2019.")]
    answer = synthesize_offline("What was the revenue in 2019?", evidence)
    assert answer.values == []
    assert "[1]" in answer.text and not answer.abstained


@pytest.mark.parametrize(
    "sentence",
    [
        "Year Ended December 31, 2019 2018 2017 Net cash provided by financing activities $ 84,312 $ 12,604 $ 7,455",
        "Net sales 2019 2018 Americas $ 356,420 241,730 Europe 118,905 97,310",
    ],
)
def test_table_text_is_not_prose(sentence: str) -> None:
    """A table's text has its figures by row and column, which a sentence reading cannot tell apart."""
    assert _figure("How much net cash was provided by financing activities in 2018?", sentence) is None
    assert _figure("What were the Americas net sales in 2018?", sentence) is None


def test_a_qualifier_stays_with_its_figure_and_a_range_is_no_figure() -> None:
    assert (
        _figure("How many cities does the company run depots in?", "The company runs depots in over 40 cities.")
        == "over 40"
    )
    assert _figure(
        "What is the equity stake in Brightwater Labs?", "Our equity stake in Brightwater Labs is approximately 22%."
    ) == ("approximately 22%")
    assert (
        _figure(
            "How long is the useful life of the tooling?", "The useful life of the tooling varies from 3 to 8 years."
        )
        is None
    )


@pytest.mark.parametrize(
    ("question", "sentence", "expected"),
    [
        # A bracketed negative percent, "(48.3)%", is a percent: two percents for two years.
        (
            "What was the operating margin in 2020?",
            "The operating margin for 2020 was 11.4% compared to (36.2)% for 2019.",
            "11.4%",
        ),
        # The period first, then the question.
        (
            "At June 30, 2021, what was the backlog of signed orders?",
            "At June 30, 2021, the backlog of signed orders stood at $2.4 billion.",
            "$2.4 billion",
        ),
        # The same figure for both periods: no doubt which.
        (
            "What was the reduced rate of landfill levy?",
            "The reduced rate of landfill levy was 12.5% (2020/21: 12.5%).",
            "12.5%",
        ),
    ],
)
def test_more_ways_prose_states_one_figure(question: str, sentence: str, expected: str) -> None:
    assert _figure(question, sentence) == expected


@pytest.mark.parametrize(
    ("question", "sentence", "expected"),
    [
        (
            "How much did Europe travel costs decrease by from 2019 to 2020?",
            "Europe travel costs decreased $1.4 million from 2019 to 2020 primarily due to fewer trips.",
            "$1.4 million",
        ),
        (
            "What was the increase in spending on fleet upkeep in 2021?",
            "Spending on fleet upkeep increased $86 million for fiscal 2021 when set against fiscal 2020.",
            "$86 million",
        ),
        (
            "How much did Catering sales increase by in 2020?",
            "Catering sales increased by 4.6% in 2020.",
            None,
        ),  # a percent, an amount asked
        (
            "What was the percentage increase in Catering sales in 2020?",
            "Catering sales increased by 4.6% in 2020.",
            "4.6%",
        ),
        # The direction asked is not the one stated: no figure.
        ("How much did the expenses increase by in 2019?", "The expenses decreased $2.2 million in 2019.", None),
        # The reasons for a change are not its amount.
        (
            "Which reasons lay behind the increase in ticket revenue in 2019?",
            "Ticket revenue increased by $412.6 million in 2019 due to attendance.",
            None,
        ),
        # Two changes stated: which one is asked is a guess.
        (
            "How much did the expenses increase in 2019?",
            "The expenses rose $2.9 million to $6.1 million in 2019, a rise of 91%.",
            "$2.9 million",
        ),
        (
            "How much did the expenses change in 2019?",
            "Selling expenses increased $3.7 million and the expenses increased $1.0 million in 2019.",
            None,
        ),
    ],
)
def test_a_change_is_given_only_when_the_sentence_states_it(question: str, sentence: str, expected: str | None) -> None:
    assert _figure(question, sentence) == expected


def test_one_figure_per_period_asked_in_the_order_asked() -> None:
    """ "… in 2019 and 2018 respectively": each period binds to its figure in the sentence's order; the answer
    lists them in the question's order. A sentence that does not bind every period gives none."""
    from core.qa.passage_figures import passage_figures

    sentence = "For fiscal 2019 and 2018, the Company recognized late-payment fees of $47,000 and $6,000, respectively."
    found = passage_figures("What were the late-payment fees recognized in 2018 and 2019 respectively?", sentence)
    assert found is not None and [f.value for f in found] == ["$6,000", "$47,000"]
    assert passage_figures("What was the change in late-payment fees from 2018 to 2019?", sentence) is None
    assert passage_figures("What were late-payment fees in 2017 and 2018 respectively?", sentence) is None
    assert passage_figures("What were the late-payment fees in 2019 and 2018 respectively?",
                           "Late-payment fees were $47,000 in 2019.") is None  # fmt: skip


def test_the_same_figure_for_both_periods_answers_either() -> None:
    sentence = "The amount of cash pledged as security at 31 March 2019 is £2.8 million (2018: £2.8 million)."
    for year in ("2019", "2018"):
        figure = passage_figure(f"What is the amount of cash pledged as security at 31 March {year}?", sentence)
        assert figure is not None and figure.value == "£2.8 million"
    assert passage_figure("What is the amount of cash pledged as security at 31 March 2017?", sentence) is None
