"""The table model read from a sheet's structure (core/sheetmodel.py): invented sheets of each class it serves."""

from __future__ import annotations

from core.ingest.sheets.table import build_table
from core.sheetmodel import Period, build_model, corrected, facts, own_unit, period_of, rederive, scale_of

# The merged ranges of REGIONAL's year row as a workbook records them: 2031 over B:C, 2032 over D:E.
MERGED = {4: frozenset({2, 4})}


def _model(records: list[list[str]], **kwargs):  # type: ignore[no-untyped-def]
    kwargs.setdefault("merged", MERGED)
    model = build_model(records, range(1, len(records) + 1), **kwargs)
    assert model is not None
    return model


REGIONAL = [
    ["Harbor Tools — quarterly sales", "", "", "", ""],
    ["USD thousands", "", "", "", ""],
    ["", "", "", "", ""],
    ["Region / Line", "2031", "2031", "2032", "2032"],  # a merged year, filled across its quarters
    ["Region / Line", "Q1", "Q2", "Q1", "Q2"],
    ["North", "", "", "", ""],
    ["Pumps", "10", "12", "14", "16"],
    ["Valves", "5", "6", "7", "8"],
    ["Total North", "15", "18", "21", "24"],
    ["South", "", "", "", ""],
    ["Pumps", "3", "4", "5", "6"],
    ["Valves", "1", "1", "1", "1"],
    ["Total South", "4", "5", "6", "7"],
    ["Grand total", "19", "23", "27", "31"],
    ["Source: invented for this test", "", "", "", ""],
]


def test_stacked_years_over_quarters_give_header_paths_and_periods() -> None:
    model = _model(REGIONAL)
    assert model.title == ("Harbor Tools — quarterly sales", "USD thousands")
    assert model.header_rows == (4, 5)
    assert [c.name for c in model.columns][1:] == ["2031 › Q1", "2031 › Q2", "2032 › Q1", "2032 › Q2"]
    assert model.columns[3].period == Period("2032-01-01", "2032-03-31", "quarter")
    assert model.scale == "thousands"


def test_sections_subtotals_and_a_grand_total_checked_by_arithmetic() -> None:
    model = _model(REGIONAL)
    by_row = {r.row_number: r for r in model.rows}
    assert by_row[6].role == "heading"
    assert by_row[11].path == ("South", "Pumps")  # the line repeated under each region is told apart by its path
    assert (by_row[9].role, by_row[9].checked) == ("subtotal", True)
    assert (by_row[14].role, by_row[14].checked) == ("total", True)
    assert by_row[15].role == "note"


def test_a_total_that_does_not_add_up_is_not_checked() -> None:
    records = [row[:] for row in REGIONAL]
    records[8] = ["Total North", "15", "18", "21", "99"]
    by_row = {r.row_number: r for r in _model(records).rows}
    assert by_row[9].role == "subtotal" and not by_row[9].checked


def test_a_banner_over_the_figures_is_a_header_not_a_title() -> None:
    records = [
        ["Lakeside Air", "", ""],
        ["", "Year Ended December 31,", "Year Ended December 31,"],
        ["", "2040", "2039 (a)"],
        ["Seat miles (millions)", "1,200", "1,100"],
        ["Yield (cents)", "14.10", "13.90"],
    ]
    model = _model(records)
    assert model.title == ("Lakeside Air",)
    assert model.header_rows == (2, 3)
    assert model.columns[2].path == ("Year Ended December 31,", "2039 (a)")
    assert model.columns[2].period == Period("2039-01-01", "2039-12-31", "year")
    assert model.unit_of(5, "B") == "cents" and model.unit_of(4, "B") == "millions"


def test_equal_names_side_by_side_that_are_not_merged_are_two_columns() -> None:
    records = [["Year", "Winner", "Score", "Score"], ["2040", "Harbor", "3-1 (4)", "1-0 (1)"]]
    model = _model(records, merged={})
    assert model.header_rows == (1,) and [r.row_number for r in model.rows] == [2]


def test_a_csv_banner_written_once_spans_the_blanks_right_of_it() -> None:
    records = [["Item", "Budget", "", "Actual", ""], ["", "Q1", "Q2", "Q1", "Q2"], ["Rent", "5", "5", "6", "5"]]
    model = _model(records)
    assert [c.name for c in model.columns][1:] == ["Budget › Q1", "Budget › Q2", "Actual › Q1", "Actual › Q2"]


def test_indentation_nests_headings() -> None:
    records = [
        ["", "2040"],
        ["Owned:", ""],
        ["Flight equipment:", ""],
        ["Narrowbody", "40"],
        ["Ground equipment", "7"],
    ]
    indents = {(2, 0): 0, (3, 0): 1, (4, 0): 2, (5, 0): 1}
    by_row = {r.row_number: r for r in _model(records, indents=indents).rows}
    assert by_row[4].path == ("Owned", "Flight equipment", "Narrowbody")
    assert by_row[5].path == ("Owned", "Ground equipment")


