"""Which metrics a question names (core.qa.metrics): wordings, longest first, and clauses that allow absence."""

from __future__ import annotations

import pytest

from core.qa.metrics import METRICS, asked_metrics


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What was the EBITDA of Company 03?", ["EBITDA"]),
        ("What is the FY2018 capex for 3M?", ["capital expenditure"]),
        ("What were net sales in 2019?", ["revenue"]),
        ("What is the diluted earnings per share?", ["EPS"]),  # not "net income" via "earnings"
        ("How much was raised in Canada in 2021?", []),
        ("Compare revenue and headcount in 2022", ["revenue", "headcount"]),
        ("Does AMEX have an improving operating margin? If operating margin is not a useful metric, say why.", []),
    ],
)
def test_asked_metrics(question: str, expected: list[str]) -> None:
    assert [m.name for m in asked_metrics(question)] == expected


def test_a_metric_is_found_by_any_of_its_wordings() -> None:
    [capex] = asked_metrics("How much did it spend on purchases of property, plant and equipment?")
    assert capex.name == "capital expenditure" and "capex" in capex.wordings
    for name, words in METRICS.items():
        assert words and len(set(words)) == len(words), name
