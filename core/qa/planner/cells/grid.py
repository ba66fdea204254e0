"""A statement grid as the cell rules read it: its header (each column's label, the periods across), its line
items (the rows under the header, matched whole against the question's words) and their sections and totals.

`GridRow` is a row of a short sheet as the planner's schema holds it; `column_labels` and `year_columns` read the
header; `periods_across` tells a statement (line items down, periods across) from a list of records; `Grid` finds
the line item a question names (`Grid.line_item`), the column of a year and the lines that add up to a total.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from core.cells import parse_number
from core.lexicon.periods import COLUMN_SPANS, header_month
from core.qa.planner.cells.words import (
    DUE_BOUND,
    DUE_RANGE,
    MAX_LABEL_WORDS,
    MONTH_DAY,
    NOISE_BRACKET,
    QUALIFIERS,
    SECONDARY,
)
from core.qa.planner.vocabulary import synonyms
from core.retrieval.cellmath import WORD, content_words, split_end
from core.text import NUMBER_WORDS, YEAR, years_in


def due_spans(text: str) -> set[str]:
    """The spans of years a maturity column or a question names: "1-3 Years" and "between 1 to 3 years" are "1-3",
    "Less than 1 year", "less than one year" and "Up to 1 year" are "<1", "More than 5 years" is ">5"."""
    text = text.lower()

    def number(word: str) -> str:
        return str(NUMBER_WORDS.get(word, word))

    spans = {f"{number(a)}-{number(b)}" for a, b in DUE_RANGE.findall(text)}
    for word, n in DUE_BOUND.findall(text):
        spans.add(("<" if word in ("less", "fewer", "under", "within", "up to") else ">") + number(n))
    return spans


def span_range(span: str) -> tuple[float, float]:
    """A span of `due_spans` as (from, to) years: "<1" is (0, 1), "1-3" is (1, 3), ">5" is (5, inf)."""
    if span[0] == "<":
        return 0.0, float(span[1:])
    if span[0] == ">":
        return float(span[1:]), float("inf")
    low, high = span.split("-")
    return float(low), float(high)


def inside_bound(span: str, bound: str) -> bool | None:
    """Whether a maturity column's span lies inside a bound asked ("<5": due within five years; ">3": after three
    years): True inside, False outside, None across it (a "3-5" bucket of "within four years")."""
    low, high = span_range(span)
    limit = float(bound[1:])
    if bound[0] == "<":
        return True if high <= limit else False if low >= limit else None
    return True if low >= limit else False if high <= limit else None


@dataclass(frozen=True)
class GridRow:
    """A row of a short sheet, as the planner sees it."""

    row_id: int
    values: tuple[str | None, ...]
    row_number: int = 0  # its A1 row (0 for a row made by the planner, such as a turned grid's)


# A bracket giving the line's other sign ("Other expense (income), net", "Net income (loss)") names no line of
# its own: "income, net" is not net income.
_OTHER_SIGN = re.compile(
    r"(?:income|expenses?|loss(?:es)?|gains?|benefit|charges?|credits?|deficit|used\s+(?:in|for)|provided\s+by|"
    r"increase|decrease|deficiency|surplus)",
    re.I,
)


# What a line is "net of" ("Additions to property and equipment, net of $35 of non-cash capital expenditures",
# "Accounts receivable — net of allowances of $95"), or "net" alone at its end ("Receivables, net"): the line is the
# words before it.
NET_OF = re.compile(r"\s*(?:,|—|–|\s-)\s*net(?:\s+of\b|\s*$)", re.I)


# A balance sheet's line printed with what it is net of ("Loans, less reserves for credit losses: 2027, $9"): the
# net line, asked as the line or as "loans net of reserves".
LESS_OF = re.compile(r",\s*less\s+([^:;,]+)", re.IGNORECASE)


# A line's sign before its name ("Less: Reserves for credit losses", "Add: Depreciation").
SIGN = re.compile(r"^\s*(?:less|add|plus|deduct)\s*:\s*", re.IGNORECASE)


def label_variants(label: str) -> list[set[str]]:
    """The label's words, and its words without a bracketed part or with only the acronym in brackets:
    "Loan-to-value (LTV) ratio" is asked about as "LTV ratio" or "loan-to-value ratio"."""
    variants = [content_words(label)]
    if (sign := SIGN.match(label)) is not None:  # "Less: Reserves for credit losses" is the reserves
        variants.append(content_words(label[sign.end() :]))
    if (net := NET_OF.search(label)) is not None and net.start():
        variants.append(content_words(label[: net.start()]))
    if (less := LESS_OF.search(label)) is not None:  # "Loans (includes …), less reserves for credit losses: 2027, $9"
        line = re.sub(r"\([^)]*\)", " ", label[: less.start()])
        variants += [content_words(line), content_words(f"{line} net of {less.group(1)}")]
    if "(" in label:
        variants.append(content_words(re.sub(r"\([^)]*\)", " ", label)))
        inside = re.findall(r"\(([^)]*)\)", label)
        # The bracket names the line ("(LTV)", "(Scope 1)"), unless it is a unit or a note: "Sales (millions)" is
        # not asked about as "millions", "Inventories (Notes 1 and 3)" not as "notes".
        if inside and not any(
            NOISE_BRACKET.fullmatch(part.strip()) or _OTHER_SIGN.fullmatch(part.strip()) for part in inside
        ):
            after = label[label.rfind(")") + 1 :]
            variants.append(content_words(" ".join(inside) + " " + after))
    return [v for v in variants if v]


def column_labels(names: Sequence[str], rows: Sequence[GridRow], label_pos: int) -> tuple[list[str], int]:
    """Each column's header text (its name plus header rows above the first line item) and that row count."""
    labels = ["" if re.fullmatch(r"Column [A-Z]+", n) else n for n in names]

    # A group header spans the unnamed columns right of it ("Financial assets" over "2019 2018"): each of its
    # sub-columns carries it, so "2018 of financial assets" is not the liabilities' 2018. Worded groups only: a
    # year over an unnamed column is that column's period alone.
    # Its span shows in the first row under it, or in a row of years under a merged date ("September 30," over
    # "2019 2018" in each group).
    def spanned(i: int) -> bool:
        return any(
            i < len(row.values) and bool(here := row.values[i]) and bool(left := row.values[i - 1])
            and (at == 0 or bool(years_in(here or "") and years_in(left or "")))
            for at, row in enumerate(rows[:3])
        )  # fmt: skip

    for i in range(1, len(labels)):
        if (
            not labels[i] and i != label_pos and labels[i - 1] and not years_in(labels[i - 1]) and i - 1 != label_pos
            and spanned(i)
        ):  # fmt: skip
            labels[i] = labels[i - 1]
    n_header = 0
    for row in rows:
        label = row.values[label_pos] if label_pos < len(row.values) else None
        cells = [v for i, v in enumerate(row.values) if i != label_pos and v]
        header_like = cells and all(parse_number(v) is None or YEAR.fullmatch(v.strip()) for v in cells)
        if label and not header_like:
            break
        if not cells and label:
            break
        for i, value in enumerate(row.values):
            if value and i != label_pos:
                labels[i] = f"{labels[i]} {value}".strip()
        n_header += 1
    return labels, n_header


