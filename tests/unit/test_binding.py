"""Issue 23 on hand-built schemas: months as periods of a grid, the sheet a question names, yes/no columns, "how
many <thing>", column roles, and the reading that accounts for every word (core.qa.planner.binding)."""

from __future__ import annotations

from core.lexicon.periods import header_month, month_of, months_asked
from core.qa.planner import ColumnInfo, OfflinePlanner, RoomSchema, SheetInfo
from core.qa.planner.cells import GridRow
from core.qa.planner.cells.grid import line_items_down, month_columns, periods_across
from core.retrieval.cellmath import CellsStep
from core.retrieval.plan import SearchStep, TableStep

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def test_months_quarters_and_halves_in_every_usual_form() -> None:
    assert months_asked("spend in September") == ([9], False)
    assert months_asked("Sept and mar.") == ([9, 3], False)
    assert months_asked("revenue in Q3") == ([7, 8, 9], True)
    assert months_asked("the first half") == ([1, 2, 3, 4, 5, 6], True)
    assert months_asked("what may change") == ([], False)  # the verb, not the month
    assert [month_of(w) for w in ("March", "mar", "Sept", "Mayor")] == [3, 3, 9, None]
    assert [header_month(h) for h in ("Sep", "Sep-26", "2026-03", "Total")] == [(9, ""), (9, "26"), (3, "2026"), None]


def test_months_across_make_a_grid_of_one_year_only() -> None:
    assert month_columns(["", *MONTHS], 0)["M09"] == [9]
    assert month_columns(["", "Jan-25", "Feb-25", "Jan-26"], 0) == {}  # two Januaries: no single column
    rows = [GridRow(1, ("Revenue", *("1",) * 12))]
    assert periods_across(["Column A", *MONTHS], rows)


def column(name: str, position: int, values: tuple[str, ...], dtype: str = "text", n_filled: int = 6) -> ColumnInfo:
    return ColumnInfo(name=name, letter=chr(65 + position), dtype=dtype, position=position, samples=values[:5],  # type: ignore[arg-type]
                      values=values, n_distinct=len(values), n_filled=n_filled)  # fmt: skip


def pnl_sheet(sheet_id: int, name: str, base: int) -> SheetInfo:
    lines = ("Revenue", "Gross profit", "Marketing")
    grid = tuple(GridRow(row_id=sheet_id * 10 + i, values=(line, *(str(base + 10 * i + m) for m in range(12))))
                 for i, line in enumerate(lines))  # fmt: skip
    columns = (column("Column A", 0, lines), *(column(m, i + 1, (), "number") for i, m in enumerate(MONTHS)))
    return SheetInfo(sheet_id=sheet_id, document_id=1, title="budget.xlsx", name=name, n_rows=3, columns=columns,
                     grid=grid)  # fmt: skip


PNL = RoomSchema(room_id=1, sheets=(pnl_sheet(1, "Actual", 100), pnl_sheet(2, "Plan", 500)))


def cells(question: str, schema: RoomSchema = PNL) -> CellsStep:
    [step] = OfflinePlanner().plan(question, schema).steps
    assert isinstance(step, CellsStep), step
    return step


def test_a_month_named_differently_from_the_header_reads_its_column() -> None:
    step = cells("What was actual marketing in September?")
    assert (step.sheet_id, step.operation, step.columns) == (1, "value", ["Sep"])


def test_spans_and_rankings_across_the_month_columns() -> None:
    assert (cells("Actual revenue in Q3?").operation, cells("Actual revenue in Q3?").columns) == (
        "sum",
        ["Jul", "Aug", "Sep"],
    )
    assert cells("Actual marketing in H1?").columns == list(MONTHS[:6])
    ranked = cells("Which month had the lowest actual gross profit?")
    assert (ranked.operation, ranked.columns) == ("argmin", list(MONTHS))


def test_the_sheet_a_question_names_is_the_one_read() -> None:
    assert cells("What was the planned revenue for Jun?").sheet_id == 2
    assert cells("In the Plan sheet, what was marketing in March?").sheet_id == 2
    assert "Actual" in OfflinePlanner().plan("Actual revenue in Mar?", PNL).reasoning


