"""Questions read against a sheet's table model (core/qa/planner/facts.py) and the cells run in the model's units
(core/retrieval/cellmath.py): invented sheets of each class the reading serves."""

from __future__ import annotations

from dataclasses import replace

from core.ingest.sheets.parsed import ParsedSheet
from core.ingest.sheets.table import build_table
from core.qa.planner.cells import GridRow
from core.qa.planner.facts import Ambiguous, month_range
from core.qa.planner.model_reading import clarify_step, model_cells
from core.qa.planner.schema import ColumnInfo, RoomSchema, SheetInfo
from core.retrieval.cellmath import CellsStep, run_cells
from core.retrieval.tables import SheetFrame

REGIONAL = [
    ["Harbor Tools — quarterly sales", "", "", "", ""],
    ["USD thousands", "", "", "", ""],
    ["Region / Line", "2031", "2031", "2032", "2032"],
    ["Region / Line", "Q1", "Q2", "Q1", "Q2"],
    ["North", "", "", "", ""],
    ["Pumps", "10", "12", "14", "16"],
    ["Valves", "5", "6", "7", "8"],
    ["Total North", "15", "18", "21", "24"],
    ["South", "", "", "", ""],
    ["Pumps", "3", "4", "5", "6"],
    ["Valves", "1", "1", "1", "1"],
    ["Total South", "4", "5", "6", "7"],
]

MONTHS = [f"{2040 + (m < 7)}-{m:02d}-01" for m in (7, 8, 9, 10, 11, 12, 1, 2, 3, 4, 5, 6)]
BUDGET = [
    ["Expense budget — fiscal year ending June 30, 2041", *[""] * 13],
    ["Team / Line", *MONTHS, "FY2041 Total"],
    ["Engineering", *[""] * 13],
    ["Rent", *["3"] * 6, *["4"] * 6, "42"],
    ["Travel", *["1"] * 12, "12"],
    ["Support", *[""] * 13],
    ["Rent", *["2"] * 12, "24"],
    ["Travel", *["5"] * 12, "60"],
]


def _parsed(records: list[list[str]], name: str = "Sheet") -> ParsedSheet:
    # REGIONAL's years are merged over their quarters (B3:C3, D3:E3), as a workbook records them
    merged = {3: frozenset({2, 4})} if records is REGIONAL else None
    if records is COST_CENTRES:  # Budget and Actual merged over their quarters
        merged = {2: frozenset({2, 4})}
    if records is GAP:  # the bucket banner merged over its buckets
        merged = {2: frozenset({2})}
    sheet = build_table(name, records, range(1, len(records) + 1), merged=merged)
    assert sheet is not None and sheet.model is not None
    return sheet


def _schema(sheet: ParsedSheet) -> RoomSchema:
    columns = tuple(ColumnInfo(name=c.name, letter=c.letter, dtype=c.dtype, position=c.position) for c in sheet.columns)
    grid = tuple(
        GridRow(row_id=100 + i, values=tuple(row), row_number=number)
        for i, (row, number) in enumerate(zip(sheet.rows, sheet.row_numbers, strict=True))
    )
    info = SheetInfo(sheet_id=7, document_id=1, title="book.xlsx", name=sheet.name, n_rows=len(sheet.rows),
                     columns=columns, grid=grid, model=sheet.model)  # fmt: skip
    return RoomSchema(room_id=1, sheets=(info,))


def _frame(sheet: ParsedSheet) -> SheetFrame:
    return SheetFrame.from_rows(sheet.columns, sheet.rows, row_numbers=sheet.row_numbers,
                                row_ids=[100 + i for i in range(len(sheet.rows))], sheet=sheet.name, sheet_id=7,
                                caption=sheet.title, model=sheet.model)  # fmt: skip


def _answer(records: list[list[str]], question: str) -> list[str] | None:
    sheet = _parsed(records)
    found = model_cells(question, _schema(sheet))
    if found is None:
        return None
    assert not isinstance(found, Ambiguous), f"asked back: {[s.row_label for s in found.options]}"
    return run_cells(_frame(sheet), found[0]).values


def _asked_back(records: list[list[str]], question: str) -> list[str]:
    """The lines a question back offers (none when the question reads one way, or none)."""
    found = model_cells(question, _schema(_parsed(records)))
    return [s.row_label for s in found.options] if isinstance(found, Ambiguous) else []


