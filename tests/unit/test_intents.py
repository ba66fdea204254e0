"""The planner's intents: which one fires for a question (its name on the plan), the operation it drafts, and
the registry's order (a question two rules could answer goes to the earlier one)."""

from __future__ import annotations

import pytest

from core.qa.planner import ColumnInfo, OfflinePlanner, RoomSchema, SheetInfo
from core.qa.planner.cells import GridRow
from core.qa.planner.drafting import Draft, apply_filters
from core.qa.planner.intents import CELLS, INTENTS, SEARCH, plan_table
from core.qa.planner.linking import link_sheet, read_question
from core.retrieval.cellmath import CellsStep
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
        "same", "count_distinct", "two_way", "among", "neighbour", "count_span", "having", "count", "aggregate", "superlative", "first_last",
        "listing", "choice", "lookup",
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


@pytest.mark.parametrize(("question", "descending"), [("higher", False), ("lower", True), ("better", False)])
def test_among_ranked_higher_is_the_smaller_rank(question: str, descending: bool) -> None:
    op = table_op(plan_of(f"is norway or sweden ranked {question}?", MEDALS))
    assert (op.sort_by, op.descending, op.select) == ("Rank", descending, ["Nation"])


def test_neighbour_reads_the_next_row_off_the_sheet_order() -> None:
    plan = plan_of("which nation is listed just after chile?", MEDALS)
    op = table_op(plan)
    assert plan.intent == "neighbour"
    assert filters(op) == {("Nation", "eq", "Sweden")} and op.select == ["Nation"]


def test_count_span_counts_the_rows_between_two_named_ones() -> None:
    plan = plan_of("how many nations are listed between norway and sweden?", MEDALS)
    op = table_op(plan)
    assert plan.intent == "count_span"
    assert filters(op) == {("Nation", "in", ("Germany", "Chile"))}
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
    plan = plan_of("which nation appears first in the list?", MEDALS)
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
        ("how many different nations are there?", MEDALS, "count_distinct", "count"),
        ("which won the most silver medals, germany or sweden?", MEDALS, "among", "superlative"),
        ("which nation is listed just after chile?", MEDALS, "neighbour", "lookup"),
        ("how many nations are listed between norway and sweden?", MEDALS, "count_span", "count"),
        ("the total number of gold medals is what?", MEDALS, "count", "aggregate"),
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


# -- rows sharing a value with a named row ("the same X as Y") ------------------------------------

PLAYERS = SheetInfo(
    sheet_id=11, document_id=6, title="squad.csv", name="squad", n_rows=6,
    columns=(
        column("Player", "A", "text", 0, ("Aino Kask", "Berit Ots", "Cora Lepp", "Dora Mets", "Eva Saar", "Frida Tamm"),
               n_filled=6),
        column("Position", "B", "text", 1, ("Setter", "Libero", "Middle blocker"), n_filled=6),
        column("Club", "C", "text", 2, ("Tartu", "Pärnu", "Narva"), n_filled=6),
        ColumnInfo("Year", "D", "number", 3, ("2001", "2003"), ("2001", "2003", "2004", "2006"), 4, 6),
    ),
)  # fmt: skip


@pytest.mark.parametrize(
    ("question", "compared", "reference", "asked"),
    [
        ("which players share the same position as cora lepp?", "Position", ("Player", "eq", "Cora Lepp"), "Player"),
        ("Berit Ots is from the same club as what player?", "Club", ("Player", "eq", "Berit Ots"), "Player"),
        ("who joined in the same year as eva saar?", "Year", ("Player", "eq", "Eva Saar"), "Player"),
        ("what player had the same position as 2003?", "Position", ("Year", "eq", "2003"), "Player"),
    ],
)
def test_same_as_compares_with_the_named_row(question: str, compared: str, reference: tuple, asked: str) -> None:
    """The column named between "same" and "as"; the row named after "as" (before "same" when a question word
    follows "as"); the answer names the other rows."""
    plan = plan_of(question, PLAYERS)
    op = table_op(plan)
    assert plan.intent == "same"
    assert op.same_as is not None and op.same_as.column == compared
    assert (op.same_as.row.column, op.same_as.row.op, op.same_as.row.value) == reference
    assert op.select == [asked] and not [f for f in op.filters if f.column == reference[0]]


