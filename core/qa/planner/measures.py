"""A measure the question asks (a registered one, or one it defines itself), read from the cells of the room's
statement grids: a `CellsStep` of operation "measure", or `Missing` naming the input no statement holds.

What is asked (`asked_measure`):
- a definition written in the question ("… defined as: cash from operations / total current liabilities") is
  used as written: "divided by", "over", "plus", "minus", "less", "times" read as operators; each name is a
  registered input when it is one of its wordings, else a line item of its own words;
- else the registry's measure the question names by its longest wording ("the quick ratio", "ROE");
- with "N-year average": the measure in each of the N periods ending with the latest asked, averaged; an
  N-year average of "X as a share of revenue" is the measure X / revenue.

Where its inputs are (`measure_steps`): in a workbook, one grid holds them all (the first that does); in a
filing, any table of one document (a cash flow statement and a balance sheet), each input the one line whose
whole label is a wording of it, in the column of the period asked (a prior balance from the prior column). A
statement that prints the measure itself as a line is left to the cell rules, which read it.

A measure whose inputs the room's statements hold in part is `Missing` (the answer abstains naming the input);
one none of whose inputs any statement holds is None: the other rules (and their guards) decide. What the
question asks of the measure (its figure, its move, level, steadiness, change, growth) is
core/qa/planner/measure_questions.py's, whose `measure_cells` is the planner's entry.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from core.cells import parse_number
from core.lexicon.filings import COMPANY_SUFFIXES
from core.lexicon.measures import (
    BALANCES,
    INPUT_LABELS,
    INPUTS,
    MEASURE_FRAME,
    MEASURES,
    Measure,
    MeasureKind,
)
from core.lexicon.periods import INTERIM, months_asked
from core.qa.grounding import question_names
from core.qa.planner.cells.grid import (
    Grid,
    GridRow,
    column_labels,
    label_variants,
    month_columns,
    month_key,
    row_label,
    year_columns,
)
from core.qa.planner.cells.words import ASKED_SCALE
from core.qa.planner.schema import RoomSchema, SheetInfo
from core.qa.planner.sheets import naming_words
from core.qa.planner.statements import NOT_AMOUNTS, named_here
from core.retrieval.cellmath import CellsStep, MeasureInput, content_words, page_scale
from core.retrieval.formula import FormulaError, Node, parse, refs
from core.retrieval.rerank import interim_page, statement_kind
from core.text import NUMBER_WORDS, years_in


@dataclass(frozen=True)
class Asked:
    """The measure a question asks: its name, formulas (the first the statements hold is used), kind, convention,
    the decimal places asked (None: two) and how many periods it is averaged over."""

    name: str
    formulas: tuple[str, ...]
    kind: MeasureKind
    convention: str
    places: int | None = None
    span: int = 1
    # input name -> its line wordings, for names a written definition uses that the registry lacks
    wordings: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # a model planner chose it (the question's words need not name it, so they are not checked against it)
    chosen: bool = False


@dataclass(frozen=True)
class Missing:
    """A measure whose inputs the room's statements hold in part: what is missing, in a sentence."""

    reason: str


