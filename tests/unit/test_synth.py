"""The offline synthesizer and the answer checks: markers, numbers, abstention."""

from core.models import Citation
from core.qa.synth import ABSTAIN, coverage, synthesize_offline, verify
from core.retrieval.retriever import Evidence
from tests.factories import CELL, PAGE, table_evidence


def passage(n: int, text: str, citation: Citation = PAGE) -> Evidence:
    return Evidence(n=n, kind="passage", content=text, citations=[citation])


def table(n: int) -> Evidence:
    return table_evidence(n, "sum of Amount where Country = Canada = 12,000,000 over 1 row", ["12000000"])


def test_markers_that_point_nowhere_are_removed() -> None:
    text, dropped = verify("Nikhil Yarborough leads Harvestquay [1][7].", [passage(1, PAGE.quote)])
    assert text == "Nikhil Yarborough leads Harvestquay [1]." and dropped == []


def test_a_sentence_without_a_citation_is_dropped() -> None:
    text, dropped = verify(
        "Harvestquay is led by Nikhil Yarborough [1]. It is the best company.", [passage(1, PAGE.quote)]
    )
    assert text == "Harvestquay is led by Nikhil Yarborough [1]." and dropped == ["It is the best company."]


def test_a_number_not_in_the_cited_evidence_is_dropped() -> None:
    text, dropped = verify("It plans 1,105 staff [1]. It plans 2,000 staff [1].", [passage(1, PAGE.quote)])
    assert text == "It plans 1,105 staff [1]." and dropped == ["It plans 2,000 staff [1]."]


def test_table_answers_carry_the_exact_values_and_cells() -> None:
    answer = synthesize_offline("How much was raised in Canada?", [table(1), passage(2, PAGE.quote)])
    assert not answer.abstained and answer.values == ["12000000"]
    assert answer.text.startswith("Sum of Amount where Country = Canada = 12,000,000") and "[1]" in answer.text
    assert answer.citations == [CELL] and answer.markers == {1: [0]}


def test_passage_answers_quote_the_best_sentence() -> None:
    answer = synthesize_offline(
        "Who is the chief executive of Harvestquay?", [passage(1, "Revenue grew in 2024."), passage(2, PAGE.quote)]
    )
    assert answer.text == "Harvestquay is led by chief executive Nikhil Yarborough [2]."
    assert answer.citations == [PAGE] and not answer.abstained


def test_weak_or_missing_evidence_abstains_with_no_citations() -> None:
    for evidence in ([], [passage(1, "Revenue grew in 2024 across all regions.")]):
        answer = synthesize_offline("Who is the chief executive of Harvestquay?", evidence)
        assert answer.abstained and answer.text == ABSTAIN and answer.citations == []


def test_coverage_counts_content_words_only() -> None:
    assert coverage("What is the capital of France?", "Paris is the capital of France") == 1.0
    assert coverage("Who leads Acme?", "Cobalt is led by Mara") == 0.0


def test_a_passage_that_covers_the_question_beats_a_weak_table_guess() -> None:
    weak = table_evidence(1, "Lead Investor of the rows where Company = Harvestquay", ["Harbor Peak"])
    answer = synthesize_offline("Who is the chief executive of Harvestquay?", [weak, passage(2, PAGE.quote)])
    assert answer.values == [] and answer.citations == [PAGE]


def test_a_table_result_of_empty_cells_is_no_answer() -> None:
    empty = table_evidence(1, "Margin of the rows where Item = A: (empty)", [""])
    answer = synthesize_offline("What is the margin of item A?", [empty])
    assert answer.abstained and answer.text == ABSTAIN and not answer.citations


def test_what_drove_a_change_is_read_though_the_passage_lacks_the_questions_reason_words() -> None:
    """ "What drove the increase in revenue in FY2023?": the passage holds "Revenue increased ..., primarily due
    to ..." but not "drove" or "increase" as written (under the passage-coverage floor): the driver sentence is
    still quoted; a passage naming another line gives no answer."""
    text = (
        "Fiscal 2023 compared with fiscal 2022. Revenue increased $412 million, or 6.1%, primarily due to higher "
        "volumes in the core product lines. SG&A as a percentage of revenue increased to 16.6% from 16.0%."
    )
    answer = synthesize_offline("What drove the increase in revenue in FY2023?", [passage(1, text)])
    assert not answer.abstained and "higher volumes in the core product lines" in answer.text and "[1]" in answer.text
    other = synthesize_offline("What drove the increase in freight costs in FY2023?", [passage(1, text)])
    assert other.abstained


def test_a_drivers_premise_is_checked_against_the_statements_move() -> None:
    """The statement line's move checked for "What drove the increase in revenue in FY2027?" (`premise`) is never
    the answer by itself; it says the premise is wrong when the line fell, and a sentence saying the line fell
    while its statement lines rose is no answer."""
    fell = table_evidence(2, "No — Revenue decreased from 2026 (5,100) to 2027 (4,600)", ["No"])
    fell = fell.model_copy(update={"premise": True, "content": "Revenue 2026 5,100 2027 4,600"})
    other = passage(1, "Store count rose to 212, driven by openings in the west.")
    answer = synthesize_offline("What drove the increase in revenue in FY2027?", [other, fell])
    assert answer.text.startswith("Revenue fell, not rose: Revenue decreased from 2026 (5,100) to 2027 (4,600) [2]")
    assert not answer.abstained
    rose = fell.model_copy(update={"values": ["Yes"], "description": "Yes — Revenue increased from 2026 to 2027"})
    said = passage(1, "Revenue decreased 4% in 2027, primarily due to fewer stores.")
    answer = synthesize_offline("What drove the increase in revenue in FY2027?", [said, rose])
    assert answer.abstained and "fell" not in answer.text
