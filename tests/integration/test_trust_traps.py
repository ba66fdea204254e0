"""Trust traps: one class of question per test, on tables generated here, that tempt a confident wrong answer.

Each test asks through the whole offline QA path and accepts only the right answer or an abstention — never a
cited wrong figure. Expected answers are computed from the generated rows, not written down. Where the product
is expected to answer (not merely to stay silent), the test says so with `answered=True`.
"""

from __future__ import annotations

import random
from collections import defaultdict
from decimal import Decimal

import pytest

from core.qa.service import ask
from tests.factories import csv_bytes, make_xlsx

SECTORS = ("Fintech", "Healthtech", "Climate", "Logistics")


def _done(wb, question: str, room: str) -> dict:
    events = list(ask(wb, question, room))
    return events[-1].result


def _number(text: str) -> Decimal:
    return Decimal(text.replace(",", "").replace("$", ""))


def _same(values: list[str], expected: list[str]) -> bool:
    """Values equal as numbers where both read as numbers, else case-insensitively as text."""
    if len(values) != len(expected):
        return False
    for got, want in zip(values, expected, strict=True):
        try:
            if _number(got) != _number(want):
                return False
        except ArithmeticError:
            if got.strip().casefold() != want.strip().casefold():
                return False
    return True


def _right_or_silent(result: dict, expected: list[str], *, answered: bool = False) -> None:
    """The trust contract: the right value(s), or an abstention; with `answered`, only the right value(s)."""
    if result["abstained"] and not answered:
        assert not result["citations"]
        return
    assert not result["abstained"], f"abstained where the answer is {expected}: {result['answer']}"
    assert _same(result["values"], expected), f"cited a wrong answer {result['values']} (right: {expected})"


@pytest.fixture
def rounds(workbench):
    """A room with one row per funding round (several per company and sector) and a totals row at the bottom."""
    rng = random.Random(7)
    header = ["Company", "Sector", "Year", "Amount (USD)"]
    rows: list[list[object]] = []
    for i in range(40):
        sector = SECTORS[i % len(SECTORS)]
        rows.append([f"Company {i:02d}", sector, rng.choice((2020, 2021, 2022)), rng.randrange(1, 60) * 250_000])
    # One very large round in the sector whose total is NOT the largest: the single-row trap.
    totals = defaultdict(int)
    for _, sector, _, amount in rows:
        totals[sector] += amount
    smallest = min(totals, key=lambda s: totals[s])
    rows.append(["Company 99", smallest, 2022, max(totals.values()) - totals[smallest] - 1])
    grand = sum(r[3] for r in rows)
    data = csv_bytes([header, *rows, ["Total", "", "", grand]])
    assert workbench.ingest_upload(data, "rounds.csv", "Traps", embed=False).status == "ready"
    return workbench, rows


def test_a_total_row_is_never_the_largest_item(rounds) -> None:
    wb, rows = rounds
    biggest = max(rows, key=lambda r: r[3])
    _right_or_silent(_done(wb, "Which company raised the largest amount?", "Traps"), [str(biggest[0])], answered=True)


def test_a_total_row_is_not_added_to_the_sum(rounds) -> None:
    wb, rows = rounds
    _right_or_silent(_done(wb, "What is the total amount raised?", "Traps"), [str(sum(r[3] for r in rows))])


def test_an_average_leaves_the_total_row_out(rounds) -> None:
    wb, rows = rounds
    mean = Decimal(sum(r[3] for r in rows)) / len(rows)
    result = _done(wb, "What was the average amount raised?", "Traps")
    if not result["abstained"]:
        assert abs(_number(result["values"][0]) - mean) < Decimal("0.01"), result["values"]


def test_a_title_row_above_the_header_is_not_the_header(workbench) -> None:
    rows = [[2000 + i, 10 + (i * 7) % 13, 100 + i * 11] for i in range(13)]
    data = csv_bytes([["Fatal accidents by year, 2000-2012"], [], ["Year", "Fatal accidents", "Passengers (m)"], *rows])
    assert workbench.ingest_upload(data, "accidents.csv", "Titles", embed=False).status == "ready"
    worst = max(rows, key=lambda r: r[1])
    _right_or_silent(
        _done(workbench, "How many fatal accidents were there in 2005?", "Titles"), [str(rows[5][1])], answered=True
    )
    _right_or_silent(_done(workbench, "Which year had the most fatal accidents?", "Titles"), [str(worst[0])])