DEFINED = re.compile(
    r"\b(?:defined|calculated|computed|measured)\s+as\s*:?\s*(?P<expr>.+?)\s*"
    r"(?=[?;]|\.(?:\s|$)|,\s*(?:for|in|as\s+of|using|based|round|rounded|answer)\b|"
    r"\s+(?:for|in)\s+(?:fy|fiscal|the\s+(?:fiscal\s+)?year|\d{4})|$)",
    re.I,
)
_DEFINED_NAME = re.compile(
    r"(?:\bthe|\bis|\bwas|\bcompute|\bcalculate|'s|^)\s+(?:(?:fy|fiscal\s+(?:year\s+)?)?\d{2,4}\s+)?"
    r"(?P<name>[a-z][\w\s'&-]{2,60}?)"
    r"\s*,?\s*\(?\s*(?:which\s+is\s+|as\s+)?(?:defined|calculated|computed|measured)\s+as\b",
    re.I,
)
WRITTEN = "as the question defines it"  # the convention a written definition's measure states
_WORDED_OPERATORS = (
    (re.compile(r"\s+divided\s+by\s+|\s+over\s+", re.I), " / "),
    (re.compile(r"\s+(?:multiplied\s+by|times)\s+", re.I), " * "),
    (re.compile(r"\s+plus\s+", re.I), " + "),
    (re.compile(r"\s+(?:minus|less)\s+", re.I), " - "),
    (re.compile(r"\s*([/*+])\s*"), r" \1 "),
)
_AVERAGE_SPAN = re.compile(r"\b(?P<n>two|three|four|five|[2-5])[\s-]+year\s+average\b", re.I)
_SHARE_OF_REVENUE = re.compile(
    r"\b(?:average\s+(?:of\s+)?)?(?:the\s+)?(?P<a>[a-z][a-z ,'&-]*?)\s+(?:as\s+an?\s+(?:percentage|percent|share|%|"
    r"proportion)\s+of|over|to|relative\s+to)\s+(?:total\s+)?(?:net\s+)?(?:revenue|revenues|sales)\b",
    re.I,
)
_ROUNDING = re.compile(r"\b(?P<n>\w+)\s+decimal(?:\s+place)?s?\b|\bnearest\s+(?P<word>whole|tenth|hundredth)", re.I)
_NEAREST = {"whole": 0, "tenth": 1, "hundredth": 2}
# What the question asks of the measure besides its figure: a driver or reason, a yes/no, a change or a comparison
# ("what drove the gross margin", "did the current ratio improve", "the change in operating margin"): its figure
# in one period does not answer. Read in the asking part, before an "if …" or an instruction.
_ASKING_END = re.compile(r"\bif\b", re.I)
_SENTENCES = re.compile(r"(?<=[?.!])\s+")
NOT_ITS_FIGURE = re.compile(
    r"\b(?:drove|drive|drives|driven|drivers?|why|caused?|causes|reasons?|due\s+to|explain\w*|"
    r"chang\w*|increas\w*|decreas\w*|declin\w*|improv\w*|deteriorat\w*|compar\w*|differen\w*|trend\w*|"
    r"versus|vs|higher|lower|better|worse|rise|rose|fall|fell)\b|"
    r"^\s*(?:is|are|was|were|did|does|do|has|have|had|can|could|should|will|would)\b",
    re.I,
)


def asking(question: str) -> str:
    """The part of the question that asks: its sentence ending in "?" (else its first), after a lead-in ending in
    a colon, before an "if …" clause."""
    sentences = [s for s in _SENTENCES.split(question.strip()) if s]
    asking = next((s for s in sentences if s.endswith("?")), sentences[0] if sentences else "")
    return _ASKING_END.split(asking.rsplit(":", 1)[-1], 1)[0]


def places_asked(question: str) -> int | None:
    m = _ROUNDING.search(question)
    if m is None:
        return None
    if m.group("word"):
        return _NEAREST[m.group("word").lower()]
    n = m.group("n").lower()
    return int(n) if n.isdigit() else NUMBER_WORDS.get(n)


def _words(text: str) -> frozenset[str]:
    return frozenset(content_words(text))


def input_named(phrase: str) -> str | None:
    """The registered input a phrase names by one of its wordings ("cash from operations"), or None."""
    words = _words(re.sub(r"^(?:the|a|an)\s+", "", phrase.strip(), flags=re.I))
    return next((name for name, wordings in INPUTS.items() if any(_words(w) == words for w in wordings)), None)


