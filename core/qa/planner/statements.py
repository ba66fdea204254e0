"""Which statement grid answers a question with cell arithmetic (core.qa.planner.cells), if any.

A spreadsheet's grid was put in the room by the user: the first grid that names a line item of the question is
used, as before. A filing's tables are many (a 10-K holds about a hundred) and were found by the table finder,
so a line item "named" by the question is often not what it asks: the company's name in a stock-performance
table ("Globex Express"), a word used as a verb ("please state the reason"), the line under a ratio asked of it
("inventory" for the inventory turnover ratio), a year the table does not hold, another company's
statement (the question's names must be on the table's page or name its document). Each of these is a class of
wrong figure, and a PDF table's line item is credible only when none applies (`credible`). Of the credible ones
the most specific label wins (the longest), then the first in the room's order.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.lexicon.finance import FIGURE_WORDINGS
from core.lexicon.measures import INPUT_LABELS, OUTFLOWS
from core.lexicon.numbers import SCALE_WORDS, parse_number
from core.lexicon.periods import HALVES, INTERIM, MONTHS, QUARTERS, SCHEDULED, YEAR_DIGITS
from core.qa.grounding import abbreviates, question_names
from core.qa.measures import metric_alone, narrowing_words
from core.qa.metrics import METRICS, figure_aliases
from core.qa.passage_figures import passage_figure
from core.qa.planner.cells import OPERATION_WORDS, asks_periods, plan_cells, turned_grid
from core.qa.planner.cells.grid import LESS_OF, NET_OF, SIGN, column_labels
from core.qa.planner.cells.words import CHANGE, DECREASE_ASKED, RISE_ASKED
from core.qa.planner.changes import asks_driver, topic, yes_no_asked
from core.qa.planner.periods import as_dated, at_quarter_end
from core.qa.planner.schema import RoomSchema, SheetInfo
from core.retrieval.cellmath import ITEM_OPERATIONS, LISTED_OPERATIONS, CellsStep
from core.retrieval.rerank import interim_page, statement_kind
from core.text import STOP_WORDS, YEAR, years_in

_WORD = re.compile(r"[a-z0-9&]+")
# A quantity derived from a line item: the question asks for the ratio, margin or share, not the line ("per the
# cash flow statement" says where to read it: no quantity per anything).
_DERIVED = re.compile(
    r"\b(?:ratio|ratios|margin|margins|turnover|rate|rates|yield|multiple|per\s+(?!cent\b|the\b|its\b|their\b)[a-z]+)\b|"
    r"\bas\s+an?\s+(?:percent(?:age)?|%|share|proportion)\s+of\b|\b(?:percentage|share|proportion)\s+of\b"
)


# Words of a quantity relative to another (a share, a ratio, a rate, a margin), in lower-cased text.
RELATIVE = re.compile(r"%|\bpercent|\bratio|\brate\b|\bmargin|\bshare\b")
# Questions a single figure does not answer: yes/no, which of several, why/how come, who/where.
_NOT_A_FIGURE = re.compile(
    r"\s*(?:which|who|whom|where|why|does|do|did|is|are|was|were|has|have|had|can|could|should|will|would)\b"
)
# "Of rent, wages and power, which cost the most": one of several items, not a figure.
_WHICH_ITEM = re.compile(r"\bwhich\b(?!\s+(?:year|period|quarter|fiscal|month))")
_COMPARED = re.compile(r"\bcompar\w*|\bversus\b|\bvs\b")
# What follows a comparison word when periods are compared: "compared to 2018", "vs. fiscal 2018", "vs FY18",
# "compared with FY2021".
_PERIOD_AFTER = re.compile(
    r"\.?\s*(?:to|with|against)?\s*(?:the\s+)?"
    rf"(?:(?:fiscal\s+)?(?:year\s+)?{YEAR_DIGITS}|(?:fy|f)\s*'?(?:{YEAR_DIGITS}|\d\d)|(?:prior|previous|preceding|last)\s+(?:fiscal\s+)?year)\b"
)
# Words that ask for a line item's figure without naming another quantity: "the amount of Spare Parts".
_GENERIC = frozenset(
    "amount value figure number balance total fy fiscal year end ended period much many respectively between "
    "from since".split()
    # a threshold on the line's figures and its scale: "did Spare Parts exceed $5,000 thousand"
    + "exceed exceeded above below under over than".split()
) | frozenset(SCALE_WORDS)


def _words(text: str) -> set[str]:
    words = set()
    for word in _WORD.findall(text.lower()):
        word = re.sub(r"(?<=[a-z])\d+$", "", word)  # "EPS (diluted)1,4": footnote marks
        if re.search("[a-z]", word) and word not in STOP_WORDS and not YEAR.fullmatch(word):
            words.add(word)
    return words


def _stem(word: str) -> str:
    if word == "ending":
        return "end"  # "ending goodwill" is the line "Goodwill, end of the year"
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


# One-word metric names ("revenue", "inventories", "EPS"): a one-word line item must be one of them, singular as
# line items are read ("Inventories" and "Receivables" are the one-word metrics they print).
_ONE_WORD_METRICS = frozenset(_stem(w.lower()) for ws in METRICS.values() for w in ws if len(w.split()) == 1)


def label_words(label: str) -> set[str]:
    """The words of a line item that name it (a bracketed note or acronym left out, and what it is "net of":
    "Additions to property and equipment, net of $35 of non-cash capital expenditures"), singular."""
    net = NET_OF.search(label)
    named = label[: net.start()] if net is not None and net.start() else label
    named = SIGN.sub("", named)  # "Less: Reserves for credit losses" names the reserves
    # "Loans (…), less reserves for credit losses: 2027, $9" is the net loans: asked as such, with "net"
    less = LESS_OF.search(named)
    named = f"{named[: less.start()]} net" if less is not None else named
    return {_stem(w) for w in _words(re.sub(r"\([^)]*\)", " ", named))}


def _fold(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def named_here(question: str, sheet: SheetInfo) -> bool:
    """Whether every name the question gives (a company, a segment, a country) is on the table's page or names
    its document ("Northwind" for NORTHWIND_2021_10K.pdf, "SnS" for SMITH_SMITH_2021_10K.pdf): a figure of
    Smith & Smith's statement is no answer to a question about Globex, though its filing mentions Globex."""
    page = " ".join(sheet.page_text.lower().split())
    title = _fold(sheet.title)
    for name in question_names(question):
        if " ".join(name.lower().split()) in page or _fold(name) in title:
            continue
        if " " not in name and len(name) <= 6 and abbreviates(name, sheet.title):
            continue
        return False
    return True


