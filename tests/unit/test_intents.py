"""The planner's intents: which one fires for a question (its name on the plan), the operation it drafts, and
the registry's order (a question two rules could answer goes to the earlier one)."""

from __future__ import annotations

import pytest

from core.qa.planner import OfflinePlanner, RoomSchema, SheetInfo
from core.qa.planner.drafting import Draft, apply_filters
from core.qa.planner.intents import CELLS, INTENTS, SEARCH, plan_table
from core.qa.planner.linking import link_sheet, read_question
from core.retrieval.cellmath import CellsStep, GridRow
from core.retrieval.plan import Plan
from tests.unit.test_planner import AMOUNT, MEDALS, aggregate_of, column, demo_sheet, filters, table_op

ROUNDS = demo_sheet()
NOT_TOTAL = ("Nation", "ne", "Total")  # the summary row, left out whenever rows are computed over


def plan_of(question: str, sheet: SheetInfo) -> Plan:
    return OfflinePlanner().plan(question, RoomSchema(room_id=1, sheets=(sheet,), documents=()))


def applying(question: str, sheet: SheetInfo) -> list[str]:
    """Every intent whose rule applies to the question on its own, in registry order."""
    read = read_question(question)
    link = link_sheet(read, sheet)
    filtered = Draft(sheet)
    apply_filters(read, link, filtered)
    return [intent.name for intent in INTENTS if intent.rule(read, link, filtered.copy()) is not None]


def test_the_registry_keeps_the_order_of_the_old_cascade() -> None:
    assert [intent.name for intent in INTENTS] == [
        "count_distinct", "among", "neighbour", "count_span", "count", "aggregate", "superlative", "first_last",
        "listing", "lookup",
    ]  # fmt: skip
    assert len({intent.name for intent in INTENTS}) == len(INTENTS)


# -- one question per intent: the name on the plan and the operation drafted ------------------------


def test_count_distinct() -> None:
    plan = plan_of("How many different countries are there?", ROUNDS)
    op = table_op(plan)
    assert plan.intent == "count_distinct"
    assert op.aggregate is not None and (op.aggregate.func, op.aggregate.column) == ("count_distinct", "Country")


def test_among_ranks_only_the_named_rows() -> None:
    plan = plan_of("which won more silver medals, germany or sweden?", MEDALS)
    op = table_op(plan)
    assert plan.intent == "among"
    assert filters(op) == {("Nation", "in", ("Germany", "Sweden"))}
    assert (op.sort_by, op.descending, op.limit, op.select) == ("Silver", True, 1, ["Nation"])


def test_neighbour_reads_the_next_row_off_the_sheet_order() -> None:
    plan = plan_of("who ranked right after turkey?", MEDALS)
    op = table_op(plan)
    assert plan.intent == "neighbour"
    assert filters(op) == {("Nation", "eq", "Sweden")} and op.select == ["Nation"]


def test_count_span_counts_the_rows_between_two_named_ones() -> None:
    plan = plan_of("how many nations are listed between norway and sweden?", MEDALS)
    op = table_op(plan)
    assert plan.intent == "count_span"
    assert filters(op) == {("Nation", "in", ("Germany", "Turkey"))}
    assert op.aggregate is not None and op.aggregate.func == "count"


@pytest.mark.parametrize(
    ("question", "sheet", "intent", "aggregate", "expected_filters"),
    [
        ("How many seed rounds were there?", ROUNDS, "count", ("count", None), {("Round", "eq", "Seed")}),
        # A count of a quantity the rows hold is its sum.
        ("how many gold medals did japan win?", MEDALS, "count", ("sum", "Gold"), {("Nation", "eq", "Japan")}),
        ("What is the average amount raised in Germany?", ROUNDS, "aggregate", ("avg", AMOUNT),
         {("Country", "eq", "Germany")}),
        ("What was the median amount raised in 2022?", ROUNDS, "aggregate", ("median", AMOUNT),
         {("Date", "year", "2022")}),
        ("How much was raised in Canada?", ROUNDS, "aggregate", ("sum", AMOUNT), {("Country", "eq", "Canada")}),
    ],
)  # fmt: skip
def test_count_and_aggregate(
    question: str, sheet: SheetInfo, intent: str, aggregate: tuple, expected_filters: set
) -> None:
    plan = plan_of(question, sheet)
    assert (plan.intent, aggregate_of(plan)) == (intent, (aggregate, expected_filters))
    assert table_op(plan).group_by is None


def test_superlative() -> None:
    plan = plan_of("which nation won the most gold medals?", MEDALS)
    op = table_op(plan)
    assert plan.intent == "superlative"
    assert (op.sort_by, op.descending, op.limit, op.select) == ("Gold", True, 1, ["Nation"])
    assert filters(op) == {NOT_TOTAL}


