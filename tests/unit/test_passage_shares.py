"""The share of a year's amount made in one quarter, read from two sentences (core.qa.passage_shares, and its
answer in core.qa.synth). Invented examples."""

from __future__ import annotations

from decimal import Decimal

from core.qa.passage_shares import prose_share, share_asked
from core.qa.synth import synthesize_offline
from core.retrieval.retriever import Evidence
from tests.factories import PAGE


def passage(n: int, text: str, period: str | None = None) -> Evidence:
    return Evidence(n=n, kind="passage", content=text, citations=[PAGE], period=period)


Q4 = passage(1, "Orrin Tools reports fourth quarter results. During the quarter, the Company repurchased 2.1 million "
                "shares of its common stock for $84 million. For fiscal 2023, share repurchases totaled $312 "
                "million.", "Q4 FY2023")  # fmt: skip
Q2 = passage(2, "During the quarter, the Company repurchased 1.0 million shares for $40 million.", "Q2 FY2023")


def test_a_quarters_share_of_the_years_amount_is_read_from_the_two_sentences_stating_them() -> None:
    for question in ("What share of Orrin's fiscal 2023 buybacks was made in the fourth quarter?",
                     "Of the shares repurchased in FY2023, what portion was bought in the last quarter of the year?"):  # fmt: skip
        found = prose_share(question, [Q2, Q4], {2: "Q2 FY2023", 1: "Q4 FY2023"})
        assert found is not None, question
        assert found.share == Decimal("26.92") and found.part.value == "$84 million"  # 84 / 312
        assert found.whole_quote[1].startswith("For fiscal 2023")
    # the second quarter's release says "during the quarter" too: its own quarter, not the fourth
    q2 = prose_share(
        "What percentage of fiscal 2023 repurchases was made in Q2?", [Q4, Q2], {1: "Q4 FY2023", 2: "Q2 FY2023"}
    )
    assert q2 is not None and q2.part.value == "$40 million"


def test_a_quarters_sentence_naming_its_year_is_still_the_quarters() -> None:
    """ "In the fourth quarter of fiscal 2023, we repurchased …" names a year, but as its quarter's: it is the
    quarter's sentence, whatever filing it is in; a sentence of the whole year stays the year's."""
    annual = passage(
        1,
        "In the fourth quarter of fiscal 2023, we repurchased 0.8 million shares for $61 million. "
        "In fiscal 2023, we repurchased 3.9 million shares for $290 million in total.",
        "FY2023",
    )
    found = prose_share("What share of Orrin's fiscal 2023 buybacks was made in Q4?", [annual], {1: "FY2023"})
    assert found is not None and found.part.value == "$61 million" and found.whole.value == "$290 million"
    # another quarter of the year asked is no answer
    third = passage(1, annual.content.replace("fourth quarter", "third quarter"), "FY2023")
    assert prose_share("What share of Orrin's fiscal 2023 buybacks was made in Q4?", [third], {1: "FY2023"}) is None


def test_questions_asking_no_share_of_a_year_are_left_alone() -> None:
    for question in (
        "What were Q4 share repurchases in fiscal 2023?",  # "share repurchases" asks no share
        "What was the percentage increase in Q4 revenue in 2023?",  # a change
        "What percentage of Q4 2023 revenue came from services?",
    ):  # a share of the quarter
        assert share_asked(question) is None, question
    # no quarter sentence of the quarter asked: nothing computed
    assert prose_share("What share of fiscal 2023 buybacks was made in Q3?", [Q4], {1: "Q4 FY2023"}) is None


def test_the_answer_leads_with_the_share_and_quotes_both_sentences_cited() -> None:
    answer = synthesize_offline("What share of Orrin's fiscal 2023 buybacks was made in the fourth quarter?", [Q4])
    assert not answer.abstained and answer.values == ["26.92"]
    assert answer.text.startswith("26.92% = $84 million / $312 million"), answer.text
    assert "“During the quarter, the Company repurchased 2.1 million shares" in answer.text and "[1]" in answer.text
