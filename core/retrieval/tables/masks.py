"""Filter masks: the rows one filter picks over numbers, dates and text (empty cells never match)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

import numpy as np

from core.cells import Column
from core.errors import TableError
from core.retrieval.tables.frame import SheetFrame
from core.retrieval.tables.model import Filter
from core.retrieval.tables.operators import OPERATORS, describe
from core.retrieval.tables.values import Scalar, _as_day, _as_number, _as_year, _listed, _norm_text, _value_text


def _where(filters: Sequence[tuple[Filter, Column]]) -> str:
    """Filters as text: " where Country = Canada and Date in 2021" (empty without filters)."""
    parts = [describe(f.op, col.name, [_value_text(v) for v in _listed(f.value)], style="result") for f, col in filters]
    return " where " + " and ".join(parts) if parts else ""


def _compare(key: np.ndarray, op: str, values: list[float]) -> np.ndarray:
    """Comparison of a float key (NaN never matches) with converted filter values."""
    compare = OPERATORS[op].keys
    assert compare is not None, f"{op} does not compare keys"
    with np.errstate(invalid="ignore"):
        return compare(key, values)


def _text_mask(sheet: SheetFrame, col: Column, op: str, values: list[Scalar]) -> np.ndarray:
    """Case-insensitive, whitespace-trimmed text comparison (order operators: alphabetical, casefolded)."""
    compare = OPERATORS[op].texts
    assert compare is not None, f"{op} is not a plain text comparison"
    wanted = [_norm_text(_value_text(v)) for v in values]
    return compare(sheet.normalised(col.position), ~sheet.blank(col.position), wanted)


def _date_key_and_values(
    sheet: SheetFrame, col: Column, f: Filter, values: list[Scalar]
) -> tuple[np.ndarray, list[float]] | None:
    """Compare on years when every value is a bare year, on days when every value is a date; else None."""
    years = [_as_year(v) for v in values]
    whole_years = [y for y in years if y is not None]
    if len(whole_years) == len(years):
        if f.op == "between":  # a range of years covers whole years: 1 Jan of the first to 31 Dec of the last
            low, high = sorted(whole_years)
            first = (datetime.date(low, 1, 1) - datetime.date(1970, 1, 1)).days
            last = (datetime.date(high, 12, 31) - datetime.date(1970, 1, 1)).days
            return sheet.days(col.position), [float(first), float(last)]
        return _years(sheet, col.position), [float(y) for y in whole_years]
    days = [_as_day(v) for v in values]
    known_days = [d for d in days if d is not None]
    if len(known_days) == len(days):
        return sheet.days(col.position), known_days
    mixed = [(_as_day(v) if y is None else None) for v, y in zip(values, years, strict=True)]
    if f.op == "between" and all(y is not None or d is not None for y, d in zip(years, mixed, strict=True)):
        bounds: list[tuple[float, int | None]] = sorted(
            (
                (
                    float((datetime.date(y, 1, 1) - datetime.date(1970, 1, 1)).days)
                    if y is not None
                    else float(d or 0),
                    y,
                )
                for y, d in zip(years, mixed, strict=True)
            ),
            key=lambda bound: bound[0],
        )
        (start, _), (end, end_year) = bounds
        if end_year is not None:  # the upper bound is a whole year: include it to 31 Dec
            end = float((datetime.date(end_year, 12, 31) - datetime.date(1970, 1, 1)).days)
        return sheet.days(col.position), [start, end]
    return None


def _years(sheet: SheetFrame, pos: int) -> np.ndarray:
    def build() -> np.ndarray:
        days = sheet.days(pos)
        out = np.full(len(days), np.nan)
        ok = ~np.isnan(days)
        out[ok] = days[ok].astype(np.int64).astype("datetime64[D]").astype("datetime64[Y]").astype(np.int64) + 1970
        return out

    return sheet.view("years", pos, build)


def _filter_mask(sheet: SheetFrame, col: Column, f: Filter) -> np.ndarray:
    """Rows matching one filter (empty cells never match)."""
    values: list[Scalar] = list(f.value) if isinstance(f.value, list) else [f.value]
    pos = col.position
    if f.op == "contains":
        needle = _norm_text(_value_text(f.value))
        return np.fromiter((t is not None and needle in t for t in sheet.normalised(pos)), bool, sheet.n_rows)
    if f.op == "year":
        year = float(_as_year(values[0]))  # type: ignore[arg-type]  # validated: a year
        if col.dtype in ("number", "currency", "percent"):  # a "Year" column of numbers
            return sheet.numbers(pos) == year
        return _years(sheet, pos) == year
    order_op = OPERATORS[f.op].order
    if col.dtype in ("number", "currency", "percent"):
        numbers = [_as_number(v) for v in values]
        if all(n is not None for n in numbers):
            return _compare(sheet.numbers(pos), f.op, numbers)  # type: ignore[arg-type]
        if order_op:
            raise TableError(f"{col.name} holds numbers; {_value_text(f.value)!r} is not a number to compare with.")
        return _text_mask(sheet, col, f.op, values)  # e.g. "n/a" in a numeric column
    if col.dtype == "date":
        if f.op == "in":  # each value may be a date or a year: any of them
            masks = [_filter_mask(sheet, col, Filter(column=f.column, op="eq", value=v)) for v in values]
            return np.logical_or.reduce(masks)
        found = _date_key_and_values(sheet, col, f, values)
        if found is not None:
            return _compare(found[0], f.op, found[1])
        if order_op:
            raise TableError(
                f"{col.name} holds dates; {_value_text(f.value)!r} is not a date or year "
                "(write e.g. 2021-03-05, 5 Mar 2021 or 2021)."
            )
        return _text_mask(sheet, col, f.op, values)
    # A text column: order comparisons with numbers or dates compare the cells that read as such.
    if order_op:
        numbers = [_as_number(v) for v in values]
        if all(n is not None for n in numbers):
            return _compare(sheet.numbers(pos), f.op, numbers)  # type: ignore[arg-type]
        days = [_as_day(v) for v in values]
        if all(d is not None for d in days):
            return _compare(sheet.days(pos), f.op, days)  # type: ignore[arg-type]
    return _text_mask(sheet, col, f.op, values)
