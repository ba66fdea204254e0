"""Workbooks as analysts keep them (issue 23), asked through the whole offline QA path: the right figure, or an
abstention that says which words it could not use — never a figure read from another column, sheet or row set.

Each workbook is generated here (invented names); each expected answer is computed from the generated cells.
"""

from __future__ import annotations

import random

import pytest

from core.qa.service import ask
from tests.factories import csv_bytes, make_xlsx

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
LINES = ("Revenue", "Cost of sales", "Gross profit", "Marketing", "Rent", "Total opex")


def _done(wb, question: str, room: str) -> dict:
    return list(ask(wb, question, room))[-1].result


def _figures(rng: random.Random) -> dict[str, list[int]]:
    return {line: [rng.randrange(1_000, 90_000) for _ in MONTHS] for line in LINES}


@pytest.fixture
def pnl(workbench):
    """A plan-vs-actual P&L: line items down, the months across under a blank corner, tabs Actual and Plan."""
    rng = random.Random(23)
    books = {"Actual": _figures(rng), "Plan": _figures(rng)}
    sheets = {name: [["", *MONTHS], *([line, *fig] for line, fig in lines.items())] for name, lines in books.items()}
    assert workbench.ingest_upload(make_xlsx(sheets), "budget.xlsx", "PnL", embed=False).status == "ready"
    return workbench, books


def _value(result: dict) -> float:
    assert not result["abstained"], result["answer"]
    [value] = result["values"]
    return float(value.replace(",", ""))


def test_a_month_in_any_form_reads_its_column(pnl) -> None:
    wb, books = pnl
    sep = books["Actual"]["Marketing"][8]
    for question in ("What was actual marketing in September?", "Actual marketing for Sept?", "Marketing in sep?"):
        assert _value(_done(wb, question, "PnL")) == sep, question


def test_quarters_and_halves_sum_their_months(pnl) -> None:
    wb, books = pnl
    revenue, marketing = books["Actual"]["Revenue"], books["Actual"]["Marketing"]
    assert _value(_done(wb, "What was actual revenue in Q3?", "PnL")) == sum(revenue[6:9])
    assert _value(_done(wb, "Actual marketing in H1?", "PnL")) == sum(marketing[:6])


def test_which_month_ranks_across_the_period_columns(pnl) -> None:
    wb, books = pnl
    profit = books["Actual"]["Gross profit"]
    result = _done(wb, "Which month had the lowest actual gross profit?", "PnL")
    assert result["values"] == [MONTHS[profit.index(min(profit))]]


def test_the_sheet_the_question_names_is_read(pnl) -> None:
    wb, books = pnl
    assert _value(_done(wb, "What was the planned rent for Jun?", "PnL")) == books["Plan"]["Rent"][5]
    assert _value(_done(wb, "In the Plan sheet, what was revenue in March?", "PnL")) == books["Plan"]["Revenue"][2]


def test_an_unknown_sheet_gives_no_figure(pnl) -> None:
    wb, _ = pnl
    for question in ("What was revenue in the Forecast sheet?", "What was the variance of rent against budget in May?",
                     "How did actual revenue compare to forecast in May?"):  # fmt: skip
        result = _done(wb, question, "PnL")
        assert result["abstained"] and not result["values"], question


def test_actual_against_plan_gives_the_variance_and_its_percentage_each_cell_cited(pnl) -> None:
    wb, books = pnl
    actual, plan = books["Actual"]["Rent"][4], books["Plan"]["Rent"][4]
    for question in ("What was the variance of rent against plan in May?", "By how much did actual rent differ from "
                     "plan in May?", "What was the gap between actual and plan rent in May?"):  # fmt: skip
        result = _done(wb, question, "PnL")
        assert result["values"] == [str(actual - plan), f"{(actual - plan) / plan * 100:.2f}".rstrip("0").rstrip(".")]
        cited = {c["value"] for c in result["citations"]}
        assert {str(actual), str(plan)} <= cited, question
        assert "Actual Rent" in result["answer"] and "Plan Rent" in result["answer"]


def test_a_month_written_as_a_number_reads_its_column(pnl) -> None:
    wb, books = pnl
    sep = books["Actual"]["Marketing"][8]
    for question in ("What was actual marketing in 2026-09?", "Actual marketing for month 9?",
                     "Actual marketing in 09/2026?"):  # fmt: skip
        assert _value(_done(wb, question, "PnL")) == sep, question
    assert _done(wb, "What was actual marketing in month 13?", "PnL")["values"] == []


