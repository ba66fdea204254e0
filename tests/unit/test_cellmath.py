"""Cell arithmetic on statement-like grids (core.retrieval.cellmath): planning from the question, exact results."""

from __future__ import annotations

from decimal import Decimal

import pytest

from core.cells import Column
from core.qa.measures import asked_measures
from core.qa.metrics import figure_aliases
from core.qa.planner.cells import GridRow, plan_cells, turned_grid
from core.retrieval.cellmath import run_cells, sheet_unit, stated_unit
from core.retrieval.tables import SheetFrame

# A note to the accounts as reports lay it out: a blank corner, header rows, line items, periods across.
GRID = [
    ["", "", "Years Ended September 30,", ""],
    ["", "2019", "2018", "2017"],
    ["Subscriptions", "$  2,318.6", "$  2,047.5", "$  1,873.2"],
    ["Licensing", "38.4", "52.9", "61.3"],
    ["Total sales", "$2,357.0", "$2,100.4", "$1,934.5"],
    ["Debt-to-capital (DTC) ratio", "41.2%", "43.5%", "45.8%"],
]
NAMES = ["Column A", "Column B", "Years Ended September 30,", "Column D"]


def sheet() -> SheetFrame:
    columns = [
        Column(position=i, name=n, letter="ABCD"[i], dtype="text" if i == 0 else "number") for i, n in enumerate(NAMES)
    ]
    return SheetFrame.from_rows(
        columns,
        GRID,
        row_numbers=list(range(2, 2 + len(GRID))),
        row_ids=list(range(100, 100 + len(GRID))),
        sheet="Note 4",
    )


def grid() -> list[GridRow]:
    return [GridRow(row_id=100 + i, values=tuple(v or None for v in row)) for i, row in enumerate(GRID)]


def ask(question: str) -> tuple[str, list[str], str]:
    step = plan_cells(question, 1, NAMES, grid())
    assert step is not None, question
    result = run_cells(sheet(), step)
    return step.operation, result.values, result.description


def test_change_is_later_minus_earlier_whatever_the_order_of_the_words() -> None:
    assert ask("What is the change in Licensing in 2019 from 2018?")[:2] == ("change", ["-14.5"])
    assert ask("What was the change in licensing from 2018 to 2019?")[:2] == ("change", ["-14.5"])


def test_a_change_asked_as_a_decrease_is_how_much_the_line_fell() -> None:
    # Licensing fell 52.9 -> 38.4; asked how much it decreased, the answer is the fall (14.5), not -14.5.
    op, values, description = ask("How much did licensing decrease by from 2018 to 2019?")
    assert (op, values) == ("change", ["14.5"])
    assert description == "Licensing was 14.5 lower in 2019 (38.4) than in 2018 (52.9)"
    assert ask("What was the decline in licensing between 2018 and 2019?")[1] == ["14.5"]
    # a rise asked as a decrease is a negative decrease, said so
    values, description = ask("How much did total sales decrease by from 2017 to 2019?")[1:]
    assert values == ["-422.5"] and description.endswith(
        "higher in 2019 ($2,357.0) than in 2017 ($1,934.5): a decrease of -422.5"
    )
    # a signed move worded beside it, or the change itself, stays the later figure minus the earlier
    assert ask("What was the increase/(decrease) in licensing from 2018 to 2019?")[1] == ["-14.5"]
    assert ask("What was the change in licensing, an increase or decrease, from 2018 to 2019?")[1] == ["-14.5"]


def test_a_change_the_prose_states_is_answered_as_the_prose_writes_it() -> None:
    step = plan_cells("What was the increase in subscriptions from 2018 to 2019?", 1, NAMES, grid())
    assert step is not None
    result = run_cells(sheet(), step.model_copy(update={"stated": "$271 million"}))
    assert result.values == ["$271 million"]
    assert result.description.endswith("is 271.1, which the text states as $271 million")
    step = plan_cells("What were subscriptions in 2019?", 1, NAMES, grid())
    assert step is not None
    result = run_cells(sheet(), step.model_copy(update={"stated": "$2.3 billion"}))
    assert result.values == ["$2.3 billion"] and result.description.endswith("which the text states as $2.3 billion")


def test_percentage_change_is_rounded_to_two_places() -> None:
    op, values, description = ask("What is the percentage change in Licensing in 2019 from 2018?")
    expected = ((Decimal("38.4") - Decimal("52.9")) / Decimal("52.9") * 100).quantize(Decimal("0.01"))
    assert op == "pct_change" and values == [str(expected)] and "-27.41%" in description


def test_average_and_total_over_the_periods_asked() -> None:
    assert ask("What is the average total sales for 2018 and 2019?")[1] == ["2228.7"]
    assert ask("What was the average Licensing from 2017 to 2019?")[1] == [str(round((38.4 + 52.9 + 61.3) / 3, 2))]
    assert ask("What is the sum of Subscriptions in 2017 and 2018 combined?")[1] == ["3920.7"]


def test_the_average_of_one_year_is_over_its_opening_and_closing_balance() -> None:
    """ "The 2019 average X" is X averaged over 2019's opening (2018's close) and closing figures, as analysts
    average inventory or assets; never every column of the table. With no year before it, no figure."""
    op, values, description = ask("What is the 2019 average Licensing?")
    assert op == "average" and values == [str(round((38.4 + 52.9) / 2, 2))] and "2018" in description
    assert plan_cells("What was the average Licensing in 2017?", 1, NAMES, grid()) is None


def test_the_most_specific_line_item_wins_and_values_are_the_cells_as_stored() -> None:
    op, values, _ = ask("What was the figure for total sales in 2019?")
    assert op == "value" and values == ["$2,357.0"]
    assert ask("What were the total sales in 2019 and 2018 respectively?")[1] == ["$2,357.0", "$2,100.4"]


def test_which_year_and_acronym_labels() -> None:
    assert ask("In which year was the DTC ratio the largest?")[:2] == ("argmax", ["2017"])
    assert ask("Which year had the lowest total sales?")[1] == ["2017"]


def test_every_used_cell_is_cited_with_its_address() -> None:
    step = plan_cells("What is the change in Licensing in 2019 from 2018?", 1, NAMES, grid())
    result = run_cells(sheet(), step)
    assert [(c.ref, c.value, c.row_id) for c in result.citations] == [
        ("'Note 4'!C5", "52.9", 103),
        ("'Note 4'!B5", "38.4", 103),
    ]


@pytest.mark.parametrize(
    "question",
    [
        "Who is the CEO?",  # no line item
        "How much did revenue change from 2018 to 2019?",  # a line item the grid does not have
        "How many years was Licensing more than 900 million?",  # a scale the header does not state, figures far off
        "What is the ratio of Licensing to domestic sales in 2019?",  # "domestic" is no word of the Total sales line
        "What is the ratio of Licensing to Total sales?",  # no period named, and the grid has three
        "What percentage of Subscriptions was Licensing?",  # no total line named: which is the whole is not said
    ],
)
def test_questions_it_does_not_plan(question: str) -> None:
    assert plan_cells(question, 1, NAMES, grid()) is None


def test_which_periods_pass_a_test_and_how_many_do() -> None:
    """A threshold question lists the periods (or counts them) whose figure is below or above the limit."""
    op, values, description = ask("In which year was Licensing less than 60?")
    assert op == "where" and values == ["2019", "2018"] and "below 60 in 2019 and 2018" in description
    assert ask("In which years was total sales more than $2,000?")[:2] == ("where", ["2019", "2018"])
    assert ask("How many years did Licensing exceed 50?")[:2] == ("count_where", ["2"])
    assert ask("In which year was Licensing above 100?")[1] == []  # none: said so, no period given


def test_which_periods_a_line_item_or_the_table_covers() -> None:
    assert ask("In which years was Subscriptions calculated?")[:2] == ("periods", ["2019", "2018", "2017"])
    step = plan_cells("Which periods are covered by the table?", 1, NAMES, grid(), whole_table=True)
    assert step is not None and step.whole_table
    result = run_cells(sheet(), step)
    assert result.values == ["2019", "2018", "2017"] and result.description.startswith("The table gives figures for")
    # without the caller's word that the question is about this table, a question naming no line item is not read
    assert plan_cells("Which periods are covered by the table?", 1, NAMES, grid()) is None