def test_a_line_repeated_under_sections_is_read_under_the_one_named() -> None:
    assert _answer(REGIONAL, "What were Pumps sales in South in Q2 2032?") == ["6"]
    assert _answer(REGIONAL, "What were North pumps sales in Q1 2031?") == ["10"]


def test_a_line_repeated_under_sections_without_its_section_is_asked_back() -> None:
    # the same line under each region, no region named: which is meant is asked, each reading offered
    offered = _asked_back(REGIONAL, "What were Pumps sales in Q2 2032?")
    assert len(offered) >= 2 and all(label.endswith("Pumps") for label in offered)
    assert len({label.split(" › ")[0] for label in offered}) == len(offered)
    # each option's question, asked again, reads its own line alone
    schema = _schema(_parsed(REGIONAL))
    found = model_cells("What were Pumps sales in Q2 2032?", schema)
    assert isinstance(found, Ambiguous)
    step = clarify_step("What were Pumps sales in Q2 2032?", found)
    for option, wanted in zip(step.options, found.options, strict=False):
        again = model_cells(option.question, schema)
        assert again is not None and not isinstance(again, Ambiguous) and again[0].row_label == wanted.row_label


def test_a_section_asked_is_its_total_line_and_a_year_adds_its_quarters_when_asked_in_total() -> None:
    assert _answer(REGIONAL, "What was South's total in the first half of 2032?") == ["13"]
    assert _answer(REGIONAL, "What was South's full-year 2032 total?") is None  # no Q3, Q4: the year is not there
    # quarters of a table with no year column: a flow or a balance? only a word says to add them
    assert _answer(REGIONAL, "What were North pumps sales in 2031?") is None


def test_fiscal_quarters_are_read_from_the_sheets_fiscal_year() -> None:
    sheet = _parsed(BUDGET)
    assert sheet.model is not None and sheet.model.fiscal_start == 7
    # fiscal Q1 2041 is July to September 2040: the months add up (the FY column is their sum)
    assert _answer(BUDGET, "What is fiscal Q1 2041 rent for Engineering?") == ["9"]
    assert _answer(BUDGET, "How much was budgeted for Support travel in March 2041?") == ["5"]
    assert _answer(BUDGET, "What is the full-year travel budget for Support?") == ["60"]


def test_a_balance_at_a_periods_end_is_its_last_column() -> None:
    records = [
        ["Headcount by team", "", "", ""],
        ["Team", "Q1 2040", "Q2 2040", "Q3 2040"],
        ["Harbor", "40", "44", "47"],
        ["Quay", "12", "15", "15"],
    ]
    # "people" binds the title's "Headcount" through the analyst vocabulary
    assert _answer(records, "How many people were in Harbor at the end of the first half of 2040?") == ["44"]
    assert _answer(records, "How many people were in Harbor in the first half of 2040?") is None


def test_a_word_left_unbound_gives_no_figure() -> None:
    assert _answer(REGIONAL, "What were refurbished Pumps sales in South in Q2 2032?") is None


def test_an_abbreviation_the_label_defines_names_its_line() -> None:
    records = [
        ["Lakeside Air", "", ""],
        ["", "Year Ended December 31,", "Year Ended December 31,"],
        ["", "2040", "2039"],
        ['Available seat miles ("ASMs") (millions)', "1,200", "1,100"],
        ["Passenger yield (cents)", "14.10", "13.90"],
    ]
    assert _answer(records, "What were Lakeside's ASMs in 2039?") == ["1,100"]


def test_a_row_in_cents_is_said_in_cents_and_converted_to_dollars_when_asked() -> None:
    records = [
        ["Lakeside Air — (in millions, except where noted)", "", ""],
        ["", "Year Ended December 31,", "Year Ended December 31,"],
        ["", "2040", "2039"],
        ["Passenger revenue", "9,100", "8,700"],
        ["Passenger yield (cents)", "14.10", "13.90"],
    ]
    sheet = _parsed(records)
    found = model_cells("What was passenger yield in 2040, in dollars?", _schema(sheet))
    assert found is not None
    result = run_cells(_frame(sheet), found[0])
    assert result.values == ["0.141"]
    assert "14.10 cents" in result.description
    revenue = model_cells("What was passenger revenue in 2039 in thousands?", _schema(sheet))
    assert revenue is not None and run_cells(_frame(sheet), revenue[0]).values == ["8700000"]
    # a unit in brackets describes the figure asked: nothing converted
    said = model_cells("What was passenger revenue (in millions) in 2039?", _schema(sheet))
    assert said is not None and run_cells(_frame(sheet), said[0]).values == ["8,700"]