def test_sheets_compared_unknown_or_across_read_none() -> None:
    for question in ("Revenue against plan in May?", "Revenue in the Forecast sheet for May?"):
        plan = OfflinePlanner().plan(question, PNL)
        assert all(isinstance(s, SearchStep) and not s.rows for s in plan.steps), question


def records(name: str, columns: tuple[ColumnInfo, ...], sheet_id: int = 5) -> SheetInfo:
    return SheetInfo(sheet_id=sheet_id, document_id=sheet_id, title=f"{name}.xlsx", name=name, n_rows=6,
                     columns=columns)  # fmt: skip


CUSTOMERS = records("Customers", (
    column("Name", 0, ("Arlo Ltd", "Bexa Inc", "Corrin Labs", "Dunmore Ltd", "Eskar Inc", "Fenn Group")),
    column("Segment", 1, ("Enterprise", "SMB")),
    column("Owner", 2, ("Ines Vardy", "Rob Tull")),
    column("Renewed", 3, ("Yes", "No")),
))  # fmt: skip


def table(question: str, sheet: SheetInfo) -> TableStep:
    plan = OfflinePlanner().plan(question, RoomSchema(room_id=1, sheets=(sheet,)))
    [step] = [s for s in plan.steps if isinstance(s, TableStep)]
    return step


def test_every_condition_is_a_filter_and_a_yes_no_column_answers_its_word() -> None:
    op = table("How many Enterprise customers renewed?", CUSTOMERS).op
    assert {(f.column, f.op, f.value) for f in op.filters} == {
        ("Segment", "eq", "Enterprise"),
        ("Renewed", "eq", "Yes"),
    }
    op = table("How many SMB customers did not renew?", CUSTOMERS).op
    assert {(f.column, f.op, f.value) for f in op.filters} == {("Segment", "eq", "SMB"), ("Renewed", "eq", "No")}


def test_a_column_named_by_its_role() -> None:
    assert table("Which account manager owns Bexa Inc?", CUSTOMERS).op.select == ["Owner"]


CAP = records("Cap table", (
    column("Holder", 0, ("Avenmoor Trust", "Cobbet Capital", "Dunlin Ventures", "Elsworth Fund")),
    column("Share class", 1, ("Common", "Series A", "Series B")),
    column("Shares", 2, (), "number"),
))  # fmt: skip


def test_how_many_of_a_thing_sums_the_quantity_named_after_the_value() -> None:
    op = table("How many Series A shares are there?", CAP).op
    assert op.aggregate is not None and (op.aggregate.func, op.aggregate.column) == ("sum", "Shares")


def test_the_binding_of_every_word_is_shown_and_an_absent_value_gives_no_figure() -> None:
    schema = RoomSchema(room_id=1, sheets=(CAP,))
    plan = OfflinePlanner().plan("How many Series A shares are there?", schema)
    assert "Words read: series → value; shares → column Shares" in plan.reasoning
    plan = OfflinePlanner().plan("How many Series D shares are there?", schema)
    assert not any(isinstance(s, TableStep) for s in plan.steps)
    assert "“series d”" in plan.reasoning


def test_arithmetic_no_table_operation_does_gives_no_figure() -> None:
    stock = records("Stock", (column("Item", 0, ("Wall plug", "Brass hinge")), column("Units", 1, (), "number"),
                              column("Unit cost", 2, (), "number")))  # fmt: skip
    for question in (
        "What is the value of Wall plug (units times unit cost)?",
        "What percentage of units is Wall plug?",
    ):
        plan = OfflinePlanner().plan(question, RoomSchema(room_id=1, sheets=(stock,)))
        assert not any(isinstance(s, TableStep) for s in plan.steps), question
    # a count of times is no product
    assert table("How many times is Wall plug listed?", stock) is not None


