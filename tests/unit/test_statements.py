"""Which statement grid answers a question (core.qa.planner.statements): among a filing's many tables, a line
item the question seems to name must be what it asks for, never a cited figure of something else."""

from __future__ import annotations

import dataclasses
from datetime import date

import pytest

from core.qa.planner.cells import GridRow
from core.qa.planner.schema import ColumnInfo, RoomSchema, SheetInfo
from core.qa.planner.statements import statement_cells


def table(
    sheet_id: int, years: list[str], rows: list[list[str]], page: int | None = 40, text: str = "", title: str = ""
) -> SheetInfo:
    """A grid as the schema holds it: column names are the header (blank corner), rows the line items."""
    names = ["Column A", *years]
    columns = tuple(
        ColumnInfo(name=n, letter="ABCDEFGH"[i], dtype="text" if i == 0 else "number", position=i)
        for i, n in enumerate(names)
    )
    grid = tuple(GridRow(row_id=sheet_id * 100 + i, values=tuple(r)) for i, r in enumerate(rows))
    return SheetInfo(sheet_id, 1, title or "NVK_2022_10K.pdf", f"p{page}", len(rows), columns, grid, page, text)


STOCK = table(
    1,
    ["2022", "2021"],
    [
        ["Norvik Corp", "$118.40", "$131.25"],
        ["Halden & Rowe", "$97.10", "$104.80"],
        ["S&P 500", "$128", "$152"],
    ],
)
TAX = table(2, ["2022", "2021"], [["State", "87", "93"], ["Effective tax rate", "23.4%", "19.8%"]])
INCOME = table(
    3,
    ["2022", "2021"],
    [
        ["Total revenues net of freight expense", "31,408", "28,775"],
        ["Total", "6,214", "5,902"],
        ["Net income", "4,127", "4,690"],
        ["International", "8,336", "7,915"],
        ["Inventories (Notes 1 and 3)", "5,061", "4,428"],
        ["Purchases of property, plant and equipment (capex)", "(1,204)", "(1,093)"],
        ["Balance at end of period", "310", "265"],
        ["Investing activities", "(744)", "(1,018)"],
        ["% to Sales", "14.6%", "13.2%"],
        ["Debt securities", "2,950", "2,615"],
    ],
)
ROOM = RoomSchema(room_id=1, sheets=(STOCK, TAX, INCOME), documents=((1, "NVK_2022_10K.pdf"),))
# An invented inventory note whose line items a question may write in capitals.
WIP = table(
    8,
    ["2021", "2020"],
    [["Work in process", "$4,812", "$5,306"], ["Packaging supplies", "14,207", "12,655"]],
    text="As of December 31, 2021 2020 Work in process $4,812 $5,306 Packaging supplies 14,207 12,655",
)


@pytest.mark.parametrize(
    "question",
    [
        # the company's name is a line item of the stock-performance table
        "How much goodwill did Norvik Corp carry in 2022?",
        "What was Halden & Rowe's operating profit in FY2022?",
        # a word of the question used as a verb is a one-word line item
        "Please state what lowered the gross margin in FY2022.",
        # a ratio of a line item is not the line item
        "How many times did the firm turn over its inventories in FY2022? Use the inventory turnover ratio.",
        "What was net income as a percent of revenue in 2022?",
        "What was the net income per employee in 2022?",  # a figure per head, not the line's figure
        # a period the table does not hold
        "How did net income change between FY2023 and FY2022?",
        # "total amount" names no line item on its own
        "What was the total amount of goodwill at the close of FY2022?",
        # a line item only one of whose words the question holds ("period" is not asked)
        "What inventories did the balance sheet show at the end of FY2022?",
        # which of several, yes/no, two things compared: one cell's figure is not the answer
        "Which of operating, investing or financing activities generated the largest cash inflow in FY2022?",
        "Which kinds of debt securities were listed on an exchange in 2022?",
        "Did net income exceed its forecast in 2022?",
        "How did domestic order growth compare with international order growth in FY2022?",
        # a ratio line for a question about an amount
        "What were sales in 2022?",
    ],
)
def test_a_filing_table_never_answers_with_another_quantity(question: str) -> None:
    assert statement_cells(question, ROOM) is None


def test_a_yes_no_on_a_line_change_is_its_change_answered_with_the_word() -> None:
    found = statement_cells("Did net income increase in 2022?", ROOM)
    assert found is not None
    step, _ = found
    assert (step.row_label, step.operation, step.columns) == ("Net income", "change", ["2021", "2022"])
    assert step.direction_words == ["Yes", "No"]
    found = statement_cells("Did net income increase or decrease in 2022?", ROOM)
    assert found is not None and found[0].direction_words == ["Increased", "Decreased"]


def test_a_credible_line_item_is_read_exactly_from_its_table() -> None:
    found = statement_cells("How much did the effective tax rate change from FY2021 to FY2022?", ROOM)
    assert found is not None
    step, sheet = found
    assert sheet.sheet_id == 2 and step.row_label == "Effective tax rate" and step.operation == "change"
    found = statement_cells("How much did the company spend on capital expenditure in FY2022?", ROOM)
    assert found is not None and found[1].sheet_id == 3 and found[0].row_label.startswith("Purchases of property")
    found = statement_cells("What was net income in 2021?", ROOM)
    assert found is not None and found[0].row_label == "Net income" and found[0].column_labels == ["2021"]


def test_capex_asked_by_its_name_is_the_amount_spent_not_a_negative_figure() -> None:
    """ "Capital expenditures" read on "Purchases of property, plant and equipment (1,204)": the answer is 1,204
    spent (in the unit asked), the bracketed cell cited; the line asked as printed, or its change, keeps its sign."""
    from core.retrieval.cellmath import run_cells
    from core.retrieval.tables import Column, SheetFrame

    found = statement_cells("What were capital expenditures in FY2022, in USD billions?", ROOM)
    assert found is not None and found[0].outflow and found[0].row_label.startswith("Purchases of property")
    names = ["(In millions)", "2022", "2021"]
    columns = [
        Column(position=i, name=n, letter="ABC"[i], dtype="text" if i == 0 else "number") for i, n in enumerate(names)
    ]
    rows = [list(row.values) for row in INCOME.grid]
    frame = SheetFrame.from_rows(columns, rows, row_ids=[row.row_id for row in INCOME.grid], sheet="p40")
    result = run_cells(frame, found[0].model_copy(update={"columns": ["2022"]}))
    assert result.values == ["1.2"] and "(1,204)" in result.description and "outflow" in result.description
    as_printed = statement_cells("What were purchases of property, plant and equipment in FY2022?", ROOM)
    assert as_printed is not None and not as_printed[0].outflow
    change = statement_cells("How much did capital expenditures change from FY2021 to FY2022?", ROOM)
    assert change is None or not change[0].outflow