def test_which_section_or_line_ranks_highest_in_a_period() -> None:
    # "Region / Line": regions are the sections (ranked by their total lines), lines the rows under them
    assert _answer(REGIONAL, "Which region had the highest sales in Q2 2032?") == ["North"]
    assert _answer(REGIONAL, "Which region sold the least in Q1 2031?") == ["South"]  # "sold": the title's sales
    assert _answer(REGIONAL, "Which region had the most returns in Q1 2031?") is None  # no returns in the sheet
    assert _answer(REGIONAL, "Which region had the lowest sales in Q1 2031?") == ["South"]
    # the lines: Pumps under North holds the most of the lines in Q1 2031, but "line" asks of lines of every region
    assert _answer(REGIONAL, "Which line had the largest sales in Q1 2031?") == ["Pumps"]


STATS = [
    ["Selected operating statistics", "", "", ""],
    ["", "Year Ended December 31,", "Year Ended December 31,", "Year Ended December 31,"],
    ["", "2043", "2042", "2041"],
    ["Mainline", "", "", ""],
    ["Revenue passenger miles (millions)", "900", "800", "700"],
    ["Passenger load factor", "84.1", "83.0", "80.2"],
    ["Regional", "", "", ""],
    ["Revenue passenger miles (millions)", "90", "80", "70"],
    ["Passenger load factor", "74.1", "73.0", "70.2"],
    ["", "", "", ""],
    ["Load factor is passenger miles divided by seat miles.", "", "", ""],
]
COST_CENTRES = [
    ["FY43 budget vs actual ($000)", "", "", "", ""],
    ["Cost centre", "Budget", "Budget", "Actual", "Actual"],
    ["Cost centre", "Q1", "Q2", "Q1", "Q2"],
    ["Finance", "10", "11", "12", "13"],
    ["IT", "20", "21", "22", "23"],
    ["Total opex", "30", "32", "34", "36"],
]


def test_a_sentence_under_the_table_is_a_note_not_a_section() -> None:
    model = _parsed(STATS).model
    assert model is not None
    assert [r.role for r in model.rows if r.label.startswith("Load factor is")] == ["note"]
    assert {r.path[0] for r in model.rows if r.role == "data"} == {"Mainline", "Regional"}


def test_the_sheets_words_in_other_spellings_are_read_as_the_sheets() -> None:
    # an abbreviation made of a label's initials, under the section named
    assert _answer(STATS, "What were regional RPMs in 2042?") == ["80"]
    # a label named by its head and most of its words ("load factor" of "Passenger load factor")
    assert _answer(STATS, "What was the mainline load factor in 2041?") == ["80.2"]
    # an inflection of a column's header ("actually" of Actual), a short capitalised name that is a common word
    # ("IT"), quarters with no year of their own read in the year the title names
    assert _answer(COST_CENTRES, "What did IT actually spend in Q2?") == ["23"]
    assert _answer(COST_CENTRES, "What was the budgeted Finance figure for Q1?") == ["10"]
    # a typo in a longer word
    assert _answer(STATS, "What was the mainline pasenger load factor in 2043?") == ["84.1"]


def test_a_part_of_a_label_named_alike_under_two_sections_is_asked_back() -> None:
    assert _asked_back(STATS, "What was the load factor in 2043?") == [
        "Mainline › Passenger load factor",
        "Regional › Passenger load factor",
    ]
    # a word of the label's that is not its head names no line: nothing read, nothing asked
    assert _answer(STATS, "What were passenger figures in 2043?") is None
    assert _asked_back(STATS, "What were passenger figures in 2043?") == []


def test_a_range_of_periods_is_one_span_in_each_group_of_columns() -> None:
    # "Q1 to Q2": both quarters added up (the sheet's totals show its figures add up), in the group named
    assert _answer(COST_CENTRES, "Total actual Finance spend across Q1 to Q2?") == ["25"]
    assert _answer(REGIONAL, "What were North pumps sales from Q1 to Q2 2031 in total?") == ["22"]
    # a statement rule reads a range's two ends: no figure from it (the range is the model reader's)
    assert month_range("Sales from February through May inclusive") == [2, 3, 4, 5]
    assert month_range("Revenue in Q3 2024 - north") == []


