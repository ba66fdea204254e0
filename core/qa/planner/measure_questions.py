"""What a question asks of a measure (core/qa/planner/measures.py reads which measure and where its inputs are):
its figure, or — from the same cited cells — whether it improved, whether it is positive or above a figure,
whether it held steady within the question's limit, its change between two years, its compound annual growth
rate, or which of the cash flow statement's three activities brought in the most cash. `measure_cells` is the
entry: a `CellsStep` of operation "measure" (with the field saying what is asked of it), `Missing`, or None.
Examples are invented.
"""

from __future__ import annotations

import re
from dataclasses import replace

from core.lexicon.comparison import AMOUNT_SUPERLATIVES, COMPARATORS, IN_TIME, SUPERLATIVES
from core.lexicon.measures import HIGHER_IS_BETTER_MEASURES, LOWER_IS_BETTER_MEASURES
from core.lexicon.questions import YES_NO_OPENERS
from core.qa.grounding import question_names
from core.qa.planner.changes import YesNoAsked, yes_no_asked
from core.qa.planner.measures import (
    DEFINED,
    NOT_ITS_FIGURE,
    WRITTEN,
    Asked,
    Missing,
    asked_measure,
    asking,
    balanced,
    chosen_measure,
    input_named,
    measure_steps,
    places_asked,
    statement_table,
)
from core.qa.planner.schema import RoomSchema, SheetInfo
from core.retrieval.cellmath import CellsStep
from core.retrieval.formula import parse, refs
from core.retrieval.rerank import interim_page, statement_kind
from core.text import NUMBER_WORDS, years_in


def measure_cells(
    question: str, schema: RoomSchema, *, chosen: str = "", shares: bool = False
) -> tuple[CellsStep, SheetInfo] | Missing | None:
    """The measure the question asks, from the room's statement grids (see the module docstring). `chosen`: a
    registered measure's name a model planner chose, read when the question's own words name none; `shares`: a
    share of revenue of one period is asked too (see `asked_measure`)."""
    moved = yes_no_asked(question)
    if moved is not None:
        return _measure_moved(question, schema, moved)
    held = (
        _measure_held(question, schema)
        or _measure_steady(question, schema)
        or _activity_picked(question, schema)
        or _compound_growth(question, schema)
    )
    if held is not None:
        return held
    asked = asked_measure(question, shares=shares) or chosen_measure(question, chosen)
    if asked is None:
        return _unread_definition(question)
    changed = _measure_change(question, schema, asked)
    if changed is not None:
        return changed
    if NOT_ITS_FIGURE.search(asking(question)):
        return None
    # A formula the question writes is computed as written, though a statement prints a line of the measure's name
    # (its own definition, maybe another); when none of its lines is found it abstains: the other rules would
    # answer a part of it (an average of equity for a return on it).
    written = asked.convention.startswith(WRITTEN)
    found = measure_steps(question, schema, asked, judged=written)
    if found is None and written:
        return Missing(f"The {asked.name} is {asked.convention}: no statement of the room holds its lines, so "
                       f"nothing is computed.")  # fmt: skip
    return found


_OPERATOR = re.compile(r"[/*+]|\s-\s|\b(?:divided|over|times|plus|minus|less|average|ratio|sum)\b", re.I)


def _unread_definition(question: str) -> Missing | None:
    """A formula the question writes ("defined as: …") that is not read as one: the answer abstains saying so.
    The other rules would answer a part of it (an average of total assets for a return on them): never."""
    m = DEFINED.search(question)
    if m is None or not _OPERATOR.search(m.group("expr")):
        return None
    expr = balanced(m.group("expr").strip().rstrip("."))
    return Missing(f"The question defines what it asks as {expr}, which I could not read as a formula over "
                   f"statement lines (write it with names of lines and + - * /), so nothing is computed.")  # fmt: skip


def _measure_moved(
    question: str, schema: RoomSchema, moved: YesNoAsked
) -> tuple[CellsStep, SheetInfo] | Missing | None:
    """A yes/no on a registered measure's move ("Did the current ratio improve in FY2023 compared with the prior
    year?"): the measure in the year asked and the one before, answered with the word of its move; a verb that
    judges ("improve") by the measure's better direction (HIGHER_IS_BETTER_MEASURES), else its direction. One year
    named, or two in a row; None when no registered measure is what moved."""
    years = sorted(set(years_in(question)))
    if not years or len(years) > 2 or (len(years) == 2 and int(years[1]) - int(years[0]) != 1):
        return None
    neutral = f"What was {moved.topic} in {years[-1]}?"
    asked = asked_measure(neutral)
    if asked is None:
        return None
    found = measure_steps(neutral, schema, replace(asked, span=2))
    if not isinstance(found, tuple):
        return found
    words = [moved.if_up, moved.if_down]
    if moved.judged:
        better_up = (
            True
            if asked.name in HIGHER_IS_BETTER_MEASURES
            else False
            if asked.name in LOWER_IS_BETTER_MEASURES
            else None
        )
        yes_up = None if better_up is None else better_up == (moved.judged == "better")
        words = ["Increased", "Decreased"] if yes_up is None else ["Yes", "No"] if yes_up else ["No", "Yes"]
    step, sheet = found
    reason = f"Whether the {asked.name} rose or fell from {step.column_labels[0]} to {step.column_labels[-1]}: " + (
        step.reason
    )
    return step.model_copy(update={"direction_words": words, "reason": reason}), sheet


