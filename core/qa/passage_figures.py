"""The one figure a question asks of a sentence: "What were freight costs in 2022?" -> "$3.8 million".

A passage answer used to quote sentences and give no value, so a figure written in prose ("Freight costs
were $3.8 million and $3.1 million for 2022 and 2021, respectively") was never the answer itself. This
module reads the figure out of the sentence the synthesizer already chose, and gives it only when the sentence
leaves no doubt which figure is meant — a cited wrong figure is worse than a quoted sentence:

- the question asks for an amount (not a reason, a description, a date or a comparison of several periods)
  and names at most one period;
- the sentence holds most of the question's other content words (it is about the asked metric);
- the figures of the asked kind (money, percent, count, duration) bind to the asked period without guessing:
  one figure and the period alone in the sentence, or as many figures as periods listed in order
  ("$61.4 million, $58.9 million and $52.3 million for 2022, 2021 and 2020, respectively", "rose to
  $7.6 million in 2022 from $6.3 million in 2021"); with no period asked, the sentence has one figure and
  at most one period.

Anything else gives no figure, and the answer stays the quoted sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.lexicon.periods import MONTH_ABBREVIATIONS, MONTHS, YEAR_DIGITS
from core.text import STOP_WORDS, YEAR, years_in

_MONTH = rf"(?:{'|'.join(MONTH_ABBREVIATIONS)})[a-z]*\.?"
# A figure as prose writes it: currency, a bracketed negative, grouped digits, a scale or a percent sign.
_FIGURE = re.compile(
    r"(?<![\w.,/-])"
    r"(?P<qual>(?:approximately|about|around|roughly|nearly|almost|over|more than|less than|under|up to|at least|"
    r"at most|in excess of|some)\s+)?"
    r"(?P<cur>US\$|A\$|C\$|HK\$|NZ\$|S\$|R\$|\$|€|£|¥|₹|`|(?:USD|EUR|GBP|INR|RMB)\s?)?"
    r"(?P<open>\()?"
    r"(?P<cur2>\$|€|£)?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?P<unit>\s?%|\s?(?:million|billion|thousand|trillion|mn|bn)\b|(?:m|bn|k|p)\b| percent\b| per cent\b)?"
    r"(?P<close>\))?"
    r"(?P<unit2>%)?"
    r"(?P<after>\s+(?:years?|months?|days?|weeks?)\b)?"
    r"(?![\w/]|-\d|\.\d)",
    re.IGNORECASE,
)
# Numbers that are labels, not quantities: "Note 12", "ASC 606", "Item 7", "Level 3", "Tier 1".
_LABEL_BEFORE = re.compile(
    r"\b(?:note|notes|asc|asu|item|section|part|page|topic|level|tier|rule|form|schedule|exhibit|article|no\.?)\s*$",
    re.IGNORECASE,
)
# The upper end of a range: "from 2 to 10 years", "between 3% and 5%", "2-10 years".
_RANGE_BEFORE = re.compile(
    r"(?:\b(?:from|between)\s+[$€£]?\d[\d,.]*\s*%?\s*(?:million|billion)?\s*(?:to|and)|\d\s*[-–])\s*$", re.IGNORECASE
)
_DAY_BEFORE = re.compile(rf"\b{_MONTH}\s*$", re.IGNORECASE)
_DAY_AFTER = re.compile(rf"^\s*(?:st|nd|rd|th)?\s*{_MONTH}\b", re.IGNORECASE)

# Questions whose answer is a reason, a description, a date, a place or a name, not a figure.
_NOT_A_FIGURE = re.compile(
    r"^\s*(?:why|when|where|who|which|whom|describe|explain|list)\b"
    r"|\b(?:reasons?|why|cause[sd]?|caused|due to|driv(?:en|ers?)|attribut\w*|because|purpose|objective|basis|"
    r"based|consists?|comprised?|includes?|included|exclud\w*|respective|types?|kinds?|methods?|policy|policies|approach|"
    r"primar(?:y|ily)|mainly|how (?:is|are|was|were|does|do|did) \w+ (?:determined|calculated|measured|"
    r"recogni[sz]ed|defined|computed)|what (?:does|do|did)|what (?:is|are) the (?:name|symbol|date))\b",
    re.IGNORECASE,
)
# Asking for several periods or an operation on them: the cell arithmetic's job, not a sentence's one figure.
_OPERATION = re.compile(
    r"\b(?:change|changes|changed|difference|increase|decrease|growth|grew|average|mean|total of|sum|ratio|"
    r"proportion|compared|versus|vs|between|from \d{4} to|percentage change)\b",
    re.IGNORECASE,
)
# A change asked for: "How much did X decrease by", "What was the increase in X in 2019?".
_UP = re.compile(r"\b(?:increas\w*|grow\w*|grew|rise|rose|risen|improv\w*|gain\w*|up)\b", re.IGNORECASE)
_DOWN = re.compile(r"\b(?:decreas\w*|declin\w*|fall|fell|fallen|drop\w*|reduc\w*|down)\b", re.IGNORECASE)
_CHANGE_ASKED = re.compile(r"\b(?:increas\w*|decreas\w*|grow\w*|grew|declin\w*|rose|fell|drop\w*|chang\w*)\b", re.I)
_OTHER_OPERATION = re.compile(r"\b(?:average|mean|sum|total of|ratio|proportion|compared|versus|vs)\b", re.IGNORECASE)
# A verb (or noun) of change followed by its amount: "decreased $2.2 million", "an increase of 5%", "grew by 3.7%".
_STATED_CHANGE = re.compile(
    r"(?P<verb>\b(?:increased|decreased|grew|rose|declined|fell|dropped|improved|reduced|increase|decrease|decline|"
    r"reduction|improvement|growth)\b)(?:\s+of|\s+by)?(?=\s+(?:approximately\s+|about\s+)?[$€£(]?\d)",
    re.IGNORECASE,
)
# "What was …", "How much …", "Over how many years …", "As of June 30, 2021, what was …".
_ASKS_AMOUNT = re.compile(
    r"^\s*(?:(?:as of|at|in|for|during|on)\b(?:[^?,]{0,40},\s*){1,2})?(?:(?:over|in|for|within)\s+)?"
    r"(?:what|how much|how many|how long)\b",
    re.IGNORECASE,
)
_PERCENT_ASKED = re.compile(r"\b(?:percent|percentage|per cent|rate|margin|share|ownership|stake)\b|%", re.IGNORECASE)
# Text read from a table, not prose: three numbers in a row with only spaces between ("2019 2018 2017",
# "$ 2,318.6 $ 2,074.1 $ 1,902.5"); a table's figures are the cell arithmetic's to read, by row and column.
_TABLE_RUN = re.compile(r"(?:[$€£(]?\s?\d(?:[\d,.]*\d)?\)?%?\s+){2}[$€£(]?\s?\d")
# A sentence longer than this is a run of text (a table, a list), not one statement.
MAX_WORDS = 90
_DURATION_ASKED = re.compile(r"\bhow long\b|\bduration\b|\bhow many (?:years|months|days|weeks)\b", re.IGNORECASE)
_COUNT_ASKED = re.compile(r"\bhow many\b|\bnumber of\b", re.IGNORECASE)
# Words of a question that say when or how to answer, not what: left out of the sentence-topic check.
_GLUE = (
    STOP_WORDS
    | frozenset(
        """much many amount value figure number total year years fiscal ended ending end as during period company
    company's group group's its the respectively approximately about by increase increased decrease decreased
    change changed growth grow grew decline declined rise rose""".split()
    )
    | frozenset(MONTHS)
)
_WORD = re.compile(r"[a-z][a-z&'-]+")
# Share of the question's topic words the sentence must hold.
MIN_TOPIC = 0.6


@dataclass(frozen=True)
class Figure:
    """A figure read from a sentence, as written there ("$9.5 million", "13%", "£(8.1m)")."""

    text: str  # as written, with its qualifier: "approximately 13%", "over 50"
    value: str  # the figure alone: "13%", "50"
    kind: str  # money, percent, count or duration
    start: int
    ranged: bool = False  # the upper end of a range ("from 2 to 10 years"): never an answer on its own


def asked_periods(question: str) -> list[str]:
    """The calendar years a question names, in order, once each ("FY19" -> "2019")."""
    return years_in(question)


def asks_for_figure(question: str) -> bool:
    """Whether the question asks for one amount of one period (or of none), not a reason or an operation."""
    return (
        not _NOT_A_FIGURE.search(question)
        and not _OPERATION.search(question)
        and len(asked_periods(question)) <= 1
        and bool(_ASKS_AMOUNT.match(question))
    )


def asked_kind(question: str) -> str:
    """The kind of figure the question asks for."""
    if _DURATION_ASKED.search(question):
        return "duration"
    if _PERCENT_ASKED.search(question):
        return "percent"
    if _COUNT_ASKED.search(question):
        return "count"
    return "money"


def figures(sentence: str) -> list[Figure]:
    """The quantities of a sentence, each with its kind; years, days of dates and label numbers left out."""
    found = []
    for m in _FIGURE.finditer(sentence):
        before, after = sentence[: m.start()], sentence[m.end() :]
        currency = m.group("cur") or m.group("cur2")
        unit = (m.group("unit") or m.group("unit2") or "").strip().lower()  # "(48.3)%" too
        if bool(m.group("open")) != bool(m.group("close")):
            # A bracket that opens or closes a clause around the figure: the figure without it.
            text = m.group(0).strip().strip("()")
        else:
            text = m.group(0).strip()
        if m.group("after") and (m.group("qual") or "").strip().lower() in {"over", "under"}:
            text = text[len(m.group("qual")) :]  # "recognized over 2.5 years": during, not "more than"
        if not currency and not unit and not m.group("after"):
            if YEAR.fullmatch(m.group("num")) or _DAY_BEFORE.search(before) or _DAY_AFTER.match(after):
                continue
            if _LABEL_BEFORE.search(before):
                continue
        if m.group("after"):
            kind = "duration"
        elif unit in {"%", "percent", "per cent"}:
            kind = "percent"
        elif currency:
            kind = "money"
        elif unit:
            kind = (
                "money"
                if re.search(r"\b(?:shares?|units?|customers?|employees?)\b", after[:30], re.I) is None
                else "count"
            )
        else:
            kind = "count"
        ranged = bool(_RANGE_BEFORE.search(before))  # "from 2 to 10 years": the upper end of a range
        text = text.rstrip(".,;")
        value = text[len(m.group("qual")) :] if m.group("qual") and text.startswith(m.group("qual")) else text
        found.append(Figure(text=text, value=value, kind=kind, start=m.start(), ranged=ranged))
    return found


def _topic(question: str) -> set[str]:
    return {w for w in _WORD.findall(question.lower()) if w not in _GLUE}


def topic_share(question: str, sentence: str) -> float:
    """Share of the question's topic words (not its period or question words) that the sentence holds."""
    wanted = _topic(question)
    held = set(_WORD.findall(sentence.lower()))
    stems = {w.rstrip("s") for w in held}
    return sum(1 for w in wanted if w in held or w.rstrip("s") in stems) / len(wanted) if wanted else 0.0