def test_how_many_share_a_value_with_a_named_row_counts_them() -> None:
    op = table_op(plan_of("how many players have the same club as dora mets?", PLAYERS))
    assert op.aggregate is not None and op.aggregate.func == "count" and op.aggregate.column is None
    assert op.same_as is not None and op.same_as.column == "Club"


@pytest.mark.parametrize(
    "question",
    [
        "how many players joined in the same year as 2003?",  # the value is the compared column's own: a filter
        "which players played the same position?",  # no row to compare with
        "is the position the same for every player?",  # no "as"
    ],
)
def test_same_without_a_row_to_compare_with_is_another_intent(question: str) -> None:
    assert plan_of(question, PLAYERS).intent != "same"


# -- measures written with their unit ("88 m") ---------------------------------------------------

PYLONS = SheetInfo(
    sheet_id=12, document_id=7, title="pylons.csv", name="pylons", n_rows=5,
    columns=(
        column("Name", "A", "text", 0, ("Alder Tower", "Birch Mast", "Cedar Pylon", "Dogwood Post", "Elm Tower"),
               n_filled=5),
        column("Height", "B", "text", 1, ("113.6 m", "88 m", "44 m (approx.)", "n/a"), n_filled=5),
        column("Prominence", "C", "text", 2, ("10,080 ft\n3072 m", "1,677 ft\n511 m", "7,196 ft\n2193 m"), n_filled=5),
    ),
)  # fmt: skip


def test_measures_with_units_are_compared_and_ranked() -> None:
    """A text column of measures ("88 m", "10,080 ft") is a quantity: comparisons filter it, superlatives rank it."""
    op = table_op(plan_of("which pylon is at most 80 m in height?", PYLONS))
    assert filters(op) == {("Height", "le", "80")} and op.select == ["Name"]
    op = table_op(plan_of("which pylon has a prominence more than 5,000 ft?", PYLONS))
    assert filters(op) == {("Prominence", "gt", "5000")}
    op = table_op(plan_of("which pylon has the least height?", PYLONS))
    assert (op.sort_by, op.descending, op.limit, op.select) == ("Height", False, 1, ["Name"])


# -- values set aside, lists in cells, the last of the matching rows ----------------------------

RACE = SheetInfo(
    sheet_id=13, document_id=8, title="race.csv", name="race", n_rows=8,
    columns=(
        column("Rider", "A", "text", 0, ("Ann Ek", "Bo Dahl", "Cy Lind", "Di Moe", "Ed Berg", "Flo Nyman", "Gus Holm",
                                         "Hal Frost"), n_filled=8),
        column("Manufacturer", "B", "text", 1, ("Honda", "Yamaha", "Aprilia", "KTM"), n_filled=8),
        column("Languages", "C", "text", 2, ("Swedish", "Swedish, Finnish", "Finnish / Sami", "Norwegian and Swedish"),
               n_filled=8),
        column("Team", "D", "text", 3, ("Red", "Blue", "Green"), n_filled=8),
    ),
)  # fmt: skip


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("how many riders did not have a ktm or a yamaha?", {("Manufacturer", "ne", "KTM"),
                                                             ("Manufacturer", "ne", "Yamaha")}),
        ("how many riders other than a honda rider?", {("Manufacturer", "ne", "Honda")}),
        ("how many riders never used a yamaha?", {("Manufacturer", "ne", "Yamaha")}),
        # not negated: the value is asked about
        ("how many riders used an aprilia or a honda?", {("Manufacturer", "in", ("Aprilia", "Honda"))}),
    ],
)  # fmt: skip
def test_a_negation_sets_aside_the_values_after_it(question: str, expected: set) -> None:
    """ "did not have a KTM or a Yamaha": a verb or an article may stand between the negation and the value, and
    every value listed after it is set aside too."""
    assert filters(table_op(plan_of(question, RACE))) == expected