# A yes/no on a measure's level in one year: "Does Acme have positive working capital based on FY2022 data?",
# "Is the current ratio above 1 at the end of FY2022?", "Was the payout ratio below 50% in 2021?".
_YES_NO_START = re.compile(rf"^\s*(?:{'|'.join(YES_NO_OPENERS)})\b", re.I)
_SIGNED = re.compile(
    r"\b(?P<sign>positive|negative)\s+(?P<what>[a-z][\w&' -]*?)(?=\s+(?:based|as|in|for|at|on|during|over)\b|[?.,]|$)",
    re.I,
)
# A limit's phrase ("above", "less than"; core/lexicon/comparison.py's, those of an amount, not of time) before
# its figure, and whether it asks below.
_AMOUNT_LIMITS = [
    (words, op) for words, op in COMPARATORS if op in ("gt", "lt") and not set(words) & (IN_TIME | {"since", "prior"})
]
_LIMIT_PHRASES = "|".join(r"\s+".join(words) for words, _ in _AMOUNT_LIMITS)
_LIMIT = re.compile(rf"\b(?P<cmp>{_LIMIT_PHRASES})\s+(?P<n>-?\d+(?:\.\d+)?)\s*(?P<pct>%|percent\b)?", re.I)
_BELOW = {" ".join(words) for words, op in _AMOUNT_LIMITS if op == "lt"}


def _measure_held(question: str, schema: RoomSchema) -> tuple[CellsStep, SheetInfo] | Missing | None:
    """A yes/no on whether a registered measure is positive or negative, or above or below a figure, in the one
    year asked: the measure computed from cited cells, the answer leading with the word (see above)."""
    if not _YES_NO_START.match(question) or not (years := sorted(set(years_in(question)))) or len(years) != 1:
        return None
    said = asking(question)
    signed, limit = _SIGNED.search(said), _LIMIT.search(said)
    if signed is not None:
        asked = asked_measure(f"What was the {signed.group('what')} in {years[0]}?")
        compare, threshold = (">" if signed.group("sign").lower() == "positive" else "<"), "0"
    elif limit is not None:
        asked = asked_measure(f"What was {said[: limit.start()]} in {years[0]}?")
        compare, threshold = ("<" if " ".join(limit.group("cmp").lower().split()) in _BELOW else ">"), limit.group("n")
        if asked is not None and (limit.group("pct") is not None) != (asked.kind == "percent"):
            return None  # "above 50%" of a ratio, or "above 1.5" of a percent: not read
    else:
        return None
    if asked is None or asked.span != 1:
        return None
    names = " ".join(question_names(question))
    neutral = f"What was the {asked.name}{f' of {names}' if names else ''} in {years[0]}?"
    found = measure_steps(neutral, schema, asked, judged=True)
    if not isinstance(found, tuple):
        return found
    step, sheet = found
    test = f"{'below' if compare == '<' else 'above'} {threshold}"
    reason = f"Whether the {asked.name} was {test} in {step.column_labels[0]}: {step.reason}"
    return step.model_copy(update={"compare": compare, "threshold": threshold, "reason": reason}), sheet


# A yes/no on whether a measure held steady over the years a filing prints: "Have Acme's operating margins been
# stable, moving no more than 1.5 points in any year?" The limit is the question's (a percent's moves in points);
# without one, no judgement is made here.
_STEADY = re.compile(r"\b(?:consistent|stable|steady|fluctuat\w*|volatile|varie[sd]|vary(?:ing)?)\b", re.I)
_STEADY_LIMIT = re.compile(
    r"\b(?:more\s+than|over|beyond|exceed\w*|within|above)\s+(?:roughly\s+|about\s+|around\s+|approximately\s+)?"
    r"(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>%|percent(?:age)?(?:\s+points?)?|points?|pp|bps)?",
    re.I,
)
_LAST_YEARS = re.compile(
    r"\b(?:last|past|previous|prior)\s+(?P<n>two|three|four|five|[2-5])\s+(?:fiscal\s+)?years\b", re.I
)
_PLURAL_MEASURES = re.compile(r"\b(margin|ratio|rate|turnover)s\b", re.I)