def credible(step: CellsStep, question: str, aliases: Sequence[str] = (), *, linked: bool = False) -> bool:
    """Whether a PDF table's line item is what the question asks for (see the module docstring). `linked`: the
    line item is the only one of its name in the room and the question's other words are all on its table's
    page (`linked_here`), so a label that names no metric ("Other", "LATAM") or is a name the question gives
    can still be what it asks."""
    text = question.lower()
    asked = {_stem(w) for w in _words(" ".join([question, *aliases]))}
    if step.operation in ITEM_OPERATIONS:
        # Two line items, each named whole by its side of the question (core.qa.planner.cells checked the sides):
        # each must be a line the question names, not a word of it, and the question must ask for one figure.
        # A one-word line must be a metric, or the table's "Total" beside a line that is named well.
        items = [label_words(step.row_label), label_words(step.other_label)]
        # two lines listed side by side ("Orchard and Kestrel" for "Orchard Inc. ("Orchard")") were each found whole at
        # the "and", with every other word of the question on the table's page: a one-word line is named there
        listed = step.operation in LISTED_OPERATIONS
        named = [bool(item) and (listed or (item <= asked and (linked or len(item) > 1 or bool(item & _ONE_WORD_METRICS))))
                 for item in items]  # fmt: skip
        totals = [item == {"total"} and item <= asked for item in items]
        return (
            any(named)
            and all(n or t for n, t in zip(named, totals, strict=True))
            and not (_NOT_A_FIGURE.match(text) or _WHICH_ITEM.search(text))
        )
    label = label_words(step.row_label)
    if _fold(step.row_label) != _fold(re.sub(r"\([^)]*\)", " ", step.row_label)) and re.search(
        rf"(?<![a-z0-9]){re.escape(' '.join(step.row_label.lower().split()))}(?![a-z0-9])", " ".join(text.split())
    ):
        # the question writes the line with its bracket ("Total (secured)" beside "Total (unsecured)"): the bracket is
        # part of the line's name
        label = {_stem(w) for w in _words(step.row_label)}
    names = {_stem(w) for name in question_names(question) for w in _words(name)}
    if len(label) > 1 and "total" not in asked:
        label -= {"total"}  # "Total inventories" is the inventories asked (the grid read it under its heading)
    if not label or not label <= asked:
        return False  # every word of the line item is in the question (or in a wording of the figure it names)
    if not linked and label <= names and {_stem(w) for w in _words(text)} - label - names - _GENERIC - OPERATION_WORDS:
        # the line item is the company (or segment) the question names, and the question asks a quantity of it
        # ("Smith & Smith's EBIT"); a line item merely written in capitals ("the amount of Spare Parts",
        # "the change in Raw Materials") is asked for itself
        return False
    if not linked and len(label) == 1 and not label & _ONE_WORD_METRICS:
        return False  # "Total", "State", "International": a word of the question, not a figure it names
    for derived in _DERIVED.finditer(text):
        if not {_stem(w) for w in _words(derived.group())} <= label:
            return False  # "inventory turnover ratio" is not the inventory line
    if "%" in step.row_label and not RELATIVE.search(text):
        return False  # "% to sales" is a ratio line; the question asks for an amount
    if (_NOT_A_FIGURE.match(text) or _WHICH_ITEM.search(text)) and step.operation not in (
        "argmax",
        "argmin",
        "where",
        "periods",
    ):
        return False  # yes/no, "which …", "why …": one cell's figure is not the answer
    # two things compared: one line item answers half of it ("2019 compared to 2018" compares periods)
    return not any(not _PERIOD_AFTER.match(text, found.end()) for found in _COMPARED.finditer(text))