GAP = [
    ["Repricing gap, EUR millions", "", "", "", ""],
    ["", "Repricing bucket", "Repricing bucket", "Repricing bucket", ""],
    ["", "0–3 months", "3–12 months", "1–5 years", "Total"],
    ["Assets", "", "", "", ""],
    ["Loans", "100", "200", "300", "600"],
    ["Securities", "50", "60", "70", "180"],
    ["Total assets", "150", "260", "370", "780"],
]


def test_columns_are_bound_by_their_header_levels_words_and_numbers() -> None:
    assert _answer(GAP, "Loans in the 3-12 month bucket?") == ["200"]
    assert _answer(GAP, "Securities in the 0 to 3 months bucket?") == ["50"]
    # "months" alone names two buckets: no figure
    assert _answer(GAP, "Loans in the months bucket?") is None


def test_which_period_or_bucket_ranks_one_lines_columns() -> None:
    step = _step(STATS, "In which year was mainline load factor highest?")
    assert step.operation == "argmax" and run_cells(_frame(_parsed(STATS)), step).values == ["2043"]
    step = _step(GAP, "Which bucket has the largest loans?")
    assert run_cells(_frame(_parsed(GAP)), step).values == ["1–5 years"]


MINES = [
    ["Operating statistics by mine", "", ""],
    ["", "2044", "2043"],
    ["North Hill", "", ""],
    ["Ore milled (kt)", "900", "800"],
    ["Head grade (g/t)", "1.2", "1.1"],
    ["South Creek", "", ""],
    ["Ore milled (kt)", "700", "650"],
    ["Head grade (g/t)", "2.4", "0.9"],
]


def test_which_section_ranks_the_sections_by_the_line_each_holds() -> None:
    step = _step(MINES, "Which mine had the highest head grade in 2044?")
    assert step.operation == "rank_items" and run_cells(_frame(_parsed(MINES)), step).values == ["South Creek"]
    # the line alone, no section named, no ranking: which mine is asked back
    assert _asked_back(MINES, "What was the head grade in 2043?") == [
        "North Hill › Head grade (g/t)",
        "South Creek › Head grade (g/t)",
    ]


CODES = [
    ["Budget summary ($000)", "", "", ""],
    ["Object code", "Description", "FY 2043-44", "FY 2044-45"],
    ["GENERAL FUND", "", "", ""],
    ["", "Revenues", "", ""],
    ["8010-8099", "State aid", "100", "110"],
    ["8100-8299", "Federal revenue", "20", "25"],
    ["", "Total Revenues", "120", "135"],
    ["", "", "", ""],
    ["", "Expenditures", "", ""],
    ["1000-1999", "Salaries", "80", "90"],
    ["2000-2999", "Benefits", "30", "35"],
    ["", "Total Expenditures", "110", "125"],
]


def test_a_code_column_leaves_the_label_to_the_descriptions_and_its_headings_are_the_outer_level() -> None:
    model = _parsed(CODES).model
    assert model is not None and model.label_letter == "B"
    salaries = next(r for r in model.rows if r.label == "Salaries")
    assert salaries.path == ("GENERAL FUND", "Expenditures", "Salaries")  # a blank row does not end the fund
    # a fiscal year written across two years is the year it ends in, asked either way
    assert [c.period.end for c in model.columns if c.period] == ["2044-12-31", "2045-12-31"]
    assert _answer(CODES, "General fund salaries in FY45?") == ["90"]
    assert _answer(CODES, "General fund salaries in 2043-44?") == ["80"]


def _step(records: list[list[str]], question: str) -> CellsStep:
    found = model_cells(question, _schema(_parsed(records)))
    assert isinstance(found, tuple), found
    return found[0]


def test_a_lines_change_between_two_periods_and_its_share_of_a_total() -> None:
    step = _step(STATS, "By how much did the regional passenger load factor change from 2041 to 2043?")
    assert step.operation == "change" and run_cells(_frame(_parsed(STATS)), step).values == ["3.9"]
    step = _step(STATS, "YoY % change in mainline RPMs, 2042 vs 2041?")  # the later less the earlier, of the earlier
    assert step.operation == "pct_change" and run_cells(_frame(_parsed(STATS)), step).values == ["14.29"]
    step = _step(CODES, "What share of general fund total revenues in FY 2044-45 came from state aid?")
    assert step.operation == "share" and run_cells(_frame(_parsed(CODES)), step).values == ["81.48"]