def test_named_entities_match_exactly_before_fuzzily(workbench) -> None:
    stations = [("BBC Radio 1", 8_100_000), ("BBC Radio 2", 14_500_000), ("BBC Radio 4", 10_600_000)]
    data = csv_bytes([["Station", "Weekly listeners"], *[[s, n] for s, n in stations]])
    assert workbench.ingest_upload(data, "listeners.csv", "Radio", embed=False).status == "ready"
    result = _done(workbench, "How many weekly listeners does BBC Radio 4 have?", "Radio")
    _right_or_silent(result, ["10600000"], answered=True)


def test_the_sheet_whose_rows_are_the_things_counted(workbench) -> None:
    rounds = [[f"Co {i}", 2019 + i % 4, (i + 1) * 100_000] for i in range(21)]
    companies = [[f"Co {i}", 2010 + i % 9, "London"] for i in range(21)]
    assert (
        workbench.ingest_upload(
            csv_bytes([["Company", "Year", "Amount"], *rounds]), "rounds_by_year.csv", "Sheets", embed=False
        ).status
        == "ready"
    )
    assert (
        workbench.ingest_upload(
            csv_bytes([["Company", "Founded", "City"], *companies]), "companies.csv", "Sheets", embed=False
        ).status
        == "ready"
    )
    expected = sum(1 for r in rounds if r[1] == 2021)
    _right_or_silent(_done(workbench, "How many rounds were there in 2021?", "Sheets"), [str(expected)])


def test_a_metric_the_room_lacks_is_not_answered_with_another_column(rounds) -> None:
    wb, _ = rounds
    for question in ("What was the EBITDA of Company 03?", "Which sector had the highest ARR?"):
        result = _done(wb, question, "Traps")
        assert result["abstained"] and not result["citations"], (question, result["answer"])


def test_which_group_has_the_most_aggregates_over_the_group(rounds) -> None:
    wb, rows = rounds
    totals: dict[str, int] = defaultdict(int)
    for _, sector, _, amount in rows:
        totals[sector] += amount
    best = max(totals, key=lambda s: totals[s])
    biggest_row_sector = max(rows, key=lambda r: r[3])[1]
    assert best != biggest_row_sector  # the data sets the trap
    _right_or_silent(_done(wb, "Which sector raised the most?", "Traps"), [best])


def test_a_comparison_answers_per_item(rounds) -> None:
    wb, rows = rounds
    totals: dict[str, int] = defaultdict(int)
    for _, sector, _, amount in rows:
        totals[sector] += amount
    result = _done(wb, "How much did Fintech raise compared with Healthtech?", "Traps")
    assert not result["abstained"], result["answer"]
    # Both figures, each its own sector's: never one sum of the two.
    assert sorted(map(int, result["values"])) == sorted([totals["Fintech"], totals["Healthtech"]]), result["values"]
    assert "Fintech" in result["answer"] and "Healthtech" in result["answer"], result["answer"]


def test_a_formula_without_a_cached_value_is_never_a_figure(workbench) -> None:
    data = make_xlsx(
        {"Model": [["Item", "Revenue", "Cost", "Margin"], ["A", 100, 60, "=B2-C2"], ["B", 80, 50, "=B3-C3"]]}
    )
    assert workbench.ingest_upload(data, "model.xlsx", "Formulas", embed=False).status == "ready"
    result = _done(workbench, "What is the margin of item A?", "Formulas")
    # Excel never calculated D2: there is no figure to give (not the formula's text, not 0, not 40).
    assert result["values"] in ([], [""]) or result["abstained"], (result["values"], result["answer"])
    assert "=B2-C2" not in result["answer"] and "40" not in result["answer"], result["answer"]
    [sheet] = workbench.sheets("Formulas")
    assert sheet.uncalculated == (("D2", "=B2-C2"), ("D3", "=B3-C3"))


def test_a_count_never_ignores_a_condition_no_column_reads(rounds) -> None:
    """No column says which rounds "were not disclosed", and the number of rows would be a cited wrong figure;
    with a condition a column reads, the count is answered."""
    wb, rows = rounds
    result = _done(wb, "How many rounds were not disclosed?", "Traps")
    assert result["abstained"] and not result["citations"], result["answer"]  # no rows offered instead either
    expected = sum(1 for r in rows if r[1] == "Fintech")
    _right_or_silent(_done(wb, "How many Fintech rounds were there?", "Traps"), [str(expected)], answered=True)


def test_a_lookup_never_answers_with_every_row(rounds) -> None:
    """No column says which company is profitable: listing every company would answer another question."""
    wb, _ = rounds
    result = _done(wb, "Which company is profitable?", "Traps")
    assert result["abstained"] and not result["citations"], result["answer"]