def _written(question: str) -> Asked | None:
    """A definition the question writes ("defined as: A / B"), its names bound to inputs or to their own words."""
    m = DEFINED.search(question)
    if m is None:
        return None
    expr = _balances(balanced(m.group("expr").strip().rstrip(".")))
    for pattern, operator in _WORDED_OPERATORS:
        expr = pattern.sub(operator, expr)
    try:
        tree = parse(expr)
    except FormulaError:
        return None
    names = refs(tree)
    if len(names) < 2 or any(not _words(name) for name, _ in names):
        return None
    mapping: dict[str, str] = {}
    own: list[tuple[str, tuple[str, ...]]] = []
    for name, _ in names:
        bound = input_named(name)
        if bound is None:
            bare = re.sub(r"^(?:the|a|an)\s+", "", name)
            own.append((bare, (bare,)))
            bound = bare
        mapping[name] = bound
    formula = _renamed(tree, mapping)
    convention = f"{WRITTEN}: {balanced(m.group('expr').strip().rstrip('.'))}"
    named = _DEFINED_NAME.search(question[: m.start() + 20])
    title = _title(named.group("name")) if named else ""
    # a registered measure the question names and defines ("ROA is defined as: …") keeps its name and kind (a
    # percent), its formula the question's; a name of its own ("the cash conversion ratio, defined as …") is
    # the question's measure, whatever registered wording is part of it
    registered = _registered(question)
    if registered is not None and (not title or any(_words(w) == _words(title) for w in registered.wordings)):
        return Asked(registered.name, (formula,), registered.kind, convention, places_asked(question), 1, tuple(own))
    title = title or "measure as defined in the question"
    return Asked(title, (formula,), "ratio", convention, places_asked(question), 1, tuple(own))


# A definition's averages and changes of a balance over the two years it names, and the period words of its names:
# "FY2022 revenue / (average PP&E between FY2021 and FY2022)" is revenue / avg(PP&E) in the later year; "change in
# inventory from 2021 to 2022" is inventory less its prior figure; "average inventory" alone is the opening and
# closing balances' average as analysts compute it.
_YEAR_WORD = r"(?:(?:fy|fiscal(?:\s+year)?)\s*'?)?\d{2,4}"
_TWO_YEARS = (
    rf"(?:between|from|over|across|for|in|of)\s+(?:the\s+)?{_YEAR_WORD}\s+(?:and|to|through|-|–)\s+{_YEAR_WORD}"
)
_NAME_RUN = r"(?:the\s+)?(?P<x>[^()/*+]+?)"
_AVERAGE_OVER = re.compile(rf"\baverage\s+(?:of\s+)?{_NAME_RUN}\s+{_TWO_YEARS}", re.I)
_CHANGE_OVER = re.compile(rf"\b(?:the\s+)?change\s+in\s+{_NAME_RUN}\s+{_TWO_YEARS}", re.I)
_AVERAGE_ALONE = re.compile(rf"\baverage\s+(?:of\s+)?{_NAME_RUN}(?=\s*(?:[)/*+]|\s-\s|$))", re.I)
_PERIOD_WORDS = re.compile(
    r"(?:\b(?:in|for|at|of|as\s+of)\s+)?(?:\bthe\s+)?(?:\b(?:fy|fiscal(?:\s+year)?)\s*'?\d{2,4}\b|\b(?:19|20)\d{2}\b)",
    re.I,
)


def _balances(expr: str) -> str:
    """A written definition with its averages and changes of balances as formula functions and without the period
    words of its names (see above)."""
    expr = _AVERAGE_OVER.sub(lambda m: f"avg({m.group('x').strip()})", expr)
    expr = _CHANGE_OVER.sub(lambda m: f"({m.group('x').strip()} - prior({m.group('x').strip()}))", expr)
    expr = _AVERAGE_ALONE.sub(lambda m: f"avg({m.group('x').strip()})", expr)
    return " ".join(_PERIOD_WORDS.sub(" ", expr).split())


def balanced(expr: str) -> str:
    """A definition written in brackets ends at its closing one: "(defined as cash from operations / current
    liabilities), what was it for 2021" -> "cash from operations / current liabilities"."""
    depth = 0
    for i, char in enumerate(expr):
        depth += (char == "(") - (char == ")")
        if depth < 0:
            return expr[:i].strip()
    return expr


def _title(name: str) -> str:
    """A measure's name as the question writes it, without articles, periods and the company it is of ("the
    FY2022 current ratio for Acme")."""
    name = re.split(r"\s+(?:for|of|at)\s+(?=[A-Z0-9])", name, maxsplit=1)[0]
    words = [w for w in name.split() if not years_in(w) and w.lower() not in ("the", "a", "an", "fiscal", "fy")]
    return " ".join(words)