def _named_columns(columns: Sequence[int], labels: Sequence[str], question: str) -> list[int]:
    """Of several columns of one year, the one the question names: by its day ("the quarter ended March 3"), by
    its span ("the second quarter" of "Three Months Ended" beside "Six Months Ended") or by the words of its group
    header ("Financial assets" over "2019 2018 2019 2018"); [] when none stands out."""
    days = {day_key(m) for m in MONTH_DAY.finditer(question)}
    dated = [i for i in columns if days & {day_key(m) for m in MONTH_DAY.finditer(labels[i])}]
    if len(dated) == 1:
        return dated
    spans = [span for span in COLUMN_SPANS if span.search(question)]
    spanned = [i for i in columns if len(spans) == 1 and spans[0].search(labels[i])]
    if len(spanned) == 1:
        return spanned
    wanted = content_words(question)
    wanted |= {w for others in synonyms(wanted).values() for w in others}  # "male" names a column of "Men"
    scores = {i: len((content_words(labels[i]) - set(years_in(labels[i]))) & wanted) for i in columns}
    best = max(scores.values())
    top = [i for i in columns if scores[i] == best]
    return top if best and len(top) == 1 else []


def day_key(m: re.Match[str]) -> str:
    """ "January 26" and "26 Jan" alike: "jan 26"."""
    return f"{(m.group('m1') or m.group('m2')).lower()} {int(m.group('d1') or m.group('d2'))}"