@pytest.mark.parametrize(
    "question",
    [
        "Which year was Licensing higher?",  # a superlative: the period of the largest figure, not every period
        "Which year had lower net cash provided by Licensing?",
        "In which years was Licensing less than 60?",  # a limit
    ],
)
def test_a_question_of_one_period_among_them_is_not_a_list_of_periods(question: str) -> None:
    step = plan_cells(question, 1, NAMES, grid())
    assert step is None or step.operation != "periods", step


def test_the_total_over_a_span_read_on_a_bare_total_line_is_the_sum() -> None:
    """ "The total income … between 2017 to 2019" names the table's "Total" line and asks for its sum over the
    span: the word "total" is both."""
    rows = [GridRow(1, ("", "2019", "2018", "2017")), GridRow(2, ("Domestic", "60", "50", "40")),
            GridRow(3, ("Total", "71.4", "58.2", "49.7"))]  # fmt: skip
    step = plan_cells("What is the total income between 2017 to 2019?", 1, ["A", "B", "C", "D"], rows)
    assert step is not None and (step.operation, step.row_label) == ("sum", "Total")
    step = plan_cells("What is the total income in 2019 and 2018 respectively?", 1, ["A", "B", "C", "D"], rows)
    assert step is not None and step.operation == "value"


TAX_GRID = [
    ["", "2019", "2018"],
    ["Deferred tax assets", "", ""],
    ["Net operating loss carryforwards", "2,684", "2,911"],
    ["Other employee benefits1", "118", "147"],
    ["Other", "462", "498"],
    ["Gross deferred tax assets", "3,264", "3,556"],
    ["Deferred tax liabilities:", "", ""],
    ["Acquired intangibles", "(2,745)", "(2,903)"],
    ["Other (1)", "—", "(31)"],
    ["", "(2,745)", "(2,934)"],
    ["Hardware maintenance", "215", "9,840"],
    ["Software subscriptions", "2,466", "2,702"],
    ["Total revenue", "2,681", "12,542"],
]


def tax_answer(question: str) -> tuple[str, list[str], str, int]:
    names = ["Column A", "Column B", "Column C"]
    rows = [GridRow(row_id=100 + i, values=tuple(v or None for v in r)) for i, r in enumerate(TAX_GRID)]
    step = plan_cells(question, 1, names, rows)
    assert step is not None, question
    columns = [Column(position=i, name=n, letter="ABC"[i], dtype="text") for i, n in enumerate(names)]
    frame = SheetFrame.from_rows(columns, TAX_GRID, row_numbers=list(range(2, 2 + len(TAX_GRID))),
                                 row_ids=list(range(100, 100 + len(TAX_GRID))), sheet="Note 9")  # fmt: skip
    result = run_cells(frame, step)
    return step.operation, result.values, result.description, len(result.citations)


def test_the_line_items_of_a_section_or_a_total_are_listed_or_counted() -> None:
    """ "What are the components under X": the lines under the heading X down to its total (footnote marks left
    off, each label cited); "... of total X": the lines above the total; "How many components": their count."""
    op, values, description, cited = tax_answer("What are the components listed under deferred tax assets?")
    assert op == "line_items" and cited == 3
    assert values == ["Net operating loss carryforwards", "Other employee benefits", "Other"]
    assert "under Deferred tax assets are" in description
    assert tax_answer("What are the items recorded under deferred tax liabilities?")[1] == [
        "Acquired intangibles", "Other"
    ]  # fmt: skip
    assert tax_answer("What financial items does deferred tax liabilities consist of?")[1][0] == "Acquired intangibles"
    assert tax_answer("What are the parts of total revenue?")[1] == [
        "Hardware maintenance", "Software subscriptions"
    ]  # fmt: skip
    assert tax_answer("How many items are there under deferred tax assets?")[:2] == ("count_items", ["3"])


@pytest.mark.parametrize(
    "question",
    [
        "What are the components under deferred revenue?",  # no such heading or total
        "What are the components of other?",  # "Other" is a line of two sections: which is not said
        "What are the components listed under deferred tax assets in 2019?",  # a period asked: a figure, not the lines
    ],
)
def test_no_line_items_listed_for_a_heading_not_named_once(question: str) -> None:
    rows = [GridRow(row_id=100 + i, values=tuple(v or None for v in r)) for i, r in enumerate(TAX_GRID)]
    step = plan_cells(question, 1, ["Column A", "Column B", "Column C"], rows)
    assert step is None or step.operation not in ("line_items", "count_items"), step


@pytest.mark.parametrize(
    "question",
    [
        "Looking at 2019, what was the component with the biggest share of Total sales?",
        "What was the segment with the largest Total sales in 2019?",
        "How many major components make up Licensing sales?",  # Licensing is a line, no heading or total
        "How many segments had Licensing above 50 in 2019?",
    ],
)
def test_a_question_asking_for_a_kind_of_line_or_a_count_of_them_is_no_lines_figure(question: str) -> None:
    """The answer is a line item (or how many), not the figure of the line the question also names."""
    assert plan_cells(question, 1, NAMES, grid()) is None


def test_a_span_written_with_a_hyphen_is_every_period_in_it() -> None:
    """ "The average of Licensing for 2017-2019" is over the three years, never over 2017 and 2019 alone."""
    op, values, description = ask("What was the average Licensing for 2017-2019?")
    assert (op, values) == ("average", ["50.87"]) and "2018" in description  # (38.4 + 52.9 + 61.3) / 3
    assert ask("What was the total Licensing in 2017–2019?")[:2] == ("sum", ["152.6"])


@pytest.mark.parametrize(
    "question",
    [
        "What is the change in average Licensing from the 2017-2018 span to the 2018-2019 span?",  # a change of averages
        "What is the change between the 2018 average Licensing and the 2019 one?",
        "What was the average change in Licensing from 2017 to 2019?",  # an average of changes
    ],
)
def test_two_operations_asked_at_once_are_not_one(question: str) -> None:
    assert plan_cells(question, 1, NAMES, grid()) is None


def test_the_change_in_a_quantity_named_average_is_one_change() -> None:
    """ "The change in the average ticket price since 2018" is the change of that line, not of an average."""
    assert ask("What was the 2019 change in the average Licensing from 2018?")[:2] == ("change", ["-14.5"])


def test_no_annual_average_over_columns_of_several_years() -> None:
    rows = [GridRow(1, ("", "Total", "2020", "2021-2022", "2023-2024")),
            GridRow(2, ("Operating leases", "$16,208", "$3,912", "$6,540", "$3,104"))]  # fmt: skip
    names = ["A", "B", "C", "D", "E"]
    assert plan_cells("Over 2020-2024, what were the average annual operating leases?", 1, names, rows) is None


def test_a_line_named_whole_beats_one_read_without_its_bracket() -> None:
    rows = [GridRow(1, ("", "2019", "2018")), GridRow(2, ("Free cash flow (pre-royalty)", "3,962", "3,815")),
            GridRow(3, ("Royalty payments", "(604)", "(918)")), GridRow(4, ("Free cash flow", "3,358", "2,897"))]  # fmt: skip
    step = plan_cells("What free cash flow was there in 2019?", 1, ["A", "B", "C"], rows)
    assert step is not None and step.row_label == "Free cash flow"
    step = plan_cells("What free cash flow pre-royalty was there in 2019?", 1, ["A", "B", "C"], rows)
    assert step is not None and step.row_label == "Free cash flow (pre-royalty)"


def test_a_figure_line_with_no_label_that_adds_up_the_lines_above_is_their_total() -> None:
    rows = [GridRow(1, ("", "2019", "2018")), GridRow(2, ("Employee severance", "$5,312", "$6,074")),
            GridRow(3, ("Site consolidation", "948", "—")), GridRow(4, ("Other", "—", "427")),
            GridRow(5, (None, "$6,260", "$6,501"))]  # fmt: skip
    step = plan_cells("What is the total costs in 2019?", 1, ["A", "B", "C"], rows)
    assert step is not None and (step.row_id, step.row_label) == (5, "Total")
    rows[-1] = GridRow(5, (None, "$6,260", "$7,000"))  # 2018 does not add up: a line of its own, not a total
    step = plan_cells("What is the total costs in 2019?", 1, ["A", "B", "C"], rows)
    assert step is None or step.row_id != 5


