"""core.qa.planner.periods: the period a question asks, and the filings of the room that answer for it."""

from __future__ import annotations

from datetime import date

import pytest

from core.qa.planner.periods import (
    FilingPeriod,
    FilingScope,
    PeriodAsked,
    as_dated,
    at_quarter_end,
    filings_for,
    read_period,
)


@pytest.mark.parametrize(
    ("question", "years", "quarter", "compares", "fiscal"),
    [
        ("What was Kestrel's capex in FY2023?", (2023,), None, False, True),
        ("Net sales in fiscal 2022, in USD millions", (2022,), None, False, True),
        ("Inventory as of FY22 for Hartwell", (2022,), None, False, True),
        ("What drove margins in Q4 2023?", (2023,), 4, False, True),
        ("Revenue in the fourth quarter of fiscal 2023", (2023,), 4, False, True),
        ("the second-quarter 2022 dividend", (2022,), 2, False, True),
        ("the average gross margin over the three years to FY2018", (2016, 2017, 2018), None, True, True),
        ("How did revenue change from FY2016 to FY2018?", (2016, 2017, 2018), None, True, True),
        ("Compare net income in 2021 and 2022", (2021, 2022), None, True, False),
        ("What was revenue in 2022?", (2022,), None, False, False),
    ],
)
def test_read_period(question: str, years: tuple, quarter: int | None, compares: bool, fiscal: bool) -> None:
    asked = read_period(question)
    assert asked is not None
    assert (asked.years, asked.quarter, asked.compares, asked.fiscal) == (years, quarter, compares, fiscal)


def test_no_period() -> None:
    assert read_period("Who chairs the audit committee?") is None
    assert read_period("What share of revenue is 20.5% of $2,023 million?") is None


ROOM = [
    FilingPeriod(1, 2021, None),  # 10-K FY2021
    FilingPeriod(2, 2022, None),  # 10-K FY2022
    FilingPeriod(3, 2023, 1),  # Q1 FY2023 release
    FilingPeriod(4, 2023, 2),  # Q2 FY2023 10-Q
    FilingPeriod(5, 2022, 4),  # Q4 FY2022 release
]


def test_a_year_takes_its_whole_year_filings() -> None:
    assert filings_for(PeriodAsked((2022,)), ROOM) == FilingScope(documents=(2, 5))
    assert filings_for(PeriodAsked((2023,)), ROOM) == FilingScope(documents=(3, 4))
    assert filings_for(PeriodAsked((2020,)), ROOM) == FilingScope(documents=(1,))  # FY2021's prior-year column


def test_a_quarter_takes_its_quarter() -> None:
    assert filings_for(PeriodAsked((2023,), quarter=2), ROOM) == FilingScope(documents=(4,))
    assert filings_for(PeriodAsked((2022,), quarter=4), ROOM) == FilingScope(documents=(2, 5))


def test_a_missing_fiscal_period_names_the_periods_held() -> None:
    scope = filings_for(PeriodAsked((2018,)), ROOM)
    assert scope is not None and scope.missing == "FY2018"
    assert scope.held == ("FY2021", "FY2022", "Q4 FY2022", "Q1 FY2023", "Q2 FY2023")
    # a bare year may be a maturity: not a period the room lacks
    assert filings_for(PeriodAsked((2018,), fiscal=False), ROOM) is None
    # documents of no known period may hold it
    assert filings_for(PeriodAsked((2018,)), [*ROOM, FilingPeriod(9, None, None)]) is None


def test_documents_without_periods_are_kept_in_scope() -> None:
    room = [FilingPeriod(1, 2021, None), FilingPeriod(2, 2022, None), FilingPeriod(7, None, None)]
    assert filings_for(PeriodAsked((2022,)), room) == FilingScope(documents=(2, 7))
    assert filings_for(PeriodAsked((2022,)), [FilingPeriod(7, None, None)]) is None