def test_a_month_the_table_step_does_not_read_gives_no_figure() -> None:
    opex = SheetInfo(sheet_id=9, document_id=9, title="opex.csv", name="opex", n_rows=2, columns=(
        column("Line item", 0, ("Total opex", "Rent")), column("Jan", 1, (), "number"), column("Feb", 2, (), "number"),
    ))  # fmt: skip
    plan = OfflinePlanner().plan("What was total opex in March?", RoomSchema(room_id=1, sheets=(opex,)))
    assert not any(isinstance(s, TableStep) for s in plan.steps)
    assert "“march”: matches no column it reads" in plan.reasoning


def test_a_model_plan_is_checked_the_same_way() -> None:
    from core.qa.planner.rules import account_plan
    from core.retrieval.plan import Plan
    from core.retrieval.tables import Aggregate, TableOp

    schema = RoomSchema(room_id=1, sheets=(CAP,))
    op = TableOp(sheet_id=CAP.sheet_id, aggregate=Aggregate(func="sum", column="Shares"))
    step = TableStep(op=op, reason="Sum of Shares")
    question = "How many Series D shares are there?"
    plan = Plan(question=question, standalone_question=question, steps=[step], reasoning="", planner="openai",
                intent="llm")  # fmt: skip
    checked = account_plan(plan, schema)
    assert not any(isinstance(s, TableStep) for s in checked.steps) and "“series d”" in checked.reasoning


def _note_sheet(corner: str) -> SheetInfo:
    """A note to the accounts laid out as line items under a corner (blank, a unit or a column's name) with
    maturity buckets across: figures a records reading would pick one column of."""
    names = (corner, "Total", "2021", "2022-2023", "Thereafter")
    lines = ("Operating leases", "Finance leases", "Purchase commitments")
    grid = tuple(GridRow(row_id=70 + i, values=(line, str(90 + i), str(20 + i), str(40 + i), str(30 + i)))
                 for i, line in enumerate(lines))  # fmt: skip
    columns = (column(names[0], 0, lines), *(column(n, i + 1, (), "number") for i, n in enumerate(names[1:])))
    return SheetInfo(sheet_id=7, document_id=1, title="leases.csv", name="leases", n_rows=3, columns=columns,
                     grid=grid)  # fmt: skip


def test_a_notes_line_items_under_a_blank_or_unit_corner_are_no_list_of_records() -> None:
    """ "What is the capital commitments' average maturity?"-like questions the cell rules do not read must not
    fall to a records reading of a note's grid (it answered a total with one bucket's figure): with a blank or
    unit-only corner the grid is a note's line items; a named first column is a list of records as before."""
    for corner in ("Column A", "(In thousands)", "US$ million"):
        sheet = _note_sheet(corner)
        assert line_items_down([c.name for c in sheet.columns], sheet.grid), corner
        plan = OfflinePlanner().plan(
            "What were the purchase commitments sizes?", RoomSchema(room_id=1, sheets=(sheet,))
        )
        assert not any(isinstance(s, TableStep) for s in plan.steps), corner
    named = _note_sheet("Obligation")
    assert not line_items_down([c.name for c in named.columns], named.grid)


def test_records_under_a_blank_first_header_with_words_beside_it_stay_records() -> None:
    """A list of episodes, races or players whose first column has no header (a title, then its air date and
    director) holds words across, not a note's figures: it is read as records, and "which episode aired first" is
    a table question as before."""
    names = ("Column A", "Viewers (millions)", "Directed by", "Air date")
    lines = ("Pilot", "The Harbour", "Low Tide", "Salt Roads")
    grid = tuple(
        GridRow(row_id=90 + i, values=(line, f"{4 + i}.2", ("A. Reyes", "M. Okafor")[i % 2], f"March {i + 3}, 2011"))
        for i, line in enumerate(lines)
    )
    assert not line_items_down(list(names), grid)
    # The same corner over figures (amounts, blanks, nil dashes) is a note's grid.
    figures = tuple(GridRow(row_id=r.row_id, values=(r.values[0], "1,204", "—", "")) for r in grid)
    assert line_items_down(list(names), figures)


