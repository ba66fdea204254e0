"""Measures of the registry (core.lexicon.measures) asked through the whole offline QA path on the real
embedded Postgres: a workbook's monthly P&L and a filing whose inputs sit on two pages' tables. The figure leads,
the formula follows with each input's figure, and each input cell is cited; a missing input abstains naming it.
Names and figures are invented."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

import pymupdf
import pytest

from core.qa.service import ask
from tests.factories import make_statement_pdf, make_xlsx

MONTHS = ("Jan", "Feb", "Mar", "Apr")
PNL = {"Revenue": [5_200, 6_100, 7_350, 6_900], "Cost of sales": [2_100, 2_640, 3_010, 2_990],
       "Gross profit": [3_100, 3_460, 4_340, 3_910], "Rent": [400, 400, 420, 420]}  # fmt: skip


def _done(wb, question: str, room: str) -> dict:
    return list(ask(wb, question, room))[-1].result


def _round(value: Decimal, places: str = "0.01") -> str:
    return str(value.quantize(Decimal(places), rounding=ROUND_HALF_UP))


def test_a_workbooks_gross_margin_for_a_month_from_two_cited_cells(workbench) -> None:
    sheet = [["", *MONTHS], *([line, *figures] for line, figures in PNL.items())]
    assert workbench.ingest_upload(make_xlsx({"P&L": sheet}), "budget.xlsx", "Budget", embed=False).status == "ready"
    result = _done(workbench, "What was the gross margin in March?", "Budget")
    expected = _round(Decimal(PNL["Gross profit"][2]) / Decimal(PNL["Revenue"][2]) * 100)
    assert not result["abstained"], result["answer"]
    assert result["values"] == [expected]
    assert result["answer"].startswith(f"{expected}% = 4340 / 7350 × 100"), result["answer"]
    assert sorted(c["value"] for c in result["citations"]) == ["4340", "7350"]
    # the month asked, not another: the cited cells are in the Mar column
    assert {c["column"] for c in result["citations"]} == {"Mar"}


CASH_FLOW = [
    ("Net income", ("1,250", "1,105", "990")),
    ("Depreciation and amortization", ("410", "388", "350")),
    ("Net cash provided by operating activities", ("2,913", "2,402", "2,150")),
    ("Purchases of property and equipment", ("(812)", "(760)", "(701)")),
]
BALANCE = [
    ("Cash and cash equivalents", ("1,320", "1,004", "990")),
    ("Inventories", ("1,870", "1,655", "1,500")),
    ("Total current assets", ("4,400", "3,980", "3,700")),
    ("Total current liabilities", ("3,527", "3,311", "3,020")),
    ("Total assets", ("12,800", "11,940", "11,200")),
]


def _filing(cash_rows=CASH_FLOW, balance_rows=BALANCE) -> bytes:
    """Four pages: prose and the cash flow statement, then prose and the balance sheet."""
    doc = pymupdf.open()
    for heading, rows in (("CONSOLIDATED STATEMENTS OF CASH FLOWS", cash_rows),
                          ("CONSOLIDATED BALANCE SHEETS", balance_rows)):  # fmt: skip
        part = pymupdf.open(stream=make_statement_pdf(rows=rows, heading=heading, unit="(in millions)"), filetype="pdf")
        doc.insert_pdf(part)
        part.close()
    data = doc.tobytes()
    doc.close()
    return data


@pytest.fixture
def filing(workbench) -> None:
    result = workbench.ingest_upload(_filing(), "QUILLON_2022_10K.pdf", "Quillon", embed=False)
    assert result.status == "ready" and result.tables == 2, result


def test_a_ratio_defined_in_the_question_from_two_tables_of_a_filing(workbench, filing) -> None:
    question = ("What was the 2022 liquidity cover, defined as: cash from operations / total current liabilities? "
                "Round to two decimal places.")  # fmt: skip
    result = _done(workbench, question, "Quillon")
    assert not result["abstained"], result["answer"]
    assert result["values"] == ["0.83"]
    assert result["answer"].startswith("0.83 = 2,913 / 3,527"), result["answer"]
    cited = {(c["page"], c["value"]) for c in result["citations"]}
    assert cited == {(2, "2,913"), (4, "3,527")}


def test_a_registered_measure_with_an_average_balance_says_its_prior_column(workbench, filing) -> None:
    result = _done(workbench, "What was the return on assets in 2022?", "Quillon")
    assert not result["abstained"], result["answer"]
    expected = _round(Decimal(1250) / ((Decimal(12800) + Decimal(11940)) / 2) * 100)
    assert result["values"] == [expected]
    assert "prior period's column (2021)" in result["answer"]
    assert result["answer"].startswith(f"{expected}% = 1,250 / ((12,800 + 11,940) / 2) × 100"), result["answer"]
    assert sorted(c["value"] for c in result["citations"]) == ["1,250", "11,940", "12,800"]


def test_a_measure_missing_an_input_abstains_naming_it(workbench, filing) -> None:
    result = _done(workbench, "What was the quick ratio in 2022?", "Quillon")
    assert result["values"] == [expected := _round((Decimal(4400) - Decimal(1870)) / Decimal(3527))], expected
    result = _done(workbench, "What was the dividend payout ratio in 2022?", "Quillon")
    assert result["abstained"] and result["values"] == [], result["answer"]
    assert "dividends paid (2022)" in result["answer"], result["answer"]
    assert "1,250" not in result["answer"]  # the ingredient it holds (net income) is not given as the measure


def test_whether_a_registered_measure_improved_is_answered_from_both_years(workbench, filing) -> None:
    """ "Did the current ratio improve in 2022 compared with the prior year?": the ratio in 2021 and in 2022 from
    their cells, the word first (a current ratio's rise is an improvement) and both figures behind it; a measure
    whose better direction is not set gets its direction, never a judgement."""
    result = _done(workbench, "Did the current ratio improve in 2022 compared with the prior year?", "Quillon")
    before, after = _round(Decimal(3980) / Decimal(3311)), _round(Decimal(4400) / Decimal(3527))
    assert not result["abstained"] and result["values"] == ["Yes" if after > before else "No"], result["answer"]
    assert result["answer"].startswith(f"{result['values'][0]} — the current ratio "), result["answer"]
    assert f"{before} in 2021" in result["answer"] and f"{after} in 2022" in result["answer"]
    assert sorted(c["value"] for c in result["citations"]) == ["3,311", "3,527", "3,980", "4,400"]
    worse = _done(workbench, "Did the current ratio deteriorate in 2022?", "Quillon")
    assert worse["values"] == ["No" if after > before else "Yes"], worse["answer"]


def test_an_amount_measure_asked_in_another_unit_is_converted_from_the_statements(workbench, filing) -> None:
    """Free cash flow "in USD billions" of statements in millions: 2,913 - 812 = 2,101 million is 2.10 billion,
    the figure in the statements' unit beside it."""
    result = _done(workbench, "What was free cash flow in 2022, in USD billions?", "Quillon")
    assert not result["abstained"] and result["values"] == ["2.10"], result["answer"]
    assert result["answer"].startswith("2.10 billion (2,101.00 million) = 2,913 - (812)"), result["answer"]
    same = _done(workbench, "What was free cash flow in 2022 in USD millions?", "Quillon")
    assert same["values"] == ["2101.00"], same["answer"]


def test_a_growth_rate_a_level_and_a_change_of_a_measure_through_the_whole_path(workbench, filing) -> None:
    """Questions whose measure words the room never prints ("CAGR", "positive working capital") are answered
    from the statements' cells, the word or figure first: the measure is computed, so nothing is unlinked."""
    cagr = _done(workbench, "What was the compound annual growth rate of net income from 2020 to 2022?", "Quillon")
    expected = _round(((Decimal(1250) / Decimal(990)).sqrt() - 1) * 100)
    assert not cagr["abstained"] and cagr["values"] == [expected], cagr["answer"]
    assert cagr["answer"].startswith(f"{expected}% a year, compounded over 2 years"), cagr["answer"]
    assert sorted(c["value"] for c in cagr["citations"]) == ["1,105", "1,250", "990"]
    positive = _done(workbench, "Does Quillon have positive working capital based on 2022 data?", "Quillon")
    assert positive["values"] == ["Yes"] and "873" in positive["answer"], positive["answer"]  # 4,400 - 3,527
    change = _done(workbench, "What was the change in the current ratio from 2021 to 2022?", "Quillon")
    moved = _round(Decimal(4400) / Decimal(3527) - Decimal(3980) / Decimal(3311))
    assert change["values"] == [moved], change["answer"]
