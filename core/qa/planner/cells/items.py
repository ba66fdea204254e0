"""The cell rules of two line items of one period, and of the lines of a section.

Two items: "A as a percentage of B" (share), "the ratio of A to B" (ratio), "the difference between A and B"
(items_difference), a share of a total line worded either way round, and two items joined by "and" asked for
their figures, total or average (`plan_items`). Each side of the question must name its own line item whole,
and the period must be one column (named, or the grid's only one). The lines of a section: "what are the
components of X", "how many items make up X" (`section_items`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.cells import parse_number
from core.qa.planner.cells.grid import Grid, GridRow, filled, label_variants, row_label
from core.qa.planner.cells.reading import REFUSED, CellReading, Verdict, without_words
from core.qa.planner.cells.words import (
    BETWEEN,
    ITEM_FRACTION,
    ITEM_GENERIC,
    ITEM_PATTERNS,
    LISTED,
    LISTED_FRAME,
    MAX_LABEL_WORDS,
    OPERATION_WORDS,
    PARTS,
    PARTS_GENERIC,
    REASON,
    SHARE_OF,
    SHARE_VERBS,
    VERBS,
)
from core.retrieval.cellmath import STOP, CellsStep, Operation, content_words, word_list


def two_items(reading: CellReading) -> Verdict:
    """Two line items of one period and the operation between them (see `plan_items`); REFUSED when the question
    asks a reason or a description of the two, not a figure."""
    items = plan_items(reading.text, reading.grid, reading.years, reading.asked_years, reading.given, reading.context)
    if items is None:
        return None
    (a_row, a_label), (b_row, b_label), between, column = items
    if REASON.search(without_words(without_words(reading.text, a_label), b_label)):
        return REFUSED  # a reason or a description of the two: not a figure
    labels = reading.labels
    return CellsStep(
        sheet_id=reading.sheet_id, operation=between, row_id=a_row.row_id, row_label=a_label,
        other_row_id=b_row.row_id, other_label=b_label, columns=[reading.names[column]],
        column_labels=[labels[column]], asked_scale=reading.asked_scale,
        reason=f"{VERBS[between]} \"{a_label}\" and \"{b_label}\" in {labels[column]}",
    )  # fmt: skip


def section_lines(reading: CellReading) -> Verdict:
    """The lines under a section's heading (or above a total line) the question names, or their count; None when
    no period is asked and exactly one heading or total is so named (see `section_items`)."""
    parts = PARTS.search(reading.text)
    if not parts or reading.asked_years:
        return None
    named_part = parts.group("x") or parts.group("y") or parts.group("z") or ""
    listed = section_items(reading.grid, content_words(named_part) - PARTS_GENERIC)
    if listed is None:
        return None
    (head, head_label), lines = listed
    counted = reading.text.lstrip().startswith("how many")
    return CellsStep(
        sheet_id=reading.sheet_id, operation="count_items" if counted else "line_items", row_id=head.row_id,
        row_label=head_label, columns=[], column_labels=[], item_row_ids=[r.row_id for r in lines],
        reason=f"The line items {'under' if not content_words(head_label) & {'total'} else 'making up'} "
               f"\"{head_label}\"",
    )  # fmt: skip


def plan_items(
    text: str, grid: Grid, years: dict[str, list[int]], asked_years: Sequence[str], given: set[str],
    context: set[str] = frozenset(),  # type: ignore[assignment]
) -> tuple[tuple[GridRow, str], tuple[GridRow, str], Operation, int] | None:  # fmt: skip
    """Two line items of one period and the operation between them: "A as a percentage of B" (share), "the ratio
    of A to B" (ratio), "the difference between A and B" (items_difference); each side of the question must name
    its own line item whole, and the period must be one column (named, or the grid's only one)."""
    sides: tuple[str, str, Operation] | None = None
    for pattern, kind, part, whole in ITEM_PATTERNS:
        m = pattern.search(text)
        if m:
            operation: Operation = "ratio" if m.group(kind) in ITEM_FRACTION else "share"
            sides = (m.group(part), m.group(whole), operation)
            break
    if sides is None and (between := BETWEEN.search(text)):
        sides = (between.group(1), between.group(2), "items_difference")
    if sides is None:
        return _share_of_total(text, grid, years, asked_years, given) or _listed_items(
            text, grid, years, asked_years, given, context
        )
    a_text, b_text, operation = sides
    a_words, b_words = content_words(a_text) - set(years), content_words(b_text) - set(years)
    if not a_words or not b_words:
        return None  # one side is a period ("the difference between 2018 and 2019"): a change, not two items
    a = grid.line_item(a_words)
    b = grid.line_item(b_words, exclude=a[0].row_id) if a else None
    if a is None or b is None:
        return None
    # Each side's words must be its line item's (besides generic words and names the question gives): "the ratio
    # of A in 2019 to B" names no third thing; a side holding words its line item lacks asks about something else
    # ("domestic revenue" is not the Revenue line). A total line is the total of the other's kind: "staff
    # relocation costs as a share of total costs" reads the table's "Total".
    for side, (_, label), (_, other) in ((a_words, a, b), (b_words, b, a)):
        extra = side - content_words(label) - ITEM_GENERIC - given
        if extra and not (content_words(label) <= {"total"} and extra <= content_words(other)):
            return None
    return _items_column(a, b, operation, grid, years, asked_years)


def _share_of_total(
    text: str, grid: Grid, years: dict[str, list[int]], asked_years: Sequence[str], given: set[str]
) -> tuple[tuple[GridRow, str], tuple[GridRow, str], Operation, int] | None:
    """ "What percentage of total loans were made to small businesses": a
    share asked of a total line and one other line item, in whichever order the question words them; every
    content word after "percentage of" must belong to the two."""
    m = SHARE_OF.search(text)
    if m is None:
        return None
    words = content_words(m.group("rest")) - set(years) - given
    total = grid.line_item(words | {"total"}, total=True)
    if total is None:
        return None
    part = grid.line_item(words - (content_words(total[1]) - {"total"}), total=False)
    if part is None:
        return None
    if words - content_words(total[1]) - content_words(part[1]) - ITEM_GENERIC - SHARE_VERBS:
        return None  # a word neither line holds: something else is asked
    return _items_column(part, total, "ratio" if m.group("kind") in ITEM_FRACTION else "share", grid, years,
                         asked_years)  # fmt: skip


def section_items(grid: Grid, words: set[str]) -> tuple[tuple[GridRow, str], list[GridRow]] | None:
    """The line items a section heading or a total line named by `words` gathers: under a heading without figures
    ("Deferred tax liabilities", "Creditors due within a year:") the lines down to its total (a line with
    no label, "total", or all the heading's words) or the next heading; above a total line ("Total revenue")
    the lines up to the heading, total or blank label before it. None unless exactly one line is so named and at
    least two items are found."""
    if not words:
        return None

    def figures(row: GridRow) -> bool:
        return filled(row, grid.value_columns)

    def label(row: GridRow) -> str:
        return row_label(row, grid.label_pos)

    named = [i for i, row in enumerate(grid.rows) if any(v == words for v in label_variants(label(row).rstrip(":")))]
    if len(named) != 1:
        return None
    at = named[0]
    head = grid.rows[at]
    heading_words = content_words(label(head))
    lines: list[GridRow] = []
    if not figures(head):
        for row in grid.rows[at + 1 :]:
            text = label(row)
            if not figures(row) or not text or "total" in content_words(text) or heading_words <= content_words(text):
                break
            lines.append(row)
    elif "total" in heading_words:
        for row in reversed(grid.rows[:at]):
            text = label(row)
            if not figures(row) or not text or "total" in content_words(text):
                break
            lines.insert(0, row)
    return ((head, label(head)), lines) if len(lines) >= 2 else None


def _listed_items(
    text: str, grid: Grid, years: dict[str, list[int]], asked_years: Sequence[str], given: set[str],
    context: set[str],
) -> tuple[tuple[GridRow, str], tuple[GridRow, str], Operation, int] | None:  # fmt: skip
    """ "What were the respective rents and wages for 2016?", "the total share of revenue from Northwind and
    Contoso in 2016": two line items joined by "and", each ending or starting at the "and" (so "cash and cash
    equivalents", one line, is never two), in one period. Every other word of the question must be the
    table's: its header, a section over the two, or `context` (the words of the table's page)."""
    operation: Operation | None = next((op for pattern, op in LISTED if pattern.search(text)), None)
    if re.search(r"\bdifference\b", text):
        operation = "items_difference"  # "the difference in total planned costs between A and B": A minus B
    elif operation in ("items_sum", "items_average") and content_words(text) & (
        OPERATION_WORDS - LISTED_FRAME - {"percentage", "percent"}
    ):
        return None  # "the total change in A and B", "the average growth of A and B": another operation of each
    if operation is None or len(asked_years) > 1:
        return None
    for joint in re.finditer(r"\s+and\s+", text):
        left, right = text[: joint.start()], text[joint.end() :]
        left_words = [w for w in word_list(left) if w not in STOP]
        right_words = [w for w in word_list(right) if w not in STOP]
        if not left_words or not right_words or left_words[-1] in years or right_words[0] in years:
            continue  # "2019 and 2018": periods, not line items
        joined = f" {left_words[-1]} and {right_words[0]} "
        if any(joined in f" {' '.join(word_list(row.values[grid.label_pos] or ''))} " for row in grid.rows):
            return None  # one line item reads "… X and Y …" ("research and development"): not two
        a = _edge_item(grid, left_words[::-1], None)
        b = _edge_item(grid, right_words, a[0].row_id if a else None)
        if a is None and b is not None:
            # a head noun the two share: "operating lease and financing obligations"
            a = _edge_item(grid, left_words[::-1], b[0].row_id, shared=content_words(b[1]) - {right_words[0]})
        if a is None or b is None:
            continue
        if "," in left and content_words(a[1]) <= content_words(left.rsplit(",", 1)[1]):
            return None  # "A, B and C": a list of three or more, not two
        named = content_words(a[1]) | content_words(b[1]) | set(years) | given | ITEM_GENERIC | LISTED_FRAME
        header = set().union(*(content_words(label) for label in grid.labels))
        if content_words(text) - named - header - context - OPERATION_WORDS:
            return None  # a word that is neither line's nor the table's: another quantity is asked
        return _items_column(a, b, operation, grid, years, asked_years)
    return None


def _edge_item(
    grid: Grid,
    words: Sequence[str],
    exclude: int | None,
    shared: set[str] = frozenset(),  # type: ignore[assignment]
) -> tuple[GridRow, str] | None:
    """The line item named by the words next to an "and" (`words`, nearest first): the longest run of them (with
    the head noun the other side `shared`) that is a line item's whole label and holds the nearest word."""
    for n in range(min(len(words), MAX_LABEL_WORDS), 0, -1):
        found = grid.line_item(set(words[:n]) | shared, exclude=exclude)
        if found is not None and words[0] in content_words(found[1]):
            return found
    return None


def _items_column(
    a: tuple[GridRow, str], b: tuple[GridRow, str], operation: Operation, grid: Grid,
    years: dict[str, list[int]], asked_years: Sequence[str],
) -> tuple[tuple[GridRow, str], tuple[GridRow, str], Operation, int] | None:  # fmt: skip
    """The two items with the column of the period asked (or the grid's only one), both cells numbers of a kind."""
    if len(asked_years) == 1:
        found = grid.year_column(asked_years[0], years)
        if found is None:
            return None  # several columns of amounts of that year (quarters, groups): which is not said
        column = found
    elif not asked_years and len(grid.value_columns) == 1:
        column = grid.value_columns[0]
    else:
        return None  # no period, or several: which column is meant is not said
    values = [row.values[column] if column < len(row.values) else None for row, _ in (a, b)]
    numbers = [parse_number(v or "") for v in values]
    if any(n is None for n in numbers):
        return None
    if len({"%" in (v or "") for v in values}) > 1 and not _common_size(grid, column):
        return None  # a percentage and an amount: no arithmetic between them
    if operation in ("share", "ratio") and len({(n or 0) < 0 for n in numbers}) > 1:
        return None  # a deduction's share of a total ("(111)" of 372): its sign is a layout, the share ill-defined
    for _, label in (a, b):
        if sum(1 for r in grid.rows if content_words(r.values[grid.label_pos] or "") == content_words(label)) > 1:
            return None  # the line appears under several sections ("Continuing operations"): which one is meant
    return a, b, operation, column


def _common_size(grid: Grid, column: int) -> bool:
    """Whether `column` is a common-size statement's: a line reads "100.0 %" and the other lines are percentages of
    it, printed without the sign ("Sales 100.0 %", "Gross profit 40.0")."""
    return any(
        re.fullmatch(r"100(?:\.0+)?\s*%", (row.values[column] or "").strip())
        for row in grid.rows
        if column < len(row.values)
    )