def test_a_value_listed_in_cells_matches_every_cell_that_lists_it() -> None:
    """ "Swedish" is a cell and an item of "Swedish, Finnish" and "Norwegian and Swedish": each counts."""
    op = table_op(plan_of("how many riders have swedish as one of their languages?", RACE))
    assert filters(op) == {("Languages", "in", ("Swedish", "Swedish, Finnish", "Norwegian and Swedish"))}
    op = table_op(plan_of("how many riders speak sami?", RACE))  # only inside a list: still found
    assert filters(op) == {("Languages", "eq", "Finnish / Sami")}


def test_the_last_of_the_matching_rows_is_read_from_the_end_of_the_sheet() -> None:
    """ "The last rider of team Red": without a column that orders the rows, the last matching row in sheet order."""
    plan = plan_of("who was the last rider of the red team?", RACE)
    op = table_op(plan)
    assert plan.intent == "first_last" and filters(op) == {("Team", "eq", "Red")}
    assert (op.limit, op.from_end, op.sort_by, op.select) == (1, True, None, ["Rider"])
    first = table_op(plan_of("who was the first rider of the red team?", RACE))
    assert (first.limit, first.from_end) == (1, False)


SEASONS = SheetInfo(
    sheet_id=14, document_id=9, title="seasons.csv", name="seasons", n_rows=5,
    columns=(
        column("Season", "A", "text", 0, ("2013–14", "2012–13", "2011–12", "2010–11", "2009–10"), n_filled=5),
        column("Division", "B", "text", 1, ("North", "South"), n_filled=5),
        column("Coach", "C", "text", 2, ("Ivo Lahe", "Juri Mets", "Kalle Rand"), n_filled=5),
    ),
)  # fmt: skip


def test_periods_written_newest_first_turn_first_and_last_around() -> None:
    """Seasons as text ("2013–14" above "2012–13"): the first in time is the last row, the last the first row."""
    last = table_op(plan_of("who was the last coach in the south division?", SEASONS))
    assert filters(last) == {("Division", "eq", "South")} and (last.limit, last.from_end) == (1, False)
    first = table_op(plan_of("who was the first coach in the south division?", SEASONS))
    assert (first.limit, first.from_end) == (1, True)
    # "listed first" is the sheet's order, not time's
    listed = table_op(plan_of("which coach is listed first in the north division?", SEASONS))
    assert (listed.limit, listed.from_end) == (1, False)


# -- two named rows compared: "more or less", "older or younger", "above or below" -------------------------------

FILMS = SheetInfo(
    sheet_id=15, document_id=10, title="films.csv", name="films", n_rows=4,
    columns=(
        column("Title", "A", "text", 0, ("Night Ferry", "Paper Moons", "Glass Harbour", "Quiet Hours"), n_filled=4),
        ColumnInfo("Released", "B", "date", 1, ("1991-05-03",), (), 4, 4),
        ColumnInfo("Gross", "C", "currency", 2, ("$1,200,000",), (), 4, 4),
        ColumnInfo("Rank", "D", "number", 3, ("1", "2"), ("1", "2", "3", "4"), 4, 4, trend="up", strict=True),
    ),
)  # fmt: skip


@pytest.mark.parametrize(
    ("question", "select", "compare"),
    [
        # the first word is the answer when the first named row's value is greater
        ("did night ferry gross more or less than quiet hours?", ["Gross"], ("more", "less")),
        ("did night ferry make less or more money than quiet hours?", ["Gross"], ("more", "less")),
        # an earlier date is "older"; a later one "after"
        ("is night ferry older or younger than paper moons?", ["Released"], ("younger", "older")),
        ("was night ferry released before or after paper moons?", ["Released"], ("after", "before")),
        # a rank: the smaller number is the higher one
        ("is night ferry ranked higher or lower than glass harbour?", ["Rank"], ("lower", "higher")),
        # "listed above or below": the order of the sheet, the later row below
        ("is night ferry listed above or below quiet hours?", [], ("below", "above")),
    ],
)
def test_two_named_rows_compared_answer_with_a_word_offered(question: str, select: list, compare: tuple) -> None:
    plan = plan_of(question, FILMS)
    op = table_op(plan)
    assert plan.intent == "two_way"
    assert op.select == select and tuple(op.compare or ()) == compare
    pair = [f.value for f in op.filters if f.op == "in"]
    assert len(pair) == 1 and pair[0][0] == "Night Ferry"  # in the question's order: the first named is compared