def test_months_stored_as_dates_from_july_make_a_fiscal_year_from_july() -> None:
    months = [f"{2040 + (m < 7)}-{m:02d}-01" for m in (7, 8, 9, 10, 11, 12, 1, 2, 3, 4, 5, 6)]
    model = _model([["Expense", *months], ["Rent", *["3"] * 12]])
    assert model.fiscal_start == 7
    assert model.columns[1].name == "Jul 2040"
    assert model.columns[1].period == Period("2040-07-01", "2040-07-31", "month")


def test_periods_read_from_headers() -> None:
    assert period_of(["FY41"]) == Period("2041-01-01", "2041-12-31", "year")
    assert period_of(["FY41"], fiscal=7) == Period("2040-07-01", "2041-06-30", "year")
    assert period_of(["FY41", "Q1"], fiscal=7) == Period("2040-07-01", "2040-09-30", "quarter")
    assert period_of(["H2 2041"]) == Period("2041-07-01", "2041-12-31", "half")
    assert period_of(["Three Months Ended", "March 31, 2041"]) == Period("2041-01-01", "2041-03-31", "quarter")
    assert period_of(["Fiscal Year Ended June 30,", "2041"]) == Period("2040-07-01", "2041-06-30", "year")
    assert period_of(["Units"]) is None


def test_units_and_scales() -> None:
    assert scale_of(["(in millions, except per share data)"]) == "millions"
    assert scale_of(["Amounts in $000s"]) == "thousands"
    assert scale_of(["Prepared by the finance team"]) is None
    assert own_unit("Passenger yield (cents)") == "cents"
    assert own_unit("Employees (000)") == "thousands"
    assert own_unit("Diluted earnings per share") == "per share"
    assert own_unit("Weighted-average shares used in computing earnings per share") is None


def test_build_table_names_columns_by_path_and_keeps_exact_rows() -> None:
    sheet = build_table("Sales", REGIONAL, range(1, len(REGIONAL) + 1), merged=MERGED)
    assert sheet is not None and sheet.model is not None
    assert sheet.header_row == 5
    assert [c.name for c in sheet.columns][:3] == ["Region / Line", "2031 › Q1", "2031 › Q2"]
    assert sheet.row_numbers[0] == 6 and sheet.rows[1][0] == "Pumps"


def test_corrections_and_rederivation() -> None:
    model = _model(REGIONAL)
    fixed = corrected(model, {"scale": "millions", "roles": {"7": "note"}})
    assert fixed.scale == "millions" and fixed.row(7).role == "note"  # type: ignore[union-attr]
    assert "row 7 is a note" in fixed.corrected
    letters = [c.letter for c in model.columns]
    stored = [(n, REGIONAL[n - 1][: len(letters)]) for n in (6, 7, 8, 9)]
    stored[3] = (9, ["Total North", "15", "18", "21", "50"])  # an edit that breaks the total
    again = rederive(model, stored, letters)
    assert again.row(9).role == "subtotal" and not again.row(9).checked  # type: ignore[union-attr]


def test_facts_carry_paths_periods_and_units() -> None:
    model = _model(REGIONAL)
    letters = [c.letter for c in model.columns]
    found = list(facts(model, "Sales", [(11, REGIONAL[10])], letters))
    assert found[0].ref == "Sales!B11" and found[0].row_path == ("South", "Pumps")
    assert found[0].column_path == ("2031", "Q1") and found[0].unit == "thousands"


def test_tables_one_under_another_and_side_by_side_are_several_tables() -> None:
    from core.ingest.sheets.table import build_tables

    records = [
        ["Quay dashboard", "", "", "", "", ""],
        ["Month", "Users", "", "", "Channel", "Signups"],
        ["Jan", "10", "", "", "Search", "4"],
        ["Feb", "12", "", "", "Referral", "6"],
        ["", "", "", "", "", ""],
        ["Retention by cohort", "", "", "", "", ""],
        ["Cohort", "Month 1", "Month 2", "", "", ""],
        ["Jan", "90%", "80%", "", "", ""],
    ]
    tables = build_tables("Dash", records, range(1, len(records) + 1))
    assert [t.name for t in tables] == ["Dash", "Dash (2)", "Dash › Retention by cohort"]
    assert [t.tab for t in tables] == [None, "Dash", "Dash"]
    assert [c.letter for c in tables[1].columns] == ["E", "F"]  # cells keep their columns and rows
    assert tables[1].row_numbers == (3, 4) and tables[2].header_row == 7
    # one table with a blank row between its sections stays one
    one = [["", "2040"], ["North", ""], ["Pumps", "3"], ["", ""], ["South", ""], ["Pumps", "4"]]
    assert len(build_tables("P", one, range(1, 7))) == 1