def _renamed(node: Node, mapping: dict[str, str]) -> str:
    """The formula's text with each name replaced by its input's name."""
    if node.number is not None:
        return format(node.number, "f")
    if not node.op:
        name = mapping.get(node.name, node.name)
        return f"prior({name})" if node.prior else name
    assert node.left is not None and node.right is not None
    return f"({_renamed(node.left, mapping)} {node.op} {_renamed(node.right, mapping)})"


def _registered(question: str) -> Measure | None:
    """The registry's measure the question names by its longest wording."""
    text = " ".join(re.findall(r"[a-z0-9]+", question.lower().replace("-", " ")))
    best: tuple[int, Measure] | None = None
    for measure in MEASURES:
        for wording in measure.wordings:
            words = " ".join(re.findall(r"[a-z0-9]+", wording.lower().replace("-", " ")))
            if re.search(rf"\b{re.escape(words)}\b", text) and (best is None or len(words) > best[0]):
                best = (len(words), measure)
    return best[1] if best else None


def asked_measure(question: str, *, shares: bool = False) -> Asked | None:
    """The measure the question asks (see the module docstring), or None. `shares`: a share of revenue asked of
    one period ("the cost of sales as a share of net sales for June") is a measure too (the caller asks it when
    the cell rules found no two named lines)."""
    span_m = _AVERAGE_SPAN.search(question)
    span = 1
    if span_m:
        n = span_m.group("n").lower()
        span = int(n) if n.isdigit() else NUMBER_WORDS.get(n, 1)
    written = _written(question)
    if written is not None:
        return Asked(written.name, written.formulas, written.kind, written.convention, written.places, span,
                     written.wordings)  # fmt: skip
    measure = _registered(question)
    if measure is not None:
        return Asked(measure.name, measure.formulas, measure.kind, measure.convention, places_asked(question), span)
    if span > 1 or shares:
        return _share_of_revenue(question[span_m.end() if span_m else 0 :], span)
    return None


def _share_of_revenue(question: str, span: int) -> Asked | None:
    """ "X as a share of revenue" (averaged over `span` periods): X the longest run of the words before it, ending
    with the last, that names an input ("actual gross profit": gross profit; "actual" is left for the reading of
    every word to account for)."""
    share = _SHARE_OF_REVENUE.search(question)
    if share is None:
        return None
    words = share.group("a").split()
    bound, part = None, ""
    for start in range(len(words)):
        part = " ".join(words[start:])
        if (bound := input_named(part)) is not None:
            break
    if bound is None or bound == "revenue":
        return None
    over = f", averaged over {span} periods" if span > 1 else ""
    return Asked(f"{part} as a share of revenue", (f"{bound} / revenue",), "percent", f"{bound} over revenue{over}",
                 places_asked(question), span)  # fmt: skip


def chosen_measure(question: str, name: str) -> Asked | None:
    """The registered measure of that name (a model's choice), or None."""
    measure = next((m for m in MEASURES if m.name.lower() == name.strip().lower()), None)
    if measure is None:
        return None
    span_m = _AVERAGE_SPAN.search(question)
    n = span_m.group("n").lower() if span_m else "1"
    span = int(n) if n.isdigit() else NUMBER_WORDS.get(n, 1)
    return Asked(measure.name, measure.formulas, measure.kind, measure.convention, places_asked(question), span,
                 chosen=True)  # fmt: skip


# -- the grids -----------------------------------------------------------------------------------------------


# A cash flow statement's lines (or a discussion table of them): "Net cash provided by operating activities".
_ACTIVITIES = re.compile(r"\b(?:operating|investing|financing)\s+activities\b", re.I)


@dataclass(frozen=True)
class _Table:
    """A statement grid as the measure reads it: its sheet, line items, and the column of each period key."""

    sheet: SheetInfo
    grid: Grid
    periods: dict[str, list[int]]  # "2021" or "M03" -> columns
    monthly: bool
    flows: bool = False  # a statement of cash flows (or part of one): its lines of a balance are changes
    page_scale: str = ""  # the unit a primary statement's page states above the table ("million"), else ""