def test_a_question_of_yes_or_no_is_answered_by_the_sheet_when_it_compares_or_offers() -> None:
    """Yes or no is no row's value (test_every_row_is_no_answer…), but two named rows compared answer it, and a
    choice between offered values answers with one of them."""
    plan = plan_of("was night ferry released before paper moons?", FILMS)
    assert plan.intent == "two_way" and tuple(table_op(plan).compare or ()) in (("yes", "no"), ("no", "yes"))
    assert plan_of("was night ferry or quiet hours ranked 3?", FILMS).intent == "choice"
    assert plan_of("did norway or sweden win more gold medals?", MEDALS).intent == "among"  # one of the two


def test_two_way_needs_two_named_rows_and_something_to_compare() -> None:
    assert plan_of("did night ferry gross more or less than 1 million?", FILMS).intent != "two_way"
    assert plan_of("how many films grossed more or less than night ferry?", FILMS).intent != "two_way"


@pytest.mark.parametrize(
    ("question", "answered_by"),
    [
        ("was night ferry or quiet hours ranked 3?", "Title"),  # the offered titles name the row the rank picks
        ("which was ranked 2, paper moons or glass harbour?", "Title"),
    ],
)
def test_a_choice_between_offered_values_answers_with_their_column(question: str, answered_by: str) -> None:
    plan = plan_of(question, FILMS)
    op = table_op(plan)
    assert plan.intent == "choice" and op.select == [answered_by]
    assert {f.column for f in op.filters} == {"Title", "Rank"}


def test_offered_values_without_another_condition_are_no_choice() -> None:
    assert plan_of("what was the gross of night ferry or quiet hours?", FILMS).intent != "choice"


def test_the_row_after_a_value_of_a_repeating_column_is_read_by_offset() -> None:
    """ "Which rider came after Bo Dahl?" names a row by a unique value (the next value is known from the schema);
    "which rider came after the blue team?" names it by a value that repeats: the table step reads the next row."""
    unique = table_op(plan_of("which rider came after bo dahl?", RACE))
    assert filters(unique) == {("Rider", "eq", "Cy Lind")} and unique.offset == 0
    plan = plan_of("which rider came after the blue team?", RACE)
    op = table_op(plan)
    assert plan.intent == "neighbour" and filters(op) == {("Team", "eq", "Blue")}
    assert (op.offset, op.select) == (1, ["Rider"])


# -- groups with a number of rows: "which year had at least three films" ----------------------------------------

RELEASES = SheetInfo(
    sheet_id=16, document_id=11, title="releases.csv", name="releases", n_rows=8,
    columns=(
        ColumnInfo("Year", "A", "number", 0, ("2001", "2002"), ("2001", "2002", "2003", "2004"), 4, 8),
        column("Title", "B", "text", 1, ("Ash", "Birch", "Cedar", "Dogwood", "Elm", "Fir", "Gum", "Holly"), n_filled=8),
        column("Studio", "C", "text", 2, ("North", "South", "West"), n_filled=8),
        ColumnInfo("Budget", "D", "currency", 3, ("$1,000",), (), 8, 8),
    ),
)  # fmt: skip