def test_first_last() -> None:
    plan = plan_of("which nation is at the top of the list?", MEDALS)
    op = table_op(plan)
    assert plan.intent == "first_last"
    assert (op.limit, op.sort_by, op.select, op.filters) == (1, None, ["Nation"], [])


def test_listing() -> None:
    plan = plan_of("List the companies that raised a Series B", ROUNDS)
    op = table_op(plan)
    assert plan.intent == "listing"
    assert op.distinct == "Company" and filters(op) == {("Round", "eq", "Series B")}


def test_lookup() -> None:
    plan = plan_of("what was germany's rank?", MEDALS)
    op = table_op(plan)
    assert plan.intent == "lookup"
    assert filters(op) == {("Nation", "eq", "Germany")} and op.select == ["Rank"] and op.aggregate is None


def test_cells_on_a_statement_grid() -> None:
    header, revenue = ("", "2022", "2021"), ("Net revenue", "86,392", "79,474")
    statement = SheetInfo(
        sheet_id=11, document_id=6, title="income.csv", name="income", n_rows=2,
        columns=tuple(column(name or "A", "ABC"[i], "text", i, ()) for i, name in enumerate(header)),
        grid=(GridRow(row_id=1, values=(None, *header[1:])), GridRow(row_id=2, values=revenue)),
    )  # fmt: skip
    plan = plan_of("What was net revenue in 2022?", statement)
    assert plan.intent == CELLS == "cells"
    assert [type(step) for step in plan.steps] == [CellsStep]


def test_search_when_no_sheet_is_linked() -> None:
    schema = RoomSchema(room_id=1, sheets=(ROUNDS, MEDALS), documents=((4, "portfolio_memo.pdf"),))
    plan = OfflinePlanner().plan("What does the memo say about regulatory risk?", schema)
    assert plan.intent == SEARCH == "search"
    assert [step.kind for step in plan.steps] == ["search"]


def test_a_plan_without_an_intent_still_loads() -> None:
    """Plans serialised before intents were named read back with an empty intent."""
    old = {"question": "q", "standalone_question": "q", "steps": [], "reasoning": "r", "planner": "offline"}
    assert Plan.model_validate(old).intent == ""
    plan = plan_of("which nation won the most gold medals?", MEDALS)
    assert Plan.model_validate_json(plan.model_dump_json()).intent == "superlative"


# -- the order decides between rules that both apply ------------------------------------------------


@pytest.mark.parametrize(
    ("question", "sheet", "fired", "also"),
    [
        ("how many different nations won silver?", MEDALS, "count_distinct", "count"),
        ("which won the most silver medals, germany or sweden?", MEDALS, "among", "superlative"),
        ("who ranked right after turkey?", MEDALS, "neighbour", "lookup"),
        ("how many nations are listed between norway and sweden?", MEDALS, "count_span", "count"),
        ("what is the total number of gold medals?", MEDALS, "count", "aggregate"),
        ("Which sector has the highest average amount raised?", ROUNDS, "aggregate", "superlative"),
        ("who was the last nation with the most gold medals?", MEDALS, "superlative", "first_last"),
        ("list the nations", MEDALS, "listing", "lookup"),
    ],
)
def test_of_two_rules_that_apply_the_earlier_fires(question: str, sheet: SheetInfo, fired: str, also: str) -> None:
    both = applying(question, sheet)
    assert fired in both and also in both  # each rule on its own would draft this question
    assert both[0] == fired and plan_of(question, sheet).intent == fired


def test_the_earlier_rule_decides_the_operation() -> None:
    """ "The highest average": each nation's average ranked (aggregate), not the rows ranked (superlative)."""
    read = read_question("which nation has the highest average silver?")
    intent, draft = plan_table(read, link_sheet(read, MEDALS))
    op = draft.op()
    assert intent == "aggregate" and op.group_by == "Nation"
    assert op.aggregate is not None and (op.aggregate.func, op.aggregate.column) == ("avg", "Silver")
    assert op.sort_by == "value" and op.limit == 1


def test_a_rule_that_does_not_apply_leaves_the_draft_as_it_was() -> None:
    read = read_question("how many gold medals did japan win?")
    link = link_sheet(read, MEDALS)
    filtered = Draft(MEDALS)
    apply_filters(read, link, filtered)
    before = filtered.copy()
    rules = {intent.name: intent.rule for intent in INTENTS}
    assert rules["superlative"](read, link, filtered) is None
    assert rules["listing"](read, link, filtered) is None
    assert filtered == before