def _measure_steady(question: str, schema: RoomSchema) -> tuple[CellsStep, SheetInfo] | Missing | None:
    """The measure in each of the years asked (the three a 10-K prints, ending with the latest, unless the question
    names the span), judged steady when no year moves more than the question's limit."""
    if not _YES_NO_START.match(question) or not _STEADY.search(question):
        return None
    limit = _STEADY_LIMIT.search(question)
    if limit is None or (limit.group("unit") or "").lower() == "bps":
        return None
    asked = asked_measure(_PLURAL_MEASURES.sub(r"\1", asking(question)))
    if asked is None or asked.span != 1 or any(p for f in asked.formulas for _, p in refs(parse(f))):
        return None  # over balances averaged year by year the first year lacks its opening balance: not read
    if (asked.kind == "percent") != bool(limit.group("unit")) and limit.group("unit"):
        return None
    span_m = _LAST_YEARS.search(question)
    n = span_m.group("n").lower() if span_m else "3"
    span = int(n) if n.isdigit() else NUMBER_WORDS.get(n, 3)
    years = years_in(question)
    latest = max(years) if years else _latest_year(schema)
    if not latest:
        return None
    names = " ".join(question_names(question))
    neutral = f"What was the {asked.name}{f' of {names}' if names else ''} in {latest}?"
    found = measure_steps(neutral, schema, replace(asked, span=span), judged=True)
    if not isinstance(found, tuple):
        return found
    step, sheet = found
    reason = f"Whether the {asked.name} moved no more than {limit.group('n')} a year: {step.reason}"
    return step.model_copy(update={"steady": limit.group("n"), "reason": reason}), sheet


# Which of the cash flow statement's three activities brought in the most (or the least) cash in a year: "Among
# operations, investing and financing activities, which generated the most cash for Acme in FY2022?"
_ACTIVITY_WORDS = {"operating cash flow": r"\boperat\w*", "investing cash flow": r"\binvest\w*",
                   "financing cash flow": r"\bfinanc\w*"}  # fmt: skip
_MOST_LEAST = re.compile(rf"\b(?:{'|'.join(sorted(AMOUNT_SUPERLATIVES))})\b", re.I)
_ACTIVITIES_ASKED = Asked(
    "cash flow by activity",
    ("operating cash flow + investing cash flow + financing cash flow",),
    "amount",
    "the net cash of each activity, as the cash flow statement signs it",
)


def _activity_picked(question: str, schema: RoomSchema) -> tuple[CellsStep, SheetInfo] | Missing | None:
    """The activity whose net cash was the largest (the smallest) in the one year asked, each total cited."""
    if not re.search(r"\bwhich\b", question, re.I) or not re.search(r"\bcash\b", question, re.I):
        return None
    named = [name for name, pattern in _ACTIVITY_WORDS.items() if re.search(pattern, question, re.I)]
    most = _MOST_LEAST.search(question)
    years = sorted(set(years_in(question)))
    if len(named) < 2 or most is None or len(years) != 1:
        return None
    names = " ".join(question_names(question))
    neutral = f"What was the cash flow by activity{f' of {names}' if names else ''} in {years[0]}?"
    formula = " + ".join(named)
    asked = replace(_ACTIVITIES_ASKED, formulas=(formula,), chosen=True)
    found = measure_steps(neutral, schema, asked, judged=True)
    if not isinstance(found, tuple):
        return found
    step, sheet = found
    pick = "max" if SUPERLATIVES[most.group(0).lower()][0] else "min"
    reason = f"Which activity's net cash was the {'largest' if pick == 'max' else 'smallest'}: {step.reason}"
    return step.model_copy(update={"pick": pick, "reason": reason}), sheet


# A measure's change between two years: "What is the FY2021 - FY2022 change in the EBITDA margin?", "How much did
# the current ratio change from 2020 to 2022?" (a percent's change in points); "percentage change" of a ratio is
# relative (of a percent it could be either: not read). A reason asked is no change's figure.
_CHANGE_ASKED = re.compile(r"\bchang(?:e|ed|es)\b", re.I)
_RELATIVE_CHANGE = re.compile(
    r"\b(?:percent(?:age)?|%)\s+change\b|\bchange\s+in\s+percent(?:age)?\b|\bby\s+what\s+(?:percent(?:age)?|%)", re.I
)
_NO_CHANGE_FIGURE = re.compile(
    r"\b(?:drove|drive[sn]?|driv(?:er|ers|ing)|why|reasons?|due\s+to|caused?|explain\w*)\b", re.I
)