def year_columns(labels: Sequence[str], label_pos: int) -> dict[str, list[int]]:
    """Year -> the columns whose header names it. A split fiscal year ("2017/2018") names only the year it
    ends in: its start year is the previous column's period, and reading it as both made "2018" two columns."""
    found: dict[str, list[int]] = {}
    for i, label in enumerate(labels):
        if i == label_pos:
            continue
        end = split_end(label)
        for year in [end] if end else years_in(label):
            found.setdefault(year, []).append(i)
    return found


def month_key(month: int) -> str:
    """A month as the cell rules key a period: "M03" (the keys sort in calendar order, as years do)."""
    return f"M{month:02d}"


def month_columns(labels: Sequence[str], label_pos: int) -> dict[str, list[int]]:
    """Month key -> the column headed by that month ("Jan", "Sep", "March", "Sep-26"), when two or more columns are
    months of one year (or of none written): a plan or a P&L with the months across. Months of several years
    ("Jan-25" … "Jan-26") name no single column: {}."""
    found: dict[str, list[int]] = {}
    years: set[str] = set()
    for i, label in enumerate(labels):
        if i == label_pos or (month := header_month(label)) is None:
            continue
        found.setdefault(month_key(month[0]), []).append(i)
        years.add(month[1])
    if len(found) < 2 or len(years) > 1 or any(len(cols) > 1 for cols in found.values()):
        return {}
    return found


def periods_across(names: Sequence[str], rows: Sequence[GridRow]) -> bool:
    """Whether a grid is laid out as a statement: a blank corner over the line items, two or more periods across
    the header (a list of records names its first column: "Team", "Town")."""
    if len(names) < 3 or not rows:
        return False
    labels, n_header = column_labels(names, rows, 0)
    if labels[0].strip() or n_header > 3 or (len(year_columns(labels, 0)) < 2 and len(month_columns(labels, 0)) < 3):
        return False
    # Line items are words: a numbered list under a blank first header ("1", "2", …) is records.
    items = [row.values[0] for row in rows[n_header:] if row.values]
    worded = sum(1 for item in items if item and parse_number(item) is None)
    return worded > len(items) / 2


# A corner that states the figures' unit only ("(In thousands)", "€ million", "US$'000"): no column's name.
_NIL = frozenset({"-", "–", "—", "n/a", "nil", "none"})
_UNIT_CORNER_WORDS = frozenset(
    "in of thousand thousands million millions billion billions m bn 000 000s k usd us eur gbp rmb cad aud dollars "
    "euros pounds".split()
)