def turned_answer(
    table: list[list[str]], question: str
) -> tuple[str, list[str], str, list[tuple[int | None, str | None]]]:
    """Plan on the table read turned (`turned_grid`), run on the table's own cells."""
    names = ["Column A", *(table[0][1:])]
    rows = [GridRow(row_id=100 + i, values=tuple(v or None for v in r)) for i, r in enumerate(table[1:])]
    turned = turned_grid(names, rows)
    assert turned is not None
    step = turned.step(plan_cells(question, 1, turned.names, turned.rows, strict=True), question)
    assert step is not None, question
    columns = [Column(position=i, name=n, letter="ABCD"[i], dtype="text") for i, n in enumerate(names)]
    frame = SheetFrame.from_rows(columns, [list(r) for r in table[1:]], row_numbers=list(range(2, 1 + len(table))),
                                 row_ids=list(range(100, 99 + len(table))), sheet="Leases")  # fmt: skip
    result = run_cells(frame, step)
    return step.operation, result.values, result.description, [(c.row_id, c.column) for c in result.citations]


def test_a_table_with_its_periods_down_the_rows_is_read_turned() -> None:
    """ "2021 | Office leases | Vehicle leases": the periods are rows, the line items columns; the answer cites
    the table's own cells."""
    leases = [["", "Office Leases", "Vehicle Leases"], ["2021", "$212", "$9"], ["2022", "204", "9"],
              ["2023", "191", "11"]]  # fmt: skip
    op, values, _, cited = turned_answer(leases, "What were the office leases for 2021?")
    assert (op, values, cited) == ("value", ["$212"], [(100, "Office Leases")])
    assert turned_answer(leases, "What was the change in office leases between 2021 and 2022?")[1] == ["-8"]
    op, values, _, cited = turned_answer(leases, "What are the respective office leases and vehicle leases in 2022?")
    assert (op, values, cited) == ("items_values", ["204", "9"], [(101, "Office Leases"), (101, "Vehicle Leases")])


def test_dated_headings_over_the_same_lines_are_the_periods() -> None:
    receivables = [["", "Gross", "Allowance", "Net"], ["December 31, 2019", "", "", ""],
                   ["Merchant related", "$10,472", "$(195)", "$10,277"], ["Servicing related", "5,931", "—", "5,931"],
                   ["December 31, 2018", "", "", ""], ["Merchant related", "$11,806", "$(143)", "$11,663"],
                   ["Servicing related", "742", "—", "742"]]  # fmt: skip
    op, values, _, cited = turned_answer(receivables, "What was the servicing related net receivable in 2018?")
    assert (op, values, cited) == ("value", ["742"], [(105, "Net")])
    assert turned_answer(receivables, "What was the change in merchant related gross from 2018 to 2019?")[1] == [
        "-1334"
    ]


def test_a_movement_between_dated_balances_is_never_read_as_the_balance() -> None:
    """A roll-forward ("Nonvested at January 1, 2019", "Granted", "Vested", "Nonvested at December 31, 2019"): the
    dated lines are balances; "shares granted in 2019" names the Granted line, which the turned reading leaves out."""
    rows = [GridRow(1, ("Nonvested at December 31, 2018", "1,042,316")), GridRow(2, ("Granted", "389,740")),
            GridRow(3, ("Vested", "(301,588)")), GridRow(4, ("Nonvested at December 31, 2019", "1,118,904"))]  # fmt: skip
    turned = turned_grid(["Column A", "Shares"], rows)
    assert turned is not None
    for question in ("How many shares were granted to staff over 2019?", "How many shares vested in 2019?"):
        assert turned.step(plan_cells(question, 1, turned.names, turned.rows, strict=True), question) is None
    question = "What were the shares at the end of 2019?"
    step = turned.step(plan_cells(question, 1, turned.names, turned.rows, strict=True), question)
    assert step is not None and step.cells == [(4, "Shares")]


def test_a_question_naming_several_lines_is_not_answered_by_one() -> None:
    rows = [GridRow(1, ("", "2019", "2018")), GridRow(2, ("Harbor Transit Systems", "187,305", "41,920")),
            GridRow(3, ("Harbor Field Services", "63,000", "58,000")), GridRow(4, ("Harbor Marine Works", "35,000", "37,000"))]  # fmt: skip
    question = "What is the average net balance in 2019 for Harbor Transit Systems, Harbor Field Services and Harbor Marine Works?"
    assert plan_cells(question, 1, ["A", "B", "C"], rows) is None
    step = plan_cells("What was the net balance of Harbor Field Services in 2019?", 1, ["A", "B", "C"], rows)
    assert step is not None and step.row_label == "Harbor Field Services"


def test_a_column_the_question_names_by_its_words_is_never_read_as_the_years_other_column() -> None:
    """ "The fair value of total notes payable at December 31, 2019" of a table whose 2019 is read as its carrying amount
    column (the fair value column beside it carries no year): no answer rather than the carrying amount."""
    names = ["Column A", "December 31, 2019", "Column C", "December 31, 2018", "Column E"]
    rows = [GridRow(1, ("(In millions)", "Carrying Amount", "Fair Value", "Carrying Amount", "Fair Value")),
            GridRow(2, ("Total notes payable", "$ 2,918.6", "$ 3,104.2", "$ 2,750.0", "$ 2,811.5"))]  # fmt: skip
    question = "What fair value did total notes payable have at December 31, 2019?"
    step = plan_cells(question, 1, names, rows, strict=True)
    assert step is None or step.columns == ["Column C"], step
    step = plan_cells(
        "What carrying amount did total notes payable have at December 31, 2019?", 1, names, rows, strict=True
    )
    assert step is not None and step.columns == ["December 31, 2019"]


def test_maturity_columns_are_named_by_their_span_of_years() -> None:
    """ "Less Than 1 Year", "1-3 Years": a question says "less than one year", "between 1 to 3 years"."""
    names = ["Contractual obligations", "Less Than 1 Year", "1-3 Years", "More than 5 years", "Total"]
    rows = [GridRow(1, ("Operating lease obligations", "$614", "$1,730", "$355", "$2,699")),
            GridRow(2, ("Financing obligations", "4,208", "5,377", "0", "9,585"))]  # fmt: skip
    step = plan_cells("What are the respective operating lease obligations due in less than one year and between "
                      "1 to 3 years?", 1, names, rows, strict=True)  # fmt: skip
    assert step is not None and step.columns == ["Less Than 1 Year", "1-3 Years"]
    step = plan_cells("What are the respective operating lease and financing obligations due in more than five years?",
                      1, names, rows, strict=True)  # fmt: skip
    assert step is not None and (step.operation, step.columns) == ("items_values", ["More than 5 years"])
    assert plan_cells("What are the operating lease obligations due in 3-5 years?", 1, names, rows, strict=True) is None


def test_a_list_of_three_items_is_not_read_as_two() -> None:
    question = "What is the average of Subscriptions, Licensing and Total sales in 2019?"
    step = plan_cells(question, 1, NAMES, grid())
    assert step is None or step.operation not in ("items_average", "items_values", "items_sum"), step


def test_a_table_is_not_read_turned_when_its_header_holds_the_periods() -> None:
    rows = [GridRow(1, ("2019 revenue", "5", "6")), GridRow(2, ("2018 revenue", "4", "5"))]
    assert turned_grid(["Column A", "2019", "2018"], rows) is None
    assert turned_grid(["Column A", "Fixed", "Other"], [GridRow(1, ("Fiscal 2019", "5", "6"))]) is None  # one year


def test_two_line_items_listed_with_and_read_each_or_their_total_or_average() -> None:
    """ "The respective A and B in 2019" gives both figures; "the total (average) of A and B" adds (averages) them;
    both cells cited."""
    op, values, description = ask("What are the respective Subscriptions and Licensing in 2019?")
    assert (op, values) == ("items_values", ["$  2,318.6", "38.4"]) and "in 2019" in description
    assert ask("What was the total Subscriptions and Licensing in 2018?")[:2] == ("items_sum", ["2100.4"])
    assert ask("What was the average of Licensing and Subscriptions in 2017?")[:2] == ("items_average", ["967.25"])
    # "the difference in X between A and B" is A minus B, whatever else the question says
    assert ask("What was the difference in total between Subscriptions and Licensing in 2019?")[:2] == (
        "items_difference", ["2280.2"]
    )  # fmt: skip
    step = plan_cells("What are the respective Subscriptions and Licensing in 2019?", 1, NAMES, grid())
    assert step is not None and len(run_cells(sheet(), step).citations) == 2