def linked_here(question: str, step: CellsStep, sheet: SheetInfo, schema: RoomSchema) -> bool:
    """Whether nothing else in the room could be the line item `step` reads, and the question names nothing
    its table's page does not hold: no other row of any PDF table has its name, and every word of the question
    besides the line item, periods and arithmetic ("change", "average") is on the page ("net sales in LATAM":
    the page heads the table "Net sales by region"). A line item named by a word that is no metric ("Other")
    or by the company itself answers only then: in a filing of a hundred tables "Other" is many lines."""
    label = label_words(step.row_label)
    others = sum(
        1
        for other in schema.sheets
        if other.grid and other.page is not None
        for row in other.grid
        if row.values and row.row_id != step.row_id and label_words(row.values[0] or "") == label
    )
    if others:
        return False
    # a bare "Total" line is the total of what the table is about, which a short document's prose may name
    # ("the costs incurred … are as follows"), as is a line of two words or more ("Teekay LNG" of a table of
    # revenues): the document's only table reads its subject from all its text. A one-word line ("Cost",
    # "Liabilities") does not: in a page of prose a word that common names many figures.
    whole = label == {"total"} or len(label) > 1
    context = f"{sheet.page_text} {sheet.title} {sheet.document_text if whole else ''}"
    page = {_stem(w) for w in _words(context)}
    rest = {_stem(w) for w in _words(question)} - label - _GENERIC - OPERATION_WORDS
    return rest <= page


# A figure in prose: "$9.2 million", "(1,204)", "4.5%"; a year is no figure.
_PROSE_FIGURE = re.compile(r"(?<![\w.])\(?[$€£]?\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\)?(?![\w,]*\d)")
# Operations over the line's own figures in periods (a change's figure is no cell: prose stating it is no
# other figure of the quantity).
_OF_CELLS = frozenset({"value", "sum", "average"})
_PERCENT_AFTER = re.compile(r"\s*(?:%|per\s*cent|percent)")
_MOST_FIGURES = 6
# Words dating a figure, not naming a quantity: "as of October 31", "in Q4", "for FY2021".
_DATE_WORDS = frozenset(MONTHS) | frozenset(QUARTERS) | frozenset(HALVES) | {"fy", "quarter", "half", "respective"}
_SENTENCE_END = re.compile(r"(?<=[.;:])\s+(?=[A-Z(])|\n{2,}")


