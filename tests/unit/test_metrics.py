"""Which metrics a question names (core.qa.metrics): wordings, longest first, and clauses that allow absence."""

from __future__ import annotations

import pytest

from core.qa.metrics import METRICS, asked_metrics


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What was the EBITDA of Company 03?", ["EBITDA"]),
        ("How large was Brightwell Marine's capex in fiscal 2021?", ["capital expenditure"]),
        ("What were net sales in 2019?", ["revenue"]),
        ("What is the diluted earnings per share?", ["EPS"]),  # not "net income" via "earnings"
        ("How much was raised in Canada in 2021?", []),
        ("Compare revenue and headcount in 2022", ["revenue", "headcount"]),
        ("Is Corveth Logistics' gross margin getting better? Where gross margin isn't reported, explain that.", []),
    ],
)
def test_asked_metrics(question: str, expected: list[str]) -> None:
    assert [m.name for m in asked_metrics(question)] == expected


def test_a_metric_is_found_by_any_of_its_wordings() -> None:
    [capex] = asked_metrics("How much did it spend on purchases of property, plant and equipment?")
    assert capex.name == "capital expenditure" and "capex" in capex.wordings
    for name, words in METRICS.items():
        assert words and len(set(words)) == len(words), name