def test_a_line_item_written_in_capitals_is_asked_for_itself() -> None:
    """Capitals make "Work In Process" look like a name; with no other quantity asked of it, it is the line item
    (a company named as the line item, with a quantity asked of it, is refused above)."""
    found = statement_cells("What was the value of Work In Process in 2021?", RoomSchema(1, (WIP,)))
    assert found is not None and found[0].row_label == "Work in process" and found[0].column_labels == ["2021"]


def test_a_limit_on_a_line_item_in_capitals_is_no_other_quantity() -> None:
    """ "In how many years was Work In Process above $5,000 thousand?": the limit and its scale are a test of the
    line's figures, not a quantity asked of a name; without a space ("below13,000") it is the same limit."""
    room = RoomSchema(1, (WIP,))
    found = statement_cells("In how many years was Work In Process above $5,000 thousand?", room)
    assert found is not None and found[0].row_label == "Work in process"
    assert (found[0].operation, found[0].compare, found[0].threshold) == ("count_where", ">", "5000")
    found = statement_cells("Which year had Packaging Supplies below13,000 thousand?", room)
    assert found is not None and (found[0].operation, found[0].compare, found[0].threshold) == ("where", "<", "13000")


def test_arithmetic_asked_of_a_line_item_in_capitals_or_of_periods_compared_is_credible() -> None:
    """ "How much did Packaging Supplies change" asks arithmetic of the line item (no other quantity), and "2022
    compared to 2021" compares periods, not two things."""
    found = statement_cells("How much did Packaging Supplies change from 2020 to 2021?", RoomSchema(1, (WIP,)))
    assert found is not None and (found[0].row_label, found[0].operation) == ("Packaging supplies", "change")
    found = statement_cells("By what percentage did net income change in 2022 compared to 2021?", ROOM)
    assert found is not None and (found[0].row_label, found[0].operation) == ("Net income", "pct_change")
    assert statement_cells("How did net income in 2022 compare to revenue?", ROOM) is None


def test_two_line_items_of_a_filing_table_are_read_together() -> None:
    found = statement_cells("What is the ratio of debt securities to net income in 2022?", ROOM)
    assert found is not None
    step, sheet = found
    assert sheet.sheet_id == 3 and step.operation == "ratio"
    assert (step.row_label, step.other_label, step.column_labels) == ("Debt securities", "Net income", ["2022"])


def test_the_periods_of_a_table_asked_by_its_subject() -> None:
    """ "For which years were foreign exchange forwards reported?" of a table its page heads "foreign exchange
    forwards" gives that table's periods; a subject no table's page holds, or "the table" of a room of several,
    gives nothing."""
    forwards = table(5, ["2021", "2020", "2019"], [["Euro contracts", "12.6", "18.3", "7.9"]], page=7,
                     text="The following summarizes the losses on foreign exchange forwards recognized")  # fmt: skip
    room = RoomSchema(room_id=1, sheets=(STOCK, forwards))
    found = statement_cells("For which years were foreign exchange forwards reported?", room)
    assert found is not None and found[1].sheet_id == 5
    assert (found[0].operation, found[0].whole_table, found[0].column_labels) == (
        "periods",
        True,
        ["2021", "2020", "2019"],
    )
    assert statement_cells("For which years were commodity swaps reported?", room) is None
    assert statement_cells("What years are covered in the table?", room) is None  # two tables: which is not said
    alone = statement_cells("What years are covered in the table?", RoomSchema(room_id=1, sheets=(forwards,)))
    assert alone is not None and alone[0].column_labels == ["2021", "2020", "2019"]


def test_two_line_items_listed_by_a_question_read_from_the_table_its_page_heads() -> None:
    """ "The respective share of revenue from Orbital and Keswick in 2019": each customer is a line item (its
    label longer than the name), the other words are on the table's page."""
    customers = table(6, ["2021", "2020", "2019"],
                      [["Orbital Retail Ltd. (“Orbital”)", "27%", "24%", "21%"], ["Keswick Motors plc (“Keswick”)", "9%", "12%", "15%"]],
                      page=9, text="Revenue from customers each representing 10% or more of revenue: "
                      "Orbital Retail Ltd. (“Orbital”) 27% 24% 21% Keswick Motors plc (“Keswick”) 9% 12% 15%")  # fmt: skip
    room = RoomSchema(room_id=1, sheets=(STOCK, customers))
    found = statement_cells("What were the respective percentage of revenue from Orbital and Keswick in 2019?", room)
    assert found is not None and found[1].sheet_id == 6
    assert (found[0].operation, found[0].column_labels) == ("items_values", ["2019"])
    assert statement_cells("What were the respective net income of Orbital and Keswick in 2019?", room) is None


def test_a_bare_total_line_answers_for_the_subject_its_documents_prose_names() -> None:
    """A short PDF's only table ends on a "Total" line and its prose (on another page) says what it totals: "the
    total charges recorded" reads that line; a subject the document never names, or a document of several
    tables, does not."""
    charges = dataclasses.replace(
        table(7, ["2021", "2020"], [["Contract termination", "3,218", "2,604"], ["Total", "$4,975", "$3,882"]], page=1),
        document_text="Below we summarise the charges recorded for the wind-down of our bottling site.",
    )
    room = RoomSchema(room_id=1, sheets=(charges,))
    found = statement_cells("What were the total charges recorded in 2021?", room)
    assert found is not None and (found[0].row_label, found[0].column_labels) == ("Total", ["2021"])
    assert statement_cells("What were the total revenues in 2021?", room) is None
    many = dataclasses.replace(charges, document_text="")  # what schema.py gives a table of a many-table document
    assert (
        statement_cells("What were the total charges recorded in 2021?", RoomSchema(room_id=1, sheets=(many,))) is None
    )