@pytest.mark.parametrize(
    ("question", "group", "counted", "having"),
    [
        ("which year had at least three films?", "Year", "Title", ("ge", "3")),  # a film is a title (synonyms)
        ("in what year were more than two titles released?", "Year", "Title", ("gt", "2")),
        ("which year saw exactly 2 titles come out?", "Year", "Title", ("eq", "2")),
        ("which studio released 3 titles?", "Studio", "Title", ("eq", "3")),
        ("which studio made only one picture?", "Studio", None, ("eq", "1")),
    ],
)
def test_groups_with_a_number_of_rows(question: str, group: str, counted: str | None, having: tuple) -> None:
    """A small number counting things that are no quantity column: the groups of the asked column whose rows (or
    cells of the counted column) number that many; no filter is made of the number ("Year ≥ 3")."""
    plan = plan_of(question, RELEASES)
    op = table_op(plan)
    assert plan.intent == "having" and op.group_by == group
    assert op.aggregate is not None and (op.aggregate.func, op.aggregate.column) == ("count", counted)
    assert op.having is not None and (op.having.op, op.having.value) == having
    assert not [f for f in op.filters if f.column == "Year"]


@pytest.mark.parametrize(
    "question",
    [
        "which year had a budget over 5 million?",  # a quantity column's condition: a filter
        "how many years had at least three films?",  # a count (of groups): not this intent
        "which title was released in 2003?",
    ],
)
def test_conditions_on_columns_are_no_row_counts(question: str) -> None:
    assert plan_of(question, RELEASES).intent != "having"


# -- results of games: "how many games did they win" --------------------------------------------------------------

GAMES = SheetInfo(
    sheet_id=17, document_id=12, title="games.csv", name="games", n_rows=6,
    columns=(
        column("Date", "A", "text", 0, ("Sep 1", "Sep 8", "Sep 15", "Sep 22", "Sep 29", "Oct 6"), n_filled=6),
        column("Opponent", "B", "text", 1, ("Ames", "Bexley", "Corby"), n_filled=6),
        column("Result", "C", "text", 2, ("W 21–7", "L 3–10", "W 14–13", "T 7–7", "W 30–0", "L 0–6"), n_filled=6),
    ),
)  # fmt: skip
FINALS = SheetInfo(
    sheet_id=18, document_id=13, title="finals.csv", name="finals", n_rows=5,
    columns=(
        column("Outcome", "A", "text", 0, ("Winner", "Runner-up"), n_filled=5),
        column("Partner", "B", "text", 1, ("Ada Lind", "Bo Rask"), n_filled=5),
    ),
)  # fmt: skip


@pytest.mark.parametrize(
    ("question", "sheet", "column", "values"),
    [
        ("how many games did they win?", GAMES, "Result", ("W 21–7", "W 14–13", "W 30–0")),
        ("number of losses", GAMES, "Result", ("L 3–10", "L 0–6")),
        ("how many games were tied?", GAMES, "Result", ("T 7–7",)),
        ("how many finals ended with a winning outcome?", FINALS, "Outcome", ("Winner",)),
        ("how many finals were lost with bo rask?", FINALS, "Outcome", ("Runner-up",)),
    ],
)
def test_win_and_loss_words_pick_the_result_cells(question: str, sheet: SheetInfo, column: str, values: tuple) -> None:
    """Result cells start with the outcome ("W 21–7", "Winner", "Runner-up"): a question's "win", "losses" or
    "tied" picks the cells recording it."""
    op = table_op(plan_of(question, sheet))
    picked = [f for f in op.filters if f.column == column]
    assert len(picked) == 1
    assert (tuple(picked[0].value) if isinstance(picked[0].value, list) else (picked[0].value,)) == values


def test_win_words_pick_nothing_without_a_results_column() -> None:
    """A column of names is no record of results: "won" stays a word of the question."""
    op = table_op(plan_of("how many races did ann ek win?", RACE))
    assert filters(op) == {("Rider", "eq", "Ann Ek")}


# -- "in the top 10": a condition on the rank, not a ranking -----------------------------------------------------

RESULTS = SheetInfo(
    sheet_id=19, document_id=14, title="results.csv", name="results", n_rows=30,
    columns=(
        ColumnInfo("No", "A", "number", 0, ("7", "12"), (), 30, 30),
        ColumnInfo("Rank", "B", "number", 1, ("1", "2"), (), 30, 30, trend="up", strict=True),
        column("Athlete", "C", "text", 2, ("Ann Ek", "Bo Dahl"), n_distinct=30, n_filled=30),
        column("Nation", "D", "text", 3, ("Sweden", "Japan", "Norway"), n_filled=30),
    ),
)  # fmt: skip