def prose_differs(question: str, step: CellsStep, sheet: SheetInfo) -> bool:
    """Whether the text around a PDF table states the quantity asked in other figures than the line's cells: a
    sentence names the line item and every other word of the question (the periods asked among them), and none
    of its figures is the cell's, in the table's unit or a larger one rounded ("Amortisation of licensed tooling
    was $3.4 million and $2.8 million in 2021 and 2020" against a "Licensed tooling" line of 52,617 and 47,209,
    the tooling's cost). The question asks the prose's quantity, which the line is not: no cell answers it.
    Only a line's figures in periods, or their total or average, are read so; a sentence restating the cell
    ("$52.6 million") agrees with it."""
    if step.operation not in _OF_CELLS or step.cells:
        return False
    label = label_words(step.row_label)
    rest = {_stem(w) for w in _words(question)} - label - _GENERIC - OPERATION_WORDS - _DATE_WORDS
    if not rest:
        return False  # the question names the line (and its dates) alone: the prose adds nothing to read against
    names = [c.name for c in sheet.columns]
    row = next((r for r in sheet.grid if r.row_id == step.row_id), None)
    if row is None or any(n not in names for n in step.columns):
        return False
    texts = [row.values[names.index(n)] or "" for n in step.columns]
    cells = [parse_number(t) for t in texts]
    if any(c is None for c in cells):
        return False
    percents = any("%" in t for t in texts)
    years = set(YEAR.findall(question))
    # the document's prose only: the table's page holds the table's own text
    for sentence in _SENTENCE_END.split(sheet.document_text):
        stems = {_stem(w) for w in _words(sentence)}
        if not (label | rest) <= stems or not years <= set(YEAR.findall(sentence)):
            continue
        figures = [
            m.group(1) for m in _PROSE_FIGURE.finditer(sentence)
            if not YEAR.fullmatch(m.group(1)) and (percents or not _PERCENT_AFTER.match(sentence, m.end()))
        ]  # fmt: skip
        if len(figures) > _MOST_FIGURES:
            continue  # a table's text run into prose, not a sentence
        if figures and not all(any(_restates(f, abs(c or 0)) for f in figures) for c in cells):
            return True
    return False


# A figure prose states with its scale word: "$42.7 million", "€3.1 billion", "2.4 million".
_SCALED_FIGURE = re.compile(
    r"(?<![\w.])(?P<cur>US\$|[$€£])?\s?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)\s?"
    r"(?P<scale>thousand|million|billion)\b",
    re.IGNORECASE,
)


def prose_stated(question: str, step: CellsStep, sheet: SheetInfo) -> CellsStep:
    """A line's figure in one year, or its change asked as a rise or a fall, of a short PDF's table, with the
    figure the document's prose states it in: the analyst's answer is the filing's own "$42.7 million" rather than
    the table's 42,693 (in thousands). A sentence naming the line (its bracketed qualifier aside) gives it when it
    holds a figure with a scale word that restates the cells' figure in their unit or a larger one, rounded as
    the prose rounds it and within 5%:
    - a year's figure: the sentence's figure of the year asked (`passage_figure`: "$41 million and $38 million in
      2021 and 2020, respectively"), or the one such figure of a sentence naming that year alone;
    - a rise or fall ("the increase in X", not "the change in X", whose sign the answer carries): a figure of a
      sentence naming no other year than the change's two periods.
    Two such figures, or none, leave the step as it is."""
    text = question.lower()
    if step.operation not in ("change", "value") or step.cells or step.direction_words or not sheet.document_text:
        return step
    names = [c.name for c in sheet.columns]
    row = next((r for r in sheet.grid if r.row_id == step.row_id), None)
    if row is None or any(n not in names for n in step.columns):
        return step
    cells = [parse_number(row.values[names.index(n)] or "") for n in step.columns]
    years = set(YEAR.findall(question))
    if step.operation == "value":
        # one positive figure of the one year asked, which the sentence must name
        if len(cells) != 1 or cells[0] is None or cells[0] <= 0 or len(years_in(question)) != 1:
            return step
        amount = cells[0]
    else:
        # a rise or a fall asked, one way only: not "the change in X", nor "the increase/(decrease) in X", whose
        # sign the answer must carry
        if bool(RISE_ASKED.search(text)) == bool(DECREASE_ASKED.search(text)) or re.search(r"\bchang\w*", text):
            return step
        if len(cells) != 2 or cells[0] is None or cells[1] is None or cells[0] == cells[1]:
            return step
        amount = abs(cells[1] - cells[0])
        # the two periods of the change are asked, whether the question names the earlier one or not
        years |= {y for label in step.column_labels for y in YEAR.findall(label)}
    # the line as prose names it: without a bracketed qualifier ("Free cash flow (non-GAAP measure)")
    label = label_words(re.sub(r"\([^()]*\)", " ", step.row_label)) or label_words(step.row_label)
    stated: set[str] = set()
    for sentence in _SENTENCE_END.split(sheet.document_text):
        if not label <= {_stem(w) for w in _words(sentence)}:
            continue
        if step.operation == "value":
            # the sentence's figure of the year asked ("$41 million and $38 million in 2021 and 2020, respectively")
            figure = passage_figure(question, sentence)
            scaled = _SCALED_FIGURE.fullmatch(figure.text) if figure is not None else None
            if scaled and _restates_closely(scaled.group("num"), amount):
                stated.add(_as_written(scaled))
            if figure is not None or not years or set(YEAR.findall(sentence)) != years:
                continue
            # or, in a sentence of the year asked alone, a figure restating the cell
        elif not set(YEAR.findall(sentence)) <= years:
            continue
        for found in _SCALED_FIGURE.finditer(sentence):
            if _restates_closely(found.group("num"), amount):
                stated.add(_as_written(found))
    return step.model_copy(update={"stated": stated.pop()}) if len(stated) == 1 else step