def test_a_filing_table_with_its_periods_down_the_rows_answers_from_its_own_cells() -> None:
    names = ["Column A", "Operating Leases", "Finance Leases"]
    columns = tuple(ColumnInfo(name=n, letter="ABC"[i], dtype="text", position=i) for i, n in enumerate(names))
    grid = tuple(GridRow(row_id=900 + i, values=r) for i, r in enumerate(
        [("2021", "$212", "$14"), ("2022", "198", "11"), ("2023", "176", "9")]))  # fmt: skip
    leases = SheetInfo(9, 1, "NVK_2022_10K.pdf", "p41", 3, columns, grid, 41, "Operating Leases Finance Leases 2021")
    found = statement_cells(
        "How much is due under finance leases in 2022?", RoomSchema(room_id=1, sheets=(STOCK, leases))
    )
    assert found is not None and found[1].sheet_id == 9
    assert (found[0].cells, found[0].column_labels) == ([(901, "Finance Leases")], ["2022"])


def test_the_most_specific_line_item_of_all_the_tables_wins() -> None:
    short = table(4, ["2022", "2021"], [["Revenues", "50,000", "42,000"]], page=12)
    room = RoomSchema(room_id=1, sheets=(short, INCOME))
    step, sheet = statement_cells("What were total revenues net of freight expense in 2022?", room) or (None, None)
    assert step is not None and sheet is not None and sheet.sheet_id == 3


def test_a_spreadsheet_grid_keeps_the_users_first_match() -> None:
    """A grid the user put in the room is read as before: the first that names the line item."""
    sheet = table(5, ["2022", "2021"], [["Total", "9,123", "8,010"]], page=None)
    found = statement_cells("What was the total in 2022?", RoomSchema(room_id=1, sheets=(sheet,)))
    assert found is not None and found[0].row_label == "Total"


def test_another_companys_statement_never_answers() -> None:
    """A figure on Halden & Rowe's page is no answer about Norvik, though Halden & Rowe's filing may mention it."""
    rows = [["Effective tax rate", "18.7%", "6.3%"]]
    other = table(6, ["2022", "2021"], rows, text="Halden & Rowe and Subsidiaries ...", title="HNR_2022_10K.pdf")
    room = RoomSchema(room_id=1, sheets=(other,))
    assert statement_cells("What was the change in Norvik's effective tax rate in FY2022?", room) is None
    found = statement_cells("What was the change in HnR's effective tax rate from FY2021 to FY2022?", room)
    assert found is not None  # "HnR" abbreviates the filing's name
    on_page = table(7, ["2022", "2021"], rows, text="Consolidated statement of income, Northmark segment")
    found = statement_cells("What effective tax rate did Northmark have in 2022?", RoomSchema(1, (on_page,)))
    assert found is not None  # a name printed on the table's page


REGIONS = table(
    9,
    ["2018", "2017"],
    [["Americas", "173,420", "158,960"], ["LATAM", "64,315", "71,882"], ["Other", "38.6", "29.4"]],
    text="Net sales by region (in thousands) Americas LATAM Other",
    title="report.pdf",
)


@pytest.mark.parametrize(
    ("question", "label"),
    [("How much were net sales in LATAM for 2017?", "LATAM"), ("How did Other change from 2017 to 2018?", "Other")],
)
def test_a_line_item_that_names_no_metric_answers_when_nothing_else_could_be_meant(question: str, label: str) -> None:
    """A line item such as "LATAM" or "Other" names no metric; it is the line asked for when no other table has a line of that name
    and every other word of the question is on the table's page."""
    found = statement_cells(question, RoomSchema(1, (REGIONS,)))
    assert found is not None and found[0].row_label == label


@pytest.mark.parametrize(
    "question",
    [
        # "operating income" is nowhere on the page of net sales by region: its LATAM line is not the answer
        "What was the operating income in LATAM in 2017?",
        "What was the headcount in LATAM in 2018?",
    ],
)
def test_a_line_item_that_names_no_metric_never_answers_another_quantity(question: str) -> None:
    assert statement_cells(question, RoomSchema(1, (REGIONS,))) is None


def test_a_line_item_that_names_no_metric_is_refused_when_another_table_has_one_of_its_name() -> None:
    """In a filing "Other" is a line of many tables: which one the question means is a guess."""
    costs = table(10, ["2018", "2017"], [["Other", "7", "9"]], text="Net sales costs Other", title="report.pdf")
    assert statement_cells("How did Other change from 2017 to 2018?", RoomSchema(1, (REGIONS, costs))) is None


def test_a_line_named_with_its_bracket_is_named_whole() -> None:
    """ "Total (secured)" beside "Total (unsecured)": a question that writes the bracket names that line, a bare
    "Total" names none of them."""
    debt = table(
        7,
        ["2021", "2020"],
        [
            ["Term loans", "642.3", "588.9"],
            ["Total (secured)", "642.3", "588.9"],
            ["Senior notes", "410.0", "455.5"],
            ["Total (unsecured)", "437.8", "471.2"],
        ],
    )
    room = RoomSchema(room_id=1, sheets=(debt,), documents=((1, "NVK_2021_AR.pdf"),))
    found = statement_cells("By how much did Total (unsecured) change from 2020 to 2021?", room)
    assert found is not None and found[0].row_label == "Total (unsecured)" and found[0].operation == "change"
    assert statement_cells("By how much did the total change from 2020 to 2021?", room) is None