@pytest.mark.parametrize(
    "question",
    [
        "What are the respective Subscriptions and Licensing?",  # no period: which of three columns is not said
        "What are the respective Subscriptions and Licensing in 2019 and 2018?",  # two periods, two items: four figures
        "What are the respective Subscriptions and domestic Licensing in 2019?",  # "domestic" is no word of the table
        "What were the total Subscriptions and Licensing sales in 2019 for Europe?",  # "Europe": another part of the firm
        "What was the total change in Subscriptions and Licensing in 2019?",  # a change of each, not their total
    ],
)
def test_two_line_items_listed_need_one_period_and_nothing_else_named(question: str) -> None:
    step = plan_cells(question, 1, NAMES, grid())
    assert step is None or step.operation not in ("items_values", "items_sum", "items_average"), step


def test_one_line_item_holding_and_is_never_two() -> None:
    rows = [
        GridRow(1, ("", "2019", "2018")),
        GridRow(2, ("Research and development", "120", "100")),
        GridRow(3, ("Development", "40", "30")),
        GridRow(4, ("Research", "80", "70")),
    ]
    step = plan_cells("What was the total research and development in 2019?", 1, ["A", "B", "C"], rows)
    assert step is not None and (step.operation, step.row_label) == ("value", "Research and development")


def test_two_line_items_of_one_period() -> None:
    """A share, a ratio or a difference of two line items reads both cells of the period asked, whichever way the
    question words the part and the whole, and cites both."""
    op, values, description = ask("What is Licensing as a percentage of Total sales in 2019?")
    assert op == "share" and values == [str((Decimal("38.4") / Decimal("2357.0") * 100).quantize(Decimal("0.01")))]
    assert "% of Total sales in 2019" in description
    assert ask("What percentage of total sales was made up of Subscriptions in 2018?")[1] == [
        str((Decimal("2047.5") / Decimal("2100.4") * 100).quantize(Decimal("0.01")))
    ]
    assert ask("What is the ratio of Subscriptions to Licensing in 2017?")[:2] == (
        "ratio", [str((Decimal("1873.2") / Decimal("61.3")).quantize(Decimal("0.01")))]
    )  # fmt: skip
    assert ask("What is the difference between Subscriptions and Licensing in 2019?")[:2] == (
        "items_difference", ["2280.2"]
    )  # fmt: skip
    assert ask("What was the percentage constitution of Licensing in the total sales for 2019?")[:2] == (
        "share",
        ["1.63"],
    )
    step = plan_cells("What is the ratio of Subscriptions to Licensing in 2017?", 1, NAMES, grid())
    assert step is not None
    assert [(c.ref, c.value) for c in run_cells(sheet(), step).citations] == [
        ("'Note 4'!D4", "$  1,873.2"), ("'Note 4'!D5", "61.3")
    ]  # fmt: skip


def test_a_side_may_hold_the_name_the_question_gives() -> None:
    """ "IMFT's total sales": the company is vouched for by the caller (its name is on the table's page)."""
    question = "What is the ratio of Acme's Subscriptions to total sales in 2019?"
    assert plan_cells(question, 1, NAMES, grid()) is None
    step = plan_cells(question, 1, NAMES, grid(), given_names=["Acme"])
    assert step is not None and step.operation == "ratio" and step.other_label == "Total sales"


def test_a_list_of_records_is_left_to_the_table_planner() -> None:
    # One year in a header is a label, not periods across: nothing to plan here.
    names = ["Team", "2004", "Coach"]
    rows = [GridRow(row_id=1, values=("Ajax", "3", "Smith"))]
    assert plan_cells("How many in 2004 for Ajax?", 1, names, rows) is None


# A cash-flow statement prints "capex" as a line item of its own wording (the header row is the column names).
CASH_FLOW = [
    ["Operating income", "5,318", "5,046"],
    ["Net cash provided by operating activities", "4,872", "4,615"],
    ["Purchases of property, plant and equipment (capex)", "(1,164)", "(1,029)"],
    ["Property, plant and equipment, net", "6,491", "6,377"],
    ["Proceeds from disposals of equipment", "188", "57"],
]


def cash_flow_step(question: str):
    rows = [GridRow(row_id=i, values=tuple(v or None for v in row)) for i, row in enumerate(CASH_FLOW)]
    return plan_cells(question, 1, ["Column A", "2018", "2017"], rows, figure_aliases(question))


def test_a_figure_asked_by_another_wording_is_read_from_its_line_item() -> None:
    step = cash_flow_step("How much capital expenditure did Kestrel Tools report for FY2018, in USD millions?")
    assert step is not None and step.row_label.startswith("Purchases of property") and step.column_labels == ["2018"]
    # Without the alias table the question names no line item of the grid.
    rows = [GridRow(row_id=i, values=tuple(v or None for v in row)) for i, row in enumerate(CASH_FLOW)]
    assert (
        plan_cells(
            "How much capital expenditure did Kestrel Tools report for FY2018?", 1, ["Column A", "2018", "2017"], rows
        )
        is None
    )


@pytest.mark.parametrize("wording", ["net PP&E", "net PPNE", "net property, plant and equipment"])
def test_net_ppe_by_its_abbreviation_is_the_net_line_not_the_purchases(wording: str) -> None:
    """Analysts write the balance after depreciation "net PP&E": the "…, net" line, never the capex line; and
    the measure check finds it named by the metric lexicon (no compound the room must print as written)."""
    question = f"What was Kestrel Tools' {wording} at the end of FY2017 (USD millions)?"
    step = cash_flow_step(question)
    assert (
        step is not None and step.row_label == "Property, plant and equipment, net" and step.column_labels == ["2017"]
    )
    if wording != "net property, plant and equipment":  # written out, its words are the line's: linked by the cell
        assert asked_measures(question) == []


def test_an_alias_never_reads_an_ingredient_or_a_neighbour_of_the_figure() -> None:
    # "Operating margin" is a ratio: operating income is its ingredient, not its figure.
    assert cash_flow_step("What was the operating margin in 2018?") is None
    # The balance-sheet line "Property, plant and equipment, net" is not capex, though it shares the words.
    step = cash_flow_step("What were purchases of property, plant and equipment in 2017?")
    assert step is not None and step.row_label.startswith("Purchases")


@pytest.mark.parametrize(
    ("caption", "unit"),
    [
        ("(in millions, except per share amounts)", "in millions"),
        ("CONSOLIDATED BALANCE SHEET — In thousands of U.S. dollars", "in thousands of dollars"),
        ("Dollars in billions", "in billions"),
        ("Fatal accidents by year, 1999–2012", None),
        (None, None),
    ],
)
def test_the_unit_a_statement_states_goes_with_its_figures(caption: str | None, unit: str | None) -> None:
    assert stated_unit(caption) == unit
    frame = SheetFrame.from_rows(
        sheet().columns, GRID, row_ids=list(range(100, 100 + len(GRID))), sheet="Note 4", caption=caption
    )
    step = plan_cells("What was Licensing in 2018?", 1, NAMES, grid())
    assert step is not None
    described = run_cells(frame, step).description
    scale = {"in millions": " million", "in thousands of dollars": " thousand", "in billions": " billion"}
    assert described == f"Licensing was 52.9{scale.get(unit or '', '')} in 2018"


@pytest.mark.parametrize(
    "question",
    [
        "How much did Licensing grow from 2018 to 2019 in percent?",
        "By what percentage did Licensing decrease from 2018 to 2019?",
        "What percent did Licensing change between 2018 and 2019?",
        "How did Licensing change from 2018 to 2019 in percentage terms?",
    ],
)
def test_a_relative_change_is_a_percentage_however_it_is_asked(question: str) -> None:
    op, values, _ = ask(question)
    expected = ((Decimal("38.4") - Decimal("52.9")) / Decimal("52.9") * 100).quantize(Decimal("0.01"))
    assert op == "pct_change" and values == [str(expected)]


def test_the_change_of_a_percentage_line_is_a_difference_in_points() -> None:
    assert ask("What was the change in the DTC ratio from 2018 to 2019?")[:2] == ("change", ["-2.3"])