def _as_written(figure: re.Match[str]) -> str:
    """A scaled prose figure as the answer gives it: "$42.7 million"."""
    return f"{figure.group('cur') or ''}{figure.group('num')} {figure.group('scale').lower()}"


def _restates_closely(figure: str, cell: float) -> bool:
    """Whether a prose figure restates the cell (`_restates`) within 5% of it: "1 million" rounds 1,142 thousand
    too coarsely to be that figure rather than another one."""
    value = float(figure.replace(",", ""))
    return _restates(figure, cell) and any(
        abs(value * scale - cell) <= 0.05 * abs(cell) for scale in (1, 1e3, 1e6, 1e9) if value * scale <= cell * 1.1
    )


def _restates(figure: str, cell: float) -> bool:
    """Whether a figure of prose is the cell's, as printed or in a larger unit rounded as the prose rounds it."""
    places = len(figure.split(".")[1]) if "." in figure else 0
    value = float(figure.replace(",", ""))
    return any(abs(round(cell / scale, places) - value) < 10 ** -(places + 1) for scale in (1, 1e3, 1e6, 1e9))


def statement_cells(question: str, schema: RoomSchema) -> tuple[CellsStep, SheetInfo] | None:
    """The cell arithmetic that answers `question` from a statement grid of the room, and the grid's sheet; a
    yes/no on a line's change ("Did net sales rise in 2022?") is the line's change, answered with its word. A
    question asking what drove a change ("What drove the increase in revenue in FY2022?") is answered by the
    sentence stating it (core.qa.passage_drivers), never by the change's figure."""
    if asks_driver(question):
        return None
    asked = yes_no_asked(question)
    if asked is not None:
        found = _statement_cells(asked.as_change, schema, only="change")
        if found is None:
            return None
        words = [asked.if_up, asked.if_down]
        # a spending's line printed in brackets ("(1,373)" then "(1,577)"): it rose when more was spent
        spent = _spends(asked.as_change, found[0], as_printed=True)
        return found[0].model_copy(update={"direction_words": words, "outflow": spent}), found[1]
    return _statement_cells(question, schema)


def _statement_cells(question: str, schema: RoomSchema, only: str | None = None) -> tuple[CellsStep, SheetInfo] | None:
    """The statement step answering `question` (see `statement_cells`); with `only`, of that operation alone: a
    yes/no is the line's move between two columns, never a line naming its change ("Change in net interest
    income" of a rate and volume table, the more specific label)."""
    aliases = figure_aliases(question)
    names = question_names(question)
    for sheet in schema.sheets:
        # (a sheet whose row labels span columns, "Region" over "Country", is the sheet model's to read: these rules
        # read the first column's label alone)
        if sheet.grid and sheet.page is None and not (sheet.model and sheet.model.group_letters):
            step = plan_cells(
                question, sheet.sheet_id, [c.name for c in sheet.columns], sheet.grid, aliases, given_names=names,
                whole_table=bool(re.search(r"\btable\b", question, re.I)),
            )  # fmt: skip
            if step is not None and (not only or step.operation == only):
                return step, sheet
    best: tuple[tuple[int, bool], CellsStep, SheetInfo] | None = None
    # a whole year asked ("FY2022", "2022"): never a quarter's or a 10-Q's figures dated in it
    whole_year = not INTERIM.search(question)
    for sheet in schema.sheets:
        if not sheet.grid or sheet.page is None or (whole_year and interim_page(sheet.page_text)):
            continue
        step = _filing_step(question, sheet, schema, only, aliases, names)
        if step is None or (whole_year and any(INTERIM.search(label) for label in step.column_labels)):
            continue
        # the most specific line; among equals, a primary statement's before highlights and notes
        specific = (len(label_words(step.row_label)), statement_kind(sheet.page_text) is not None)
        if best is None or specific > best[0]:
            best = (specific, step, sheet)
    if best is None and (owned := _attributable(question, schema, only)) is not None:
        return owned
    if best is None and not only and asks_periods(question):
        return _table_periods(question, schema)
    return (_outflow(question, prose_stated(question, best[1], best[2])), best[2]) if best else None