def test_a_line_the_prose_gives_other_figures_for_the_quantity_asked_is_not_read() -> None:
    """A short PDF's table holds the software's cost ("Software in use" 40,312 and 38,755) and its prose the
    software's depreciation ($2.1 million and $1.9 million): "the depreciation of software in use in 2021" is the
    prose's quantity, never the line's; the line itself, or a sentence restating its figure rounded ($40.3
    million), still reads the cell."""
    assets = dataclasses.replace(
        table(
            8, ["2021", "2020"], [["Software in use", "40,312", "38,755"], ["Buildings", "12,004", "11,870"]], page=1
        ),
        document_text="Fixed assets are carried at historical cost. Depreciation of software in use was $2.1 million "
        "and $1.9 million in 2021 and 2020. The cost of software in use was $40.3 million in 2021.",
    )
    room = RoomSchema(room_id=1, sheets=(assets,))
    assert statement_cells("What was the depreciation of software in use in 2021?", room) is None
    assert statement_cells("What were the depreciation of software in use in 2021 and 2020 respectively?", room) is None
    assert statement_cells("What was the total depreciation of software in use in 2021 and 2020?", room) is None
    found = statement_cells("What was the software in use in 2021?", room)
    assert found is not None and (found[0].row_label, found[0].column_labels) == ("Software in use", ["2021"])
    found = statement_cells("What was the cost of software in use in 2021?", room)
    assert found is not None and found[0].row_label == "Software in use"


def test_prose_of_a_share_or_a_date_never_unseats_the_line() -> None:
    """A sentence giving the line as a share ("… as a percentage of sales was 12.5%") or naming it with the date
    asked alone states no other figure of the quantity asked: the line is read."""
    sales = dataclasses.replace(
        table(9, ["2021", "2020"], [["Net sales", "$ 51,200", "$ 48,950"], ["Gross profit", "9,001", "8,120"]], page=1),
        document_text="Gross profit, expressed as a percentage of net sales, reached 17.6% in the year ended December 31, 2021. "
        "Net sales to the largest customer were $7,420 for the year ended December 31, 2021.",
    )
    room = RoomSchema(room_id=1, sheets=(sales,))
    found = statement_cells("How much were net sales in the year ended December 31, 2021?", room)
    assert found is not None and (found[0].row_label, found[0].column_labels) == ("Net sales", ["2021"])


def test_a_rise_the_prose_states_in_its_own_unit_is_answered_as_written() -> None:
    """A short PDF's table in thousands holds royalty income (27,915 and 19,301); its prose says the income "rose
    $8.6 million": the increase asked is the filing's own "$8.6 million", not 8,614. A change asked as such (whose
    sign the answer carries), two restating figures, or a sentence of another year leave the cells' figure."""
    names = [["Royalty income", "27,915", "19,301"], ["Service fees", "4,210", "4,655"]]
    royalties = dataclasses.replace(
        table(9, ["2021", "2020"], names, page=1),
        document_text="Royalty income rose $8.6 million in 2021 on the renewal of the two largest licences. "
        "Service fees were broadly flat.",
    )
    room = RoomSchema(room_id=1, sheets=(royalties,))
    found = statement_cells("What was the increase in royalty income in 2021?", room)
    assert found is not None and (found[0].operation, found[0].stated) == ("change", "$8.6 million")
    found = statement_cells("What was the change in royalty income from 2020 to 2021?", room)
    assert found is not None and found[0].stated == ""
    twice = dataclasses.replace(
        royalties, document_text=f"{royalties.document_text} Royalty income was up $8.6 million, or 8,614 thousand."
    )
    found = statement_cells("What was the increase in royalty income in 2021?", RoomSchema(room_id=1, sheets=(twice,)))
    assert found is not None and found[0].stated == ""  # two ways of writing it: which one is in doubt
    # the sentence may name the earlier period of the change the question leaves unsaid
    both = dataclasses.replace(royalties, document_text="Royalty income rose $8.6 million from 2020 to 2021.")
    found = statement_cells("What was the increase in royalty income in 2021?", RoomSchema(room_id=1, sheets=(both,)))
    assert found is not None and found[0].stated == "$8.6 million"
    other = dataclasses.replace(
        royalties, document_text="Royalty income rose $8.6 million in 2019 and $1.2 million in 2021."
    )
    found = statement_cells("What was the increase in royalty income in 2021?", RoomSchema(room_id=1, sheets=(other,)))
    assert found is not None and found[0].stated == ""


def test_a_years_figure_the_prose_states_in_its_own_unit_is_answered_as_written() -> None:
    """A line's figure in one year the prose restates in millions ("$27.9 million and $19.3 million in 2021 and
    2020, respectively") is answered as written; a figure rounded too coarsely to be that one ("1 million") or
    another year's sentence leaves the cell's figure."""
    names = [["Royalty income", "27,915", "19,301"], ["Licence fees", "1,142", "1,020"]]
    text = "Royalty income was $27.9 million and $19.3 million in 2021 and 2020, respectively."
    royalties = dataclasses.replace(table(9, ["2021", "2020"], names, page=1), document_text=text)
    room = RoomSchema(room_id=1, sheets=(royalties,))
    found = statement_cells("What was the royalty income in 2020?", room)
    assert found is not None and (found[0].operation, found[0].stated) == ("value", "$19.3 million")
    coarse = dataclasses.replace(royalties, document_text="Licence fees in 2021 came from 1 million users.")
    found = statement_cells("What were the licence fees in 2021?", RoomSchema(room_id=1, sheets=(coarse,)))
    assert found is not None and found[0].stated == ""
    alone = dataclasses.replace(royalties, document_text="In 2021 royalty income reached $27.9 million.")
    found = statement_cells("What was the royalty income in 2021?", RoomSchema(room_id=1, sheets=(alone,)))
    assert found is not None and found[0].stated == "$27.9 million"
    found = statement_cells("What was the royalty income in 2020?", RoomSchema(room_id=1, sheets=(alone,)))
    assert found is not None and found[0].stated == ""


def test_a_one_word_metric_printed_in_the_plural_is_credible() -> None:
    """ "Inventories", "Receivables": a one-word line is a metric in the plural as in the singular (the plural was
    refused, and "How much inventories did X report for FY2021?" abstained)."""
    rows = [["Receivables", "1,310", "1,205"], ["Inventories", "2,950", "2,700"]]
    sheet = table(9, ["2022", "2021"], rows, text="NORVIK CORP CONSOLIDATED BALANCE SHEETS")
    room = RoomSchema(1, (sheet,))
    found = statement_cells("How much receivables did Norvik Corp report for FY2021?", room)
    assert found is not None and found[0].row_label == "Receivables" and found[0].column_labels == ["2021"]
    found = statement_cells("How much inventories did Norvik Corp report for FY2022? Answer in USD millions.", room)
    assert found is not None and found[0].row_label == "Inventories" and found[0].column_labels == ["2022"]