def test_one_reading_on_two_sheets_is_asked_back_naming_each_sheet() -> None:
    north, south = (_schema(_parsed(REGIONAL, name)).sheets[0] for name in ("Plan", "Actual"))
    schema = RoomSchema(room_id=1, sheets=(north, replace(south, sheet_id=8)))
    found = model_cells("What were North pumps sales in Q1 2031?", schema)
    assert isinstance(found, Ambiguous) and found.sheet_names == ("Plan", "Actual")
    options = clarify_step("What were North pumps sales in Q1 2031?", found).options
    assert [o.label for o in options] == ["Plan › North › Pumps (2031 › Q1)", "Actual › North › Pumps (2031 › Q1)"]
    again = model_cells(options[1].question, schema)
    assert isinstance(again, tuple) and again[1].name == "Actual"


def test_a_tab_that_does_not_say_when_its_year_starts_reads_its_siblings() -> None:
    stated = [["Bridge — fiscal year begins 1 July", "", ""], ["Line", "FY2044 Q1", "FY2044 Q2"], ["Sales", "5", "6"]]
    silent = [["Segments FY2044", "", ""], ["Segment / line", "Q1", "Q2"], ["Retail", "", ""], ["Sales", "2", "3"],
              ["Online", "", ""], ["Sales", "3", "3"]]  # fmt: skip
    one, two = _schema(_parsed(stated, "Bridge")).sheets[0], _schema(_parsed(silent, "Segments")).sheets[0]
    assert one.model is not None and one.model.fiscal_start == 7 and two.model is not None
    schema = RoomSchema(room_id=1, sheets=(one, replace(two, sheet_id=8)))
    # Q1 of FY2044 is July–September 2043 on both tabs: the bridge's Sales, whole; the segments' only per segment
    found = model_cells("Online sales in Q1 FY2044?", schema)
    assert isinstance(found, tuple) and found[1].name == "Segments" and found[0].columns == ["Q1"]


def test_a_variance_against_budget_is_the_actual_less_the_budget_of_the_period() -> None:
    step = _step(COST_CENTRES, "What was IT's Q2 variance, actual minus budget?")
    assert step.columns == ["Budget › Q2", "Actual › Q2"]
    assert run_cells(_frame(_parsed(COST_CENTRES)), step).values == ["2"]
    assert _answer(COST_CENTRES, "What was the Q2 variance?") is None  # no line named: none read


def test_how_many_lines_or_periods_pass_a_threshold() -> None:
    step = _step(REGIONAL, "How many lines under North had Q1 2031 sales above 6?")
    assert step.operation == "count_items_where" and step.item_labels == ["Pumps", "Valves"]
    assert run_cells(_frame(_parsed(REGIONAL)), step).values == ["1"]
    step = _step(BUDGET, "In how many months was Engineering rent above 3?")
    assert step.operation == "count_where" and run_cells(_frame(_parsed(BUDGET)), step).values == ["6"]


FLAGS = [
    ["Enrolment by field of study", "", ""],
    ["Field", "2043/2044", "2044/2045"],
    ["Humanities", "11,436e", "11,501"],
    ["Medicine", "x", "1,204r"],
    ["Law", "..", "980"],
]


def test_a_statistics_tables_flags_are_read_and_a_suppressed_cell_gives_no_figure() -> None:
    sheet = _parsed(FLAGS)
    frame = _frame(sheet)
    row_id = {row[0]: 100 + i for i, row in enumerate(sheet.rows)}
    humanities = CellsStep(sheet_id=7, operation="value", row_id=row_id["Humanities"], row_label="Humanities",
                           columns=["2043/2044"], column_labels=["2043/2044"])  # fmt: skip
    done = run_cells(frame, humanities)
    assert done.values == ["11,436"] and "flags it e" in done.description
    medicine = humanities.model_copy(update={"row_id": row_id["Medicine"], "row_label": "Medicine"})
    assert run_cells(frame, medicine).values == []
    assert run_cells(
        frame, medicine.model_copy(update={"columns": ["2044/2045"], "column_labels": ["2044/2045"]})
    ).values == ["1,204"]
