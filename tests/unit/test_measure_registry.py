"""The registry of measures (core.lexicon.measures): formulas parsed and evaluated exactly, the measure a
question asks (registered or written in it) read, and its inputs found in a room's statement grids, or the
missing one named. The wordings here are invented."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest

from core.lexicon.measures import INPUTS, MEASURES
from core.qa.planner.cells import GridRow
from core.qa.planner.measure_questions import measure_cells
from core.qa.planner.measures import Missing, asked_measure
from core.qa.planner.schema import ColumnInfo, RoomSchema, SheetInfo
from core.retrieval.formula import FormulaError, evaluate, parse, refs, render
from core.retrieval.measures import run_measure
from core.retrieval.tables import Column, SheetFrame


def test_a_formula_is_parsed_and_evaluated_exactly() -> None:
    tree = parse("(current assets - inventory) / current liabilities")
    assert refs(tree) == [("current assets", False), ("inventory", False), ("current liabilities", False)]
    values = {("current assets", False): Decimal("5.5"), ("inventory", False): Decimal("1.2"),
              ("current liabilities", False): Decimal("2")}  # fmt: skip
    assert evaluate(tree, values) == Decimal("2.15")
    shown = {k: str(v) for k, v in values.items()}
    assert render(tree, shown) == "(5.5 - 1.2) / 2"


def test_average_and_prior_balances_and_hyphenated_names() -> None:
    tree = parse("cost of sales / avg(inventory)")
    assert refs(tree) == [("cost of sales", False), ("inventory", False), ("inventory", True)]
    values = {
        ("cost of sales", False): Decimal(300),
        ("inventory", False): Decimal(70),
        ("inventory", True): Decimal(50),
    }
    assert evaluate(tree, values) == Decimal(5)
    assert render(tree, {k: str(v) for k, v in values.items()}) == "300 / ((70 + 50) / 2)"
    assert refs(parse("debt-to-equity / 2")) == [("debt-to-equity", False)]  # a hyphen inside a name
    assert evaluate(parse("a - b * 2"), {("a", False): Decimal(9), ("b", False): Decimal(2)}) == Decimal(5)
    with pytest.raises(ZeroDivisionError):
        evaluate(parse("a / b"), {("a", False): Decimal(1), ("b", False): Decimal(0)})
    for bad in ("a / ", "(a + b", "prior(a + b)"):
        with pytest.raises(FormulaError):
            parse(bad)


def test_every_registered_formula_parses_over_registered_inputs() -> None:
    for measure in MEASURES:
        for formula in measure.formulas:
            assert {name for name, _ in refs(parse(formula))} <= set(INPUTS), (measure.name, formula)


def test_a_definition_written_in_the_question_is_used_as_written() -> None:
    asked = asked_measure("What is the FY2021 liquidity gauge of Norwick Ltd, defined as: cash from operations "
                          "divided by total current liabilities? Round to three decimal places.")  # fmt: skip
    assert asked is not None
    assert asked.formulas == ("(operating cash flow / current liabilities)",)
    assert asked.name == "liquidity gauge" and asked.places == 3  # the company it is of is no part of its name
    # a name the registry does not know is a line item of its own words
    own = asked_measure("What was the plant yield in 2020, calculated as widgets shipped / widgets started?")
    assert own is not None and own.formulas == ("(widgets shipped / widgets started)",)
    assert dict(own.wordings) == {"widgets shipped": ("widgets shipped",), "widgets started": ("widgets started",)}


def test_the_longest_registered_wording_names_the_measure() -> None:
    conversion = asked_measure("What was the free cash flow conversion in 2022?")
    assert conversion is not None and conversion.name == "free cash flow conversion"
    quick = asked_measure("Compute the acid-test ratio for fiscal 2020")
    assert quick is not None and quick.name == "quick ratio" and quick.kind == "ratio"
    assert asked_measure("What was the revenue in 2022?") is None


def test_a_multi_year_average_of_a_share_of_revenue() -> None:
    asked = asked_measure("What is the three-year average of cost of sales as a share of revenue to FY2019?")
    assert asked is not None and asked.span == 3
    assert asked.formulas == ("cost of sales / revenue",) and asked.kind == "percent"


def _sheet(
    sheet_id: int,
    rows: list[list[str]],
    page: int | None = None,
    document_id: int = 1,
    names: tuple[str, ...] = ("Column A", "2022", "2021"),
) -> SheetInfo:
    columns = tuple(
        ColumnInfo(name=n, letter="ABCDE"[i], dtype="text" if i == 0 else "number", position=i)
        for i, n in enumerate(names)
    )
    grid = tuple(GridRow(row_id=sheet_id * 100 + i, values=tuple(r)) for i, r in enumerate(rows))
    return SheetInfo(sheet_id, document_id, "Tarn_2022.pdf", f"p{page}", len(rows), columns, grid, page)


CASH = _sheet(1, [["Net cash provided by operating activities", "1,410", "1,202"],
                  ["Purchases of property and equipment", "(310)", "(295)"]], page=5)  # fmt: skip
BALANCE = _sheet(2, [["Total current assets", "2,950", "2,700"], ["Inventories", "800", "760"],
                     ["Total current liabilities", "1,700", "1,650"]], page=3)  # fmt: skip


def test_inputs_from_two_tables_of_one_filing() -> None:
    found = measure_cells("What was the operating cash flow ratio in 2022?", RoomSchema(1, (BALANCE, CASH)))
    assert not isinstance(found, Missing) and found is not None
    step, _ = found
    assert step.operation == "measure" and step.formula == "operating cash flow / current liabilities"
    cells = {(i.sheet_id, i.label, i.column) for i in step.inputs}
    assert cells == {(1, "Net cash provided by operating activities", "2022"), (2, "Total current liabilities", "2022")}


def test_a_filings_columns_of_later_years_are_no_period_of_a_measure() -> None:
    """An older filing's schedule of what falls due in later years (its columns 2025 and 2026 in a 2023 10-K) is
    no input of a measure asked of those years: the measure names what is missing instead."""
    schedule = replace(
        _sheet(
            8,
            [["Total current assets", "2,950", "2,700"], ["Total current liabilities", "1,700", "1,650"]],
            page=40,
            names=("Column A", "2026", "2025"),
        ),
        fiscal_year=2023,
    )
    found = measure_cells("What was the current ratio in 2026?", RoomSchema(1, (schedule,)))
    assert found is None or isinstance(found, Missing)
    same_year = measure_cells(
        "What was the current ratio in 2026?", RoomSchema(1, (replace(schedule, fiscal_year=2026),))
    )
    assert not isinstance(same_year, Missing) and same_year is not None
    # a table heading the filing's own year too is a history (or its period was misread): every column is a year's
    history = replace(
        _sheet(
            9,
            [["Total current assets", "2,950", "2,700"], ["Total current liabilities", "1,700", "1,650"]],
            page=40,
            names=("Column A", "2026", "2023"),
        ),
        fiscal_year=2023,
    )
    found = measure_cells("What was the current ratio in 2026?", RoomSchema(1, (history,)))
    assert not isinstance(found, Missing) and found is not None


def test_the_inputs_come_from_the_table_holding_them_all_before_an_earlier_table_holding_one() -> None:
    """A filing whose earlier page has a table holding one input (a quarterly table's revenue line) and whose
    statement holds both: every input is read from the statement, and the periods are named as it heads them."""
    quarters = _sheet(6, [["Revenue", "1,310", "1,250"], ["Comparable sales % change", "2.1%", "1.4%"]], page=2,
                      names=("Column A", "Fiscal 2022 High", "Fiscal 2021 High"))  # fmt: skip
    statement = _sheet(7, [["Revenue", "5,000", "4,700"], ["Cost of sales", "3,900", "3,700"],
                           ["Gross profit", "1,100", "1,000"]], page=9)  # fmt: skip
    found = measure_cells("What was the gross margin in 2022?", RoomSchema(1, (quarters, statement)))
    assert not isinstance(found, Missing) and found is not None
    step, _ = found
    assert {i.sheet_id for i in step.inputs} == {7} and step.column_labels == ["2022"]


def test_net_income_printed_with_the_companys_name_and_never_the_minority_share() -> None:
    """ "Net earnings attributable to Tarn Ltd. shareholders" is the net income a margin uses when no line is
    called net income; the noncontrolling interests' line never is."""
    rows = [["Revenue", "5,000", "4,700"], ["Net earnings including noncontrolling interests", "420", "380"],
            ["Net earnings attributable to noncontrolling interests", "(20)", "(15)"],
            ["Net earnings attributable to Tarn Ltd. shareholders", "400", "365"]]  # fmt: skip
    found = measure_cells("What was the net profit margin in 2022?", RoomSchema(1, (_sheet(8, rows, page=4),)))
    assert not isinstance(found, Missing) and found is not None
    assert {i.label for i in found[0].inputs} == {"Revenue", "Net earnings attributable to Tarn Ltd. shareholders"}
    minority = [rows[0], rows[2]]
    found = measure_cells("What was the net profit margin in 2022?", RoomSchema(1, (_sheet(9, minority, page=4),)))
    assert isinstance(found, Missing) and "net income (2022)" in found.reason


def test_among_tables_holding_every_input_the_primary_statement_is_read() -> None:
    """Highlights earlier in the filing print the same lines: the statement (its heading on top of a page of
    figures) is the one cited."""
    rows = [["Revenue", "5,000", "4,700"], ["Gross profit", "1,100", "1,000"]]
    highlights = replace(_sheet(10, rows, page=20), page_text="Five-Year Financial Highlights\n" + "1,234 " * 30)
    statement = replace(_sheet(11, rows, page=50), page_text="CONSOLIDATED STATEMENTS OF EARNINGS\n" + "1,234 " * 30)
    found = measure_cells("What was the gross margin in 2022?", RoomSchema(1, (highlights, statement)))
    assert not isinstance(found, Missing) and found is not None
    assert {i.sheet_id for i in found[0].inputs} == {11}


def test_a_prior_balance_comes_from_the_prior_column() -> None:
    rows = [["Cost of sales", "3,000", "2,800"], ["Inventories", "800", "760"]]
    found = measure_cells("What was the inventory turnover in 2022?", RoomSchema(1, (_sheet(3, rows),)))
    assert not isinstance(found, Missing) and found is not None
    step, _ = found
    assert {(i.name, i.prior, i.column) for i in step.inputs} == {
        ("cost of sales", False, "2022"), ("inventory", False, "2022"), ("inventory", True, "2021")}  # fmt: skip


def test_a_missing_input_is_named_and_no_ingredient_answers() -> None:
    found = measure_cells("What was the interest coverage ratio in 2022?", RoomSchema(1, (BALANCE, CASH)))
    assert found is None  # neither input in any statement: the other rules (and their guards) decide
    rows = [["Operating income", "900", "850"], ["Revenue", "5,000", "4,700"]]
    found = measure_cells("What was the interest coverage ratio in 2022?", RoomSchema(1, (_sheet(4, rows),)))
    assert isinstance(found, Missing)
    assert "interest expense (2022)" in found.reason and "not computed" in found.reason


def test_a_statement_printing_the_measure_is_left_to_the_cell_rules() -> None:
    rows = [["Total current assets", "2,950", "2,700"], ["Total current liabilities", "1,700", "1,650"],
            ["Current ratio", "1.74", "1.64"]]  # fmt: skip
    assert measure_cells("What was the current ratio in 2022?", RoomSchema(1, (_sheet(5, rows),))) is None


def test_a_per_share_line_is_no_amount_and_a_driver_question_no_figure() -> None:
    rows = [["Revenue", "5,000", "4,700"], ["Per share data", "", ""], ["Net income", "3.12", "2.95"]]
    found = measure_cells("What was the net profit margin in 2022?", RoomSchema(1, (_sheet(6, rows),)))
    assert isinstance(found, Missing) and "net income (2022)" in found.reason
    rows = [["Revenue", "5,000", "4,700"], ["Gross profit", "2,100", "1,900"]]
    room = RoomSchema(1, (_sheet(7, rows),))
    assert measure_cells("What was the gross margin in 2022?", room) is not None
    for other in ("What drove the gross margin in 2022?", "What was the change in gross margin in 2022?"):
        assert measure_cells(other, room) is None, other
    # a yes/no on it is the two years' figures compared (test_a_yes_no_on_a_measure_compares_...)
    yes_no = measure_cells("Did the gross margin improve in 2022?", room)
    assert isinstance(yes_no, tuple) and yes_no[0].direction_words == ["Yes", "No"]


def test_the_model_planner_may_choose_a_measure_the_product_computes() -> None:
    from core.qa.llm_planner import with_statement_cells
    from core.retrieval.plan import Plan, SearchStep

    question = "How liquid was the company at the 2022 year end, by the usual balance-sheet yardstick?"
    search = SearchStep(query=question)
    plan = Plan(question=question, standalone_question=question, steps=[search], reasoning="", planner="m")
    room = RoomSchema(1, (BALANCE, CASH))
    assert with_statement_cells(plan, room).steps == [search]  # the question's words name no measure
    chosen = with_statement_cells(plan, room, "current ratio")
    step = chosen.steps[0]
    assert step.kind == "cells" and step.operation == "measure" and chosen.steps[1:] == [search]
    assert {i.label for i in step.inputs} == {"Total current assets", "Total current liabilities"}
    assert with_statement_cells(plan, room, "not a measure").steps == [search]


def test_a_word_qualifying_the_measure_leaves_it_to_the_other_rules() -> None:
    rows = [["Revenue", "5,000", "4,700"], ["Gross profit", "2,100", "1,900"]]
    room = RoomSchema(1, (_sheet(8, rows),))
    found = measure_cells("Calculate the gross margin for 2022, rounded to one decimal place.", room)
    assert found is not None and not isinstance(found, Missing) and found[0].places == 1
    # a lead-in naming where to read it qualifies nothing
    for sourced in ("In accordance with the figures presented in the income statement, what was the gross margin "
                    "in 2022?", "Drawing primarily on the details disclosed, what was the gross margin in 2022?"):  # fmt: skip
        found = measure_cells(sourced, room)
        assert found is not None and not isinstance(found, Missing), sourced
    for qualified in ("What was the gross margin of the Orchard segment in 2022?",
                      "What was the adjusted gross margin in 2022?", "What was the Orchard gross margin in 2022?"):  # fmt: skip
        assert measure_cells(qualified, room) is None, qualified


def test_a_share_of_revenue_of_one_period_when_asked_for_shares() -> None:
    rows = [["Revenue", "5,000", "4,700"], ["Cost of sales", "2,900", "2,800"]]
    room = RoomSchema(1, (_sheet(9, rows),))
    question = "What was cost of sales as a percentage of revenue in 2022?"
    assert measure_cells(question, room) is None  # the cell rules' to read first
    found = measure_cells(question, room, shares=True)
    assert found is not None and not isinstance(found, Missing)
    assert found[0].formula == "cost of sales / revenue" and found[0].measure_kind == "percent"
    assert (
        measure_cells("What was Orchard cost of sales as a percentage of revenue in 2022?", room, shares=True) is None
    )


def test_a_company_named_with_its_suffix_and_a_definition_in_brackets() -> None:
    # "Tarnwick Mills, Inc.'s fiscal year 2022 X, defined as A / B": the suffix is the name's, the name before
    # "defined as" is the measure's even after "fiscal year 2022", and a bracketed definition ends at its bracket
    page = "TARNWICK MILLS, INC.\nCONSOLIDATED BALANCE SHEETS"
    cash = replace(CASH, page_text=page)
    balance = replace(BALANCE, page_text=page)
    room = RoomSchema(1, (balance, cash))
    for question in (
        "What is Tarnwick Mills, Inc.'s fiscal year 2022 cover gauge, defined as cash from operations / total "
        "current liabilities? Round to two decimal places.",
        "Using the cover gauge (defined as cash from operations divided by total current liabilities), what was "
        "its value for fiscal 2022?",
        "What was Tarnwick Mills, Inc.'s current ratio in FY2022?",
    ):
        found = measure_cells(question, room)
        assert found is not None and not isinstance(found, Missing), question
        assert found[0].operation == "measure" and {i.column for i in found[0].inputs} == {"2022"}, question
    asked = asked_measure(
        "What is Tarnwick Mills, Inc.'s fiscal year 2022 cover gauge, defined as net income / revenue?"
    )
    assert asked is not None and asked.name == "cover gauge"
    # a qualifier is still one: the Orchard segment's gauge is no whole statement's
    assert measure_cells("What was Tarnwick Mills, Inc.'s Orchard segment current ratio in FY2022?", room) is None


def test_an_average_share_of_revenue_of_sga_or_depreciation() -> None:
    # "the 3 year average SG&A expenses as a % of revenue": SG&A and D&A are lines a share of revenue is asked of
    sga = asked_measure("What is the FY2021 - FY2023 3 year average SG&A expenses as a % of revenue?")
    assert sga is not None and sga.formulas == ("sg&a / revenue",) and sga.span == 3
    rows = [["Revenue", "5,000", "4,700"], ["Selling, general and administrative", "900", "880"]]
    found = measure_cells("What is the 2-year average of SG&A as a percentage of revenue to 2022?",
                          RoomSchema(1, (_sheet(10, rows),)))  # fmt: skip
    assert found is not None and not isinstance(found, Missing)
    assert {(i.label, i.column) for i in found[0].inputs} >= {("Selling, general and administrative", "2021")}
    da = asked_measure("What is the 2-year average of depreciation and amortization as a share of revenue to 2022?")
    assert da is not None and da.formulas == ("depreciation and amortization / revenue",)


def test_a_yes_no_on_a_measure_compares_the_year_asked_with_the_one_before() -> None:
    rows = [["Revenue", "5,000", "4,700"], ["Purchases of property and equipment", "(310)", "(295)"],
            ["Total current assets", "2,950", "2,700"], ["Total current liabilities", "1,700", "1,650"]]  # fmt: skip
    room = RoomSchema(1, (_sheet(12, rows, page=4),))
    found = measure_cells("Did the current ratio improve in 2022 compared with the prior year?", room)
    assert isinstance(found, tuple) and found[0].direction_words == ["Yes", "No"]
    assert found[0].column_labels == ["2021", "2022"]
    worse = measure_cells("Has the current ratio worsened in 2022?", room)
    assert isinstance(worse, tuple) and worse[0].direction_words == ["No", "Yes"]
    # capex intensity: which way is better is not set, so its direction is the answer, never a judgement
    judged = measure_cells("Did capex intensity improve in 2022?", room)
    assert isinstance(judged, tuple) and judged[0].direction_words == ["Increased", "Decreased"]
    assert measure_cells("Did the current ratio improve in 2022 compared with 2019?", room) is None


# -- definitions over opening and closing balances, and statements as real filings print them --------------------


def _orrin(sheet: SheetInfo) -> SheetInfo:
    """The sheet on a page naming the company the questions name."""
    return replace(sheet, page_text="Orrin Tools, Inc.\n" + sheet.page_text)


def test_a_definition_averaging_a_balance_between_two_years_is_the_later_years_measure() -> None:
    """ "revenue / (average net PP&E between FY2021 and FY2022)": the average of the two balances, in 2022; a
    name the question defines that the registry knows keeps its name and kind; "change in X between …" is X
    less its prior figure; the period words of the names are no part of them."""
    question = ("What is Orrin Tools' FY2022 fixed asset turnover ratio? Fixed asset turnover ratio is defined as: "
                "FY2022 revenue / (average PP&E between FY2021 and FY2022). Round to two decimal places.")  # fmt: skip
    asked = asked_measure(question)
    assert asked is not None and asked.name == "fixed asset turnover" and asked.places == 2
    assert asked.formulas == (
        "(revenue / ((net property, plant and equipment + prior(net property, plant and equipment)) / 2))",
    )
    rows = [["Revenue", "5,000", "4,700"], ["Property, plant and equipment", "9,000", "8,800"],
            ["Less: accumulated depreciation", "(6,000)", "(5,900)"],
            ["Property, plant and equipment — net", "3,000", "2,900"]]  # fmt: skip
    found = measure_cells(question, RoomSchema(1, (_orrin(_sheet(20, rows, page=4)),)))
    assert not isinstance(found, Missing) and found is not None
    step = found[0]
    assert step.column_labels == ["2022"]
    assert {(i.label, i.column) for i in step.inputs} == {
        ("Revenue", "2022"), ("Property, plant and equipment — net", "2022"),
        ("Property, plant and equipment — net", "2021")}  # fmt: skip
    roa = asked_measure("What is the FY2022 return on assets (ROA) for Orrin? ROA is defined as: FY2022 net income / "
                        "(average total assets between FY2021 and FY2022).")  # fmt: skip
    assert roa is not None and roa.name == "return on assets" and roa.kind == "percent"
    dpo = asked_measure("What is Orrin's FY2022 days payable outstanding? DPO is defined as: 365 * (average accounts "
                        "payable between FY2021 and FY2022) / (FY2022 COGS + change in inventory between FY2021 and "
                        "FY2022).")  # fmt: skip
    assert dpo is not None and dpo.kind == "days"
    assert dpo.formulas == ("((365 * ((accounts payable + prior(accounts payable)) / 2)) / "
                            "(cost of sales + (inventory - prior(inventory))))",)  # fmt: skip
    # a name of its own keeps the question's meaning, though a registered wording is part of it
    own = asked_measure("Using the cash conversion ratio (defined as cash from operations / total current "
                        "liabilities), what was it for 2021?")  # fmt: skip
    assert own is not None and own.name == "cash conversion ratio" and own.kind == "ratio"


def test_a_definition_not_read_as_a_formula_abstains_and_no_part_of_it_answers() -> None:
    rows = [["Total assets", "9,000", "8,800"], ["Net income", "700", "650"]]
    found = measure_cells("What is Orrin's 2022 asset yield, defined as net income divided by total assets, both "
                          "from the five-year table (selected data)?", RoomSchema(1, (_orrin(_sheet(21, rows, page=4)),)))  # fmt: skip
    assert isinstance(found, Missing) and "could not read" in found.reason


def test_a_balance_is_read_from_the_balance_sheet_never_from_the_cash_flow_statements_change() -> None:
    """The cash flow statement prints "Inventories (629)" and "Accounts payable 111": the year's changes. A
    balance (inventory, payables) is read from the balance sheet, whichever table holds more inputs; "Total
    inventories" under an "Inventories" heading is the inventory when no line is called so."""
    cash = replace(_sheet(22, [["Cost of sales", "19,000", "18,500"], ["Net cash provided by operating activities",
                                "5,600", "7,400"], ["Inventories", "(629)", "(903)"], ["Accounts payable", "111",
                                "518"]], page=52), page_text="Consolidated Statement of Cash Flows\n" + "1,234 " * 30)  # fmt: skip
    balance = replace(_sheet(23, [["Inventories", "", ""], ["Finished goods", "2,500", "2,200"],
                                  ["Total inventories", "5,372", "4,985"], ["Accounts payable", "3,183", "2,994"]],
                             page=50), page_text="Consolidated Balance Sheet\n" + "1,234 " * 30)  # fmt: skip
    found = measure_cells("What was the inventory turnover in 2022?", RoomSchema(1, (cash, balance)))
    assert not isinstance(found, Missing) and found is not None
    assert {(i.name, i.sheet_id, i.label) for i in found[0].inputs} == {
        ("cost of sales", 22, "Cost of sales"), ("inventory", 23, "Total inventories")}  # fmt: skip


def test_a_whole_year_asked_is_never_read_from_a_quarter_or_an_interim_statement() -> None:
    """A 10-Q's statements ("Six Months Ended July 29, 2023", unaudited) date their columns in the year asked:
    a fiscal year's measure is read from the annual statement; a quarter asked reads the quarter."""
    interim = replace(_sheet(24, [["Net cash provided by operating activities", "181", "(709)"],
                                  ["Purchases of property and equipment", "(395)", "(420)"]], page=6,
                             document_id=2, names=("Column A", "July 29, 2023", "July 30, 2022")),
                      page_text="Condensed Consolidated Statements of Cash Flows (unaudited)\nSix Months Ended\n")  # fmt: skip
    annual = replace(_sheet(25, [["Net cash provided by operating activities", "1,824", "3,252"],
                                 ["Purchases of property and equipment", "(930)", "(737)"]], page=42,
                            names=("Column A", "2023", "2022")),
                     page_text="Consolidated Statements of Cash Flows\nFiscal Years Ended\n")  # fmt: skip
    found = measure_cells("What was the free cash flow in FY2023?", RoomSchema(1, (interim, annual)))
    assert not isinstance(found, Missing) and found is not None
    assert {i.sheet_id for i in found[0].inputs} == {25}
    quarters = _sheet(26, [["Revenue", "9,583", "11,647"], ["Gross profit", "2,157", "2,519"]], page=3,
                      names=("Column A", "Second Quarter 2023", "Second Quarter 2022"))  # fmt: skip
    assert measure_cells("What was the gross margin in 2023?", RoomSchema(1, (quarters,))) is None


def test_statement_wordings_of_real_filings_and_measures_analysts_compute() -> None:
    """Lines as filings print them ("Sales to customers", "Net cash flows from operating activities", capex "net
    of $35 of non-cash capital expenditures", "Research, development and related expenses"), and the EBITDA
    margin, R&D share, working capital and payout from them. "Other expense (income), net" is no net income."""
    rows = [["Sales to customers", "94,943", "93,775"], ["Operating income", "6,539", "7,369"],
            ["Research, development and related expenses", "1,862", "1,994"],
            ["Other expense (income), net", "147", "165"],
            ["Net income attributable to Orrin", "5,777", "5,921"],
            ["Net cash flows from operating activities", "5,591", "7,454"],
            ["Depreciation and amortization", "1,831", "1,915"],
            ["Additions to property and equipment, net of $35 and $46, respectively, of non-cash capital "
             "expenditures", "(930)", "(737)"], ["Dividends paid to shareholders", "(3,369)", "(3,420)"]]  # fmt: skip
    balance = [["Total current assets", "14,688", "15,403"], ["Total current liabilities", "9,523", "9,035"]]
    room = RoomSchema(1, (_orrin(_sheet(27, rows, page=4)), _orrin(_sheet(29, balance, page=5))))
    expected = {
        "What is Orrin's FY2022 unadjusted EBITDA % margin?": {"Operating income", "Depreciation and amortization",
                                                              "Sales to customers"},
        "What is Orrin's FY2022 R&D expense as a percentage of net sales?": {
            "Research, development and related expenses", "Sales to customers"},
        "What was Orrin's free cash flow in FY2022?": {"Net cash flows from operating activities", rows[7][0]},
        "What is Orrin's FY2022 working capital?": {"Total current assets", "Total current liabilities"},
        "What is Orrin's FY2022 dividend payout ratio (using total cash dividends paid and net income attributable "
        "to shareholders)?": {"Dividends paid to shareholders", "Net income attributable to Orrin"},
        "What was the net profit margin in 2022?": {"Sales to customers", "Net income attributable to Orrin"},
    }  # fmt: skip
    for question, labels in expected.items():
        found = measure_cells(question, room, shares=True)
        assert isinstance(found, tuple), question
        assert {i.label for i in found[0].inputs} == labels, question


def test_a_printed_measure_in_other_words_than_asked_is_computed() -> None:
    """A discussion table prints "Operating income margin"; asked "operating margin", the cell rules would not
    read that line: the measure is computed from the statement (asked in the printed words, the line is read)."""
    rows = [["Net sales", "35,355", "32,184"], ["Operating income", "7,369", "7,161"],
            ["Operating income margin", "20.8%", "22.2%"]]  # fmt: skip
    room = RoomSchema(1, (_sheet(28, rows, page=4),))
    found = measure_cells("What was the operating margin in 2022?", room)
    assert isinstance(found, tuple) and {i.label for i in found[0].inputs} == {"Net sales", "Operating income"}
    assert measure_cells("What was the operating income margin in 2022?", room) is None


def test_inputs_from_tables_heading_a_period_differently_share_its_label() -> None:
    """A cash flow statement heads its year "January 28, 2023", a discussion table "2023": every input of the
    year carries one label (the computation groups the inputs of a period by it)."""
    cash = _sheet(30, [["Total cash provided by operating activities", "1,824", "3,252"],
                       ["Repurchase of common stock", "(1,014)", "(3,502)"]], page=42,
                  names=("Column A", "January 28, 2023", "January 29, 2022"))  # fmt: skip
    capex = _sheet(31, [["Total capital expenditures", "930", "737"]], page=30, names=("Column A", "2023", "2022"))
    found = measure_cells("What was the free cash flow in 2023?", RoomSchema(1, (capex, cash)))
    assert isinstance(found, tuple)
    step = found[0]
    assert {i.period for i in step.inputs} == set(step.column_labels) and len(step.column_labels) == 1


def _frames(*sheets: SheetInfo) -> dict[int, SheetFrame]:
    """The sheets as the retriever loads them, to run a planned measure over their cells."""
    frames = {}
    for sheet in sheets:
        columns = [Column(position=i, name=c.name, letter=c.letter, dtype=c.dtype) for i, c in enumerate(sheet.columns)]
        rows = [list(row.values) for row in sheet.grid]
        frames[sheet.sheet_id] = SheetFrame.from_rows(columns, rows, row_ids=[r.row_id for r in sheet.grid],
                                                      sheet=sheet.name, sheet_id=sheet.sheet_id)  # fmt: skip
    return frames


INCOME_3Y = replace(
    _sheet(40, [["Net sales", "34,229", "35,355", "32,184"], ["Cost of sales", "19,232", "18,795", "16,605"],
                ["Operating income", "6,539", "7,369", "7,161"]], page=48, names=("Column A", "2022", "2021", "2020")),
    page_text="Consolidated Statement of Income\nYears ended December 31\n" + "1,234 " * 30,
)  # fmt: skip
BALANCE_2Y = _sheet(41, [["Total current assets", "14,688", "15,403"], ["Total current liabilities", "9,523", "9,035"]],
                    page=50)  # fmt: skip
CASH_3Y = _sheet(42, [["Net cash provided by (used in) operating activities", "5,591", "7,454"],
                      ["Net cash provided by (used in) investing activities", "(1,046)", "(1,317)"],
                      ["Net cash provided by (used in) financing activities", "(5,350)", "(6,145)"]], page=52)  # fmt: skip
ANNUAL = RoomSchema(1, (INCOME_3Y, BALANCE_2Y, CASH_3Y))


def test_an_improving_measure_written_before_it_is_its_move() -> None:
    """ "Did Acme show an improving operating margin trend in FY2022?" asks whether the margin rose."""
    found = measure_cells("Did the company show an improving operating margin trend in FY2022?", ANNUAL)
    assert isinstance(found, tuple) and found[0].direction_words == ["Yes", "No"]
    result = run_measure(_frames(INCOME_3Y), found[0])
    assert result.values == ["No"] and result.description.startswith("No — the operating margin fell from 20.84%")


def test_a_yes_no_on_a_measures_sign_or_level_leads_with_the_word_and_the_figure() -> None:
    positive = measure_cells("Does the company have positive working capital based on FY2022 data?", ANNUAL)
    assert isinstance(positive, tuple) and (positive[0].compare, positive[0].threshold) == (">", "0")
    result = run_measure(_frames(BALANCE_2Y), positive[0])
    assert result.values == ["Yes"] and "5,165" in result.description and "above 0" in result.description
    above = measure_cells("Is the current ratio above 1.6 at the end of FY2022?", ANNUAL)
    assert isinstance(above, tuple)
    result = run_measure(_frames(BALANCE_2Y), above[0])
    assert result.values == ["No"] and "1.54" in result.description and "not above 1.6" in result.description
    # a percent limit of a ratio, or two years: not read here
    assert measure_cells("Is the current ratio above 50% in FY2022?", ANNUAL) is None
    assert measure_cells("Was the current ratio above 1 in 2021 and 2022?", ANNUAL) is None


def test_a_measure_held_steady_is_judged_by_the_questions_limit_over_the_years_printed() -> None:
    question = (
        "Are the company's gross margins historically consistent (not fluctuating more than roughly 2% each year)?"
    )
    found = measure_cells(question, ANNUAL)
    assert isinstance(found, tuple) and found[0].steady == "2" and found[0].column_labels == ["2020", "2021", "2022"]
    result = run_measure(_frames(INCOME_3Y), found[0])
    assert result.values == ["No"]
    assert "3.03 points from 2021 to 2022" in result.description and "48.41% (2020)" in result.description
    loose = measure_cells(question.replace("2%", "4%"), ANNUAL)
    assert isinstance(loose, tuple) and run_measure(_frames(INCOME_3Y), loose[0]).values == ["Yes"]
    # no limit written: no judgement here
    assert measure_cells("Have the company's gross margins been stable?", ANNUAL) is None


def test_which_cash_flow_activity_brought_in_the_most_each_total_cited() -> None:
    question = "Of its operating, investing and financing activities, which generated the most cash in FY2022?"
    found = measure_cells(question, ANNUAL)
    assert isinstance(found, tuple) and found[0].pick == "max" and len(found[0].inputs) == 3
    result = run_measure(_frames(CASH_3Y), found[0])
    assert result.values == ["Net cash provided by (used in) operating activities"] and len(result.citations) == 3
    least = measure_cells("Which of investing and financing activities used the least cash in FY2021?", ANNUAL)
    assert isinstance(least, tuple) and least[0].pick == "min"
    assert run_measure(_frames(CASH_3Y), least[0]).values == ["Net cash provided by (used in) financing activities"]


def test_a_measures_change_between_two_years_in_points_or_relative() -> None:
    """ "the FY2020 - FY2022 change in the gross margin" is in points, from each year's cited cells; a ratio's
    "percentage change" is relative; a percent's "percentage change" (points or relative?) is not read here."""
    found = measure_cells("What is the FY2020 - FY2022 change in the gross margin?", ANNUAL)
    assert isinstance(found, tuple) and found[0].moved == "change"
    assert found[0].column_labels == ["2020", "2021", "2022"]
    result = run_measure(_frames(INCOME_3Y), found[0])
    assert result.values == ["-4.59"] and result.description.startswith("-4.59 percentage points")  # 43.81 - 48.41
    ratio = measure_cells("By what percentage did the current ratio change from 2021 to 2022?", ANNUAL)
    assert isinstance(ratio, tuple) and ratio[0].moved == "pct_change"
    assert run_measure(_frames(BALANCE_2Y), ratio[0]).values == ["-9.53"]  # 1.5424 against 1.7048
    assert measure_cells("What was the percentage change in the gross margin from 2021 to 2022?", ANNUAL) is None
    assert measure_cells("What drove the change in the gross margin from 2021 to 2022?", ANNUAL) is None


def test_a_compound_annual_growth_rate_of_a_line_or_measure() -> None:
    for question in ("What is the 2-year net sales CAGR from FY2020 to FY2022?",
                     "What was the compound annual growth rate of net sales over the two years ending 2022?"):  # fmt: skip
        found = measure_cells(question, ANNUAL)
        assert isinstance(found, tuple) and found[0].moved == "cagr", question
        result = run_measure(_frames(INCOME_3Y), found[0])
        assert result.values == ["3.13"] and "compounded over 2 years" in result.description  # (34,229/32,184)^½ - 1
        assert "32,184 in 2020" in result.description
    assert measure_cells("What is the net sales CAGR?", ANNUAL) is None  # no years: not read
    # a word more qualifies the line: no whole-company line answers a segment's growth
    assert measure_cells("What is the 2-year widgets segment net sales CAGR from 2020 to 2022?", ANNUAL) is None


def test_the_cost_of_sales_margin_is_a_registered_measure() -> None:
    found = measure_cells("What is the FY2022 COGS % margin?", ANNUAL)
    assert isinstance(found, tuple) and found[0].row_label == "COGS margin"
    assert run_measure(_frames(INCOME_3Y), found[0]).values == ["56.19"]


def test_a_defined_registered_measure_named_for_a_company_and_a_line_net_of_its_allowances() -> None:
    """ "the FY2022 return on equity for Orrin Tools, defined as …" is the registered ROE (a percent); "Accounts
    receivable — net of allowances of $95" is the receivables line."""
    asked = asked_measure("What is the FY2022 return on equity for Orrin Tools, defined as FY2022 net income / "
                          "(average total equity between FY2021 and FY2022)?")  # fmt: skip
    assert asked is not None and asked.name == "return on equity" and asked.kind == "percent"
    rows = [
        ["Net sales", "32,765", "31,657"],
        ["Accounts receivable — net of allowances of $95 and $103", "5,020", "4,911"],
    ]
    found = measure_cells("What was the receivables turnover in 2022?", RoomSchema(1, (_sheet(43, rows, page=4),)))
    assert isinstance(found, tuple) and {i.label for i in found[0].inputs} >= {rows[1][0]}


def test_a_written_definition_is_computed_though_a_line_prints_the_measure_and_abstains_without_its_lines() -> None:
    """A bank prints "Return on average equity 32.1%" in its discussion; the question writes its own ROE: computed
    as written from the statements. Its lines nowhere: it abstains (never the average of equity alone)."""
    question = ("What is the FY2022 return on equity for Orrin? ROE is defined as FY2022 net income / (average total "
                "shareholders' equity between FY2021 and FY2022).")  # fmt: skip
    income = _sheet(44, [["Total revenues net of interest expense", "52,862", "42,380"], ["Net income", "7,514", "8,060"]],
                    page=96)  # fmt: skip
    balance = _sheet(45, [["Total shareholders’ equity", "24,711", "22,177"]], page=98)
    ratios = _sheet(46, [["Return on average equity", "32.1%", "35.0%"]], page=60)
    income, balance, ratios = _orrin(income), _orrin(balance), _orrin(ratios)
    found = measure_cells(question, RoomSchema(1, (ratios, income, balance)))
    assert isinstance(found, tuple) and {i.sheet_id for i in found[0].inputs} == {44, 45}
    missing = measure_cells(question, RoomSchema(1, (ratios,)))
    assert isinstance(missing, Missing) and "as the question defines it" in missing.reason
    # a bank's revenue line after its interest expense is its revenue
    margin = measure_cells("What was the net profit margin in 2022?", RoomSchema(1, (income,)))
    assert isinstance(margin, tuple) and "Total revenues net of interest expense" in {i.label for i in margin[0].inputs}


def test_a_statement_whose_unit_is_printed_above_its_table_on_the_page_is_in_that_unit() -> None:
    """The cash flow statement's table states no unit; its page's heading does ("$ in millions"): a payout of its
    dividends over net earnings from a statement stating "(in millions)" is computed, not refused for the
    inputs' units differing."""
    cash = replace(_sheet(47, [["Dividends paid", "(505)", "(499)"]], page=58),
                   page_text="Consolidated Statements of Cash Flows $ in millions\\n" + "1,234 " * 30)  # fmt: skip
    income = _sheet(48, [["Revenue", "39,403", "39,528"], ["Net earnings", "1,228", "897"]], page=56,
                    names=("(in millions)", "2022", "2021"))  # fmt: skip
    found = measure_cells("What was the payout ratio in 2022?", RoomSchema(1, (cash, income)))
    assert isinstance(found, tuple)
    assert {i.page_scale for i in found[0].inputs if i.sheet_id == 47} == {"million"}
    result = run_measure(_frames(cash, income), found[0])
    assert result.values == ["41.12"], result.description  # 505 / 1,228