def test_what_drove_a_change_is_not_answered_with_the_changes_figure() -> None:
    """The figure of the change is no reason for it: the driver's sentence answers (core.qa.passage_drivers)."""
    assert statement_cells("How much did net income change from FY2021 to FY2022?", ROOM) is not None
    assert statement_cells("What drove the decrease in net income in FY2022?", ROOM) is None
    assert statement_cells("Why did net income decrease from FY2021 to FY2022?", ROOM) is None


def test_statement_lines_as_filings_print_them() -> None:
    """A line "net of" what it excludes is named by the words before it, its spending the amount spent; "per
    the cash flow statement" says where to read, not a quantity per anything; a dividend line printed "to
    shareholders" answers "cash dividends paid"; "compared with FY2021" compares periods."""
    cash = table(11, ["2023", "2022"], [
        ["Net earnings", "1,419", "2,454"],
        ["Additions to property and equipment, net of $35 and $46, respectively, of non-cash capital expenditures",
         "(930)", "(737)"],
        ["Dividends paid to shareholders", "(789)", "(688)"]], page=42)  # fmt: skip
    room = RoomSchema(room_id=1, sheets=(cash,), documents=((1, "NVK_2022_10K.pdf"),))
    capex = statement_cells(
        "What is the FY2023 capital expenditure in USD millions, per the cash flow statement?", room
    )
    assert capex is not None and capex[0].row_label.startswith("Additions to property") and capex[0].outflow
    dividends = statement_cells("What were FY2023 cash dividends paid in USD millions?", room)
    assert dividends is not None and dividends[0].row_label == "Dividends paid to shareholders"
    fell = statement_cells("Did net earnings decrease in FY2023 compared with FY2022?", room)
    assert fell is not None and fell[0].operation == "change" and fell[0].direction_words == ["No", "Yes"]


def test_a_whole_year_is_never_answered_from_a_quarters_columns_or_an_interim_statement() -> None:
    """An earnings release's "Fourth Quarter 2022" columns and a 10-Q's unaudited statements date figures in the
    year asked: "net earnings in FY2022" is the year's, from the annual statement, or nothing."""
    quarter = table(12, ["FOURTH QUARTER 2022 Amount", "2021 Amount"], [["Net earnings", "3,520", "4,736"]], page=10,
                    title="NVK_2022Q4_EARNINGS.pdf")  # fmt: skip
    interim = table(13, ["July 29, 2022", "July 30, 2021"], [["Net earnings", "1,180", "1,320"]], page=4,
                    text="Condensed Consolidated Statements of Earnings (unaudited) Six Months Ended",
                    title="NVK_2022Q2_10Q.pdf")  # fmt: skip
    annual = table(14, ["2022", "2021"], [["Net earnings", "17,941", "20,878"]], page=47)
    for sheets in ((quarter,), (interim,)):
        room = RoomSchema(room_id=1, sheets=sheets, documents=((1, sheets[0].title),))
        assert statement_cells("Did net earnings decrease in FY2022 compared with FY2021?", room) is None
        assert statement_cells("What were net earnings in 2022?", room) is None
    room = RoomSchema(room_id=1, sheets=(quarter, interim, annual), documents=((1, "NVK_2022_10K.pdf"),))
    found = statement_cells("What were net earnings in 2022?", room)
    assert found is not None and found[1].sheet_id == 14
    asked_quarter = statement_cells("What were net earnings in the fourth quarter of 2022?", room)
    assert asked_quarter is not None and asked_quarter[1].sheet_id == 12


def test_a_line_under_a_per_share_heading_is_no_amount_and_the_statement_wins_among_equals() -> None:
    """Highlights print "Net earnings" twice: the amount, and under "Per share data" the EPS. "Net earnings" asked
    is the amount, from the income statement before the highlights (same label, same specificity)."""
    highlights = table(15, ["2019", "2018"], [["Per share data", "", ""], ["Net earnings", "5.20", "3.26"]], page=26)
    statement = table(16, ["2019", "2018"], [["Revenue", "42,879", "42,151"], ["Net earnings", "1,464", "1,000"]],
                      page=53, text="Consolidated Statements of Earnings\n" + "1,234 " * 30)  # fmt: skip
    room = RoomSchema(room_id=1, sheets=(highlights, statement), documents=((1, "NVK_2019_10K.pdf"),))
    found = statement_cells("By what percentage did net earnings change from FY2018 to FY2019?", room)
    assert found is not None and found[1].sheet_id == 16
    alone = RoomSchema(room_id=1, sheets=(highlights,), documents=((1, "NVK_2019_10K.pdf"),))
    assert statement_cells("What were net earnings in 2019?", alone) is None
    per_share = statement_cells("What were net earnings per share in 2019?", alone)
    assert per_share is None or per_share[1].sheet_id == 15  # asked per share: the heading is the question's


def test_a_ratio_line_in_a_table_of_millions_carries_no_scale() -> None:
    """A highlights table in millions prints "Current ratio 1.5": the answer is 1.5, not 1.5 million."""
    from core.retrieval.cellmath import run_cells
    from core.retrieval.tables import Column, SheetFrame

    rows = [["Revenue", "39,403", "39,528"], ["Current ratio", "1.5", "1.4"]]
    highlights = table(17, ["2017", "2016"], rows, page=26)
    room = RoomSchema(room_id=1, sheets=(highlights,), documents=((1, "NVK_2017_10K.pdf"),))
    found = statement_cells("What was the current ratio in 2017?", room)
    assert found is not None and found[0].row_label == "Current ratio"
    names = ["($ in millions)", "2017", "2016"]
    columns = [
        Column(position=i, name=n, letter="ABC"[i], dtype="text" if i == 0 else "number") for i, n in enumerate(names)
    ]
    frame = SheetFrame.from_rows(columns, rows, row_ids=[r.row_id for r in highlights.grid], sheet="p26")
    result = run_cells(frame, found[0])
    assert result.values == ["1.5"] and "million" not in result.description, result.description
    revenue = run_cells(
        frame, found[0].model_copy(update={"row_id": highlights.grid[0].row_id, "row_label": "Revenue"})
    )
    assert "million" in revenue.description  # an amount keeps the table's unit


