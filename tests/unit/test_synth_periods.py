"""No answer stitched across periods (issue 24): passages of several filings' periods give the period asked, else
the latest, each sentence labelled; a question comparing periods keeps each, labelled. Invented companies."""

from __future__ import annotations

from core.models import Citation
from core.qa.synth import synthesize_offline
from core.retrieval.retriever import Evidence


def passage(n: int, text: str, period: str | None, document_id: int | None = None) -> Evidence:
    citation = Citation(kind="page", document_id=document_id or n, title=f"doc{n}.pdf", page=n, quote=text)
    return Evidence(n=n, kind="passage", content=text, citations=[citation], period=period)


EVIDENCE = [
    passage(1, "The selling expense ratio increased to 19.4% in the half year, due to freight costs.", "Q2 FY2023"),
    passage(
        2, "The selling expense ratio decreased 40 basis points for the year, due to lower freight costs.", "FY2023"
    ),
    passage(3, "The selling expense ratio increased to 20.1% in the first quarter, due to wages.", "Q1 FY2023"),
]


def test_the_period_asked_alone_answers() -> None:
    answer = synthesize_offline("What drove the selling expense ratio in FY2023?", EVIDENCE)
    assert not answer.abstained
    assert answer.text.startswith("FY2023: ") and "[2]" in answer.text
    assert "[1]" not in answer.text and "[3]" not in answer.text
    assert {c.document_id for c in answer.citations} == {2}


def test_a_quarter_asked_takes_that_quarter() -> None:
    answer = synthesize_offline("What drove the selling expense ratio in Q1 FY2023?", EVIDENCE)
    assert "[3]" in answer.text and "[1]" not in answer.text and "[2]" not in answer.text


def test_without_a_period_the_latest_answers_and_says_so() -> None:
    answer = synthesize_offline("What drove the selling expense ratio?", EVIDENCE)
    assert "FY2023 (latest): " in answer.text and "[2]" in answer.text
    assert "[1]" not in answer.text and "[3]" not in answer.text


def test_a_comparison_labels_each_period() -> None:
    answer = synthesize_offline("Compare the selling expense ratio in Q1 FY2023 and Q2 FY2023", EVIDENCE)
    assert "Q2 FY2023: " in answer.text and "Q1 FY2023: " in answer.text


def test_one_period_is_unchanged() -> None:
    same = [passage(1, EVIDENCE[0].content, None), passage(2, EVIDENCE[1].content, None)]
    answer = synthesize_offline("What drove the selling expense ratio in FY2023?", same)
    assert "FY2023: " not in answer.text and "[1]" in answer.text and "[2]" in answer.text


def test_a_period_is_said_once_before_its_sentences() -> None:
    answer = synthesize_offline("What drove the selling expense ratio in FY2023?", EVIDENCE)
    assert answer.text.count("FY2023: ") == 1


def test_a_period_asked_beside_the_question_labels_it_as_asked() -> None:
    """`ask --period Q2 FY2023` with a question naming no period: the passages of that period answer, labelled with
    it, not as "the latest" (before: the latest of the passages given, labelled "(latest)")."""
    from core.qa.planner.periods import PeriodAsked

    beside = PeriodAsked((2023,), quarter=2)
    answer = synthesize_offline("What drove the selling expense ratio?", EVIDENCE, beside)
    assert answer.text.startswith("Q2 FY2023: ") and "(latest)" not in answer.text
    assert "[1]" in answer.text and "[2]" not in answer.text and "[3]" not in answer.text
    # Words of the question naming a period win over the period beside it.
    named = synthesize_offline("What drove the selling expense ratio in Q1 FY2023?", EVIDENCE, beside)
    assert "[3]" in named.text and "[1]" not in named.text


def test_a_whole_year_asked_reads_that_years_filing_before_its_fourth_quarters_release() -> None:
    """The fourth quarter's release reports the year too, and may share more of the question's words; the year's own
    filing speaks for the year asked (the release's quarter says nothing of the segment's driver here)."""
    release = passage(
        1, "Pharmacy segment sales for the fourth quarter and the full year 2023 were reported in the table below.",
        "Q4 FY2023",
    )  # fmt: skip
    annual = passage(
        2, "Pharmacy segment sales in 2023 were $5.2 billion, an increase of 2.1%, driven by higher volumes.", "FY2023"
    )
    answer = synthesize_offline(
        "What drove the change in Pharmacy segment sales for the full year 2023?", [release, annual]
    )
    assert (
        not answer.abstained
        and answer.text.startswith("FY2023: ")
        and "[2]" in answer.text
        and "[1]" not in answer.text
    )


def test_each_part_named_by_its_own_words_is_quoted_without_an_empty_label() -> None:
    """The company's move stated only per part, each part naming itself ("Home Goods worldwide sales increased …"):
    every part's sentence is quoted, cited, with no heading label to put before it."""
    home = passage(1, "Home Goods worldwide sales increased 5.2%, largely driven by kitchen products.", None)
    garden = passage(2, "Garden Tools worldwide sales grew 8.1%, driven primarily by mowers.", None)
    answer = synthesize_offline("What drove the change in Quillon's worldwide sales in 2031?", [home, garden])
    assert not answer.abstained and "[1]" in answer.text and "[2]" in answer.text
    assert ": “" not in answer.text