def statement_table(sheet: SheetInfo, question: str) -> _Table | None:
    names = [c.name for c in sheet.columns]
    if len(names) < 2 or not sheet.grid:
        return None
    whole_year = not INTERIM.search(question)
    if whole_year and sheet.page is not None and interim_page(sheet.page_text):
        return None  # a 10-Q's statement: its columns dated in a year are parts of it, or a balance within it
    labels, n_header = column_labels(names, sheet.grid, 0)
    periods = year_columns(labels, 0)
    if whole_year:
        # a year asked is a whole year: a quarter's or six months' column dated in it is not its figure
        periods = {
            k: kept for k, cols in periods.items() if (kept := [i for i in cols if not INTERIM.search(labels[i])])
        }
    # a filing's columns of later years schedule what is due then: no measure of a period reads them
    later = sheet.scheduled(int(k) for k in periods if k.isdigit())
    periods = {k: cols for k, cols in periods.items() if not (k.isdigit() and int(k) in later)}
    monthly = False
    if len(periods) < 2:
        periods = month_columns(labels, 0)
        monthly = bool(periods)
        if not periods:
            return None
    columns = sorted({i for cols in periods.values() for i in cols})
    grid = Grid(sheet.grid[n_header:], 0, columns, set(periods), set(), labels, question)
    kind = statement_kind(sheet.page_text)
    flows = kind == "cash flow statement" or any(_ACTIVITIES.search(row_label(row)) for row in grid.rows)
    return _Table(sheet, grid, periods, monthly, flows, page_scale(sheet.page_text) if kind else "")


_TOTAL = frozenset({"total"})


def _line(
    table: _Table, wordings: Sequence[str], column: int, labelled: re.Pattern[str] | None = None
) -> GridRow | None:
    """The one line whose whole label is one of `wordings` (else, with `labelled`, the one whose whole label it
    matches: INPUT_LABELS), with an amount in `column`; None when none or two. A line under a heading of
    per-share figures, rates or statistics ("Per Share Data" over "Net earnings") is no amount of the
    statement's."""
    wanted = [_words(w) for w in wordings]
    found = []
    patterned = []
    totals = []
    heading = ""
    for row in table.grid.rows:
        label = row_label(row)
        if not any((row.values[i] or "").strip() for i in table.grid.value_columns if i < len(row.values)):
            heading = label
            continue
        if NOT_AMOUNTS.search(heading):
            continue
        variants = [frozenset(v - table.grid.years) for v in label_variants(label)] if label else []
        if any(v in wanted for v in variants if v):
            found.append(row)
        elif any(v - _TOTAL in wanted for v in variants if "total" in v):
            totals.append(row)  # "Total inventories" under an "Inventories" heading: when no line is the wording
        elif labelled is not None and labelled.fullmatch(" ".join(label.lower().split())):
            patterned.append(row)
    found = found or patterned or totals
    if len(found) != 1:
        return None
    row = found[0]
    text = row.values[column] if column < len(row.values) else None
    return row if text and parse_number(text) is not None and "%" not in text else None


# A company's corporate suffix ("Inc.", "Corp.", "plc") as content words: part of the name a question gives.
# ("Group", "Holdings", "Company" are left out: a lowercase "group" may name a segment.)
_LEFT_OUT = frozenset({"company", "group", "holding"})
_SUFFIX_WORDS = frozenset(w for s in COMPANY_SUFFIXES for w in content_words(s.replace(".", ""))) - _LEFT_OUT


_MONTH_WORDS = frozenset(
    "jan january feb february mar march apr april may jun june jul july aug august sep sept september oct october "
    "nov november dec december q1 q2 q3 q4 h1 h2".split()
)