def line_items_down(names: Sequence[str], rows: Sequence[GridRow]) -> bool:
    """Whether a grid is a statement or a note to one rather than a list of records: periods across
    (`periods_across`), or line items down a first column whose corner is blank or states the unit only, with
    measures or buckets across ("", "Gross amount", "Provision" over "Trade debtors", "Other debtors"; "(In
    millions)", "Total", "2031", "2032-2033" over "Finance leases"). A list of records names its first column
    ("Team", "Region")."""
    if periods_across(names, rows):
        return True
    if len(names) < 3 or not rows:
        return False
    labels, n_header = column_labels(names, rows, 0)
    if any(w not in _UNIT_CORNER_WORDS for w in re.findall(r"[a-z0-9]+", labels[0].lower())):
        return False
    items = [row.values[0] for row in rows[n_header:] if row.values]
    worded = sum(1 for item in items if item and parse_number(item) is None)
    # Figures across: a list of records under a blank first header holds words beside its first column (a team's
    # players, a race's drivers); a note's measures or buckets hold amounts, blanks and nil dashes.
    across = [(v or "").strip() for row in rows[n_header:] for v in row.values[1:]]
    figures = sum(1 for v in across if not v or v in _NIL or parse_number(v) is not None)
    return worded > len(items) / 2 and figures > len(across) / 2


def row_label(row: GridRow, label_pos: int = 0) -> str:
    """A line's label as printed, stripped ("" when it has none)."""
    return (row.values[label_pos] or "").strip() if label_pos < len(row.values) else ""


def filled(row: GridRow, columns: Sequence[int]) -> bool:
    """Whether the line prints anything in `columns`: a figure, a nil dash or a figure with a note mark."""
    return any(i < len(row.values) and (row.values[i] or "").strip() for i in columns)