def _measure_change(question: str, schema: RoomSchema, asked: Asked) -> tuple[CellsStep, SheetInfo] | Missing | None:
    """The registered or defined measure in the first and last of the two years asked, and its change."""
    said = asking(question)
    if not _CHANGE_ASKED.search(said) or _NO_CHANGE_FIGURE.search(said) or _YES_NO_START.match(said):
        return None
    years = sorted(set(years_in(question)))
    if len(years) != 2 or not 1 <= int(years[1]) - int(years[0]) <= 4 or asked.span != 1:
        return None
    relative = bool(_RELATIVE_CHANGE.search(said))
    if relative and asked.kind == "percent":
        return None
    names = " ".join(question_names(question))
    neutral = f"What was the {asked.name}{f' of {names}' if names else ''} in {years[1]}?"
    span = int(years[1]) - int(years[0]) + 1
    # a line printing the measure is the cell rules' to read (its change is the printed figures')
    found = measure_steps(neutral, schema, replace(asked, span=span))
    if not isinstance(found, tuple):
        return found
    step, sheet = found
    moved = "pct_change" if relative else "change"
    reason = f"The change in the {asked.name} from {years[0]} to {years[1]}: {step.reason}"
    return step.model_copy(update={"moved": moved, "reason": reason}), sheet


# A compound annual growth rate: "What is the 2-year revenue CAGR from FY2019 to FY2021?", "the compound annual
# growth rate of net income over 2019-2022": a line (or a registered measure) in the first and last year.
_GROWTH = r"(?:cagr|compound(?:ed)?\s+annual\s+growth(?:\s+rate)?)"
_CAGR_OF = re.compile(
    rf"\b{_GROWTH}\s+(?:of|in|for)\s+(?:the\s+)?(?P<what>[a-z][\w&,' -]*?)"
    r"(?=\s+(?:from|between|over|for|in|during|of|ending|through)\b|[?.,(]|$)",
    re.I,
)
_CAGR_AFTER = re.compile(rf"(?P<what>[a-z][\w&,' -]*?)\s+{_GROWTH}\b", re.I)
_YEAR_SPAN = re.compile(r"\b(?P<n>two|three|four|five|[1-9])[\s-]+years?\b", re.I)


def _compound_growth(question: str, schema: RoomSchema) -> tuple[CellsStep, SheetInfo] | Missing | None:
    """The compound annual growth rate of a line or registered measure between the first and last year asked."""
    said = asking(question)
    m = _CAGR_OF.search(said) or _CAGR_AFTER.search(said)
    if m is None:
        return None
    years = sorted(set(years_in(question)))
    span_m = _YEAR_SPAN.search(question)
    if len(years) == 1 and span_m is not None:
        n = span_m.group("n").lower()
        years = [str(int(years[0]) - (int(n) if n.isdigit() else NUMBER_WORDS.get(n, 0))), years[0]]
    if len(years) != 2 or not 1 <= int(years[1]) - int(years[0]) <= 4:
        return None
    words = re.sub(
        r"^(?:what|which|how)\b.*?\b(?:the|is|was|of)\s+",
        "",
        m.group("what").strip(),
        flags=re.I,
    )
    words = _YEAR_SPAN.sub(" ", " ".join(w for w in words.split() if not years_in(w))).strip()
    asked = asked_measure(f"What was the {words} in {years[1]}?")
    if asked is None:
        # the line is every word left once the company's own words go ("J&J's sales", "Acme total revenue"): a word
        # more ("Widgets segment revenue") qualifies it, and no whole-company line answers
        tokens = [t for t in words.split() if not re.search(r"['’]s?$", t) and not t[:1].isupper()]
        bound = input_named(" ".join(tokens))
        if bound is None:
            return None
        asked = Asked(bound, (bound,), "amount", f"the {bound} line", chosen=True)
    names = " ".join(question_names(question))
    neutral = f"What was the {asked.name}{f' of {names}' if names else ''} in {years[1]}?"
    span = int(years[1]) - int(years[0]) + 1
    found = measure_steps(neutral, schema, replace(asked, span=span, places=places_asked(question)), judged=True)
    if not isinstance(found, tuple):
        return found
    step, sheet = found
    reason = f"The compound annual growth rate of the {asked.name} from {years[0]} to {years[1]}: {step.reason}"
    return step.model_copy(update={"moved": "cagr", "measure_kind": "amount", "reason": reason}), sheet


def _latest_year(schema: RoomSchema) -> str:
    """The latest year a statement of the room's filings prints (a whole year's: no interim page)."""
    latest = ""
    for sheet in schema.sheets:
        if sheet.page is not None and statement_kind(sheet.page_text) and not interim_page(sheet.page_text):
            table = statement_table(sheet, "")
            if table is not None and not table.monthly:
                latest = max(latest, max(table.periods))
    return latest