def _filing_step(
    question: str, sheet: SheetInfo, schema: RoomSchema, only: str | None, aliases: Sequence[str], names: Sequence[str]
) -> CellsStep | None:
    """The step reading `question` from one table of a filing (of operation `only` when given; `aliases` and
    `names` are the question's, read once), None when its line is not credibly the one asked (see the module)."""
    context = f"{sheet.page_text} {sheet.document_text}"
    columns = [c.name for c in sheet.columns]
    # the years asked as this filing's columns date them (a fiscal year named by another year than its end's)
    # the filing's own quarter asked of its balance sheet: the column dated by the quarter's end
    moved = bool(CHANGE.search(question.lower()))  # a change of a balance asked of the quarter: since the year's end
    dated = at_quarter_end(question, sheet.fiscal_year, sheet.fiscal_quarter, sheet.period_end, columns, change=moved)
    dated = as_dated(dated, sheet.fiscal_year, sheet.period_end, lambda: column_labels(columns, sheet.grid, 0)[0])
    step = plan_cells(
        dated, sheet.sheet_id, columns, sheet.grid, aliases, strict=True, given_names=names, context=context
    )
    grid = sheet.grid
    for _ in range(_CHARGE_TRIES):
        if step is None or _charge_held(question, step, sheet):
            break
        # the charge asked of a line ("the reserve for credit losses on loans"): the table's other line naming it,
        # not the line it is for ("Member loans", "Member loans, net")
        grid = tuple(row for row in grid if row.row_id != step.row_id)
        step = plan_cells(
            dated, sheet.sheet_id, columns, grid, aliases, strict=True, given_names=names, context=context
        )
    if step is None and (turned := turned_grid(columns, sheet.grid)) is not None:
        # periods down the table ("2021", "December 31, 2019" headings): read with its periods across
        step = turned.step(plan_cells(dated, sheet.sheet_id, turned.names, turned.rows, aliases, strict=True,
                                      given_names=names, context=context), dated)  # fmt: skip
    if step is None or (only and step.operation != only) or not named_here(question, sheet):
        return None
    if prose_differs(dated, step, sheet) or _scheduled_years(question, step, sheet):
        return None
    if not credible(step, dated, aliases) and not (
        linked_here(dated, step, sheet, schema) and credible(step, dated, aliases, linked=True)
    ):
        if not _statement_line(dated, step, sheet):
            return None
    if _under_other_figures(question, step, sheet, schema) or not _narrowing_held(question, step, sheet):
        return None
    if not _charge_held(question, step, sheet):
        return None
    return step


_NET_INCOME = re.compile(r"\bnet\s+(?:income|earnings)\b", re.IGNORECASE)
_SHARE_OF_INCOME = re.compile(r"non-?controlling|minority|attributable|participating", re.IGNORECASE)


def _attributable(question: str, schema: RoomSchema, only: str | None) -> tuple[CellsStep, SheetInfo] | None:
    """ "Net income" asked of filings printing it twice, including the noncontrolling interests' share and
    attributable to the company ("Net income attributable to Globex"), so that no line is the one asked: the
    company's own line, as the measure registry reads it (`INPUT_LABELS`), named in the answer as printed."""
    asked = _NET_INCOME.search(question)
    if asked is None or _SHARE_OF_INCOME.search(question):
        return None
    labels = dict.fromkeys(
        label
        for sheet in schema.sheets
        if sheet.page is not None
        for row in sheet.grid
        if row.values
        and (label := " ".join((row.values[0] or "").split()))
        and INPUT_LABELS["net income"].fullmatch(label.lower())
    )
    for label in labels:
        written = label[:1].lower() + label[1:]  # as the question would write it: "Net" is no name
        found = _statement_cells(f"{question[: asked.start()]}{written}{question[asked.end() :]}", schema, only)
        if found is not None:
            return found
    return None


# Headings of lines that are no amount of the statement: per-share figures, rates, ratios, statistics ("Per Share
# Data" over "Net earnings 5.20").
NOT_AMOUNTS = re.compile(r"per[\s-]+share|share\s+data|statistic|ratios?\b|rates?\b|price|percent|%", re.I)


def _scheduled_years(question: str, step: CellsStep, sheet: SheetInfo) -> bool:
    """Whether the step reads a column of a year after its filing's own (after the next, for a fiscal year named
    by the year it began): a schedule of later payments or maturities ("Total debt" due in 2030 and 2031 in a
    2028 10-K), not that year's figure, unless the question asks for what is due or expected."""
    if SCHEDULED.search(question):
        return False
    later = sheet.scheduled(int(year) for column in sheet.columns for year in years_in(column.name))
    return any(int(year) in later for label in step.column_labels for year in years_in(label))