def test_a_metric_narrowed_by_the_question_is_read_only_on_a_line_holding_its_narrowing_word() -> None:
    """ "Discount revenue" asked: a note's "Total revenues net of interest expense" (a wording of revenue, and a
    longer label) is the whole company's revenue, not the part asked; the statement's "Discount revenue" line is.
    A line under a heading holding the word ("Services" under "Net revenues: services") answers too."""
    note = table(17, ["2022", "2021"], [["Total revenues net of interest expense", "145", "(43)"]], page=156)
    statement = table(18, ["2022", "2021"], [["Discount revenue", "30,739", "24,563"], ["Net card fees", "6,070",
                      "5,195"], ["Total revenues net of interest expense", "52,862", "42,380"]], page=96,
                      text="Consolidated Statements of Income\n" + "1,234 " * 30)  # fmt: skip
    room = RoomSchema(room_id=1, sheets=(note, statement), documents=((1, "NVK_2022_10K.pdf"),))
    found = statement_cells("Did discount revenue increase in 2022?", room)
    assert found is not None and found[0].row_label == "Discount revenue" and found[1].sheet_id == 18
    alone = RoomSchema(room_id=1, sheets=(note,), documents=((1, "NVK_2022_10K.pdf"),))
    assert statement_cells("Did discount revenue increase in 2022?", alone) is None
    assert statement_cells("Did total revenues increase in 2022?", alone) is not None  # the metric itself
    headed = table(19, ["2022", "2021"], [["Net revenues: services", "", ""], ["Total", "812", "760"]], page=60)
    room = RoomSchema(room_id=1, sheets=(headed,), documents=((1, "NVK_2022_10K.pdf"),))
    found = statement_cells("What were services net revenues in 2022?", room)
    assert found is None or found[0].row_id == 1901


def test_a_filings_columns_of_later_years_are_a_schedule_not_those_years_figures() -> None:
    """An older 10-K's contractual obligations ("Total debt" due in each later year) print the years a question
    names: "did total debt fall in 2031" is read from the filing of 2031, never from what the 2027 filing
    scheduled to be repaid in 2030 and 2031; a question asking what is due reads the schedule."""
    schedule = dataclasses.replace(
        table(
            15,
            ["Total", "2028", "2029", "2030", "2031"],
            [["Total debt (Note 9)", "9,400", "1,100", "860", "1,640", "1,210"]],
            page=52,
            title="NVK_2027_10K.pdf",
        ),
        fiscal_year=2027,
    )
    balance = dataclasses.replace(
        table(16, ["2031", "2030"], [["Total debt", "14,205", "15,870"]], page=38, title="NVK_2031_10K.pdf"),
        fiscal_year=2031,
    )
    alone = RoomSchema(room_id=1, sheets=(schedule,), documents=((1, "NVK_2027_10K.pdf"),))
    assert statement_cells("Did total debt decrease in 2031?", alone) is None
    assert statement_cells("What was total debt in 2030?", alone) is None
    both = RoomSchema(
        room_id=1, sheets=(schedule, balance), documents=((1, "NVK_2027_10K.pdf"), (2, "NVK_2031_10K.pdf"))
    )
    found = statement_cells("Did total debt decrease in 2031?", both)
    assert found is not None and found[1].sheet_id == 16
    due = statement_cells("How much total debt is due in 2030?", alone)
    assert due is not None and due[1].sheet_id == 15
    # a filing of unknown period: its columns are read as before
    undated = dataclasses.replace(schedule, fiscal_year=None)
    assert statement_cells("What was total debt in 2030?", RoomSchema(1, (undated,))) is not None
    # a table also heading the filing's own year or earlier ones is a history (or the period was misread): its
    # later columns are years' figures ("selected financial data" 2026 to 2030 in a filing read as of 2027)
    history = dataclasses.replace(
        table(
            17,
            ["2030", "2029", "2028", "2027", "2026"],
            [["Total debt", "14,205", "15,870", "15,100", "16,020", "16,400"]],
            page=30,
            title="NVK_2027_10K.pdf",
        ),
        fiscal_year=2027,
    )
    found = statement_cells("What was total debt in 2030?", RoomSchema(1, (history,)))
    assert found is not None and found[1].sheet_id == 17


def test_a_line_under_a_heading_of_charges_is_the_charge_and_net_income_is_the_companys_line() -> None:
    """ "Card Member loans" under "Provisions for credit losses:" on an income statement is the loans' provision:
    "did loans increase" is never read there (the balance sheet's line is). "Net income" of a statement printing
    it with and without the noncontrolling interests is the company's own line, named as printed."""
    income = table(
        18,
        ["2031", "2030"],
        [["Provisions for credit losses:", "", ""], ["Member loans", "1,514", "(1,155)"], ["Total provisions", "2,182", "(1,419)"]],
        page=96,
    )  # fmt: skip
    balance = table(19, ["2031", "2030"], [["Member loans", "107,964", "88,562"], ["Total assets", "228,354", "188,548"]], page=98)  # fmt: skip
    assert statement_cells("Did member loans increase in 2031?", RoomSchema(1, (income,))) is None
    found = statement_cells("Did member loans increase in 2031?", RoomSchema(1, (income, balance)))
    assert found is not None and found[1].sheet_id == 19
    asked = statement_cells(
        "What was the provision for credit losses on member loans in 2031?", RoomSchema(1, (income,))
    )
    assert asked is None or asked[1].sheet_id == 18
    earnings = table(
        20,
        ["2031", "2030"],
        [["Net income including noncontrolling interest", "5,363", "4,869"], ["Less: Net income attributable to noncontrolling interest", "14", "11"],
         ["Net income attributable to Norvik", "5,349", "4,858"]],
        page=56,
        text="Norvik Corp Consolidated Statement of Income",
    )  # fmt: skip
    found = statement_cells("Did Norvik's net income increase in 2031?", RoomSchema(1, (earnings,)))
    assert found is not None and found[0].row_label == "Net income attributable to Norvik"
    value = statement_cells("What was Norvik's net income in 2031?", RoomSchema(1, (earnings,)))
    assert value is not None and value[0].row_label == "Net income attributable to Norvik"