def _plan(question: str, rows: list[list[str]], aliases: tuple[str, ...] = ()):
    grid = [GridRow(row_id=i, values=tuple(v or None for v in row)) for i, row in enumerate(rows)]
    return plan_cells(question, 1, ["Column A", "2019", "2018"], grid, aliases)


def test_a_bracket_names_the_line_unless_it_is_a_unit_or_a_note() -> None:
    rows = [["Combustion of fuel (Scope 1)", "96.3", "104.8"], ["Sales (millions)", "3,512.4", "3,288.9"]]
    step = _plan("In which year did Scope 1 emissions peak?", rows)
    assert step is not None and step.row_label.startswith("Combustion") and step.operation == "argmax"
    assert _plan("What were the millions in 2019?", rows) is None


def test_how_many_percent_a_percentage_changed_is_in_points() -> None:
    rows = [["Average hedge rate", "2.35%", "1.85%"], ["Revenue", "120", "100"]]
    step = _plan("How many percent did the average hedge rate change by from 2018 to 2019?", rows)
    assert step is not None and step.operation == "change"
    step = _plan("By what percent did revenue increase from 2018 to 2019?", rows)
    assert step is not None and step.operation == "pct_change"


def test_the_line_the_question_names_beats_one_an_alias_reaches() -> None:
    rows = [["Total revenues", "8,214", "8,377"], ["Sundry revenues", "52", "47"], ["Net charter revenue", "163", "141"],
            ["Charter revenues", "274", "251"]]  # fmt: skip
    step = _plan("What is the mean of Sundry revenues?", rows, tuple(figure_aliases("revenues")))
    assert step is not None and step.row_label == "Sundry revenues"
    step = _plan("What was the average charter revenue over 2018 and 2019?", rows, tuple(figure_aliases("revenue")))
    assert step is not None and step.row_label == "Charter revenues"


def test_a_count_of_periods_needs_a_limit_to_count_against() -> None:
    assert ask("For how many of the years 2017 to 2019 did Licensing exceed 50?")[:2] == ("count_where", ["2"])
    assert ask("In how many years was Licensing above 50?")[:2] == ("count_where", ["2"])
    assert plan_cells("In how many years was Licensing high?", 1, NAMES, grid()) is None


def test_values_asked_over_a_span_respectively_give_every_year_of_it() -> None:
    op, values, _ = ask("What was Licensing for the years 2019 to 2017 respectively?")
    assert op == "value" and values == ["38.4", "52.9", "61.3"]  # 2019, 2018, 2017


def test_a_line_item_is_read_under_its_section_heading() -> None:
    rows = [["Long-lived assets:", "", ""], ["United States", "706,315", "652,980"], ["Mexico", "31,874", "28,409"],
            ["Revenue:", "", ""], ["Mexico", "9,000", "8,000"]]  # fmt: skip
    step = _plan("By what percentage did long-lived assets in Mexico change from 2018 to 2019?", rows)
    assert step is not None and step.row_label == "Long-lived assets: Mexico" and step.operation == "pct_change"
    step = _plan("What was the revenue in Mexico in 2019?", rows)
    assert step is not None and step.row_label == "Revenue: Mexico" and step.column_labels == ["2019"]


def test_a_split_fiscal_year_is_the_year_it_ends_in_and_is_named_as_the_source_names_it() -> None:
    """ "2017/2018" and "2018/2019" share 2018: read as both years, "2018" was two columns and the larger of
    two periods came out as "2018". The period is the year it ends in, and the answer names it "2018/2019"."""
    names = ["Column A", "Column B", "Column C"]
    rows = [
        GridRow(row_id=1, values=("€ million", "2017/2018", "2018/2019")),
        GridRow(row_id=2, values=("Profit", "359", "411")),
    ]
    step = plan_cells("In which year was the profit larger?", 1, names, rows)
    assert step is not None and step.operation == "argmax" and step.column_labels == ["2017/2018", "2018/2019"]
    step = plan_cells("What was the profit in 2019?", 1, names, rows)
    assert step is not None and step.column_labels == ["2018/2019"]
    # asked as the source writes them, a strict planner (a PDF table among many) finds both periods
    step = plan_cells("What was the change in profit in 2018/2019 from 2017/2018?", 1, names, rows, strict=True)
    assert step is not None and step.operation == "change" and step.column_labels == ["2017/2018", "2018/2019"]


def plan(question: str, rows: list[list[str]], names: list[str]) -> tuple[str, list[str], str] | None:
    """Plan and run `question` over a grid given as rows (a blank corner, periods across)."""
    columns = [
        Column(position=i, name=n, letter="ABCDEF"[i], dtype="text" if i == 0 else "number")
        for i, n in enumerate(names)
    ]
    frame = SheetFrame.from_rows(
        columns, rows, row_numbers=list(range(2, 2 + len(rows))), row_ids=list(range(100, 100 + len(rows))), sheet="T"
    )
    grid_rows = [GridRow(row_id=100 + i, values=tuple(v or None for v in row)) for i, row in enumerate(rows)]
    step = plan_cells(question, 1, names, grid_rows)
    if step is None:
        return None
    result = run_cells(frame, step)
    return step.operation, result.values, result.description


WEEKS = [["", "F19 53 WEEKS", "F18 52 WEEKS"], ["Sales", "1,538", "1,496"], ["EBITDA", "318", "305"]]
SPACED = [["", "2019", "2 0 1 8"], ["Operating loss carryforward", "64,118", "49,503"]]


def test_a_fiscal_year_written_short_or_letter_spaced_is_its_year() -> None:
    """A short fiscal year ("F19", "FY19", "fiscal 19") names 2019, in the header or the question; "2 0 1 8" is 2018; the answer names the
    period as the source does."""
    names = ["Column A", "Column B", "Column C"]
    assert plan("What were the average sales across F19 and F18?", WEEKS, names)[:2] == ("average", ["1517"])
    op, values, description = plan("What was EBITDA in FY19?", WEEKS, names)
    assert (op, values) == ("value", ["318"]) and "in F19" in description
    assert plan("What was the change in EBITDA in fiscal 2019 from fiscal 2018?", WEEKS, names)[:2] == (
        "change",
        ["13"],
    )
    got = plan("What was the operating loss carryforward in 2019 and 2018 respectively?", SPACED, names)
    assert got is not None and got[:2] == ("value", ["64,118", "49,503"])


TOTALS = [
    ["", "2019", "2018"],
    ["Total program expense", "$27,405,118", "$16,932,740"],
    ["Weighted-average exercise price of vested units", "$29.84", "$31.27"],
    ["Net decrease in restricted cash", "(318.6)", "(12.9)"],
    ["Financing activities", "7,215", "2,948"],
    ["Assumed forfeiture rate", "2.6%", "1.9%"],
    ["Domestic mortality improvement rate", "3.60%", "3.25%"],
    ["Overseas mortality improvement rate", "1.70%", "2.40%"],
]
TOTAL_NAMES = ["Column A", "Column B", "Column C"]


@pytest.mark.parametrize(
    ("question", "operation", "values"),
    [
        # words of the line item's name ask for no arithmetic
        ("What was the Total program expense in 2019 and 2018?", "value", ["$27,405,118", "$16,932,740"]),
        ("What was the Weighted-average exercise price of vested units in 2018?", "value", ["$31.27"]),
        ("What was the Net decrease in restricted cash in 2019?", "value", ["(318.6)"]),
        # a total over a span of periods
        ("What is the total cash from financing activities over 2018 to 2019 combined?", "sum", ["10163"]),
        # the absolute change of a line of percentages is in points
        (
            "By what absolute percentage change did the assumed forfeiture rate move from 2018 to 2019?",
            "change",
            ["0.7"],
        ),
    ],
)
def test_the_arithmetic_is_what_the_question_asks_beyond_the_line_items_name(
    question: str, operation: str, values: list[str]
) -> None:
    got = plan(question, TOTALS, TOTAL_NAMES)
    assert got is not None and got[:2] == (operation, values)


@pytest.mark.parametrize(
    "question",
    [
        # a reason or a description is no figure
        "What caused the increase in Financing activities in 2019?",
        "What led to the decrease in Total program expense in 2019?",
        "What was the reason for the change in Financing activities from 2018 to 2019?",
        # two line items compared, one of which the grid does not have
        "How big was the difference between the domestic and overseas mortality improvement rate for 2019?",
    ],
)
def test_no_figure_of_one_line_answers_a_reason_a_share_or_a_comparison(question: str) -> None:
    assert plan(question, TOTALS, TOTAL_NAMES) is None


