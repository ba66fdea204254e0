"""Building a table from raw records: the header, blank rows and columns, column names and types.

Shared by the CSV and XLSX readers.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress

from core.cells import Column, ParsedSheet, col_letter, infer_dtype


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


def _distinct_texts(record: Sequence[str]) -> list[str]:
    """The record's non-empty cell texts, each once (a merged title filled across cells counts once)."""
    return list(dict.fromkeys(t for t in map(str.strip, record) if t))


def _title_rows(records: Sequence[Sequence[str]], nonblank: Sequence[int]) -> int:
    """How many leading non-blank records are titles or notes rather than the header.

    A title is a record with a single distinct text (one cell, or one merged range filled across cells)
    above a record with at least two: a table's header names its columns, a title names the table.
    A one-column table keeps its first record as the header.
    """
    skip = 0
    while skip < min(_MAX_TITLE_ROWS, len(nonblank) - 1):
        below = nonblank[skip + 1 : skip + 1 + _MAX_TITLE_ROWS]
        if len(_distinct_texts(records[nonblank[skip]])) != 1 or not any(
            len(_distinct_texts(records[i])) >= 2 for i in below
        ):
            break
        skip += 1
    return skip


def build_table(
    name: str,
    records: Sequence[Sequence[str]],
    row_numbers: Sequence[int],
    currency_formatted: Sequence[int] = (),
) -> ParsedSheet | None:
    """Turn raw records into a ParsedSheet; None when every record is blank.

    Each record lists a row's cells from column A, "" for an empty cell.  The header is the first
    non-blank record (blank: every cell empty or whitespace) that is not a title or note line above
    the table (see ``_title_rows``; their text becomes the sheet's ``title``).  Blank data records are dropped —
    their row numbers go with them, so citations stay exact.  Columns with neither a header nor
    any value are dropped too (spacer columns, trailing delimiters, the empty columns left of a
    table that starts in C3); every kept column keeps its original letter.
    """
    # A record is blank when its joined text is only whitespace; map/compress keep this in C.
    nonblank = list(compress(range(len(records)), map(str.strip, map("".join, records))))
    if not nonblank:
        return None
    n_titles = _title_rows(records, nonblank)
    title = " — ".join(_distinct_texts(records[i])[0] for i in nonblank[:n_titles]) or None
    nonblank = nonblank[n_titles:]
    header_index, data_index = nonblank[0], nonblank[1:]
    header = records[header_index]
    data = [records[i] for i in data_index]

    width = max(len(header), max(map(len, data), default=0))
    # Ragged rows: pad short records; long ones widen the table with header-less columns.
    header = list(header) + [""] * (width - len(header))
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
    )