# Headings whose lines are charges against what they name ("Provisions for credit losses:" over "Member loans"):
# such a line is the charge, not the loans. Each kind is asked by its own words: a provision is the period's charge,
# a reserve or allowance the balance held ("the reserve for credit losses on loans" is never a line under "Provisions
# for credit losses:").
CHARGE_KINDS = tuple(
    re.compile(rf"\b(?:{kind})\b", re.I)
    for kind in (r"provisions?", r"reserves?|allowances?", r"write-?offs?|charge-?offs?", r"impairments?")
)


# Headings of a cash-flow statement's lines that are movements of balance-sheet lines ("Changes in assets and
# liabilities:" over "Inventories (412)"), and the words asking for such a movement ("cash", "working capital").
MOVEMENTS = re.compile(r"\bchanges?\s+in\s+(?:(?:operating|certain)\s+)?assets\s+and\s+liabilities\b", re.I)
MOVEMENT_ASKED = re.compile(r"\bcash\b|\bworking\s+capital\b|\boperating\s+activities\b", re.I)
# A heading of deferred taxes ("Deferred tax assets:" over "Inventory 57"): its lines are tax effects of what they name.
DEFERRED_TAX = re.compile(r"\bdeferred\s+(?:income\s+)?tax", re.I)
# A table of cash flows (a line of its activities) and its lines of working capital, movements wherever they sit
# ("Inventories (412)" in a discussion's table of operating cash flows that prints no heading over them).
CASH_FLOW_LINE = re.compile(r"\b(?:operating|investing|financing)\s+activities\b", re.I)
WORKING_CAPITAL = re.compile(r"receivables?\b|inventor(?:y|ies)\b|payables?\b|\baccrued\b|\bprepaid", re.I)


def _under_other_figures(question: str, step: CellsStep, sheet: SheetInfo, schema: RoomSchema) -> bool:
    """Whether the line sits under a heading of per-share figures or rates (the nearest line above it with no
    figures) that the question does not ask for: "net earnings" under "Diluted earnings per share" is EPS; or
    under a heading of charges ("Provisions for credit losses") the question does not name: "Card Member loans"
    there is the loans' provision, not the loans. In a room holding a balance sheet, a balance is that statement's:
    not a cash-flow statement's movement of it when the question asks of no cash ("Inventories (412)" under "Changes
    in assets and liabilities", or a working-capital line of a table of operating cash flows), nor a deferred tax
    table's line ("Inventory 57" under "Deferred tax assets:") when it asks of no deferred tax. A room of such tables
    alone (a note or a cash-flow table shared on its own) is asked about them."""
    heading = _heading(step, sheet)
    if any(kind.search(heading) and not kind.search(question) for kind in (NOT_AMOUNTS, *CHARGE_KINDS)):
        return True
    deferred = DEFERRED_TAX.search(_heading(step, sheet, every=True)) and not DEFERRED_TAX.search(question)
    cash_flows = any(r.values and CASH_FLOW_LINE.search(r.values[0] or "") for r in sheet.grid)
    moved = not MOVEMENT_ASKED.search(question) and (
        MOVEMENTS.search(heading) or (cash_flows and WORKING_CAPITAL.search(step.row_label))
    )
    return bool(deferred or moved) and _holds_balance_sheet(schema)


def _holds_balance_sheet(schema: RoomSchema) -> bool:
    """Whether the room holds a balance sheet among its filings' tables (`statement_kind` of the table's page)."""
    return any(s.page is not None and statement_kind(s.page_text) == "balance sheet" for s in schema.sheets)


def _statement_line(question: str, step: CellsStep, sheet: SheetInfo) -> bool:
    """Whether a one-word line of a primary statement ("Goodwill" on the balance sheet) is the whole of what the
    question asks about ("Did goodwill decrease in 2027?"): a line no metric of the lexicon names, printed in every
    year's statement, is still the line asked when the question asks of it alone."""
    asked = {_stem(w) for w in _words(topic(question))}
    return bool(asked) and label_words(step.row_label) == asked and statement_kind(sheet.page_text) is not None


_CHARGE_TRIES = 3  # lines of a table read before its charge's own (the line it is for, its net, its gross)


