"""core.ingest.filing: a document's company, form and period from generated covers (invented companies)."""

from __future__ import annotations

from datetime import date

import pytest

from core.ingest.filing import Filing, fiscal_header, parse_period, period_label, read_filing

TEN_K = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
Washington, D.C. 20549
FORM 10-K
(Mark One)
☒ ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934
For the fiscal year ended December 31, 2022
Commission file number 1-1234
NORTHWIND TOOLS CORPORATION
(Exact name of registrant as specified in its charter)
Delaware 41-0000000
"""

TEN_K_RETAIL = """FORM 10-K
ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934
For the fiscal year ended January 28, 2023
BRIGHTWATER STORES, INC.
(Exact name of registrant as specified in its charter)
Unless the context otherwise requires, references to fiscal 2022 ended January 28, 2023 are to the 52 weeks then
ended.
"""

TEN_Q = """UNITED STATES SECURITIES AND EXCHANGE COMMISSION
FORM 10-Q
QUARTERLY REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934
For the quarterly period ended July 29, 2023
Brightwater Stores, Inc.
(Exact name of registrant as specified in its charter)
"""

RELEASE = """Elmstead Pharma Reports Fourth-Quarter and Full-Year 2022 Results
NEW BRUNSWICK, January 24, 2023 — Elmstead Pharma today announced sales of $23.7 billion for the fourth
quarter of 2022, for the quarter ended January 1, 2023.
"""

EIGHT_K = """UNITED STATES SECURITIES AND EXCHANGE COMMISSION
FORM 8-K
CURRENT REPORT
Pursuant to Section 13 or 15(d) of the Securities Exchange Act of 1934
Date of Report (Date of earliest event reported): August 30, 2023
Corran Health Group
(Exact name of registrant as specified in its charter)
"""

ANNUAL_REPORT = """Ashby Holdings plc
Annual Report and Accounts 2021
Strategic report
Our year ended 31 March 2022 ("fiscal 2021") was a year of growth.
"""


def test_ten_k_cover() -> None:
    filing = read_filing([TEN_K], "upload.pdf")
    assert filing == Filing(
        company="NORTHWIND TOOLS CORPORATION", form="10-K", fiscal_year=2022, period_end=date(2022, 12, 31)
    )
    assert filing.period == "FY2022"


def test_retailers_convention_names_the_year_it_began() -> None:
    """The cover states its convention: fiscal 2022 ended in January 2023; the calendar year would be wrong."""
    filing = read_filing([TEN_K_RETAIL], "brightwater.pdf")
    assert (filing.form, filing.fiscal_year, filing.fiscal_quarter) == ("10-K", 2022, None)
    assert filing.period_end == date(2023, 1, 28)
    assert filing.fiscal_convention == "fiscal 2022 ended January 28, 2023"
    assert filing.company == "BRIGHTWATER STORES, INC."


def test_quarterly_report_takes_its_quarter_and_year_from_the_file_name() -> None:
    """A 10-Q's cover states its period end only: the name says which fiscal quarter (a year ending next January)."""
    filing = read_filing([TEN_Q], "BRIGHTWATER_2024Q2_10Q.pdf")
    assert (filing.form, filing.fiscal_year, filing.fiscal_quarter) == ("10-Q", 2024, 2)
    assert filing.period == "Q2 FY2024" and filing.period_end == date(2023, 7, 29)


def test_earnings_release_headline() -> None:
    filing = read_filing([RELEASE], "release.pdf")
    assert (filing.form, filing.fiscal_year, filing.fiscal_quarter) == ("earnings release", 2022, 4)
    assert filing.company == "Elmstead Pharma" and filing.period_end == date(2023, 1, 1)


def test_eight_k_is_a_current_report_whose_name_dates_an_event_not_a_period() -> None:
    filing = read_filing([EIGHT_K], "CORRAN_2023_8K_dated-2023-08-30.pdf")
    assert (filing.form, filing.company, filing.fiscal_year, filing.period_end) == (
        "8-K",
        "Corran Health Group",
        None,
        None,
    )
    release = EIGHT_K + "\nExhibit 99.1 Corran Health Group Reports Second-Quarter 2023 Results\n"
    assert read_filing([release], "CORRAN_2023_8K.pdf").period == "Q2 FY2023"


