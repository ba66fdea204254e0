"""Building a table from raw records: the header, blank rows and columns, column names and types.

Shared by the CSV and XLSX readers.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from itertools import compress
from typing import Any

from core.cells import Column, col_letter, infer_dtype
from core.ingest.sheets.parsed import ParsedSheet
from core.sheetmodel import PATH_SEPARATOR, TableModel, build_model, table_regions


def _clean_header(text: str) -> str:
    return " ".join(text.split())


def _header_names(raw: Sequence[str], letters: Sequence[str]) -> list[str]:
    """Clean header texts, name blank ones by column letter and number repeats "Name (2)"."""
    # Blank headers are named by their letter, and those names are reserved first so that a
    # real header reading "Column B" cannot take the name of blank column B.
    blank_names = {
        i: f"Column {letter}" for i, (t, letter) in enumerate(zip(raw, letters, strict=False)) if not _clean_header(t)
    }
    taken = {n.casefold() for n in blank_names.values()}
    names: list[str] = []
    for i, text in enumerate(raw):
        if i in blank_names:
            names.append(blank_names[i])
            continue
        name = _clean_header(text)
        candidate, k = name, 2
        # Case-insensitive: database layers commonly fold identifiers, where "Amount" and
        # "amount" would collide.
        while candidate.casefold() in taken:
            candidate, k = f"{name} ({k})", k + 1
        taken.add(candidate.casefold())
        names.append(candidate)
    return names


_EMPTY_TO_NONE = {"": None}
# Title and note lines looked for above a header ("Fatal accidents by year, 1999-2012", "Source: …").
_MAX_TITLE_ROWS = 5


def column_names(model: TableModel) -> tuple[list[str], tuple[str, ...]]:
    """Each column's name: its header path without the upper levels every figure column shares ("Year Ended
    December 31," over every year names the table's period, not one column: it joins the title), and those levels.
    A column's name is what tells it from its neighbours; the model keeps the whole path."""
    figures = [c for c in model.columns if c.letter != model.label_letter and c.path]
    shared: tuple[str, ...] = ()
    if len(figures) > 1 and all(len(c.path) > 1 for c in figures):
        # a level every figure column has (a banner above, a units row below) names none of them
        shared = tuple(level for level in figures[0].path if all(level in c.path for c in figures))
        if any(len(c.path) <= len(shared) for c in figures):
            shared = ()
    names = [
        PATH_SEPARATOR.join([p for p in c.path if p not in shared] if c in figures else c.path) for c in model.columns
    ]
    return names, shared


def build_table(
    name: str,
    records: Sequence[Sequence[str]],
    row_numbers: Sequence[int],
    currency_formatted: Sequence[int] = (),
    *,
    indents: Mapping[tuple[int, int], int] | None = None,
    hidden_rows: frozenset[int] = frozenset(),
    hidden_columns: frozenset[int] = frozenset(),
    merged: Mapping[int, frozenset[int]] | None = None,
) -> ParsedSheet | None:
    """Turn raw records into a ParsedSheet with its table model; None when every record is blank.

    Each record lists a row's cells from column A, "" for an empty cell.  The table's structure is read first
    (`core.sheetmodel.build_model`: title lines, the header rows — one, or several stacked — the label column, each
    row's path and role, units, periods); the title's text becomes the sheet's ``title``, each column is named by
    its header path ("2024 › Q3"), and the data rows are the records under the header.  Blank data records are
    dropped — their row numbers go with them, so citations stay exact.  Columns with neither a header nor
    any value are dropped too (spacer columns, trailing delimiters, the empty columns left of a
    table that starts in C3); every kept column keeps its original letter.
    """
    # A record is blank when its joined text is only whitespace; map/compress keep this in C.
    nonblank = list(compress(range(len(records)), map(str.strip, map("".join, records))))
    if not nonblank:
        return None
    model = build_model(
        records, row_numbers, indents=indents, hidden_rows=hidden_rows, hidden_columns=hidden_columns, merged=merged,
        max_title_rows=_MAX_TITLE_ROWS,
    )  # fmt: skip
    assert model is not None
    n_titles = len(model.title)
    n_header = len(model.header_rows)
    header_indices = nonblank[n_titles : n_titles + n_header]
    header_index, data_index = header_indices[-1], nonblank[n_titles + n_header :]
    names, banner = column_names(model)
    title = " — ".join((*model.title, *banner)) or None
    paths = dict(zip((c.letter for c in model.columns), names, strict=True))
    data = [records[i] for i in data_index]

    width = max(max(len(records[i]) for i in header_indices), max(map(len, data), default=0))
    header = [paths.get(col_letter(j), "") for j in range(width)]
    # Ragged rows: pad short records; long ones widen the table with header-less columns.
    if data and min(map(len, data)) < width:
        data = [rec if len(rec) == width else list(rec) + [""] * (width - len(rec)) for rec in data]

    columns_data = list(zip(*data, strict=False)) if data else [() for _ in range(width)]
    keep = [j for j in range(width) if header[j].strip() or "".join(columns_data[j]).strip()]
    letters = [col_letter(j) for j in keep]
    names = _header_names([header[j] for j in keep], letters)
    # Empty cells become None; map() with dict.get does the swap without a Python-level loop.
    kept_columns = [
        col if "" not in col else tuple(map(_EMPTY_TO_NONE.get, col, col)) for col in (columns_data[j] for j in keep)
    ]
    columns = tuple(
        Column(
            position=p,
            name=names[p],
            letter=letters[p],
            dtype=infer_dtype(values, currency_formatted[j] if j < len(currency_formatted) else 0),
        )
        for p, (j, values) in enumerate(zip(keep, kept_columns, strict=False))
    )
    rows = tuple(zip(*kept_columns, strict=False)) if kept_columns else tuple(() for _ in data)
    return ParsedSheet(
        name=name,
        columns=columns,
        rows=rows,
        row_numbers=tuple(row_numbers[i] for i in data_index),
        header_row=row_numbers[header_index],
        title=title,
        model=model,
    )


def build_tables(
    name: str,
    records: Sequence[Sequence[str]],
    row_numbers: Sequence[int],
    currency_formatted: Sequence[int] = (),
    **model_input: Any,
) -> list[ParsedSheet]:
    """Each table a sheet holds (`core.sheetmodel.table_regions`: blocks one under another or side by side), built
    as `build_table` builds one; [] when every record is blank. The first keeps the sheet's name, the others are
    named by their title or banner ("Dashboard › Channel mix"), else numbered ("Dashboard (2)"); each keeps its
    tab (``tab``) for the cell addresses it cites, and its cells their columns and rows."""
    regions = table_regions(records, row_numbers)
    if len(regions) == 1:
        found = build_table(name, records, row_numbers, currency_formatted, **model_input)
        return [found] if found is not None else []
    tables: list[ParsedSheet] = []
    names: set[str] = set()
    for indices, first, last in regions:
        part = [[t if first <= j <= last else "" for j, t in enumerate(records[i])] for i in indices]
        found = build_table(name, part, [row_numbers[i] for i in indices], currency_formatted, **model_input)
        if found is None or not found.rows:
            continue
        model = found.model
        # its own title line, else the banner over all its columns ("Channel mix — Q4")
        heading = (model.title[-1] if model.title else " ".join(column_names(model)[1])) if model and tables else ""
        shown = f"{name} › {heading}" if heading else (name if not tables else f"{name} ({len(tables) + 1})")
        while shown in names:
            shown = f"{shown} ({len(tables) + 1})"
        names.add(shown)
        tables.append(dataclasses.replace(found, name=shown, tab=name if shown != name else None))
    return tables