def _sentence_years(sentence: str) -> list[str]:
    """The distinct years a sentence names, in order ("fiscal 2019 and 2018" -> ["2019", "2018"])."""
    return years_in(sentence)


def passage_figure(question: str, sentence: str) -> Figure | None:
    """The one figure of `sentence` that answers `question`, or None when that is in any doubt."""
    if topic_share(question, sentence) < MIN_TOPIC or _TABLE_RUN.search(sentence) or len(sentence.split()) > MAX_WORDS:
        return None
    if _NOT_A_FIGURE.search(question):
        return None
    if _CHANGE_ASKED.search(question) and not _OTHER_OPERATION.search(question):
        return stated_change(question, sentence)
    if not asks_for_figure(question):
        return None
    kind = asked_kind(question)
    candidates = [f for f in figures(sentence) if f.kind == kind]
    periods = asked_periods(question)
    years = _sentence_years(sentence)
    if len({f.value for f in candidates}) == 1 and not any(f.ranged for f in candidates):
        # "23.5% (2021/22: 23.5%)": the same figure whichever period the sentence names is meant
        return candidates[0] if not periods or periods[0] in years else None
    chosen = _bound(candidates, periods[0] if periods else None, years)
    return chosen if chosen is not None and not chosen.ranged else None


# "… in 2019 and 2018 respectively", "for fiscal 2018 and 2019": one figure asked per period, none computed.
_SEVERAL_PERIODS = re.compile(
    rf"\brespective(?:ly)?\b|\b{YEAR_DIGITS}\s*(?:,|and|&)\s*(?:fiscal\s+|fy\s*)?{YEAR_DIGITS}\b", re.I
)
# Besides the operations `asks_for_figure` refuses: a total of the periods is computed, not read.
_TOTALLED = re.compile(r"\b(?:total|combined)\b", re.IGNORECASE)