def _segments_sheet() -> SheetInfo:
    """A segment note: net sales by segment, two years across, a total line under them."""
    names = ("Column A", "2024", "2023")
    lines = (("Net sales:", "", ""), ("Retail", "612.4", "655.0"), ("Wholesale", "301.2", "322.9"),
             ("Licensing", "44.0", "41.5"), ("Total net sales", "957.6", "1,019.4"))  # fmt: skip
    grid = tuple(GridRow(row_id=50 + i, values=line) for i, line in enumerate(lines))
    columns = (column(names[0], 0, tuple(line[0] for line in lines)), column("2024", 1, (), "number"),
               column("2023", 2, (), "number"))  # fmt: skip
    return SheetInfo(sheet_id=9, document_id=1, title="segments.csv", name="segments", n_rows=5, columns=columns,
                     grid=grid)  # fmt: skip


def test_a_second_line_item_the_question_names_is_not_dropped() -> None:
    """ "Net sales of Retail and Wholesale" read on Retail alone gave Retail's figure as the answer: a line item the
    question names beside the one read, joined to it, leaves the step's figure an answer to part of the question."""
    schema = RoomSchema(room_id=1, sheets=(_segments_sheet(),))
    assert (
        cells("What was the percentage change in net sales of Retail from 2023 to 2024?", schema).row_label
        == "Net sales: Retail"
    )
    for question in (
        "What was the percentage change in net sales of Retail and Wholesale from 2023 to 2024?",
        "What were net sales of Retail and Wholesale in 2024?",
    ):
        plan = OfflinePlanner().plan(question, schema)
        assert not any(isinstance(s, CellsStep) for s in plan.steps), (question, plan.steps)
        assert "also names" in plan.reasoning, plan.reasoning
    # Read on its first line, the whole's question gives no figure either; two lines an operation reads are both read.
    whole = OfflinePlanner().plan("What were total net sales of Retail, Wholesale and Licensing in 2024?", schema)
    assert not any(isinstance(s, CellsStep) and s.row_label == "Net sales: Retail" for s in whole.steps)
    both = cells("What were the combined net sales of Wholesale and Licensing in 2024?", schema)
    assert (both.operation, both.other_label) == ("items_sum", "Licensing")


def test_a_second_line_item_is_named_without_its_bracketed_qualifier() -> None:
    """A line's bracketed qualifier ("(Tier A)") is not part of the name a question gives it: "emissions from
    depot heating and purchased power" names both lines, so the figure of one is not the answer."""
    names = ("Column A", "2024", "2023")
    lines = (("Emissions from:", "", ""), ("Depot heating and fleet fuel (Tier A)", "88.1", "91.4"),
             ("Purchased power for own use (Tier B)", "1,402.6", "1,530.2"))  # fmt: skip
    grid = tuple(GridRow(row_id=70 + i, values=line) for i, line in enumerate(lines))
    columns = (column(names[0], 0, tuple(line[0] for line in lines)), column("2024", 1, (), "number"),
               column("2023", 2, (), "number"))  # fmt: skip
    sheet = SheetInfo(sheet_id=7, document_id=1, title="emissions.csv", name="emissions", n_rows=3, columns=columns,
                      grid=grid)  # fmt: skip
    schema = RoomSchema(room_id=1, sheets=(sheet,))
    assert (
        cells("What was the percentage change in purchased power for own use from 2023 to 2024?", schema).row_id == 72
    )
    question = (
        "What was the percentage change in emissions from depot heating and fleet fuel and purchased power for own "
        "use from 2023 to 2024?"
    )
    plan = OfflinePlanner().plan(question, schema)
    assert not any(isinstance(s, CellsStep) for s in plan.steps), plan.steps
    assert "also names" in plan.reasoning, plan.reasoning