@pytest.mark.parametrize(
    ("question", "intent", "rank"),
    [
        ("what number of swedes placed in the top 10?", "count", ("Rank", "le", "10")),
        ("how many athletes from japan finished in the top fifteen?", "count", ("Rank", "le", "15")),
        ("which norwegian athletes did not finish in the top 5?", "lookup", ("Rank", "gt", "5")),
    ],
)
def test_in_the_top_n_is_a_condition_on_the_rank(question: str, intent: str, rank: tuple) -> None:
    """The rank column (not the bib "No"), compared with N; "not in the top N" the other way; no top-k ranking."""
    plan = plan_of(question, RESULTS)
    op = table_op(plan)
    assert plan.intent == intent and rank in filters(op)
    assert op.sort_by is None


def test_the_top_n_without_in_is_still_a_ranking() -> None:
    op = table_op(plan_of("who were the top 3 athletes?", RESULTS))
    assert op.limit == 3 and not [f for f in op.filters if f.column == "Rank"]


def test_the_value_after_a_repeating_value_is_the_next_row_not_the_next_distinct_value() -> None:
    """ "Which team is listed after Blue?": Blue repeats, so the next distinct value of the column is not the next
    row's; the table step reads the row after Blue's last row."""
    op = table_op(plan_of("which team is listed after blue?", RACE))
    assert filters(op) == {("Team", "eq", "Blue")} and (op.offset, op.select) == (1, ["Team"])


@pytest.mark.parametrize(
    "question",
    ["what are the components under blue?", "what were the riders listed after blue?", "list the riders after blue"],
)
def test_several_rows_asked_for_are_no_neighbour(question: str) -> None:
    """ "The components under Equity securities" asks for a section's rows, not the one row below the heading."""
    assert plan_of(question, RACE).intent != "neighbour"


@pytest.mark.parametrize(
    ("question", "compare"),
    [
        ("was night ferry released before paper moons?", ("no", "yes")),  # yes when the first is earlier
        ("did night ferry gross more than quiet hours?", ("yes", "no")),
        ("is night ferry listed below quiet hours?", ("yes", "no")),  # the later row is below
    ],
)
def test_a_comparison_asked_of_yes_or_no(question: str, compare: tuple) -> None:
    """ "Was A released before B?": one comparative between two named rows, the answer yes or no."""
    plan = plan_of(question, FILMS)
    op = table_op(plan)
    assert plan.intent == "two_way" and tuple(op.compare or ()) == compare


def test_a_yes_or_no_question_is_no_neighbour_lookup() -> None:
    """ "Did Bo Dahl ride after Ann Ek?" asks yes or no, never who rode after Ann Ek."""
    assert plan_of("did bo dahl ride after ann ek?", RACE).intent != "neighbour"