def test_a_quarter_of_a_fiscal_year_named_by_its_end_is_read_from_the_filings_dated_columns() -> None:
    """A 10-Q for the second quarter of fiscal 2028 (ended July 29, 2027) heads its columns "Three Months Ended
    July 29, 2027" and "Six Months Ended": the quarter asked of fiscal 2028 is the first, and the prior year's
    quarter is its comparative; a quarter's question never reads the half-year's column."""
    rows = [
        ["", "July 29, 2027", "July 30, 2026", "July 29, 2027", "July 30, 2026"],
        ["Revenue", "$ 9,583", "$ 10,329", "$ 19,050", "$ 20,976"],
        ["Net earnings", "$ 274", "$ 306", "$ 518", "$ 647"],
    ]
    names = ["Three Months Ended", "Column C", "Six Months Ended", "Column E"]
    interim = dataclasses.replace(
        table(21, names, rows, page=4, title="NVK_2028Q2_10Q.pdf",
              text="Condensed Consolidated Statements of Earnings (unaudited)"),
        fiscal_year=2028, period_end=date(2027, 7, 29),
    )  # fmt: skip
    room = RoomSchema(room_id=1, sheets=(interim,), documents=((1, interim.title),))
    found = statement_cells("Did net earnings decrease in the second quarter of fiscal 2028?", room)
    assert found is not None
    step = found[0]
    assert step.operation == "change" and step.direction_words == ["No", "Yes"]  # "Yes" if it fell
    assert step.column_labels == ["Three Months Ended July 30, 2026", "Three Months Ended July 29, 2027"]
    found = statement_cells("What was revenue in the first six months of fiscal 2028?", room)
    assert found is not None and found[0].column_labels == ["Six Months Ended July 29, 2027"]
    # a date the question writes is read as written
    found = statement_cells("What was revenue in the three months ended July 30, 2026?", room)
    assert found is not None and found[0].column_labels == ["Three Months Ended July 30, 2026"]
    # filed with its fiscal year named by its end's year, nothing moves
    plain = dataclasses.replace(interim, fiscal_year=2027)
    room = RoomSchema(room_id=1, sheets=(plain,), documents=((1, plain.title),))
    found = statement_cells("What was revenue in the second quarter of 2027?", room)
    assert found is not None and found[0].column_labels == ["Three Months Ended July 29, 2027"]


def test_a_yes_no_is_the_lines_move_never_a_line_naming_its_change() -> None:
    """A rate and volume table's "Change in net interest income" is a longer label than "Net interest income", but a
    yes/no on the line's move reads the line's two columns."""
    statement = table(22, ["2027", "2026"], [["Net interest income", "9,895", "7,750"]], page=47)
    analysis = table(23, ["2027 Versus 2026 Average Rate"], [["Change in net interest income", "412"]], page=171)
    room = RoomSchema(room_id=1, sheets=(statement, analysis), documents=((1, "NVK_2027_10K.pdf"),))
    found = statement_cells("Did net interest income increase in 2027?", room)
    assert found is not None and found[1].sheet_id == 22 and found[0].operation == "change"


def test_a_yes_no_on_a_spending_printed_in_brackets_compares_what_was_spent() -> None:
    """Capex printed "(1,093)" then "(1,204)" rose: more was spent, though the second number is the smaller."""
    found = statement_cells("Did capital expenditures decrease in 2022?", ROOM)
    assert found is not None
    step = found[0]
    assert step.row_label.startswith("Purchases of property") and step.outflow
    assert step.direction_words == ["No", "Yes"]


def test_a_balance_asked_is_the_balance_sheets_line_never_a_movement_or_a_tax_effect_of_it() -> None:
    """In a room holding a balance sheet, "Did inventories increase?" is its "Total inventories" (the total of the
    lines under its "Inventories" heading), never a cash-flow statement's movement of it ("Inventories (412)" under
    "Changes in assets and liabilities", or in a discussion's table of operating cash flows with no heading over
    it), nor the deferred tax table's "Inventory" under "Deferred tax assets:" and a sub-heading; asked of cash, the
    movement is read. A room of one such table alone is asked about it."""
    figures = " ".join(f"{n:,}" for n in range(1000, 1025))  # a statement's page prints a page of figures
    cash_flows = table(
        22,
        ["2031", "2030"],
        [["Net income", "4,310", "4,580"], ["Changes in assets and liabilities", "", ""],
         ["Accounts receivable", "(88)", "(141)"], ["Inventories", "(412)", "(655)"],
         ["Net cash provided by operating activities", "4,702", "5,116"]],
        page=52, text="Norvik Corp Consolidated Statement of Cash Flows",
    )  # fmt: skip
    discussion = table(
        23,
        ["2031", "2030"],
        [["Net income", "4,310", "4,580"], ["Inventories", "(412)", "(655)"],
         ["Net cash provided by operating activities", "4,702", "5,116"]],
        page=39, text="Norvik Corp Cash Flows from Operating Activities",
    )  # fmt: skip
    deferred = table(
        24,
        ["2031", "2030"],
        [["Deferred tax assets:", "", ""], ["Accruals not currently deductible", "", ""],
         ["Employee benefit costs", "184", "171"], ["Inventory", "57", "49"], ["Total deferred tax assets", "1,804", "1,672"]],
        page=72, text="Norvik Corp Components of Deferred Tax Assets and Liabilities",
    )  # fmt: skip
    balance = table(
        25,
        ["2031", "2030"],
        [["Inventories", "", ""], ["Finished goods", "1,962", "1,733"], ["Raw materials and supplies", "1,088", "1,046"],
         ["Total inventories", "4,240", "3,921"], ["Total current assets", "11,530", "12,217"]],
        page=50, text=f"Norvik Corp Consolidated Balance Sheet {figures}",
    )  # fmt: skip
    # a balance sheet whose inventories the grid does not hold: nothing else stands for them
    unread = dataclasses.replace(balance, grid=balance.grid[-1:], sheet_id=28)
    asked = "Did Norvik's inventories increase in 2031?"
    for sheets in ((cash_flows,), (discussion,), (deferred,), (cash_flows, discussion, deferred)):
        assert statement_cells(asked, RoomSchema(1, (*sheets, unread))) is None
    found = statement_cells(asked, RoomSchema(1, (cash_flows, deferred, balance)))
    assert found is not None and found[1].sheet_id == 25 and found[0].row_label == "Total inventories"
    cash = statement_cells(
        "What was the cash effect of the change in inventories in 2031?", RoomSchema(1, (cash_flows, unread))
    )
    assert cash is not None and cash[0].row_label == "Inventories" and cash[1].sheet_id == 22
    for alone in (cash_flows, deferred):  # the table shared on its own is what the question is about
        read = statement_cells("What were Norvik's inventories in 2031?", RoomSchema(1, (alone,)))
        assert read is not None and read[1].sheet_id == alone.sheet_id