def test_a_rates_average_in_one_year_is_that_years_figure_and_a_balances_is_its_opening_and_closing() -> None:
    """ "The average useful life in 2024" averaged 2023's and 2024's lives, a figure no one reports: the opening and
    closing mean is for balances (inventory, assets); a rate, price, age or span of time is already the year's."""
    lines = (("Interest rate", "4.1%", "3.6%"), ("Inventory", "120", "100"), ("Fleet age (years)", "7.2", "6.9"),
             ("Useful life", "9.5", "10.0"), ("Long-term debt", "800", "950"))  # fmt: skip
    grid = tuple(GridRow(row_id=60 + i, values=line) for i, line in enumerate(lines))
    columns = (column("Column A", 0, tuple(line[0] for line in lines)), column("2024", 1, (), "number"),
               column("2023", 2, (), "number"))  # fmt: skip
    sheet = SheetInfo(sheet_id=3, document_id=1, title="note.csv", name="note", n_rows=5, columns=columns, grid=grid)
    schema = RoomSchema(room_id=1, sheets=(sheet,))
    for question in ("What was the average interest rate in 2024?", "What was the average fleet age in 2024?",
                     "What was the average useful life in 2024?"):  # fmt: skip
        step = cells(question, schema)
        assert (step.operation, step.columns) == ("value", ["2024"]), question
    assert cells("What was the average inventory in 2024?", schema).columns == ["2023", "2024"]
    assert cells("What was the average long-term debt in 2024?", schema).columns == ["2023", "2024"]
    assert cells("What was the average fleet age over 2023 and 2024?", schema).operation == "average"


def test_a_statement_rule_on_a_workbook_gives_no_figure_when_a_word_names_a_part_it_does_not_read() -> None:
    from core.qa.planner.binding import bind
    from tests.unit.test_model_reading import MINES, _parsed, _schema

    sheet = _schema(_parsed(MINES)).sheets[0]
    grade = next(g for g in sheet.grid if g.values[0] == "Head grade (g/t)")
    step = CellsStep(sheet_id=sheet.sheet_id, operation="value", row_id=grade.row_id, row_label="Head grade (g/t)",
                     columns=["2044"], column_labels=["2044"])  # fmt: skip
    # the line read under the first mine: the other mine's name is a part of the sheet it does not read
    blocked = bind("What was South Creek head grade in 2044?", step, sheet)
    assert blocked is not None and [w for w, _ in blocked.blocking] == ["south", "creek"]
    # a name asked: a figure is not its answer
    asked = bind("Which mine had the highest head grade in 2044?", step, sheet)
    assert asked is not None and ("which", "asks a name, and this reading gives a figure") in asked.blocking
    # a quarter the columns do not read
    assert ("q2", "names a part of the sheet this reading does not read") in bind(
        "What was the head grade in Q2 2044?", step, sheet
    ).blocking  # type: ignore[union-attr]
    # the line's own section named, every word read: nothing blocks
    assert bind("What was North Hill head grade in 2044?", step, sheet).blocking == ()  # type: ignore[union-attr]


def test_a_count_of_rows_gives_no_figure_when_the_question_names_a_column_of_figures_it_does_not_read() -> None:
    from core.qa.planner.binding import bind
    from core.retrieval.tables import Aggregate, TableOp
    from tests.unit.test_planner import column

    weeks = SheetInfo(
        sheet_id=3, document_id=2, title="campaigns.xlsx", name="Weekly", n_rows=300,
        columns=(column("Campaign", "A", "text", 0, ("C-1", "C-2")),
                 ColumnInfo("Conversions", "B", "number", 1, ("0", "12"), (), 40, 300)),
    )  # fmt: skip
    rows = TableStep(op=TableOp(sheet_id=3, aggregate=Aggregate(func="count")))
    blocked = bind("How many campaign-weeks had zero conversions?", rows, weeks)
    assert blocked is not None and "conversions" in [w for w, _ in blocked.blocking]
    # the thing counted, named by its column, is what is counted: no block
    assert bind("What is the number of conversions listed?", rows, weeks).blocking == ()  # type: ignore[union-attr]


# ---------------------------------------------------------------------------------------------
# Every content word bound, or no figure, on a records table (issue 38, item 2): the sheet's own headers and cells
# say what a word left unread would have named.
# ---------------------------------------------------------------------------------------------

