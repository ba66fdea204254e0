"""Issue 38 on records tables (a row per invoice, per employee): the question read against the sheet's own headers
and cells, the vocabulary and the spelling of analysts' shorthand, and the room routing the question to the sheet
whose reading binds its words. Hand-built schemas, the offline planner end to end (no storage)."""

from __future__ import annotations

from core.qa.planner import OfflinePlanner, RoomSchema, SheetInfo
from core.retrieval.plan import Plan, SearchStep, TableStep
from tests.unit.test_planner import aggregate_of, column, filters, table_op

VENDORS = ("Acme Supply", "Birch Freight", "Cobalt IT", "Delta Print")
INVOICES = tuple(f"INV-{i:03d}" for i in range(120))
DATES = tuple(f"2024-{m:02d}-{d:02d}" for m in range(1, 7) for d in (3, 11, 19, 27))
REGISTER = SheetInfo(
    sheet_id=1, document_id=1, title="ap_register.csv", name="ap_register", n_rows=120,
    columns=(
        column("Invoice No", "A", "text", 0, INVOICES, n_filled=120),
        column("Vendor", "B", "text", 1, VENDORS, n_filled=120),
        column("Status", "C", "text", 2, ("Open", "Paid", "Disputed"), n_filled=120),
        column("Inv Date", "D", "date", 3, DATES, n_filled=120),
        column("Amount (USD)", "E", "currency", 4, (), n_distinct=118, n_filled=120),
        column("Budget", "F", "currency", 5, (), n_distinct=118, n_filled=120),
    ),
)  # fmt: skip
DEPTS = ("OPS", "FIN", "ENG", "SAL")
ROSTER = SheetInfo(
    sheet_id=2, document_id=2, title="hr.xlsx", name="Roster", n_rows=90,
    columns=(
        column("Emp ID", "A", "text", 0, tuple(f"E{i}" for i in range(90)), n_filled=90),
        column("Dept", "B", "text", 1, DEPTS, n_filled=90),
        column("Location", "C", "text", 2, ("Denver", "Austin", "Boston"), n_filled=90),
        column("Annual Salary (USD)", "D", "currency", 3, (), n_distinct=90, n_filled=90),
    ),
)  # fmt: skip
LOOKUP = SheetInfo(
    sheet_id=3, document_id=2, title="hr.xlsx", name="Dept Lookup", n_rows=4,
    columns=(
        column("Dept", "A", "text", 0, DEPTS, n_filled=4),
        column("Department Name", "B", "text", 1, ("Operations", "Finance", "Engineering", "Sales"), n_filled=4),
    ),
)  # fmt: skip


def plan_of(question: str, *sheets: SheetInfo) -> Plan:
    return OfflinePlanner().plan(question, RoomSchema(room_id=1, sheets=sheets or (REGISTER,), documents=()))


def no_figure(plan: Plan) -> bool:
    return all(isinstance(step, SearchStep) and not step.rows for step in plan.steps)


def test_the_highest_of_a_measure_named_in_what_is_asked_is_the_figure_not_the_row() -> None:
    assert aggregate_of(plan_of("highest amount billed by Cobalt IT")) == (
        ("max", "Amount (USD)"), {("Vendor", "eq", "Cobalt IT")},
    )  # fmt: skip
    op = table_op(plan_of("which vendor billed the highest amount"))  # a name asked: the row's vendor
    assert op.aggregate is None or op.group_by == "Vendor"


def test_months_without_a_year_are_read_in_the_one_year_of_the_dates() -> None:
    assert aggregate_of(plan_of("how many invoices were dated in March"))[1] == {
        ("Inv Date", "between", ("2024-03-01", "2024-03-31"))
    }
    assert aggregate_of(plan_of("total amount invoiced in H1 2024"))[1] == {
        ("Inv Date", "between", ("2024-01-01", "2024-06-30"))
    }


def test_a_noun_of_a_repeating_column_counted_beside_the_rows_named_counts_its_names() -> None:
    assert aggregate_of(plan_of("how many suppliers did we recieve invoices from?"))[0] == ("count_distinct", "Vendor")


def test_shorthand_and_vocabulary_name_the_columns() -> None:
    assert aggregate_of(plan_of("sum of open invoices amt?")) == (("sum", "Amount (USD)"), {("Status", "eq", "Open")})
    assert aggregate_of(plan_of("avg pay for OPS staff in Denver", ROSTER))[0] == ("avg", "Annual Salary (USD)")