def _unread(question: str, asked: Asked, tables: Sequence[_Table]) -> bool:
    """Whether the part of the question asking the measure holds a word that is none of the measure's, its
    inputs', a period, a name on the statements' pages (or, in a workbook, the tab's or its lines'), a word
    naming the tab, nor a word of how it asks (MEASURE_FRAME): "the gross margin of the Widgets segment" is no
    whole statement's gross margin."""
    part = _measure_part(question, asked)
    measure = next((m for m in MEASURES if m.name == asked.name), None)
    known = set(MEASURE_FRAME) | set(_MONTH_WORDS) | set(NUMBER_WORDS) | _words(asked.name) | _words(asked.convention)
    known |= _SUFFIX_WORDS  # "Acme Widgets, Inc.'s current ratio": the suffix is the name's, no qualifier
    for wording in (*(measure.wordings if measure else ()), *asked.formulas):
        known |= _words(wording.replace("(", " ").replace(")", " "))
    for name in {n for f in asked.formulas for n, _ in refs(parse(f))}:
        known |= set().union(*(_words(w) for w in _wordings(asked, name)))
    places = " ".join(f"{t.sheet.title} {t.sheet.name} {t.sheet.page_text} {' '.join(t.grid.labels)} "
                      + " ".join(row_label(r) for r in t.grid.rows) for t in tables)  # fmt: skip
    held = _words(places)
    for sheet in {t.sheet for t in tables}:
        known |= {w for word in naming_words(part, sheet) for w in _words(word)}
    for name in question_names(part):
        if not _words(name) <= held | _MONTH_WORDS:
            return True  # a name (a segment, a company) none of the statements holds
        known |= _words(name)
    rest = {w for w in _words(part) if not years_in(w) and not re.fullmatch(r"(?:fy|q[1-4]|h[12])?\d+", w)}
    return bool(rest - known)


def _flat(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower().replace("-", " ")))


def _measure_part(question: str, asked: Asked) -> str:
    """The sentence of the question that names the measure (or defines it), after a lead-in ending in a colon,
    before an "if …" clause; the asking sentence when none does."""
    measure = next((m for m in MEASURES if m.name == asked.name), None)
    names = [_flat(n) for n in (asked.name, *(measure.wordings if measure else ()))]
    for sentence in (s for s in _SENTENCES.split(question.strip()) if s):
        if DEFINED.search(sentence) or any(f" {n} " in f" {_flat(sentence)} " for n in names):
            return _ASKING_END.split(sentence.rsplit(":", 1)[-1], 1)[0]
    return asking(question)


_TWO_YEARS_PHRASE = re.compile(_TWO_YEARS, re.I)


def _balance_periods(question: str, asked: Asked) -> str:
    """The question as its periods are read for a measure over opening and closing balances: the two years an
    average or change spans ("average inventory between FY2021 and FY2022") are its prior and its period, so
    the period asked is the year named elsewhere, else the later of the two."""
    if asked.span != 1 or not any(prior for f in asked.formulas for _, prior in refs(parse(f))):
        return question
    spans = [years_in(m.group(0)) for m in _TWO_YEARS_PHRASE.finditer(question)]
    if not spans:
        return question
    rest = _TWO_YEARS_PHRASE.sub(" ", question)
    if years_in(rest):
        return rest
    pairs = {tuple(sorted(set(years))) for years in spans}
    if len(pairs) == 1 and len(pair := next(iter(pairs))) == 2 and int(pair[1]) - int(pair[0]) == 1:
        return f"{rest} {pair[1]}"
    return question


def _prior_key(key: str) -> str:
    """The period before a period key: "2021" -> "2020", "M03" -> "M02"."""
    return f"M{int(key[1:]) - 1:02d}" if key.startswith("M") else str(int(key) - 1)


def _periods(question: str, table: _Table, span: int) -> list[str] | None:
    """The period keys the measure is computed for: the one asked, or the `span` ending with the latest asked."""
    if table.monthly:
        months, spanned = months_asked(question)
        asked = [month_key(m) for m in months]
        if spanned:
            return None
    else:
        asked = list(dict.fromkeys(years_in(question)))
    if not asked:
        return None
    if span == 1:
        return asked if len(asked) == 1 else None
    last = max(asked)
    keys = [last]
    while len(keys) < span:
        keys.insert(0, _prior_key(keys[0]))
    return keys


