"""Unit tests for core.retrieval.tables: exact table operations over a SheetFrame, checked against plain pandas."""

from __future__ import annotations

import csv
import datetime
import io
import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from core.cells import Column, cell_ref, parse_date, parse_number, typed_value
from core.errors import WorkbenchError
from core.ingest.sheets import parse_csv
from core.retrieval.tables import (
    MAX_CITATIONS,
    Aggregate,
    Filter,
    SameAs,
    SheetFrame,
    TableError,
    TableOp,
    TableResult,
    UnknownColumn,
    resolve_column,
    run_table_op,
)
from core.retrieval.tables.frame import _parse_dates, _parse_numbers, _typed_array

# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------


def sheet_from_csv(header: list[str], rows: list[list[str]], name: str = "Funding") -> SheetFrame:
    """A SheetFrame as ingestion would make it: the rows written to CSV, parsed, row ids 1001.."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(header)
    writer.writerows(rows)
    parsed = parse_csv(buffer.getvalue().encode(), name)
    return SheetFrame.from_rows(
        parsed.columns,
        parsed.rows,
        row_numbers=parsed.row_numbers,
        row_ids=range(1001, 1001 + len(parsed.rows)),
        sheet=parsed.name,
        sheet_id=3,
        document_id=9,
        title=f"{name}.csv",
    )


def sheet_from_columns(spec: list[tuple[str, str]], rows: list[list[str | None]], name: str = "Data") -> SheetFrame:
    """A SheetFrame with the given (name, dtype) columns, no inference: rows numbered from 2."""
    columns = [Column(position=i, name=n, letter=chr(65 + i), dtype=d) for i, (n, d) in enumerate(spec)]  # type: ignore[arg-type]
    return SheetFrame.from_rows(columns, rows, sheet=name, document_id=9, title=f"{name}.xlsx")


def run(sheet: SheetFrame, **kwargs: object) -> TableResult:
    return run_table_op(sheet, TableOp(sheet_id=sheet.sheet_id, **kwargs))  # type: ignore[arg-type]


def check_citations(sheet: SheetFrame, result: TableResult) -> None:
    """Every citation quotes the stored text of its cell and names it Sheet!<letter><row_number>."""
    ids = list(sheet.frame["row_id"])
    assert len(result.citations) <= MAX_CITATIONS
    for c in result.citations:
        assert c.kind == "cell" and c.document_id == sheet.document_id and c.title == sheet.title
        assert c.sheet == sheet.sheet
        col = resolve_column(sheet, c.column)
        row = ids.index(c.row_id)
        assert c.value == sheet.raw.iloc[row, col.position]
        assert c.ref == cell_ref(sheet.sheet, col.letter, int(sheet.frame["row_number"].iloc[row]))


FUNDING_HEADER = ["Company", "Country", "Round", "Amount Raised (USD)", "Date", "Stake"]
FUNDING_ROWS = [
    ["Acme Robotics", "Canada", "Seed", "$2,000,000", "2021-03-05", "15%"],
    ["Borealis Bio", "canada ", "Series A", "$15,000,000", "2021-07-01", "12.5%"],
    ["Cobalt Pay", "Germany", "Series B", "$42,000,000", "2020-01-02", "20%"],
    ["Dune Analytics", "France", "Seed", "$1,500,000", "5 Mar 2021", "3%"],
    ["Echo AI", "Germany", "Seed", "", "2022-01-01", ""],
    ["Fjord Labs", "United States", "Series C", "$42,000,000", "2021-12-31", "40%"],
    ["Gale Energy", "United States", "Series A", "$9,000,000", "2019-06-30", "10%"],
]


@pytest.fixture
def funding() -> SheetFrame:
    return sheet_from_csv(FUNDING_HEADER, FUNDING_ROWS)


# ---------------------------------------------------------------------------------------------
# the SheetFrame
# ---------------------------------------------------------------------------------------------


def test_sheet_frame_types_and_raw(funding: SheetFrame) -> None:
    assert [c.dtype for c in funding.columns] == ["text", "text", "text", "currency", "date", "percent"]
    frame, raw = funding.frame, funding.raw
    assert list(frame.columns) == [*FUNDING_HEADER, "row_id", "row_number"]
    assert frame.shape == raw.shape == (7, 8)
    assert frame["Amount Raised (USD)"].dtype == np.float64
    assert frame["Amount Raised (USD)"].iloc[0] == 2_000_000.0 and np.isnan(frame["Amount Raised (USD)"].iloc[4])
    assert str(frame["Date"].dtype).startswith("datetime64")
    assert frame["Date"].iloc[3] == pd.Timestamp("2021-03-05")
    assert frame["Stake"].iloc[1] == 12.5
    assert frame["Company"].dtype == object and raw["Company"].dtype == object
    assert raw["Amount Raised (USD)"].iloc[0] == "$2,000,000"
    assert raw["Amount Raised (USD)"].iloc[4] is None
    assert list(frame["row_number"]) == list(range(2, 9)) and list(frame["row_id"]) == list(range(1001, 1008))


def assert_cellwise(
    texts: list[str | None],
    vectorised: Callable[[np.ndarray], np.ndarray],
    scalar: Callable[[str], Any],
    is_missing: Callable[[Any], Any],
    same: Callable[[Any, Any], Any],
) -> None:
    """`vectorised` parses `texts` as `scalar` does, cell by cell: a blank or rejected cell is missing."""
    got = vectorised(np.array(texts, dtype=object))
    for text, value in zip(texts, got, strict=True):
        expected = None if text is None or not text.strip() else scalar(text)
        if expected is None:
            assert is_missing(value), text
        else:
            assert same(value, expected), text


def _same_number(value: float, expected: float) -> bool:
    """The same number, the sign of a zero included."""
    return bool(value == expected and np.signbit(value) == np.signbit(expected))


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.none(),
            st.sampled_from(["", "  ", "n/a", "1_000", "nan", "inf", "1e5", "(1,234)", "$1.2M", "3bn", "€3.5", "1,5"]),
            st.from_regex(r"-?\$?\d{1,7}(\.\d{1,3})?%?", fullmatch=True),
            st.from_regex(r"-?\$?\d{1,3}(,\d{3}){0,2}(\.\d{1,2})?", fullmatch=True),
            st.text(alphabet="0123456789$,.-% \n", max_size=8),
        ),
        max_size=30,
    )
)
def test_parse_numbers_equals_parse_number(texts: list[str | None]) -> None:
    assert_cellwise(texts, _parse_numbers, parse_number, np.isnan, _same_number)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.none(),
            st.dates(min_value=datetime.date(1, 1, 1)).map(lambda d: d.isoformat()),
            st.from_regex(r"\d{4}-\d{2}-\d{2}", fullmatch=True),
            st.sampled_from(["5 Mar 2021", "3/5/2021", "2021", "0000-01-01", "2021-02-30", "Mar 2021", " "]),
        ),
        max_size=20,
    )
)
def test_parse_dates_equals_parse_date(texts: list[str | None]) -> None:
    assert_cellwise(
        texts, _parse_dates, parse_date, np.isnat, lambda value, expected: value == np.datetime64(expected, "s")
    )


@settings(max_examples=100, deadline=None)
@given(st.lists(st.one_of(st.none(), st.text(alphabet="ab \n\t\u00a0\u2028", max_size=4)), max_size=12))
def test_typed_text_equals_typed_value(texts: list[str | None]) -> None:
    typed = _typed_array(np.array(texts, dtype=object), "text")
    assert list(typed) == [typed_value(t, "text") for t in texts]


# ---------------------------------------------------------------------------------------------
# aggregates
# ---------------------------------------------------------------------------------------------


def test_filtered_sum_with_year_and_case_insensitive_text(funding: SheetFrame) -> None:
    result = run(
        funding,
        filters=[Filter(column="country", op="eq", value=" CANADA"), Filter(column="Date", op="year", value=2021)],
        aggregate=Aggregate(func="sum", column="Amount Raised (USD)"),
    )
    assert result.values == ["17000000"] and result.rows == [["17000000"]]
    assert result.n_rows_used == 2
    assert result.description == (
        "sum of Amount Raised (USD) where Country = CANADA and Date in 2021 = 17,000,000 over 2 rows"
    )
    # Two rows: the summed cells plus the filter columns' cells of those rows.
    assert [c.ref for c in result.citations] == [
        "Funding!D2", "Funding!B2", "Funding!E2", "Funding!D3", "Funding!B3", "Funding!E3",
    ]  # fmt: skip
    assert result.cited_range is None
    check_citations(funding, result)


def test_currency_and_percent_text(funding: SheetFrame) -> None:
    assert run(funding, aggregate=Aggregate(func="sum", column="D")).values == ["111500000"]
    stake = run(funding, aggregate=Aggregate(func="avg", column="Stake"))
    assert stake.values == ["16.75%"] and stake.n_rows_used == 6  # (15+12.5+20+3+40+10)/6, the blank skipped
    assert run(funding, aggregate=Aggregate(func="max", column="Stake")).values == ["40%"]
    gt = run(funding, filters=[Filter(column="Amount Raised (USD)", op="gt", value="$10M")], select=["Company"])
    assert gt.values == ["Borealis Bio", "Cobalt Pay", "Fjord Labs"]
    pct = run(funding, filters=[Filter(column="Stake", op="ge", value="15%")], aggregate=Aggregate(func="count"))
    assert pct.values == ["3"]  # 15%, 20%, 40%


def test_exact_decimals_without_float_noise() -> None:
    sheet = sheet_from_columns(
        [("Item", "text"), ("Price", "currency")], [["a", "$0.10"], ["b", "$0.20"], ["c", "0.4"]]
    )
    assert run(sheet, aggregate=Aggregate(func="sum", column="Price")).values == ["0.7"]
    assert run(sheet, aggregate=Aggregate(func="avg", column="Price")).values == ["0.2333333333"]
    thirds = sheet_from_columns([("x", "number")], [["1"], ["1"], ["2"]])
    assert run(thirds, aggregate=Aggregate(func="avg", column="x")).values == ["1.333333333"]
    assert run(thirds, aggregate=Aggregate(func="median", column="x")).values == ["1"]
    halves = sheet_from_columns([("x", "number")], [["1"], ["2"]])
    assert run(halves, aggregate=Aggregate(func="median", column="x")).values == ["1.5"]
    assert run(halves, aggregate=Aggregate(func="sum", column="x")).values == ["3"]
    big = sheet_from_columns([("x", "number")], [["123456789012.5"], ["123456789012.5"]])
    # Integer digits are never rounded away.
    assert run(big, aggregate=Aggregate(func="avg", column="x")).values == ["123456789013"]
    assert run(big, aggregate=Aggregate(func="sum", column="x")).values == ["246913578025"]


def test_count_counts_non_empty_cells_or_rows(funding: SheetFrame) -> None:
    assert run(funding, aggregate=Aggregate(func="count", column="Amount Raised (USD)")).values == ["6"]
    rows = run(funding, aggregate=Aggregate(func="count"))
    assert rows.values == ["7"] and rows.n_rows_used == 7
    assert rows.description == "count of rows = 7"
    check_citations(funding, rows)
    distinct = run(funding, aggregate=Aggregate(func="count_distinct", column="Country"))
    assert distinct.values == ["4"]  # "Canada" and "canada " are one country
    assert [c.value for c in distinct.citations] == ["Canada", "Germany", "France", "United States"]


def test_empty_result_says_no_rows_matched(funding: SheetFrame) -> None:
    nothing = [Filter(column="Country", op="eq", value="Narnia")]
    result = run(funding, filters=nothing, aggregate=Aggregate(func="sum", column="Amount Raised (USD)"))
    assert result.values == [] and result.rows == [] and result.citations == [] and result.n_rows_used == 0
    assert result.description == "no rows matched where Country = Narnia"
    listing = run(funding, filters=nothing)
    assert listing.values == [] and listing.description == "no rows matched where Country = Narnia"
    assert run(funding, filters=nothing, distinct="Company").values == []
    grouped = run(funding, filters=nothing, group_by="Round", aggregate=Aggregate(func="sum", column="D"))
    assert grouped.values == [] and "no rows matched" in grouped.description
    # A count over nothing is an exact zero.
    count = run(funding, filters=nothing, aggregate=Aggregate(func="count"))
    assert count.values == ["0"] and count.description.startswith("no rows matched where Country = Narnia")


def test_blank_cells_are_skipped_and_never_match() -> None:
    sheet = sheet_from_columns(
        [("Name", "text"), ("Amount", "number")],
        [["a", "10"], ["b", None], ["c", "  "], [None, "5"], ["e", "n/a"]],
    )
    assert run(sheet, aggregate=Aggregate(func="sum", column="Amount")).values == ["15"]
    avg = run(sheet, aggregate=Aggregate(func="avg", column="Amount"))
    assert avg.values == ["7.5"] and avg.n_rows_used == 2
    assert "1 non-numeric cell skipped: Data!B6" in avg.description
    assert run(sheet, aggregate=Aggregate(func="count", column="Amount")).values == ["3"]  # "n/a" is not empty
    # A numeric comparison compares numbers: "n/a" is no number, so it is not "!= 10" either.
    assert run(sheet, filters=[Filter(column="Amount", op="ne", value=10)]).values == [""]
    assert run(sheet, filters=[Filter(column="Amount", op="lt", value=100)], select=["Name"]).values == ["a", ""]
    assert run(sheet, filters=[Filter(column="Name", op="ne", value="A")]).values == ["b", "c", "e"]
    assert run(sheet, filters=[Filter(column="Amount", op="eq", value="N/A")]).values == ["e"]


def test_sum_of_a_text_column_is_refused() -> None:
    sheet = sheet_from_columns([("Name", "text")], [["a"], ["b"]])
    with pytest.raises(TableError, match="holds text"):
        run(sheet, aggregate=Aggregate(func="sum", column="Name"))
    dates = sheet_from_columns([("When", "date")], [["2021-01-01"]])
    with pytest.raises(TableError, match="holds dates"):
        run(dates, aggregate=Aggregate(func="avg", column="When"))
    assert run(dates, aggregate=Aggregate(func="max", column="When")).values == ["2021-01-01"]


# ---------------------------------------------------------------------------------------------
# top-k, ties, lookups
# ---------------------------------------------------------------------------------------------


def test_group_top_k_which_country_raised_the_most(funding: SheetFrame) -> None:
    result = run(
        funding,
        group_by="Country",
        aggregate=Aggregate(func="sum", column="Amount Raised (USD)"),
        sort_by="value",
        limit=1,
    )
    assert result.values == ["United States"]
    assert result.columns == ["Country", "sum of Amount Raised (USD)"]
    assert result.rows == [["United States", "51000000"]]
    assert result.n_rows_used == 2
    assert [c.ref for c in result.citations] == ["Funding!D7", "Funding!B7", "Funding!D8", "Funding!B8"]
    check_citations(funding, result)
    bottom = run(funding, group_by="Country", aggregate=Aggregate(func="sum", column="D"), descending=False, limit=1)
    assert bottom.values == ["France"]


def test_ties_for_max_are_all_returned(funding: SheetFrame) -> None:
    top = run(funding, sort_by="Amount Raised (USD)", limit=1)
    assert top.values == ["Cobalt Pay", "Fjord Labs"]
    assert [c.ref for c in top.citations] == ["Funding!A4", "Funding!D4", "Funding!A7", "Funding!D7"]
    assert "2 with ties" in top.description
    check_citations(funding, top)
    maximum = run(funding, aggregate=Aggregate(func="max", column="Amount Raised (USD)"))
    assert maximum.values == ["42000000"]
    assert {c.ref for c in maximum.citations} == {"Funding!D4", "Funding!A4", "Funding!D7", "Funding!A7"}
    ties = sheet_from_columns(
        [("k", "text"), ("g", "text"), ("v", "number")], [["a", "x", "1"], ["b", "y", "1"], ["c", "z", "0.5"]]
    )
    grouped = run(ties, group_by="g", aggregate=Aggregate(func="sum", column="v"), sort_by="value", limit=1)
    assert grouped.values == ["x", "y"]


def test_sort_top_k_and_blanks(funding: SheetFrame) -> None:
    top3 = run(funding, sort_by="Amount Raised (USD)", limit=3, descending=False)
    assert top3.values == ["Dune Analytics", "Acme Robotics", "Gale Energy"]
    everything = run(funding, sort_by="Amount Raised (USD)", descending=False)
    assert everything.values[-1] == "Echo AI"  # a blank sorts last in a full listing…
    assert "Echo AI" not in run(funding, sort_by="Amount Raised (USD)", limit=7).values  # …and is no top-k candidate
    latest = run(funding, sort_by="Date", limit=1)
    assert latest.values == ["Echo AI"] and latest.citations[1].value == "2022-01-01"
    names = run(funding, sort_by="Company", limit=2, descending=False)
    assert names.values == ["Acme Robotics", "Borealis Bio"]


def test_lookup_with_select_answers_with_the_selected_column(funding: SheetFrame) -> None:
    result = run(funding, filters=[Filter(column="Company", op="eq", value="cobalt pay")], select=["Country", "Round"])
    assert result.values == ["Germany"] and result.columns == ["Country", "Round"]
    assert result.rows == [["Germany", "Series B"]]
    assert {c.ref for c in result.citations} == {"Funding!B4", "Funding!C4", "Funding!A4"}


def test_distinct_in_first_appearance_order(funding: SheetFrame) -> None:
    result = run(funding, distinct="Country")
    assert result.values == ["Canada", "Germany", "France", "United States"]
    assert [c.ref for c in result.citations] == ["Funding!B2", "Funding!B4", "Funding!B5", "Funding!B7"]
    assert run(funding, distinct="Round", filters=[Filter(column="Country", op="eq", value="germany")]).values == [
        "Series B", "Seed",
    ]  # fmt: skip
    assert run(funding, distinct="Country", sort_by="Country", descending=False).values[0] == "Canada"
    assert run(funding, distinct="Country", limit=2).values == ["Canada", "Germany"]


# ---------------------------------------------------------------------------------------------
# filters
# ---------------------------------------------------------------------------------------------


def test_date_filters_by_year_and_between(funding: SheetFrame) -> None:
    def companies(*filters: Filter) -> list[str]:
        return run(funding, filters=list(filters), select=["Company"]).values

    assert companies(Filter(column="Date", op="year", value="2021")) == [
        "Acme Robotics", "Borealis Bio", "Dune Analytics", "Fjord Labs",
    ]  # fmt: skip
    assert companies(Filter(column="Date", op="between", value=["2021-03-01", "2021-07-01"])) == [
        "Acme Robotics", "Borealis Bio", "Dune Analytics",
    ]  # fmt: skip
    # Whole years: 2019 through 2020 is 1 Jan 2019 .. 31 Dec 2020.
    assert companies(Filter(column="Date", op="between", value=[2020, 2019])) == ["Cobalt Pay", "Gale Energy"]
    assert companies(Filter(column="Date", op="eq", value="March 5, 2021")) == ["Acme Robotics", "Dune Analytics"]
    assert companies(Filter(column="Date", op="gt", value=2021)) == ["Echo AI"]
    assert companies(Filter(column="Date", op="lt", value="2020-01-02")) == ["Gale Energy"]
    assert companies(Filter(column="Date", op="in", value=[2019, "2022-01-01"])) == ["Echo AI", "Gale Energy"]
    with pytest.raises(TableError, match="not a date"):
        companies(Filter(column="Date", op="gt", value="soon"))


def test_text_filters_are_case_insensitive(funding: SheetFrame) -> None:
    def companies(f: Filter) -> list[str]:
        return run(funding, filters=[f], select=["Company"]).values

    assert companies(Filter(column="Country", op="eq", value="CANADA")) == ["Acme Robotics", "Borealis Bio"]
    assert companies(Filter(column="Company", op="contains", value="BIO")) == ["Borealis Bio"]
    assert companies(Filter(column="Country", op="in", value=["france", "UNITED  STATES"])) == [
        "Dune Analytics", "Fjord Labs", "Gale Energy",
    ]  # fmt: skip
    assert companies(Filter(column="Round", op="ne", value="seed")) == [
        "Borealis Bio", "Cobalt Pay", "Fjord Labs", "Gale Energy",
    ]  # fmt: skip
    assert companies(Filter(column="Amount Raised (USD)", op="between", value=[2_000_000, "$9M"])) == [
        "Acme Robotics", "Gale Energy",
    ]  # fmt: skip


def test_unknown_column_lists_the_columns(funding: SheetFrame) -> None:
    with pytest.raises(UnknownColumn) as info:
        run(funding, aggregate=Aggregate(func="sum", column="Revenue"))
    message = str(info.value)
    assert "'Revenue'" in message and "Company (A)" in message and "Amount Raised (USD) (D)" in message
    assert isinstance(info.value, WorkbenchError)
    with pytest.raises(UnknownColumn):
        run(funding, filters=[Filter(column="Nope", op="eq", value="x")])
    assert resolve_column(funding, "  amount   raised (usd) ").letter == "D"
    assert resolve_column(funding, "e").name == "Date"


def test_invalid_operations_are_rejected() -> None:
    with pytest.raises(ValidationError):
        Filter(column="x", op="between", value=[1])
    with pytest.raises(ValidationError):
        Filter(column="x", op="year", value="last year")
    with pytest.raises(ValidationError):
        Aggregate(func="sum")
    with pytest.raises(ValidationError):
        TableOp(sheet_id=1, distinct="x", aggregate=Aggregate(func="count"))
    with pytest.raises(ValidationError):
        TableOp(sheet_id=1, limit=0)


# ---------------------------------------------------------------------------------------------
# many cells: first 50 cited, the rest described
# ---------------------------------------------------------------------------------------------


def test_many_cells_cite_the_first_50_and_a_range() -> None:
    rows = [[f"Co {i}", "Canada" if i % 3 == 0 else "France", str(i * 1000)] for i in range(300)]
    sheet = sheet_from_csv(["Company", "Country", "Amount"], rows)
    result = run(
        sheet,
        filters=[Filter(column="Country", op="eq", value="Canada")],
        aggregate=Aggregate(func="sum", column="Amount"),
    )
    assert result.values == [str(sum(i * 1000 for i in range(0, 300, 3)))]
    assert len(result.citations) == MAX_CITATIONS
    assert all(c.column == "Amount" for c in result.citations)  # filter cells only for <= 20 rows
    assert result.cited_range == "Funding!C2:C299 (100 cells where Country = Canada)"
    check_citations(sheet, result)
    # Top 30 rows: 60 key and amount cells, so the 30 amounts are described as a range.
    top = run(sheet, sort_by="Amount", limit=30)
    assert len(top.citations) == MAX_CITATIONS
    assert top.cited_range == "Funding!C272:C301 (30 cells, top 30 by Amount)"
    check_citations(sheet, top)
    # Top 1 row: 2 cells cited, but all 300 amounts were compared to find it.
    assert run(sheet, sort_by="Amount", limit=1).cited_range == "Funding!C2:C301 (300 cells)"
    # The winning group's cells when they are too many to cite.
    group = run(sheet, group_by="Country", aggregate=Aggregate(func="count", column="Amount"), limit=1)
    assert group.values == ["France"] and len(group.citations) == MAX_CITATIONS
    france = {1001 + i for i in range(300) if i % 3 != 0}
    assert all(c.column == "Amount" and c.row_id in france for c in group.citations)
    assert group.cited_range == "Funding!C3:C301 (200 cells where Country = France)"
    check_citations(sheet, group)


# ---------------------------------------------------------------------------------------------
# property: agrees with pandas on random data
# ---------------------------------------------------------------------------------------------


def _cell_text(value: Decimal, style: int) -> str:
    """A number written as an analyst might: plain, with a $ and thousands separators, or negative."""
    if style == 0:
        return str(value)
    return f"-${-value:,}" if value < 0 else f"${value:,}"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.lists(
        st.tuples(
            st.one_of(st.none(), st.integers(-(10**9), 10**9).map(lambda n: Decimal(n).scaleb(-2))),
            st.sampled_from(["North", "north ", "South", "East", "WEST"]),
        ),
        min_size=1,
        max_size=80,
    ),
    style=st.integers(0, 1),
    threshold=st.integers(-(10**7), 10**7),
)
def test_aggregates_match_pandas(data: list[tuple[Decimal | None, str]], style: int, threshold: int) -> None:
    rows = [[f"Item {i}", region, "" if v is None else _cell_text(v, style)] for i, (v, region) in enumerate(data)]
    sheet = sheet_from_columns([("Item", "text"), ("Region", "text"), ("Amount", "currency")], rows, name="Q1 Data")
    frame = pd.DataFrame(
        {"region": [r.strip().lower() for _, r in data], "amount": [np.nan if v is None else float(v) for v, _ in data]}
    )
    where = [Filter(column="amount", op="ge", value=float(threshold))]
    picked = frame[frame.amount >= threshold]

    total = run(sheet, filters=where, aggregate=Aggregate(func="sum", column="Amount"))
    exact = [v for v, _ in data if v is not None and v >= threshold]
    if exact:
        assert Decimal(total.values[0]) == sum(exact)  # exact, not just close
        assert float(total.values[0]) == pytest.approx(picked.amount.sum(), abs=1e-6)
        assert total.n_rows_used == len(picked)
    else:
        assert total.values == [] and total.description.startswith("no rows matched")
    count = run(sheet, filters=where, aggregate=Aggregate(func="count"))
    assert count.values == [str(len(picked))]
    if exact:
        top = run(sheet, filters=where, aggregate=Aggregate(func="max", column="Amount"))
        assert Decimal(top.values[0]) == max(exact) and float(top.values[0]) == picked.amount.max()
        avg = run(sheet, filters=where, aggregate=Aggregate(func="avg", column="Amount"))
        assert float(avg.values[0]) == pytest.approx(picked.amount.mean(), rel=1e-9, abs=1e-9)
        med = run(sheet, filters=where, aggregate=Aggregate(func="median", column="Amount"))
        assert float(med.values[0]) == pytest.approx(picked.amount.median(), rel=1e-9, abs=1e-9)

    grouped = run(sheet, group_by="Region", aggregate=Aggregate(func="sum", column="Amount"))
    expected = frame.dropna(subset=["amount"]).groupby("region", sort=False).amount.sum()
    got = {label.strip().lower(): Decimal(value) for label, value in grouped.rows}
    assert set(got) == set(expected.index)
    for region, value in got.items():
        assert value == sum(v for v, r in data if v is not None and r.strip().lower() == region)
    counts = run(sheet, group_by="Region", aggregate=Aggregate(func="count", column="Amount"))
    assert {k.strip().lower(): int(v) for k, v in counts.rows} == frame.groupby("region").amount.count().to_dict()

    for result in (total, count, grouped, counts):
        check_citations(sheet, result)
        for c in result.citations:
            assert re.fullmatch(r"'Q1 Data'![A-C]\d+", c.ref)


def test_whitespace_only_text_is_empty() -> None:
    sheet = sheet_from_columns([("Name", "text"), ("Note", "text")], [["a", " "], ["b", ""], ["c", "two\nlines"]])
    assert list(sheet.frame["Note"]) == [None, None, "two\nlines"]
    assert list(sheet.raw["Note"]) == [" ", "", "two\nlines"]  # as stored
    assert run(sheet, aggregate=Aggregate(func="count", column="Note")).values == ["1"]
    assert run(sheet, filters=[Filter(column="Note", op="contains", value="TWO LINES")]).values == ["c"]


def test_the_difference_between_two_looked_up_items(funding: SheetFrame) -> None:
    """Two rows looked up for "the difference between A and B": the gap, exact; both values cited."""
    pick = Filter(column="Company", op="in", value=["Cobalt Pay", "Acme Robotics"])
    result = run(funding, filters=[pick], select=["Amount Raised (USD)"], difference=True)
    assert result.values == ["40000000"] and "the difference between them is 40,000,000" in result.description
    assert {c.value for c in result.citations if c.column == "Amount Raised (USD)"} == {"$2,000,000", "$42,000,000"}
    check_citations(funding, result)
    # a blank value leaves the two side by side: no difference is made up
    blank = Filter(column="Company", op="in", value=["Echo AI", "Acme Robotics"])
    result = run(funding, filters=[blank], select=["Amount Raised (USD)"], difference=True)
    assert len(result.values) == 2 and "difference" not in result.description


def test_the_difference_between_two_groups(funding: SheetFrame) -> None:
    """ "How many more rounds in Germany than in France": each group counted, then the gap."""
    pick = Filter(column="Country", op="in", value=["Germany", "France"])
    result = run(funding, filters=[pick], group_by="Country", aggregate=Aggregate(func="count"), difference=True)
    assert result.values == ["1"] and "the difference between them is 1" in result.description


def _pylons() -> SheetFrame:
    return sheet_from_csv(
        ["Name", "Height", "Country"],
        [["Alder Tower", "113.6 m", "Austria"], ["Birch Mast", "88 m", "Italy"], ["Cedar Pylon", "44 m (approx.)", "Italy"],
         ["Dogwood Post", "88 m", "Spain"], ["Elm Tower", "n/a", "Austria"]],
    )  # fmt: skip


def test_measures_with_units_compare_rank_and_subtract_as_numbers() -> None:
    """ "88 m", "113.6 m": a text column of measures is filtered, ranked and subtracted by its numbers."""
    sheet = _pylons()
    low = run(sheet, filters=[Filter(column="Height", op="le", value="90")], select=["Name"])
    assert low.values == ["Birch Mast", "Cedar Pylon", "Dogwood Post"]
    top = run(sheet, sort_by="Height", descending=True, limit=1, select=["Name"])
    assert top.values == ["Alder Tower"]
    # the extreme is the cell as written, with its unit
    assert run(sheet, aggregate=Aggregate(func="min", column="Height")).values == ["44 m (approx.)"]
    pick = Filter(column="Name", op="in", value=["Alder Tower", "Birch Mast"])
    gap = run(sheet, filters=[pick], select=["Height"], difference=True)
    assert gap.values == ["25.6 m"] and "the difference between them is 25.6 m" in gap.description
    check_citations(sheet, gap)


def test_rows_with_the_same_value_as_a_named_row() -> None:
    """ "Which pylon has the same height as Birch Mast": the rows sharing its Height, Birch Mast itself left out."""
    sheet = _pylons()
    same = SameAs(column="Height", row=Filter(column="Name", op="eq", value="Birch Mast"))
    result = run(sheet, same_as=same, select=["Name"])
    assert result.values == ["Dogwood Post"]
    assert "Height is the same as where Name = Birch Mast (88 m)" in result.description
    check_citations(sheet, result)
    # counted, with other filters; several reference rows share their values
    both = SameAs(column="Country", row=Filter(column="Name", op="in", value=["Birch Mast", "Alder Tower"]))
    assert run(sheet, same_as=both, aggregate=Aggregate(func="count")).values == ["2"]
    # a reference row without a value to compare is an error that says so, not an empty answer
    blank = SameAs(column="Height", row=Filter(column="Name", op="eq", value="Nobody"))
    with pytest.raises(WorkbenchError, match="has a value of Height"):
        run(sheet, same_as=blank)


def test_the_last_rows_in_sheet_order(funding: SheetFrame) -> None:
    """from_end: the last k matching rows, in sheet order (no column to sort by)."""
    canada = Filter(column="Country", op="eq", value="Canada")
    first = run(funding, filters=[canada], limit=1, select=["Company"])
    last = run(funding, filters=[canada], limit=1, select=["Company"], from_end=True)
    every = run(funding, filters=[canada], select=["Company"]).values
    assert first.values == every[:1] and last.values == every[-1:] and len(every) > 1
    assert "the last 1 in sheet order" in last.description
    check_citations(funding, last)


def test_race_times_and_digits_grouped_by_spaces_are_numbers() -> None:
    """ "57.43" beside "1:00.45" (seconds and minutes), "1 420 436" (grouped by spaces): ranked as numbers."""
    sheet = sheet_from_csv(
        ["Swimmer", "Time", "Speakers"],
        [
            ["Ana", "57.43", "1 420 436"],
            ["Bea", "1:00.45", "87 850"],
            ["Cid", "59.79", "317 169"],
            ["Dee", "DNS", "54"],
        ],
    )
    slowest = run(sheet, sort_by="Time", descending=True, limit=1, select=["Swimmer"])
    assert slowest.values == ["Bea"]
    assert run(sheet, aggregate=Aggregate(func="max", column="Time")).values == ["1:00.45"]  # as written
    fewest = run(sheet, sort_by="Speakers", descending=False, limit=1, select=["Swimmer"])
    assert fewest.values == ["Dee"]
    over = run(sheet, filters=[Filter(column="Speakers", op="gt", value=100000)], select=["Swimmer"])
    assert over.values == ["Ana", "Cid"]
    check_citations(sheet, over)


def test_two_named_rows_compared_give_the_word_that_fits(funding: SheetFrame) -> None:
    """compare: the first named row's value against the second's, answered with one of the two words; both cited."""
    pair = Filter(column="Company", op="in", value=["Acme Robotics", "Cobalt Pay"])  # $2,000,000 vs $42,000,000
    less = run(funding, filters=[pair], select=["Amount Raised (USD)"], compare=["more", "less"])
    assert less.values == ["less"] and "Acme Robotics is less" in less.description
    assert {c.value for c in less.citations if c.column == "Amount Raised (USD)"} == {"$2,000,000", "$42,000,000"}
    check_citations(funding, less)
    swapped = Filter(column="Company", op="in", value=["Cobalt Pay", "Acme Robotics"])
    assert run(funding, filters=[swapped], select=["Amount Raised (USD)"], compare=["more", "less"]).values == ["more"]
    # no column: the order of the sheet ("listed above or below"): Cobalt Pay is on a later row than Acme Robotics
    assert run(funding, filters=[swapped], compare=["below", "above"]).values == ["below"]
    assert run(funding, filters=[pair], compare=["below", "above"]).values == ["above"]
    # a row that is not there: no word is made up, the rows found are listed
    missing = Filter(column="Company", op="in", value=["Acme Robotics", "Nobody Ltd"])
    assert run(funding, filters=[missing], select=["Company"], compare=["more", "less"]).values == ["Acme Robotics"]


def test_the_row_next_to_the_rows_a_filter_picks(funding: SheetFrame) -> None:
    """offset: the row after the last matching row, or before the first one; none past the sheet's ends."""
    germany = Filter(column="Country", op="eq", value="Germany")  # rows 3 (Cobalt Pay) and 5 (Echo AI)
    after = run(funding, filters=[germany], select=["Company"], offset=1)
    assert after.values == ["Fjord Labs"] and "the row after it" in after.description
    check_citations(funding, after)
    assert run(funding, filters=[germany], select=["Company"], offset=-1).values == ["Borealis Bio"]
    first = Filter(column="Company", op="eq", value="Acme Robotics")
    assert run(funding, filters=[first], select=["Company"], offset=-1).values == []


def test_groups_whose_aggregate_passes_a_condition(funding: SheetFrame) -> None:
    """having: the groups (named) whose count passes the condition; the description says which condition."""
    having = Filter(column="value", op="ge", value=2)
    result = run(funding, group_by="Round", aggregate=Aggregate(func="count"), having=having)
    assert result.values == ["Seed", "Series A"] and "the groups where count of rows >= 2" in result.description
    check_citations(funding, result)
    none = run(
        funding, group_by="Round", aggregate=Aggregate(func="count"), having=Filter(column="v", op="gt", value=9)
    )
    assert none.values == []
    with pytest.raises(WorkbenchError, match="needs numbers"):
        run(funding, group_by="Round", aggregate=Aggregate(func="count"), having=Filter(column="v", op="eq", value="x"))