VENDORS = ("Acme Supply", "Birch Freight", "Cobalt IT", "Delta Print")
REGISTER = SheetInfo(
    sheet_id=7, document_id=7, title="invoices.csv", name="invoices", n_rows=40,
    columns=(
        column("Invoice No", 0, tuple(f"INV-{i:03d}" for i in range(40)), n_filled=40),
        ColumnInfo(name="Vendor", letter="B", dtype="text", position=1, values=VENDORS, n_distinct=4, n_filled=40),
        ColumnInfo(name="Status", letter="C", dtype="text", position=2, values=("Open", "Paid", "Disputed"),
                   n_distinct=3, n_filled=40),
        ColumnInfo(name="Inv Date", letter="D", dtype="date", position=3, n_distinct=30, n_filled=40),
        ColumnInfo(name="Due Date", letter="E", dtype="date", position=4, n_distinct=30, n_filled=40),
        ColumnInfo(name="Amount (USD)", letter="F", dtype="currency", position=5, n_distinct=40, n_filled=40),
        ColumnInfo(name="Budget", letter="G", dtype="currency", position=6, n_distinct=40, n_filled=40),
    ),
)  # fmt: skip


def blocking(question: str, **op: object) -> list[str]:
    from core.qa.planner.binding import bind
    from core.retrieval.tables import TableOp

    found = bind(question, TableStep(op=TableOp(sheet_id=7, **op)), REGISTER)  # type: ignore[arg-type]
    assert found is not None
    return [word for word, _ in found.blocking]


def test_an_operation_word_binds_only_to_the_operation_the_step_does() -> None:
    from core.retrieval.tables import Aggregate, Filter

    open_rows = [Filter(column="Status", op="eq", value="Open")]
    assert "sum" in blocking("sum of open invoices amt?", filters=open_rows, select=["Invoice No"])
    assert (
        blocking("sum of open invoices amt?", filters=open_rows, aggregate=Aggregate(func="sum", column="Amount (USD)"))
        == []
    )
    assert "average" in blocking("average amount from Acme Supply", select=["Invoice No"],
                                 filters=[Filter(column="Vendor", op="eq", value="Acme Supply")])  # fmt: skip
    # a comparison phrase is a filter's, not a ranking's: "at least" read by a ≥ filter
    assert blocking("how many invoices of at least 500 usd", aggregate=Aggregate(func="count"),
                    filters=[Filter(column="Amount (USD)", op="ge", value=500)]) == []  # fmt: skip
    assert "more" in blocking("how many invoices of more than 20k", aggregate=Aggregate(func="count"))


def test_a_word_the_sheet_holds_and_the_step_leaves_unread_blocks_the_figure() -> None:
    from core.retrieval.tables import Aggregate, Filter

    count = Aggregate(func="count")
    # a column of figures named and not read; its abbreviation too
    assert "budget" in blocking("how many invoices came in over budget", aggregate=count)
    assert "amt" in blocking("how many invoices by amt", aggregate=count)
    # a value of a category column that picks out some rows, not filtered on
    assert "disputed" in blocking("how many disputed invoices", aggregate=count)
    assert blocking("how many disputed invoices", aggregate=count,
                    filters=[Filter(column="Status", op="eq", value="Disputed")]) == []  # fmt: skip
    # what is counted names the rows (the Invoice No column, one value a row): not a condition
    assert blocking("how many invoices are there", aggregate=count) == []


def test_a_figure_asked_is_not_answered_by_a_listing_of_names() -> None:
    from core.retrieval.tables import Filter

    acme = [Filter(column="Vendor", op="eq", value="Acme Supply")]
    assert "how much" in blocking("how much do we owe Acme Supply", filters=acme, select=["Invoice No"])
    assert "%" in blocking("what % of invoices are from Acme Supply", filters=acme, select=["Invoice No"])
    assert blocking("which invoices are from Acme Supply", filters=acme, select=["Invoice No"]) == []
    assert blocking("how much is owed to Acme Supply", filters=acme, select=["Amount (USD)"]) == []


def test_a_period_read_on_a_date_the_question_does_not_name_blocks_the_figure() -> None:
    from core.retrieval.tables import Aggregate, Filter

    in_2024 = [Filter(column="Inv Date", op="year", value=2024)]
    assert blocking("how many invoices were settled in 2024", aggregate=Aggregate(func="count"), filters=in_2024)
    assert blocking("how many invoices were dated in 2024", aggregate=Aggregate(func="count"), filters=in_2024) == []