def test_the_sheet_whose_reading_binds_every_word_answers() -> None:
    plan = plan_of("Which department has the highest average salary?", LOOKUP, ROSTER)
    op = table_op(plan)
    assert op.sheet_id == ROSTER.sheet_id and op.group_by == "Dept"


def test_a_condition_left_unread_gives_no_figure() -> None:
    assert no_figure(plan_of("how many invoices came in over budget"))  # the Budget column, unread
    assert no_figure(plan_of("how many invoices were late"))  # nothing binds "late": not every row
    assert filters(table_op(plan_of("how many disputed invoices"))) == {("Status", "eq", "Disputed")}


STOCK = SheetInfo(
    sheet_id=4, document_id=4, title="stock.xlsx", name="Stock", n_rows=60,
    columns=(
        column("SKU", "A", "text", 0, tuple(f"SKU-{i}" for i in range(60)), n_filled=60),
        column("Item", "B", "text", 1, ("Gloves", "Masks", "Tape"), n_filled=60),
        column("Qty On Hand", "C", "number", 2, (), n_distinct=50, n_filled=60),
        column("Qty Avail", "D", "number", 3, (), n_distinct=50, n_filled=60),
    ),
)  # fmt: skip


def test_a_word_naming_two_columns_of_figures_alike_is_asked_back() -> None:
    from core.retrieval.plan import ClarifyStep

    plan = plan_of("how many units of Gloves do we have?", STOCK)
    [step] = plan.steps
    assert isinstance(step, ClarifyStep) and plan.intent == "clarify"
    assert [o.label.split(" (")[0] for o in step.options] == ["Qty On Hand", "Qty Avail"]
    # each option, asked again, reads its column alone
    chosen = plan_of(step.options[1].question, STOCK)
    assert aggregate_of(chosen) == (("sum", "Qty Avail"), {("Item", "eq", "Gloves")})
    # the question that tells them apart is read at once
    assert aggregate_of(plan_of("how many units of Gloves are on hand?", STOCK))[0] == ("sum", "Qty On Hand")


SHIPMENTS = SheetInfo(
    sheet_id=5, document_id=5, title="shipments.xlsx", name="Shipments", n_rows=80,
    columns=(
        column("Shipment ID", "A", "text", 0, tuple(f"SH-{i}" for i in range(80)), n_filled=80),
        column("Carrier", "B", "text", 1, ("DHL", "UPS", "Maersk"), n_filled=80),
        column("On time (Y/N)", "C", "text", 2, ("Y", "N"), n_filled=80),
        column("Delay (days)", "D", "number", 3, (), n_distinct=9, n_filled=80),
    ),
)  # fmt: skip


def test_a_yes_no_column_named_and_left_unread_gives_no_figure() -> None:
    # "on-time" names the On time (Y/N) column: counting each carrier's rows answers another question
    assert no_figure(plan_of("which carrier has the worst on-time performance?", SHIPMENTS))
    assert table_op(plan_of("which carrier has the most shipments?", SHIPMENTS)).group_by == "Carrier"


def test_values_the_question_sets_apart_or_names_alike_give_no_figure() -> None:
    from core.qa.planner.binding import bind
    from core.retrieval.tables import Aggregate, Filter, TableOp

    count = Aggregate(func="count")
    both = [Filter(column="Status", op="in", value=["Open", "Disputed"])]
    found = bind(
        "how many invoices are open rather than disputed?",
        TableStep(op=TableOp(sheet_id=1, filters=both, aggregate=count)),
        REGISTER,
    )
    assert found is not None and found.blocking  # "rather than": one value, not both
    people = [Filter(column="Vendor", op="in", value=["Jonas Berg", "Jonas Weber"])]
    one = bind(
        "how much did we pay Jonas?",
        TableStep(op=TableOp(sheet_id=1, filters=people, aggregate=Aggregate(func="sum", column="Amount (USD)"))),
        REGISTER,
    )
    assert one is not None and any("alike" in why for _, why in one.blocking)
    told = bind("how much did we pay Jonas Weber or Jonas Berg?", TableStep(op=TableOp(sheet_id=1, filters=people,
                aggregate=Aggregate(func="sum", column="Amount (USD)"))), REGISTER)  # fmt: skip
    assert told is not None and not any("alike" in why for _, why in told.blocking)


def test_a_misspelled_operation_word_is_read_as_the_word() -> None:
    assert aggregate_of(plan_of("avrage amount from Acme Supply"))[0] == ("avg", "Amount (USD)")