def test_annual_report_with_a_stated_convention_after_the_date() -> None:
    filing = read_filing([ANNUAL_REPORT], "ashby-ar.pdf")
    assert (filing.form, filing.fiscal_year, filing.period_end) == ("annual report", 2021, date(2022, 3, 31))
    assert filing.company == "Ashby Holdings plc"


@pytest.mark.parametrize(
    ("filename", "form", "company", "year", "quarter"),
    [
        ("NORTHWIND_2019_10K.pdf", "10-K", "NORTHWIND", 2019, None),
        ("Elmstead_Pharma_2023Q2_EARNINGS.pdf", "earnings release", "Elmstead Pharma", 2023, 2),
        ("corran-10-q-2021.pdf", "10-Q", "corran", 2021, None),
        ("minutes.pdf", "other", None, None, None),
    ],
)
def test_file_name_alone(filename: str, form: str, company: str | None, year: int | None, quarter: int | None) -> None:
    filing = read_filing(["A page with nothing on it that names a form."], filename)
    assert (filing.form, filing.company, filing.fiscal_year, filing.fiscal_quarter) == (form, company, year, quarter)


def test_annual_filing_has_no_quarter_though_its_cover_names_one() -> None:
    text = TEN_K + "\nIn the fourth quarter of 2022 sales rose.\n"
    assert read_filing([text], "NORTHWIND_2022Q4_10K.pdf").fiscal_quarter is None


def test_period_labels() -> None:
    assert parse_period("FY2022") == (2022, None) == parse_period("fiscal 2022") == parse_period("2022")
    assert parse_period("Q3 FY2023") == (2023, 3) == parse_period("q3 2023")
    assert parse_period("FY23") == (2023, None)
    assert parse_period("next year") is None
    assert (
        period_label(2023, 3) == "Q3 FY2023" and period_label(2022, None) == "FY2022" and period_label(None, 1) is None
    )


def test_company_line_in_capitals_not_the_exchange_listed_below_it() -> None:
    cover = (
        "FORM 10-K\nFor the fiscal year ended December 31, 2018\nCommission file number 1-0000\nKESTREL COMPANY\n"
        "State of Incorporation: Delaware\nTitle of each class\nNew York Stock Exchange, Inc.\n"
    )
    assert read_filing([cover], "k.pdf").company == "KESTREL COMPANY"


def test_a_document_that_is_no_filing_takes_no_period_from_its_prose() -> None:
    memo = "Board memo\nRevenue for the year ended December 31, 2019 rose; fiscal 2018 was flat.\n"
    filing = read_filing([memo], "memo.pdf")
    assert (filing.form, filing.fiscal_year, filing.company) == ("other", None, None)
    assert read_filing([memo], "memo-2021.pdf").fiscal_year == 2021


def test_a_column_dated_at_a_fiscal_year_end_is_named_by_the_fiscal_year() -> None:
    # a retailer naming its fiscal years by the year they begin: "fiscal 2022 ended January 28, 2023"
    retail = Filing(form="10-K", fiscal_year=2022, period_end=date(2023, 1, 28))
    assert fiscal_header("January 28, 2023", retail) == "Fiscal 2022"
    assert fiscal_header("January 29, 2022", retail) == "Fiscal 2021"  # the prior year's end, a day apart
    assert fiscal_header("February 1, 2020", retail) == "Fiscal 2019"
    for kept in ("2022", "Fiscal 2022", "June 30, 2022", "Column B", "January 28, 2023 and 2022"):
        assert fiscal_header(kept, retail) == kept
    # years named by the year they end, a quarter, or no period end read: every header kept
    for filing in (Filing(form="10-K", fiscal_year=2023, period_end=date(2023, 1, 28)),
                   Filing(form="10-Q", fiscal_year=2022, fiscal_quarter=3, period_end=date(2023, 1, 28)),
                   Filing(form="10-K", fiscal_year=2022)):  # fmt: skip
        assert fiscal_header("January 28, 2023", filing) == "January 28, 2023"