def test_a_share_of_another_line_reads_both_lines_and_keeps_small_quotients_readable() -> None:
    got = plan("What is Financing activities as a percentage of Total program expense in 2019?", TOTALS, TOTAL_NAMES)
    assert got is not None and got[:2] == ("share", ["0.02633"])  # 7,215 of 27,405,118: not "0.03" nor "0"
    got = plan("What is the proportion of Financing activities over Total program expense in 2019?", TOTALS,
               TOTAL_NAMES)  # fmt: skip
    assert got is not None and got[:2] == ("ratio", ["0.0002633"])


def test_no_change_when_one_column_names_both_periods() -> None:
    rows = [["", "2019", "2019 vs 2018"], ["Total billings", "$58,120", "$4,905"]]
    assert plan("What was the change in total billings between 2018 and 2019?", rows, TOTAL_NAMES) is None


def test_an_amount_asked_in_another_unit_is_converted_from_the_statements_unit() -> None:
    """ "Answer in USD billions" of a statement in millions: the figure in billions, the cell as stated beside it;
    with no unit stated, or a percentage, nothing is converted."""
    step = plan_cells("What were total sales in 2019? Answer in USD billions.", 1, NAMES, grid())
    assert step is not None and step.asked_scale == "billion"
    in_millions = SheetFrame.from_rows(
        sheet().columns, GRID, row_ids=list(range(100, 100 + len(GRID))), sheet="Note 4", caption="(in millions)"
    )
    result = run_cells(in_millions, step)
    assert (
        result.values == ["$2.36"]
        and "$2,357.0 million" in result.description
        and "$2.36 billion" in result.description
    )
    change = plan_cells("What was the change in total sales from 2018 to 2019 (in USD thousands)?", 1, NAMES, grid())
    assert change is not None and run_cells(in_millions, change).values == ["256,600"]
    unstated = run_cells(sheet(), step)  # no unit stated: the cell as it is, and the answer says so
    assert unstated.values == ["$2,357.0"] and "states no unit" in unstated.description
    dtc = plan_cells("What was the DTC ratio in 2019 in billions?", 1, NAMES, grid())
    assert dtc is not None and run_cells(in_millions, dtc).values == ["41.2%"]


@pytest.mark.parametrize(
    ("corner", "converted"),
    [
        ("(Millions)", True),
        ("(Millions, except per share amounts)", True),
        ("(Dollars in millions, except per share amount)", True),
        ("Line item", False),
    ],
)
def test_a_unit_printed_in_the_label_columns_header_is_the_statements_unit(corner: str, converted: bool) -> None:
    """A statement that prints its unit on the line of its period headings ("(Millions)  2019  2018") has it
    in the header of its label column: the figures are in that unit, converted to the unit asked."""
    names = [corner, *NAMES[1:]]
    columns = [
        Column(position=i, name=n, letter="ABCD"[i], dtype="text" if i == 0 else "number") for i, n in enumerate(names)
    ]
    frame = SheetFrame.from_rows(columns, GRID, row_ids=list(range(100, 100 + len(GRID))), sheet="p60 Statement")
    step = plan_cells("What were total sales in 2019? Answer in USD billions.", 1, names, grid())
    assert step is not None
    result = run_cells(frame, step)
    if converted:
        assert result.values == ["$2.36"] and "$2,357.0 million" in result.description
    else:
        assert result.values == ["$2,357.0"] and "states no unit" in result.description


def test_a_unit_in_the_header_of_a_column_of_figures_is_that_columns_alone() -> None:
    """ "Units (millions)" heading a first column of figures says nothing of the other columns' unit."""
    names = ["Units (millions)", "Revenue"]
    columns = [
        Column(position=0, name=names[0], letter="A", dtype="number"),
        Column(position=1, name=names[1], letter="B", dtype="number"),
    ]
    frame = SheetFrame.from_rows(columns, [["12", "340"], ["15", "410"]], row_ids=[1, 2], sheet="Sales")
    assert sheet_unit(frame) is None


def test_a_pdf_tables_columns_named_by_words_are_read_whatever_its_corner_says() -> None:
    """A table the finder read from a PDF is a statement even with a corner label ("Intangible asset"); its
    columns named by words ("Fair value") answer; "respective" values of two columns need both."""
    names = ["Intangible asset", "Fair value", "Useful life"]
    rows = [GridRow(row_id=1, values=("Customer lists", "25", "10")), GridRow(row_id=2, values=("Software", "48", "5"))]
    step = plan_cells("What fair value did customer lists have?", 1, names, rows, strict=True)
    assert step is not None and (step.operation, step.row_label, step.columns) == (
        "value",
        "Customer lists",
        ["Fair value"],
    )
    assert plan_cells("What fair value did customer lists have?", 1, names, rows) is None  # a spreadsheet: records
    assert plan_cells("What are the respective fair value and weight of software?", 1, names, rows, strict=True) is None


def test_a_year_several_columns_share_names_one_only_when_the_question_says_which() -> None:
    """Quarters of one year, or a group header over its years ("Financial assets | Financial liabilities"): a year
    names a column only with the quarter's day or the group's words; a share column beside an amount ("2019 % of
    total") and an opening balance on 1 January are not the year's amount."""
    names = ["Column A", "June 29, 2019", "March 30, 2019", "September 29, 2018"]
    rows = [GridRow(row_id=1, values=("Net income", "$1,873", "$2,615", "$2,940"))]
    assert plan_cells("By how much did net income change from 2018 to 2019?", 1, names, rows) is None
    two = [*rows, GridRow(row_id=2, values=("Revenue", "$11,507", "$11,032", "$10,688"))]
    assert plan_cells("What was net income as a percentage of revenue in 2019?", 1, names, two) is None
    step = plan_cells("For the quarter that ended June 29, 2019, what was net income as a percentage of revenue?"
, 1,
                      names, two)  # fmt: skip
    assert step is not None and step.operation == "share" and step.columns == ["June 29, 2019"]
    step = plan_cells("What was the net income for the quarter ended March 30, 2019?", 1, names, rows)
    assert step is not None and step.columns == ["March 30, 2019"]
    names = ["Column A", "Financial assets", "Column C", "Financial liabilities", "Column E"]
    rows = [
        GridRow(row_id=1, values=(None, "2019", "2018", "2019", "2018")),
        GridRow(row_id=2, values=("Disposals", "58,140", "69,725", "1,350", "820")),
    ]
    step = plan_cells("What was the change in disposals of financial liabilities in 2019?", 1, names, rows)
    assert step is not None and step.columns == ["Column E", "Financial liabilities"]
    assert plan_cells("What was the change in disposals between 2018 and 2019?", 1, names, rows) is None
    names = ["Column A", "2019", "Column C", "2018", "Column E"]
    rows = [
        GridRow(row_id=1, values=(None, "$", "% of total", "$", "% of total")),
        GridRow(row_id=2, values=("LATAM", "356,420", "36.5%", "241,730", "33.8%")),
    ]
    step = plan_cells("What was the change in LATAM from 2018 to 2019?", 1, names, rows)
    assert step is not None and step.columns == ["2018", "2019"]


def test_a_common_size_statement_is_a_share_of_its_base_line() -> None:
    """A common-size statement prints "100.0 %" on its base line and its other lines' shares without the sign: a
    line's share of the base is read, while a "%" line beside amounts stays no arithmetic partner."""
    names = ["Column A", "2019", "2018"]
    rows = [
        GridRow(row_id=1, values=("Sales", "100.0 %", "100.0 %")),
        GridRow(row_id=2, values=("Gross profit", "36.4", "44.2")),
        GridRow(row_id=3, values=("Operating expenses", "29.7", "24.6")),
    ]
    step = plan_cells("What was gross profit in 2018 as a percentage of sales?", 1, names, rows)
    assert step is not None and (step.operation, step.row_label, step.other_label) == ("share", "Gross profit", "Sales")
    assert step.columns == ["2018"]
    amounts = [
        GridRow(row_id=1, values=("Sales", "1,000", "900")),
        GridRow(row_id=2, values=("Gross margin", "36.4 %", "44.2 %")),
        GridRow(row_id=3, values=("Gross profit", "364", "398")),
    ]
    assert plan_cells("What was gross margin as a percentage of gross profit in 2018?", 1, names, amounts) is None