def _wordings(asked: Asked, name: str) -> tuple[str, ...]:
    own = dict(asked.wordings)
    return own.get(name) or INPUTS.get(name) or (name,)


@dataclass(frozen=True)
class _Found:
    inputs: list[MeasureInput]
    missing: list[tuple[str, str]]  # (input, period) not found
    held: int  # how many inputs were found


def _find(asked: Asked, formula: str, tables: Sequence[_Table], keys: Sequence[str]) -> _Found:
    """Each input of `formula` in each period: in the table that holds the most of the inputs' lines in the
    periods' columns (a statement holding them all: not a revenue line from a quarterly table beside a gross
    profit from the selected data), then the next; among equals a primary statement first, then the filing's
    order."""
    tree = parse(formula)
    wanted = [(name, _prior_key(key) if prior else key) for key in keys for name, prior in refs(tree)]

    def hit(table: _Table, name: str, want: str) -> tuple[GridRow, int] | None:
        if name in BALANCES and table.flows:
            return None
        column = table.grid.year_column(want, table.periods) if want in table.periods else None
        labelled = None if name in dict(asked.wordings) else INPUT_LABELS.get(name)
        row = _line(table, _wordings(asked, name), column, labelled) if column is not None else None
        return (row, column) if row is not None and column is not None else None

    hits = {(id(t), name, want): hit(t, name, want) for t in tables for name, want in set(wanted)}
    held = {id(t): sum(hits[(id(t), name, want)] is not None for name, want in set(wanted)) for t in tables}
    # among tables holding as many, a primary statement's page (its heading on top) before highlights and notes
    ranked = sorted(tables, key=lambda t: (-held[id(t)], statement_kind(t.sheet.page_text) is None))
    inputs: list[MeasureInput] = []
    missing: list[tuple[str, str]] = []
    for key in keys:
        for name, prior in refs(tree):
            want = _prior_key(key) if prior else key
            found = next(((t, *h) for t in ranked if (h := hits[(id(t), name, want)]) is not None), None)
            if found is None:
                missing.append((name, want))
                continue
            table, row, column = found
            inputs.append(MeasureInput(
                name=name, prior=prior, sheet_id=table.sheet.sheet_id, row_id=row.row_id,
                column=[c.name for c in table.sheet.columns][column], column_label=table.grid.labels[column],
                label=row_label(row), period=_period_label(ranked, key),
                page_scale=table.page_scale,
            ))  # fmt: skip
    return _Found(inputs, missing, len(inputs))


def _period_label(tables: Sequence[_Table], key: str) -> str:
    """How the headers name a period key ("Sep", "2021"): the first table holding it."""
    for table in tables:
        if key in table.periods:
            return table.grid.labels[table.periods[key][0]]
    return key


def _printed(asked: Asked, tables: Sequence[_Table], question: str) -> bool:
    """Whether a statement prints the measure itself as a line ("Gross margin %", "Current ratio") in the words the
    question asks it by (the cell rules read that line; a line in other words, "Operating income margin" for
    "operating margin", they do not: the measure is computed)."""
    measure = next((m for m in MEASURES if m.name == asked.name), None)
    wordings = [_words(w) for w in (measure.wordings if measure else (asked.name,))]
    asked_words = _words(question)
    return any(
        any(
            frozenset(v - t.grid.years) in wordings and v - t.grid.years <= asked_words
            for v in label_variants(row_label(row))
        )
        for t in tables
        for row in t.grid.rows
        if row_label(row)
    )


def _step(asked: Asked, formula: str, found: _Found, tables: Sequence[_Table], keys: Sequence[str]) -> CellsStep:
    first = found.inputs[0]
    # each period as the table its inputs came from names it (another table of the filing may head it otherwise):
    # `_find` appends one input per formula reference, period by period
    per_period = len(found.inputs) // len(keys)
    labels = [found.inputs[k * per_period].period for k in range(len(keys))]
    seen = list(dict.fromkeys(i.label for i in found.inputs))
    return CellsStep(
        sheet_id=first.sheet_id, operation="measure", row_id=first.row_id, row_label=asked.name,
        other_label="; ".join(seen), columns=[first.column], column_labels=labels, formula=formula,
        inputs=found.inputs, measure_kind=asked.kind, convention=asked.convention, places=asked.places,
        reason=f"The {asked.name} = {formula}, from the cells of {', '.join(seen)} in {', '.join(labels)}",
    )  # fmt: skip