@pytest.fixture
def fiscal(workbench):
    """A fiscal year starting in April: the header runs Apr..Mar."""
    order = (*MONTHS[3:], *MONTHS[:3])
    figures = {line: [1_000 * (i + 1) + 7 * n for n in range(12)] for i, line in enumerate(("Revenue", "Payroll"))}
    rows = [["", *order], *([line, *fig] for line, fig in figures.items())]
    assert workbench.ingest_upload(make_xlsx({"FY26": rows}), "fy.xlsx", "Fiscal", embed=False).status == "ready"
    return workbench, figures


def test_a_fiscal_year_from_the_header_sets_its_quarters(fiscal) -> None:
    wb, figures = fiscal
    revenue = figures["Revenue"]  # Apr first
    assert _value(_done(wb, "What was revenue in Q1?", "Fiscal")) == sum(revenue[:3])  # Apr-Jun, not Jan-Mar
    assert _value(_done(wb, "Payroll in fiscal H2?", "Fiscal")) == sum(figures["Payroll"][6:])
    assert _value(_done(wb, "What was revenue in January?", "Fiscal")) == revenue[9]


@pytest.fixture
def month_list(workbench):
    """Line items under a worded corner and only the first half's months: a list of records to the table path."""
    rows = [["Line item", *MONTHS[:6]], ["Total opex", 10, 11, 12, 13, 14, 15], ["Rent", 1, 1, 1, 1, 1, 1]]
    assert workbench.ingest_upload(csv_bytes(rows), "opex.csv", "Opex", embed=False).status == "ready"
    return workbench


def test_an_unbound_month_abstains_naming_it(month_list) -> None:
    result = _done(month_list, "What was total opex in September?", "Opex")
    assert result["abstained"] and not result["values"]
    assert "september" in result["plan"].lower() and "matches no column" in result["plan"]


@pytest.fixture
def customers(workbench):
    rng = random.Random(5)
    rows = []
    for i in range(30):
        renewed = rng.random() < 0.6
        rows.append([f"Client {i:02d}", rng.choice(("Enterprise", "SMB")), rng.choice(("Ines Vardy", "Rob Tull")),
                     rng.randrange(1, 90) * 1000, "Yes" if renewed else "No"])  # fmt: skip
    starts = [f"202{2 + i % 3}-{i % 12 + 1:02d}-15" for i in range(len(rows))]  # after the draws: same rows
    data = csv_bytes([["Name", "Segment", "Owner", "ARR", "Renewed", "Joined"],
                      *([*r, start] for r, start in zip(rows, starts, strict=True))])  # fmt: skip
    assert workbench.ingest_upload(data, "customers.csv", "Clients", embed=False).status == "ready"
    return workbench, rows


def test_every_condition_is_a_filter_and_yes_no_columns_answer_their_word(customers) -> None:
    wb, rows = customers
    renewed = sum(1 for r in rows if r[1] == "Enterprise" and r[4] == "Yes")
    lapsed = sum(1 for r in rows if r[1] == "SMB" and r[4] == "No")
    assert _value(_done(wb, "How many Enterprise customers renewed?", "Clients")) == renewed
    assert _value(_done(wb, "How many SMB customers did not renew?", "Clients")) == lapsed


def test_negations_dates_and_numbers_with_units_are_filters(customers) -> None:
    wb, rows = customers
    starts = [f"202{2 + i % 3}-{i % 12 + 1:02d}-15" for i in range(len(rows))]
    assert _value(_done(wb, "How many Enterprise customers have not renewed?", "Clients")) == sum(
        1 for r in rows if r[1] == "Enterprise" and r[4] == "No")  # fmt: skip
    assert _value(_done(wb, "How many customers have ARR above $50k?", "Clients")) == sum(
        1 for r in rows if r[3] > 50_000)  # fmt: skip
    assert _value(_done(wb, "How many customers joined after March 2023?", "Clients")) == sum(
        1 for s in starts if s > "2023-03-31")  # fmt: skip


def test_a_column_named_by_its_role(customers) -> None:
    wb, rows = customers
    result = _done(wb, f"Which account manager owns {rows[3][0]}?", "Clients")
    assert result["values"] == [rows[3][2]]


@pytest.fixture
def cap_table(workbench):
    rows = [["Holder", "Share class", "Shares"], ["Avenmoor Trust", "Common", 500], ["Cobbet Capital", "Series A", 300],
            ["Dunlin Ventures", "Series A", 200], ["Elsworth Fund", "Series B", 250], ["Farrow Trust", "Common", 100]]  # fmt: skip
    assert workbench.ingest_upload(make_xlsx({"Cap table": rows}), "cap.xlsx", "Cap", embed=False).status == "ready"
    return workbench