@pytest.mark.parametrize(
    ("question", "sheet", "condition"),
    [
        ("How many rounds were not announced?", ROUNDS, "were not announced"),
        ("How many nations have an area under 50 km?", MEDALS, "under 50"),
        ("How many nations never won a silver medal?", MEDALS, "nations never won a silver"),
        # a column of every row answers only a question asking for all of them
        ("Which company is based in Atlantis?", ROUNDS, "based in atlantis"),
        ("which nation had hardly any points?", MEDALS, "had hardly any points"),
        # a sum or an average is not the change, share or ratio asked for
        ("For Germany, how large was the change in the average amount raised?", ROUNDS, "change in the average"),
        # rows counted per a column that never repeats: every count is 1
        ("which nation has the most remarks?", MEDALS, "has most remarks"),
        # a question asked of yes or no: a row's value or a count of rows is no yes or no
        ("Is Lessonloft profitable?", ROUNDS, "lessonloft profitable"),
        ("were there more than 3 nations?", MEDALS, "there more than 3 nations"),
        # ... or which of two offered, when the rows are not named by the offered values
        ("did night ferry gross more or less than 1 million?", FILMS, "night ferry gross more or less than 1 million"),
        ("was night ferry released in 2003 or 2004?", FILMS, "night ferry released in 2003 or 2004"),
    ],
)
def test_every_row_is_no_answer_to_a_condition_no_column_reads(question: str, sheet: SheetInfo, condition: str) -> None:
    """Counting every row when the question states a comparison or a negation no filter reads would cite the
    size of the sheet as the answer, every row's company would answer "which company is based in Atlantis?", and
    an average is no change: the plan searches instead, and says why."""
    plan = plan_of(question, sheet)
    assert plan.intent == SEARCH and [step.kind for step in plan.steps] == ["search"]
    assert f"reads “{condition}”" in plan.reasoning


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        ("How many nations are listed?", "count"),
        ("How many nations won no. 1 rank?", "count"),
        ("How many rounds were there?", "count"),
        ("which nations are listed?", "lookup"),
        ("what nations are there?", "lookup"),
        ("which sector had the most rounds?", "superlative"),  # sectors repeat: rows per sector are counted
        # asking for every row's value in other words: about the data, or a column the sheet names
        ("What companies are in the dataset?", "lookup"),
        ("Show me the lead investors", "lookup"),
        ("What countries do the companies come from?", "lookup"),
    ],
)
def test_a_count_or_column_without_a_condition_or_with_its_filter_is_answered(question: str, intent: str) -> None:
    plan = plan_of(question, MEDALS if "nations" in question else ROUNDS)
    assert plan.intent == intent and [step.kind for step in plan.steps] == ["table"]


@pytest.mark.parametrize(
    ("question", "op", "values"),
    [
        ("How many accounts opened in 2024-09?", "between", ("2024-09-01", "2024-09-30")),
        ("How many accounts opened in 9/2024?", "between", ("2024-09-01", "2024-09-30")),
        ("How many accounts opened in 02/2024?", "between", ("2024-02-01", "2024-02-29")),
        ("How many accounts opened after 2023-11?", "gt", ("2023-11-30",)),
        ("How many accounts opened before 2024-02-15?", "lt", ("2024-02-15",)),
        ("How many accounts opened in May 2024?", "between", ("2024-05-01", "2024-05-31")),
    ],
)
def test_a_date_in_figures_is_its_month_or_day_not_its_year(question: str, op: str, values: tuple[str, ...]) -> None:
    """ "Opened in 2024-09" was read as the year 2024 (its "09" left unread): a cited count of the whole year."""
    read = read_question(question)
    assert [(d.op, d.values) for d in read.dates] == [(op, values)]
    assert read.comparisons == []  # "after 2023-11" is not also a year above 2023


def test_a_split_fiscal_year_and_an_ambiguous_day_are_no_date() -> None:
    assert read_question("Revenue in 2011-12?").dates == []
    assert read_question("How many accounts opened on 09/10/2024?").dates == []
    assert read_question("Who did they play on 2023-03-12?").dates == []  # a day alone: a cell's value to match


def test_how_many_of_a_thing_named_in_a_date_columns_name_counts_rows_not_dates() -> None:
    orders = SheetInfo(
        sheet_id=8, document_id=4, title="orders.xlsx", name="Orders", n_rows=40,
        columns=(
            ColumnInfo("Order Date", "A", "date", 0, ("2031-01-05", "2031-01-05"), (), 30, 40),
            column("Region", "B", "text", 1, ("West", "East")),
            ColumnInfo("Amount", "C", "number", 2, ("450", "850"), (), 35, 40),
        ),
    )  # fmt: skip
    # several orders on one day: "how many orders" counts the rows, not their distinct dates
    op = table_op(plan_of("How many orders came from the West region?", orders))
    assert op.aggregate is not None and op.aggregate.func == "count"
    # the column named by the word it is about: its distinct values
    op = table_op(plan_of("How many order dates are there?", orders))
    assert op.aggregate is not None and (op.aggregate.func, op.aggregate.column) == ("count_distinct", "Order Date")