def test_a_group_header_spans_its_years_under_a_merged_date() -> None:
    """ "Domestic" and "International" each over "September 30," and "2019 2018": the unnamed column of a group is
    the group's, so "domestic" names the domestic 2018 column, not the international one."""
    names = ["Column A", "Domestic", "Column C", "International", "Column E"]
    rows = [
        GridRow(row_id=1, values=(None, "September 30,", None, "September 30,", None)),
        GridRow(row_id=2, values=(None, "2019", "2018", "2019", "2018")),
        GridRow(row_id=3, values=("Salary growth rate", "3.60%", "3.25%", "1.70%", "2.40%")),
    ]
    step = plan_cells("What is the change in domestic salary growth rate between 2018 and 2019?", 1, names, rows)
    assert step is not None and step.columns == ["Column C", "Domestic"]
    step = plan_cells("What is the change in international salary growth rate between 2018 and 2019?", 1, names, rows)
    assert step is not None and step.columns == ["Column E", "International"]


TAX_EXPENSE = [
    ["", "2019", "2018"],
    ["Current income tax expense (benefit):", "", ""],
    ["Federal", "$7", "$3"],
    ["State", "12", "6"],
    ["Deferred income tax expense (benefit):", "", ""],
    ["Federal", "3,518", "4,027"],
    ["State", "(9,604)", "712"],
    ["Income tax expense (benefit)", "$(6,067)", "$4,748"],
]


def test_a_line_is_read_with_its_section_heading_as_the_heading_is_asked() -> None:
    """ "Federal deferred income tax expense" is the Federal line under "Deferred income tax expense (benefit):"
    (its bracket left out, as a line's is), not the total "Income tax expense (benefit)" whose words it holds."""
    names = ["Column A", "Column B", "Column C"]
    got = plan("How much Federal deferred income tax expense was there in 2019?", TAX_EXPENSE, names)
    assert got is not None and got[:2] == ("value", ["3,518"])
    got = plan("What was the state current income tax expense in 2018?", TAX_EXPENSE, names)
    assert got is not None and got[:2] == ("value", ["6"])


@pytest.mark.parametrize(
    "question",
    [
        "What was the firm's income before income tax expense for 2019?",  # neither income nor the tax line
        "What was the income tax expense excluding the deferred benefit in 2019?",
    ],
)
def test_a_line_the_question_qualifies_by_another_quantity_is_not_its_figure(question: str) -> None:
    assert plan(question, TAX_EXPENSE, ["Column A", "Column B", "Column C"]) is None


def test_a_line_that_says_its_qualifier_is_what_it_says() -> None:
    rows = [
        ["", "2019", "2018"],
        ["Income before income taxes", "71,236", "118,402"],
        ["Income taxes", "(6,067)", "4,748"],
    ]
    got = plan("What was the income before income taxes in 2019?", rows, ["Column A", "Column B", "Column C"])
    assert got is not None and got[:2] == ("value", ["71,236"])


EPS = [
    ["", "2019", "2018"],
    ["Weighted average number of shares used in earnings per share (shares, millions)", "", ""],
    ["Diluted earnings per share", "1,187.2", "1,176.9"],
    ["Diluted earnings per share (pence per share)", "", ""],
    ["Continuing operations", "98.6", "107.1"],
    ["Discontinued operations", "64.3", "8.5"],
    ["", "162.9", "115.6"],
]


def test_a_heading_without_a_colon_heads_its_lines_and_their_total() -> None:
    """ "Total diluted earnings per share (pence per share)" is the unlabelled line that adds up the lines under that
    heading, not the "Diluted earnings per share" line of the share counts above it (a heading need not end in a
    colon); a figure line under such a heading that adds nothing up is no total."""
    names = ["Column A", "Column B", "Column C"]
    got = plan("What is total diluted earnings per share (pence per share) for 2019?", EPS, names)
    assert got is not None and got[:2] == ("value", ["162.9"])
    got = plan("What was the mean of total diluted earnings per share over 2018 and 2019?", EPS, names)
    assert got is not None and got[:2] == ("average", ["139.25"])  # (162.9 + 115.6) / 2
    rows = [*EPS[:-1], ["", "170.0", "115.6"]]  # 2019 does not add up
    got = plan("What is total diluted earnings per share (pence per share) for 2019?", rows, names)
    assert got is None or got[1] != ["170.0"]


def test_a_word_negated_by_non_is_another_word() -> None:
    """ "Non-vested RSUs" are not the RSUs' Vested line; "non current" is the "Non-current" line however written."""
    rows = [["", "2019", "2018"], ["RSUs", "", ""], ["Granted", "$712", "$546"], ["Vested", "403", "359"]]
    names = ["Column A", "Column B", "Column C"]
    assert plan("How much expense is still to be recognized for non-vested RSUs in 2019?", rows, names) is None
    assert plan("What was the value of RSUs vested in 2019?", rows, names)[:2] == ("value", ["403"])
    rows = [
        ["", "2019", "2018"],
        ["Current deferred tax assets", "12", "10"],
        ["Non-current deferred tax assets", "30", "25"],
    ]
    assert plan("What were non current deferred tax assets in 2019?", rows, names)[:2] == ("value", ["30"])


def test_the_percentage_of_a_percentage_change_names_no_line() -> None:
    """ "The percentage change in total net bookings" is the Total net bookings line's change, not the change of the
    "Percentage of net bookings" line; a line that is a percentage keeps its own word."""
    rows = [
        ["", "2019", "2018"],
        ["Total net bookings", "46,250", "42,818"],
        ["Percentage of net bookings", "71.6%", "70.2%"],
        ["Gross margin percentage", "58.3%", "59.7%"],
    ]
    names = ["Column A", "Column B", "Column C"]
    assert plan("What is the 2018 to 2019 percentage change in total net bookings?", rows, names)[:2] == (
        "pct_change",
        ["8.02"],  # (46,250 - 42,818) / 42,818
    )
    got = plan("What was the change in the gross margin percentage between 2018 and 2019?", rows, names)
    assert got is not None and got[0] == "change" and got[1] == ["-1.4"]


def test_an_unlabelled_total_under_a_heading_without_a_colon_is_still_the_total() -> None:
    rows = [["", "2019", "2018"], ["Costs incurred", "", ""], ["Severance", "5,312", "6,074"],
            ["Other", "948", "427"], ["", "6,260", "6,501"]]  # fmt: skip
    got = plan("What is the total in 2019?", rows, ["Column A", "Column B", "Column C"])
    assert got is not None and got[:2] == ("value", ["6,260"])
    got = plan("What were the total costs incurred in 2018?", rows, ["Column A", "Column B", "Column C"])
    assert got is not None and got[:2] == ("value", ["6,501"])


def test_a_gerund_after_the_line_tells_which_line_not_another_quantity() -> None:
    """ "Net deferred tax assets after netting against liabilities" is a line of the table, not a quantity "after"
    the line as "income before income tax expense" is."""
    rows = [["", "2019", "2018"], ["Net deferred tax assets", "176,430", "191,862"],
            ["Deferred tax liabilities:", "", ""], ["Intangible assets", "31,507", "30,948"]]  # fmt: skip
    question = "What were the net deferred tax assets after netting against liabilities in 2019?"
    got = plan(question, rows, ["Column A", "Column B", "Column C"])
    assert got is not None and got[:2] == ("value", ["176,430"])


def test_a_weighted_average_names_the_figure_reported_not_an_average_over_periods() -> None:
    """ "The weighted-average DTC ratio in 2019" is the ratio the note reports for 2019 (averaged over its borrowings),
    never 2018's and 2019's averaged; with no period asked, no one cell answers it."""
    assert ask("What is the weighted-average Debt-to-capital (DTC) ratio in 2019?")[:2] == ("value", ["41.2%"])
    assert ask("What was the weighted average DTC ratio in 2018?")[:2] == ("value", ["43.5%"])
    assert plan_cells("What is the weighted average Debt-to-capital (DTC) ratio?", 1, NAMES, grid()) is None
    assert ask("What was the average DTC ratio over 2018 and 2019?")[0] == "average"