def test_how_many_of_a_thing_sums_its_quantity(cap_table) -> None:
    assert _value(_done(cap_table, "How many Series A shares are there?", "Cap")) == 500


def test_an_absent_value_abstains_naming_it(cap_table) -> None:
    result = _done(cap_table, "How many Series D shares are there?", "Cap")
    assert result["abstained"] and not result["values"]
    assert "series" in result["plan"].lower()


def test_a_share_of_a_total_cites_the_part_and_the_whole(cap_table) -> None:
    for question in ("What percentage of shares does Series A hold?", "Series A as a percentage of total shares?"):
        result = _done(cap_table, question, "Cap")
        assert result["values"] == ["37.04"], question  # 500 of 1,350
        assert {"300", "200", "500", "250", "100"} <= {c["value"] for c in result["citations"]}
    result = _done(cap_table, "What percentage of shares does Series D hold?", "Cap")
    assert result["abstained"] and not result["values"]


@pytest.fixture
def sites(workbench):
    """One sheet per site, the same layout."""
    sheets = {
        "Harbury": [
            ["Item", "Units", "Unit cost", "Reorder level"],
            ["Wall plug", 40, 0.5, 50],
            ["Brass hinge", 12, 3.25, 10],
        ],
        "Elmford": [
            ["Item", "Units", "Unit cost", "Reorder level"],
            ["Wall plug", 75, 0.55, 60],
            ["Brass hinge", 9, 3.1, 15],
        ],
    }
    assert workbench.ingest_upload(make_xlsx(sheets), "stock.xlsx", "Stock", embed=False).status == "ready"
    return workbench


def test_a_named_site_is_the_sheet_read(sites) -> None:
    assert _value(_done(sites, "What is the unit cost of Brass hinge at Elmford?", "Stock")) == 3.1
    assert _value(_done(sites, "How many units of Wall plug are at the Elmford site?", "Stock")) == 75


def test_across_both_sites_adds_up_or_sets_each_sites_figure_side_by_side(sites) -> None:
    for question in ("How many units of Wall plug are there across both sites?", "Total units of Wall plug in all "
                     "sites?"):  # fmt: skip
        result = _done(sites, question, "Stock")
        assert result["values"] == ["115"], question
        assert {"40", "75"} <= {c["value"] for c in result["citations"]}
    assert _done(sites, "How many units are held across all sites?", "Stock")["values"] == ["136"]
    result = _done(sites, "What is the unit cost of Brass hinge at each site?", "Stock")
    assert result["values"] == ["3.25", "3.1"] and "Harbury" in result["answer"] and "Elmford" in result["answer"]
    # an average across sheets is neither the sum nor the list of each sheet's average
    assert _done(sites, "What is the average unit cost across both sites?", "Stock")["values"] == []


def test_a_product_of_two_columns_in_a_row_and_its_total(sites) -> None:
    assert _value(_done(sites, "What is the stock value of Brass hinge at Elmford?", "Stock")) == 27.9
    assert _value(_done(sites, "Value of Wall plug at Harbury (units times unit cost)?", "Stock")) == 20
    assert _value(_done(sites, "What is the total stock value at Harbury?", "Stock")) == 59
    assert _done(sites, "What is the stock value of Copper washer at Elmford?", "Stock")["values"] == []


def test_two_columns_compared_in_each_row(sites) -> None:
    assert _done(sites, "Which items at Harbury are below their reorder level?", "Stock")["values"] == ["Wall plug"]
    result = _done(sites, "Which items are under the reorder level at the Elmford site?", "Stock")
    assert result["values"] == ["Brass hinge"]
    assert _value(_done(sites, "How many items at Elmford are above their reorder level?", "Stock")) == 1
    # a figure of each row no column holds: no list of rows
    result = _done(sites, "Which items at Harbury are below their safety stock?", "Stock")
    assert result["abstained"] and not result["values"]


def test_actual_and_plan_side_by_side_give_each_figure_named_by_its_sheet(pnl) -> None:
    wb, books = pnl
    result = _done(wb, "How did actual marketing compare with plan in Oct?", "PnL")
    assert result["values"] == [str(books["Actual"]["Marketing"][9]), str(books["Plan"]["Marketing"][9])]
    assert "Actual Marketing" in result["answer"] and "Plan Marketing" in result["answer"]