def _charge_held(question: str, step: CellsStep, sheet: SheetInfo) -> bool:
    """Whether a charge the question asks ("the reserve for credit losses on loans", "the provision for …") is the
    line read, by its label or its heading: the loans' line is not their reserve (a cited wrong figure it was)."""
    held = f"{step.row_label} {_heading(step, sheet)}"
    return all(kind.search(held) for kind in CHARGE_KINDS if kind.search(question))


def _heading(step: CellsStep, sheet: SheetInfo, *, every: bool = False) -> str:
    """The heading a step's line sits under: the nearest line above it with no figures ("" when none); `every`:
    all such lines above it, joined."""
    rows = list(sheet.grid)
    at = next((i for i, row in enumerate(rows) if row.row_id == step.row_id), None)
    if at is None:
        return ""
    headings = [r.values[0] or "" for r in reversed(rows[:at]) if r.values and not any(v for v in r.values[1:])]
    return " | ".join(headings) if every else next(iter(headings), "")


def _narrowing_held(question: str, step: CellsStep, sheet: SheetInfo) -> bool:
    """Whether a line that is a wording of the metric alone ("Total revenues net of interest expense", "Net sales")
    holds, in its label or its heading (the nearest line above it with no figures), the words narrowing the metric
    the question names ("discount" of "discount revenue"): else it is the whole company's figure, not the part asked
    (a cited wrong figure it was). A line narrower than the metric ("Work in process") is judged as before."""
    needed = narrowing_words(question)
    if not needed or not metric_alone(step.row_label):
        return True
    held = {_stem(w) for w in _words(f"{step.row_label} {_heading(step, sheet)}")}
    return all({_stem(w) for w in words} <= held for words in needed)


def _outflow(question: str, step: CellsStep) -> CellsStep:
    """A figure asked by the name of a spending ("capex", "capital expenditures") read on its cash-flow line
    ("Purchases of property and equipment", printed in brackets): its size is the answer (`CellsStep.outflow`).
    Not when the question names the line as printed, nor for a change (its sign is the answer's)."""
    if step.operation != "value" or step.stated or not _spends(question, step):
        return step
    return step.model_copy(update={"outflow": True})


def _spends(question: str, step: CellsStep, *, as_printed: bool = False) -> bool:
    """Whether the step's line is a spending's cash-flow line ("Purchases of property and equipment") the question
    asks by the spending's name ("capex"), or, `as_printed`, by the line's own words too."""
    asked = f" {' '.join(_WORD.findall(question.lower()))} "
    net = NET_OF.search(step.row_label)
    label = " ".join(_WORD.findall((step.row_label[: net.start()] if net and net.start() else step.row_label).lower()))
    for name in OUTFLOWS:
        wordings = [" ".join(_WORD.findall(w.lower())) for w in FIGURE_WORDINGS.get(name, ())]
        names_it = any(f" {w} " in asked for w in wordings if w and (as_printed or w not in label))
        if names_it and any(label.startswith(w) for w in wordings if w):
            return True
    return False


# Words of a question about a table's periods that are not its subject: "For which periods are figures given
# in this table …", "In which years was X reported?".
_PERIODS_QUESTION = frozenset(
    "which what year years period periods fiscal financial table tables provide provided information info data "
    "include included includes including show shown shows present presented cover covered list listed available "
    "made calculated recorded reported computed disclosed given amount value figure number".split()
)


def _table_periods(question: str, schema: RoomSchema) -> tuple[CellsStep, SheetInfo] | None:
    """The periods of the one PDF table the question is about as a whole: every word of its subject ("lease
    costs", "revenue by site") is on the table's page, in its line items or, when the table is its
    document's only one, in that document; or, when it names none ("Which periods does the table cover?"), the
    room holds one table. The answer is the table's periods: a wrong table gives years, never a figure."""
    subject = {_stem(w) for w in _words(question)} - {_stem(w) for w in _PERIODS_QUESTION}
    tables = [sheet for sheet in schema.sheets if sheet.grid and sheet.page is not None]
    if not subject and len(tables) != 1:
        return None  # "the table" of a room of many tables: which one is not said
    found: list[tuple[CellsStep, SheetInfo]] = []
    for sheet in tables:
        lines = " ".join(row.values[0] or "" for row in sheet.grid if row.values)
        if not subject <= {_stem(w) for w in _words(f"{sheet.page_text} {sheet.document_text} {sheet.title} {lines}")}:
            continue
        step = plan_cells(
            question, sheet.sheet_id, [c.name for c in sheet.columns], sheet.grid, strict=True, whole_table=True
        )
        if step is not None and step.operation == "periods":
            found.append((step, sheet))
    return found[0] if len(found) == 1 else None  # two tables fit: neither is named