@dataclass(frozen=True)
class Grid:
    """A statement's line items (the rows under its header) and what a label is matched against."""

    rows: Sequence[GridRow]
    label_pos: int
    value_columns: Sequence[int]
    years: set[str]
    named_words: set[str]  # words of columns named by words ("As reported"): they name no line item
    labels: Sequence[str] = ()  # each column's header text
    question: str = ""

    def year_column(self, year: str, years: dict[str, list[int]]) -> int | None:
        """The column of the year's amount, or None when several columns of amounts share it and the question
        does not say which (see `plan_cells`)."""
        amounts = [i for i in years[year] if not SECONDARY.search(self.labels[i])]
        if len(amounts) > 1:
            amounts = _named_columns(amounts, self.labels, self.question) or amounts
        return amounts[0] if len(amounts) == 1 else None

    def adds_up(self, index: int) -> bool:
        """Whether the line at `index` is, in every period, the sum of the two or more labelled lines above it (up
        to a heading, a line with no label or a total): an unlabelled total under a list of line items."""
        above: list[GridRow] = []
        for row in reversed(self.rows[:index]):
            label = row_label(row, self.label_pos)
            if not label or "total" in content_words(label) or not filled(row, self.value_columns):
                break
            above.append(row)
        if len(above) < 2:
            return False
        checked = 0
        for i in self.value_columns:
            total = parse_number(self.rows[index].values[i] or "") if i < len(self.rows[index].values) else None
            if total is None:
                continue
            texts = [(r.values[i] or "") if i < len(r.values) else "" for r in above]
            parts = [parse_number(t) for t in texts]
            # a nil dash ("—") is 0; the lines are printed rounded: allow half a unit of their last place per line
            places = max((len(m.group(1)) for t in texts if (m := re.search(r"\.(\d+)", t))), default=0)
            if abs(sum(p or 0 for p in parts) - total) > len(parts) * 0.5 * 10**-places + 1e-9:
                return False
            checked += 1
        return checked > 0

    def line_item(self, wanted: set[str], alias_words: Sequence[set[str]] = (), *,
                  exclude: int | None = None, total: bool | None = None) -> tuple[GridRow, str] | None:  # fmt: skip
        """The most specific line item whose every word is in `wanted` (or in it with an alias), and its label;
        `total`: only a total line (True) or only another (False)."""
        best: tuple[tuple[int, int, int, int], GridRow, str] | None = None
        section = ""  # the heading line above a group of line items ("Long-lived assets:" over "Korea", "Europe")
        for index, row in enumerate(self.rows):
            label = (row.values[self.label_pos] or "").strip()
            if not any(
                (v := row.values[i]) and parse_number(v) is not None for i in self.value_columns if i < len(row.values)
            ):
                section = label  # a heading: "Fixed assets:", "Earnings per share (in pence)"
                continue
            if row.row_id == exclude:
                continue
            # A line item read alone, or under its section: "fixed assets in Spain" is the Spain line there;
            # a figure line with no label under a section is the section's total ("total fixed assets").
            readings = [(label, v) for v in label_variants(label)]
            if section:
                # the heading read as the line's own words are ("Current tax charge:" over "State" is the
                # state current tax charge)
                readings += [
                    (f"{section} {label}", v | h)
                    for v in label_variants(label)
                    for h in label_variants(section.rstrip(":"))[:2]
                ]
                if not label and (section.endswith(":") or self.adds_up(index)):
                    # (under a heading without a colon, only a line that adds up the ones above it is its total,
                    # and it is still a "Total" as it was read before headings without colons were)
                    readings += [
                        (f"Total {section.rstrip(':')}", h | {"total"}) for h in label_variants(section.rstrip(":"))[:2]
                    ]
                    if not section.endswith(":"):
                        readings.append(("Total", {"total"}))
            elif not label and self.adds_up(index):
                readings.append(("Total", {"total"}))  # a figure line with no label, the sum of the lines above it
            own = content_words(label)
            if section and "total" in own and own - {"total"} == content_words(section.rstrip(":")):
                # the total of its heading's lines is the heading's line ("Total inventories" under "Inventories" is
                # the inventories asked)
                readings.append((label, own - {"total"}))
            fits = [
                (text_, v - self.years)
                for text_, v in readings
                if v - self.named_words
                and (v - self.years <= wanted or any(a <= v and v - self.years <= wanted | a for a in alias_words))
            ]
            if not fits:
                continue
            shown, words = max(fits, key=lambda f: len(f[1]))
            if not words or len(words) > MAX_LABEL_WORDS or (total is not None and ("total" in words) != total):
                continue
            if _qualified(shown, self.question):
                continue
            # The label holding most of the question's words, then the fewest others (an alias's "net", "total"),
            # then the fewest of its own left unread: "gross margin" is the line "Gross margin", not "Gross
            # margin (pre-rebates)" read without its bracket.
            key = (len(words & wanted), -len(words - wanted), -len(content_words(label) - words), -index)
            if best is None or key > best[0]:
                best = (key, row, shown)
        return (best[1], best[2]) if best else None


@functools.lru_cache(maxsize=256)
def _word_text(question: str) -> str:
    """The question's words, lower-cased, one space apart (read once per question, not once per line item)."""
    return " ".join(WORD.findall(question.lower()))


def _qualified(label: str, question: str) -> bool:
    """Whether the question writes the line's name (its words as the label has them, brackets left out) qualified
    by another quantity: "income before income tax expense" of the line "Income tax expense (benefit)", or
    "income before tax" of the line "Income". A label that says it ("Profit before tax") is what it says."""
    line = label.split(":")[-1].lower()
    name = " ".join(WORD.findall(re.sub(r"\([^)]*\)", " ", line)))
    if not name:
        return False
    own = set(WORD.findall(line))  # "Gross margin (pre-rebates)" says its qualifier in its bracket
    text = _word_text(question)
    found = [
        *re.finditer(rf"\b({QUALIFIERS})\s+(?:the\s+)?{re.escape(name)}\b", text),
        # "… after accounting for liabilities" tells which of two such lines, not another quantity
        *re.finditer(rf"\b{re.escape(name)}\s+({QUALIFIERS})\s+(?!\w+ing\b)\w", text),
    ]
    return any(not set(m.group(1).split()) <= own for m in found)