def test_a_number_of_the_line_s_name_is_no_limit_and_two_periods_offered_ask_which() -> None:
    """ "The larger Tier 2 deposits" names a line holding a number: with the line's words taken out the question
    reads "larger 2", which is no limit to compare the periods with (it listed both years); "were they larger in
    2019 or 2018?" asks which of the two periods, as "in which year" does."""
    rows = [["Deposits (Tier 2)", "61.5", "73.2"], ["Loans", "1,204.0", "1,180.6"]]
    for question in ("Which year had the larger Tier 2 deposits?", "Were Tier 2 deposits larger in 2019 or 2018?"):
        step = _plan(question, rows)
        assert step is not None and (step.operation, step.row_label) == ("argmax", "Deposits (Tier 2)"), question
    step = _plan("Were loans lower in 2019 or in 2018?", rows)
    assert step is not None and step.operation == "argmin"
    step = _plan("In which years were Tier 2 deposits above 70?", rows)  # a limit stated after its word stays one
    assert step is not None and (step.operation, step.threshold) == ("where", "70")


OBLIGATIONS = [
    ["", "Total", "Less than 1 year", "1-3 years", "3-5 years", "More than 5 years"],
    ["Operating leases", "4,210", "880", "1,460", "1,020", "850"],
    ["Long-term debt", "9,000", "500", "2,000", "2,500", "4,000"],
]


def obligations_answer(question: str, table: list[list[str]] = OBLIGATIONS) -> tuple[str, list[str], str] | None:
    return plan(question, table, ["Column A", "Column B", "Column C", "Column D", "Column E", "Column F"])


def test_an_amount_due_within_a_bound_is_the_sum_of_the_buckets_inside_it_never_the_total() -> None:
    """ "Operating leases due within five years" of a maturity table was answered with its Total column (which
    holds the years after five too): the buckets inside the bound are summed, each cited; a bucket across the
    bound ("3-5 years" of "within four years") gives no figure; a bucket asked by its own span is read alone."""
    answer = obligations_answer("What are the total operating leases due within 5 years?")
    assert answer is not None
    op, values, description = answer
    assert (op, values) == ("sum", ["3360"]) and "3-5 years: 1,020" in description and "4,210" not in description
    for question, expected in [
        ("How much long-term debt is due after three years?", ["6500"]),
        ("What are operating leases due in less than 1 year?", ["880"]),
        ("What are the total operating leases?", ["4,210"]),
    ]:
        answer = obligations_answer(question)
        assert answer is not None and answer[1] == expected, (question, answer)
    assert obligations_answer("What are operating leases due within 4 years?") is None
    # "Up to 1 year" is a bucket too; a column that is neither a span nor the total leaves the buckets unknown.
    up_to = [["", "Total", "Up to 1 year", *OBLIGATIONS[0][3:]], *OBLIGATIONS[1:]]
    answer = obligations_answer("What are the operating leases due within 5 years?", up_to)
    assert answer is not None and answer[1] == ["3360"], answer
    thereafter = [["", "Total", "2025", "2026-2027", "2028-2029", "Thereafter"], *OBLIGATIONS[1:]]
    assert obligations_answer("What are operating leases due within 3 years?", thereafter) is None


def test_a_change_between_quarters_names_each_quarter_not_its_calendar_year() -> None:
    """ "Three Months Ended July 29, 2027" is said as such: its year alone would name the calendar year (and a
    fiscal year named by its end may be the next)."""
    rows = [["", "July 29, 2027", "July 30, 2026", "July 29, 2027"], ["Net earnings", "274", "306", "518"]]
    names = ["Column A", "Three Months Ended", "Column C", "Six Months Ended"]
    columns = [
        Column(position=i, name=n, letter="ABCD"[i], dtype="text" if i == 0 else "number") for i, n in enumerate(names)
    ]
    frame = SheetFrame.from_rows(columns, rows, row_numbers=[1, 2], row_ids=[10, 11], sheet="p4")
    step = plan_cells(
        "What was the change in net earnings in the second quarter of 2027?", 1, names,
        [GridRow(row_id=10 + i, values=tuple(v or None for v in r)) for i, r in enumerate(rows)],
    )  # fmt: skip
    assert step is not None
    assert run_cells(frame, step).description == (
        "the change in Net earnings from the three months ended July 30, 2026 (306) to the three months ended "
        "July 29, 2027 (274) is -32"
    )


def test_a_yes_no_on_a_spending_moves_by_its_size() -> None:
    rows = [["Purchases of property and equipment", "(1,577)", "(1,373)"]]
    names = ["Column A", "2027", "2026"]
    columns = [
        Column(position=i, name=n, letter="ABC"[i], dtype="text" if i == 0 else "number") for i, n in enumerate(names)
    ]
    frame = SheetFrame.from_rows(columns, rows, row_numbers=[1], row_ids=[10], sheet="p60")
    step = plan_cells(
        "What was the change in purchases of property and equipment in 2027?", 1, names,
        [GridRow(row_id=10, values=tuple(rows[0]))],
    )  # fmt: skip
    assert step is not None and step.operation == "change"
    asked = step.model_copy(update={"direction_words": ["No", "Yes"], "outflow": True})
    assert run_cells(frame, asked).description.startswith("No — Purchases of property and equipment increased")
    signed = step.model_copy(update={"direction_words": ["No", "Yes"]})
    assert run_cells(frame, signed).description.startswith("Yes — Purchases of property and equipment decreased")


def test_a_balance_dated_at_a_fiscal_periods_end_is_said_with_its_date() -> None:
    """A balance sheet's columns "July 30, 2027" and "July 31, 2026" (a quarter's end, or a retailer's fiscal year's):
    the answer says the dates, not the calendar years; a calendar year's end is its year."""
    for names, said in (
        (["Column A", "July 30, 2027", "July 31, 2026"], "from July 31, 2026 (4,160) to July 30, 2027 (4,037)"),
        (["Column A", "December 31, 2027", "December 31, 2026"], "from 2026 (4,160) to 2027 (4,037)"),
    ):
        rows = [["Total equity", "4,037", "4,160"]]
        columns = [
            Column(position=i, name=n, letter="ABC"[i], dtype="text" if i == 0 else "number")
            for i, n in enumerate(names)
        ]
        frame = SheetFrame.from_rows(columns, rows, row_numbers=[1], row_ids=[10], sheet="p3")
        asked = names[1]
        step = plan_cells(f"What was the change in total equity at {asked}?", 1, names, [GridRow(10, tuple(rows[0]))])
        assert step is not None and step.operation == "change"
        told = run_cells(frame, step.model_copy(update={"direction_words": ["Yes", "No"]})).description
        assert told == f"No — Total equity decreased {said}"
        value = plan_cells(f"What was total equity at {asked}?", 1, names, [GridRow(10, tuple(rows[0]))])
        assert value is not None
        assert run_cells(frame, value).description.endswith("at July 30, 2027" if "July" in asked else "in 2027")


def test_which_year_over_balances_dated_at_fiscal_ends_names_the_year() -> None:
    """ "In which year was net income below 100?" over columns "April 27, 2027" and "April 28, 2026": the year."""
    names = ["Column A", "April 27, 2027", "April 28, 2026"]
    rows = [["Net income", "131.8", "88.2"]]
    columns = [
        Column(position=i, name=n, letter="ABC"[i], dtype="text" if i == 0 else "number") for i, n in enumerate(names)
    ]
    frame = SheetFrame.from_rows(columns, rows, row_numbers=[1], row_ids=[10], sheet="p3")
    for question, year in (
        ("In which year was net income less than 100?", "2026"),
        ("In which year was net income the highest?", "2027"),
    ):
        step = plan_cells(question, 1, names, [GridRow(10, tuple(rows[0]))])
        assert step is not None
        assert run_cells(frame, step).values == [year]


def test_a_change_between_two_dates_of_one_year_reads_those_columns() -> None:
    """ "From January 29, 2027 to July 30, 2027": two columns of one year, each named by its date, old to new."""
    names = ["Column A", "July 30, 2027", "January 29, 2027", "July 31, 2026"]
    grid = [GridRow(10, ("Cash and cash equivalents", "2,315", "3,042", "1,607"))]
    step = plan_cells("What was the change in cash and cash equivalents between July 30, 2027 and January 29, 2027?",
                      1, names, grid, strict=True)  # fmt: skip
    assert step is not None and (step.operation, step.columns) == ("change", ["January 29, 2027", "July 30, 2027"])