def _missing(asked: Asked, found: _Found, where: str) -> Missing:
    gaps = ", ".join(dict.fromkeys(f"{name} ({period})" for name, period in found.missing))
    return Missing(f"The {asked.name} is {asked.formulas[0]}: no line of {gaps} is in {where}, so it is not "
                   f"computed (no ingredient is given as the measure).")  # fmt: skip


def _in_tables(
    asked: Asked, tables: Sequence[_Table], question: str, where: str, judged: bool = False
) -> CellsStep | Missing | None:
    """The measure from `tables` (all of one workbook grid, or of one filing), Missing, or None (no input held).
    `judged`: a yes/no on it, which the cell rules do not answer from a line printing it: computed anyway."""
    if (
        not tables
        or (not judged and _printed(asked, tables, question))
        or (not asked.chosen and _unread(question, asked, tables))
    ):
        return None
    keys = _periods(_balance_periods(question, asked), tables[0], asked.span)
    if keys is None:
        return None
    best: _Found | None = None
    for formula in asked.formulas:
        found = _find(asked, formula, tables, keys)
        if not found.missing:
            step = _step(asked, formula, found, tables, keys)
            scale = ASKED_SCALE.search(question) if asked.kind == "amount" else None
            # an amount (free cash flow) asked "in USD millions" is converted to it from the statements' unit
            return step.model_copy(update={"asked_scale": scale.group(1).lower().rstrip("s")}) if scale else step
        best = found if best is None or found.held > best.held else best
    if best is None or not best.held:
        return None
    return _missing(asked, best, where)


def measure_steps(
    question: str, schema: RoomSchema, asked: Asked, judged: bool = False
) -> tuple[CellsStep, SheetInfo] | Missing | None:
    """The measure `asked` from the room's statement grids: a workbook grid holding all its inputs, else the
    tables of one filing (the filing of the period asked first)."""
    by_id = {s.sheet_id: s for s in schema.sheets}
    missing: Missing | None = None
    for sheet in schema.sheets:
        if sheet.page is not None or (table := statement_table(sheet, question)) is None:
            continue
        found = _in_tables(asked, [table], question, sheet.label, judged)
        if isinstance(found, CellsStep):
            return found, by_id[found.sheet_id]
        missing = missing or found
    documents: dict[int, list[_Table]] = {}
    for sheet in schema.sheets:
        if sheet.page is not None and named_here_any(question, sheet) and (table := statement_table(sheet, question)):
            documents.setdefault(sheet.document_id, []).append(table)
    # the filing whose latest column is the period asked first (the filing of the period asked), then the latest
    asked_years = years_in(question)
    target = max(asked_years) if asked_years else ""

    # a whole year asked: a filing of the year (a 10-K) before one holding parts of years (a 10-Q, a quarter's release)
    whole_year = not INTERIM.search(question)

    def order(tables: list[_Table]) -> tuple[bool, bool, str]:
        latest = max(max(t.periods) for t in tables)
        interim = whole_year and any(INTERIM.search(label) for t in tables for label in t.grid.labels)
        return latest != target, interim, "".join(chr(255 - ord(c)) for c in latest)

    for tables in sorted(documents.values(), key=order):
        found = _in_tables(asked, tables, question, f"{tables[0].sheet.title}'s statements", judged)
        if isinstance(found, CellsStep):
            return found, by_id[found.sheet_id]
        missing = missing or found
    return missing


def named_here_any(question: str, sheet: SheetInfo) -> bool:
    """Whether the names the question gives are on the table's page or name its document (a question naming
    no company reads any filing)."""
    return not question_names(question) or named_here(question, sheet)