def test_a_line_printed_with_net_at_its_end_is_the_line_asked() -> None:
    """ "Receivables, net" on the balance sheet is the receivables asked; a note's "Receivables, net of an allowance
    …" of other dates is not chosen over it."""
    balance = table(
        26, ["2031", "2030"], [["Cash and cash equivalents", "1,410", "1,286"], ["Receivables, net", "2,214", "2,371"]],
        page=52, text="Norvik Corp Consolidated Balance Sheets " + " ".join(f"{n:,}" for n in range(1000, 1025)),
    )  # fmt: skip
    note = table(
        27, ["2031", "2030"], [["Receivables, net of an allowance for doubtful accounts of $9 and $17", "$ 433", "$ 512"]],
        page=80, text="Norvik Corp Contract balances",
    )  # fmt: skip
    found = statement_cells("Did Norvik's receivables increase in 2031?", RoomSchema(1, (note, balance)))
    assert found is not None and found[1].sheet_id == 26 and found[0].row_label == "Receivables, net"
    value = statement_cells("What were Norvik's receivables in 2031?", RoomSchema(1, (balance,)))
    assert value is not None and value[0].row_label == "Receivables, net"


def test_a_reserve_asked_is_the_reserves_line_never_the_loans_nor_their_provision() -> None:
    """ "Did the reserve for credit losses on member loans increase?" is the loans table's "Less: Reserves for credit
    losses" line (its sign before its name), never the loans' line or their net, nor the provision printed under a
    heading of provisions (a charge of the period, not the balance held)."""
    loans = table(
        29, ["2031", "2030"],
        [["Consumer", "61,220", "55,310"], ["Club Member loans", "79,845", "70,116"],
         ["Less: Reserves for credit losses", "2,915", "2,604"], ["Club Member loans, net", "76,930", "67,512"]],
        page=107, text="Norvik Corp Club Member loans",
    )  # fmt: skip
    income = table(
        30, ["2031", "2030"],
        [["Provisions for credit losses:", "", ""], ["Club Member loans", "1,126", "(890)"], ["Total provisions", "1,644", "(1,075)"]],
        page=96, text="Norvik Corp Consolidated Statements of Income",
    )  # fmt: skip
    asked = "Did Norvik's reserve for credit losses on Club Member loans increase in 2031?"
    assert statement_cells(asked, RoomSchema(1, (income,))) is None
    found = statement_cells(asked, RoomSchema(1, (income, loans)))
    assert found is not None and found[1].sheet_id == 29 and found[0].row_label == "Less: Reserves for credit losses"
    # nor is a provision asked read from the reserves' line (the balance held, not the period's charge)
    provision = statement_cells(
        "What was the provision for credit losses on Club Member loans in 2031?", RoomSchema(1, (income, loans))
    )
    assert provision is None or provision[1].sheet_id == 30


def test_a_one_word_line_of_a_statement_asked_alone_is_the_line() -> None:
    """ "Did goodwill decrease in 2031?": the balance sheet's "Goodwill" line, though the word is no metric of the
    lexicon and each year's statement prints it; a one-word line of a page that is no statement is not read so."""
    figures = " ".join(f"{n:,}" for n in range(1000, 1025))
    balance = table(
        31, ["2031", "2030"], [["Property, plant and equipment — net", "6,215", "6,490"], ["Goodwill", "7,734", "8,102"]],
        page=58, text=f"Norvik Corp Consolidated Balance Sheet {figures}",
    )  # fmt: skip
    earlier = dataclasses.replace(balance, sheet_id=32, page=60)
    found = statement_cells("Did Norvik's goodwill decrease in 2031?", RoomSchema(1, (balance, earlier)))
    assert found is not None and found[0].row_label == "Goodwill" and found[0].direction_words == ["No", "Yes"]
    note = table(
        33, ["2031", "2030"], [["Goodwill", "7,734", "8,102"]], page=80, text="Norvik Corp Goodwill by segment"
    )
    other = dataclasses.replace(note, sheet_id=34, page=81)
    assert statement_cells("Did Norvik's goodwill decrease in 2031?", RoomSchema(1, (note, other))) is None


def test_a_line_printed_less_what_it_is_net_of_is_the_net_line() -> None:
    """ "Member loans (includes …), less reserves for credit losses: 2027, $41; 2026, $33" is the net loans: asked as
    "loans net of reserves"; the gross line beside it answers "loans"."""
    rows = [
        ["Member loans", "1,210", "1,005"],
        ["Member loans (includes loans of a trust: 2027, $88; 2026, $71), less reserves for credit losses: 2027, $41; "
         "2026, $33", "1,169", "972"],
    ]  # fmt: skip
    sheet = table(12, ["2027", "2026"], rows, text="NORVIK CORP CONSOLIDATED BALANCE SHEETS")
    room = RoomSchema(1, (sheet,))
    net = statement_cells("What were Norvik Corp's member loans net of reserves in FY2027?", room)
    assert net is not None and net[0].row_id == 1201 and net[0].column_labels == ["2027"]
    gross = statement_cells("What were Norvik Corp's member loans in FY2027?", room)
    assert gross is not None and gross[0].row_id == 1200