def passage_figures(question: str, sentence: str) -> list[Figure] | None:
    """The figures of `sentence` for each period the question asks ("What were X in 2019 and 2018
    respectively?" -> ["$54,000", "$3,000"]), in the order asked, or None unless every period binds to one
    figure of the asked kind without guessing (as many figures as periods, listed in order)."""
    periods = asked_periods(question)
    if (
        len(periods) < 2
        or not _SEVERAL_PERIODS.search(question)
        or _OPERATION.search(question)
        or _TOTALLED.search(question)
    ):
        return None
    if _NOT_A_FIGURE.search(re.sub(r"\brespective(?:ly)?\b", " ", question, flags=re.I)):
        return None
    if topic_share(question, sentence) < MIN_TOPIC or _TABLE_RUN.search(sentence) or len(sentence.split()) > MAX_WORDS:
        return None
    kind = asked_kind(question)
    candidates = [f for f in figures(sentence) if f.kind == kind]
    years = _sentence_years(sentence)
    if any(f.ranged for f in candidates) or len(candidates) != len(years) or not set(periods) <= set(years):
        return None
    return [candidates[years.index(p)] for p in periods]


def stated_change(question: str, sentence: str) -> Figure | None:
    """The change a sentence states ("expenses decreased $1.7 million from 2021 to 2022") for a question asking
    how much something changed: one figure of the asked kind right after a verb of change of the asked
    direction, and every period the question names in the sentence. Never computed here: the cell arithmetic
    computes changes from tables; prose gives one only when it says it."""
    if not set(asked_periods(question)) <= set(_sentence_years(sentence)) or not _ASKS_AMOUNT.match(question):
        return None
    asked_up, asked_down = bool(_UP.search(question)), bool(_DOWN.search(question))
    kind = "percent" if _PERCENT_ASKED.search(question) else None
    found = []
    for m in _STATED_CHANGE.finditer(sentence):
        up = bool(_UP.match(m.group("verb")))
        if (asked_up and not up) or (asked_down and up):
            continue
        figure = next(iter(figures(sentence[m.end("verb") :])), None)
        if figure is None or (figure.kind == "percent") != (kind == "percent") or figure.ranged:
            continue
        found.append(figure)
    return found[0] if len(found) == 1 else None


def _bound(candidates: list[Figure], period: str | None, years: list[str]) -> Figure | None:
    """The candidate bound to `period` (or the only one, when no period is asked) without guessing."""
    if period is None:
        return candidates[0] if len(candidates) == 1 and len(years) <= 1 else None
    if period not in years:
        return None
    if len(years) == 1:
        return candidates[0] if len(candidates) == 1 else None
    if len(candidates) == len(years):
        return candidates[years.index(period)]
    return None


def subject(question: str) -> str:
    """What a "What was the X?" question asks about, as the start of an answer ("The X"); "" for other forms,
    whose words do not make one."""
    m = re.match(r"^\s*what\s+(?:was|is|were|are)\s+the\s+(.+?)[\s?.]*$", question, re.IGNORECASE | re.DOTALL)
    return f"The {m.group(1)}" if m else ""