def test_a_fiscal_year_named_by_another_year_than_its_end_is_asked_as_its_columns_date_it() -> None:
    """A 10-Q of fiscal 2028's second quarter (ended July 29, 2027) dates its columns 2027 and 2026; a 10-K of
    fiscal 2026 under a by-start-year convention (ended January 30, 2027) dates its own 2027."""
    quarter = ["Three Months Ended July 29, 2027", "Three Months Ended July 30, 2026"]
    assert as_dated(
        "Did revenue fall in the second quarter of fiscal 2028?", 2028, date(2027, 7, 29), lambda: quarter
    ) == ("Did revenue fall in the second quarter of fiscal 2027?")
    assert (
        as_dated("Revenue in FY28 versus FY2027?", 2028, date(2027, 7, 29), lambda: quarter)
        == "Revenue in FY27 versus FY2026?"
    )
    annual = ["January 30, 2027", "January 31, 2026"]
    assert as_dated("What was revenue in fiscal 2026?", 2026, date(2027, 1, 30), lambda: annual) == (
        "What was revenue in fiscal 2027?"
    )
    # nothing moves: a date written in the question, a year named by its end, columns of bare years
    asked = "What was revenue for the quarter ended July 29, 2027?"
    assert as_dated(asked, 2028, date(2027, 7, 29), lambda: quarter) == asked
    assert as_dated("Revenue in FY2027?", 2027, date(2027, 1, 30), lambda: annual) == "Revenue in FY2027?"
    assert as_dated("Revenue in FY2028?", 2028, date(2027, 7, 29), lambda: ["2027", "2026"]) == "Revenue in FY2028?"


def test_the_filings_own_quarter_is_its_balance_sheets_date() -> None:
    """A 10-Q's balance sheet is headed by dates alone: the quarter it reports, asked, is the column of its end."""
    balance = ["July 30, 2027", "January 29, 2027", "July 31, 2026"]
    asked = "Did total equity decrease in the second quarter of fiscal 2028?"
    assert at_quarter_end(asked, 2028, 2, date(2027, 7, 30), balance) == "Did total equity decrease in July 30, 2027?"
    # another quarter than the filing's, a whole year, a date written, columns of spans: unchanged
    assert at_quarter_end(asked, 2028, 1, date(2027, 4, 30), balance) == asked
    assert at_quarter_end("Did equity fall in fiscal 2028?", 2028, 2, date(2027, 7, 30), balance) == (
        "Did equity fall in fiscal 2028?"
    )
    assert at_quarter_end(asked, 2028, 2, date(2027, 7, 30), ["Three Months Ended", "Column C"]) == asked
    assert at_quarter_end(asked, 2028, None, date(2027, 7, 30), balance) == asked


def test_the_year_before_the_quarter_is_its_balance_sheets_year_end_column() -> None:
    """ "Between FY2027 and Q2 FY2028" of a 10-Q whose balance sheet holds the quarter's end, the fiscal year's end and
    the year-ago quarter's end: the fiscal year's end and the quarter's end; another year beside it: unchanged."""
    balance = ["July 30, 2027", "January 29, 2027", "July 31, 2026"]
    asked = "Did cash fall between FY 2027 and Q2 of FY2028?"
    assert at_quarter_end(asked, 2028, 2, date(2027, 7, 30), balance) == (
        "Did cash fall between January 29, 2027 and July 30, 2027?"
    )
    other = "Did cash fall between FY2025 and Q2 FY2028?"
    assert at_quarter_end(other, 2028, 2, date(2027, 7, 30), balance) == other
    assert at_quarter_end(asked, 2028, 2, date(2027, 7, 30), ["July 30, 2027", "July 31, 2026"]) == asked


def test_a_balances_change_in_the_quarter_runs_from_the_fiscal_years_end() -> None:
    """A 10-Q sets its balances against the fiscal year's end: a change asked of the quarter alone starts there."""
    balance = ["July 30, 2027", "January 29, 2027", "July 31, 2026"]
    asked = "What was the change in receivables in the second quarter of fiscal 2028?"
    assert at_quarter_end(asked, 2028, 2, date(2027, 7, 30), balance, change=True) == (
        "What was the change in receivables between January 29, 2027 and July 30, 2027?"
    )
    assert at_quarter_end(asked, 2028, 2, date(2027, 7, 30), balance) == (
        "What was the change in receivables in July 30, 2027?"
    )
