"""Questions about a line's change that ask no figure: what drove it ("What drove the rise in freight costs?",
"Why did inventories increase?", "… primarily due to?") and whether it went up ("Did X increase or decrease?",
"Is X improving?", "Did X rise in FY2023?").

Question reading only: core.qa.passage_drivers finds the sentence that answers, core.qa.planner.statements plans
the yes/no as the line's change between two statement columns, and the answer leads with the word this module
reads ("Yes"/"No" for a question of one direction, "Increased"/"Decreased" for one asking either). "Improving" is
answered yes or no only for a line whose better direction core/lexicon/drivers.py knows. Examples are invented.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from core.lexicon.drivers import (
    BETTER_VERBS,
    DOWN_VERBS,
    HIGHER_IS_BETTER,
    LOWER_IS_BETTER,
    REASON_ASKED,
    UP_VERBS,
    WORSE_VERBS,
)
from core.lexicon.periods import WRITTEN_DATE, YEAR_DIGITS
from core.lexicon.questions import YES_NO_OPENERS
from core.lexicon.stop import NAME_GLUE


def phrases(words: tuple[str, ...]) -> str:
    """An alternation of `words` (regular-expression parts) whose spaces match any whitespace."""
    return "|".join(re.sub(" ", r"\\s+", w) for w in words)


REASON = re.compile("|".join(REASON_ASKED), re.IGNORECASE)
UP_NOUNS = ("increase", "increases", "rise", "growth", "gain", "improvement", "higher")
DOWN_NOUNS = ("decrease", "decreases", "decline", "fall", "drop", "reduction", "lower")
UP = re.compile(rf"\b(?:{phrases(UP_VERBS + UP_NOUNS)}|up)\b", re.IGNORECASE)
DOWN = re.compile(rf"\b(?:{phrases(DOWN_VERBS + DOWN_NOUNS)}|down)\b", re.IGNORECASE)
_JUDGED = BETTER_VERBS + WORSE_VERBS
_CHANGE = re.compile(
    rf"{UP.pattern}|{DOWN.pattern}|\b(?:{phrases(_JUDGED)})\b|\bchang\w*|\bdriv\w*|\bdrove\b|\bvariance\b",
    re.IGNORECASE,
)
# Period words: what the filing scope already took care of, no topic a sentence must repeat.
PERIOD_WORDS = re.compile(
    r"\b(?:fy\s?'?\d{2,4}|q[1-4]|fiscal(?:\s+year)?|(?:first|second|third|fourth)[-\s]quarter|quarter|year|"
    r"full[-\s]year|\d{4}|(?:over|during|for|in)\s+the\s+(?:year|period|quarter))\b",
    re.IGNORECASE,
)
# A period written as a phrase ("the year ended December 31, 2026", "versus the same period in 2025", "compared
# with the prior year"): no topic either.
_PERIOD_PHRASES = re.compile(
    rf"\b(?:(?:three|six|nine|twelve|\d{{1,2}})\s+months\s+|(?:fiscal\s+)?years?\s+|quarters?\s+|weeks?\s+)?"
    rf"ended\s+(?:{WRITTEN_DATE}|{YEAR_DIGITS})|"
    r"\b(?:versus|vs\.?|compared\s+(?:to|with)|relative\s+to|against)\s+(?:the\s+)?"
    r"(?:same\s+period|prior\s+(?:fiscal\s+)?year|previous\s+(?:fiscal\s+)?year|last\s+year|year\s+before)"
    r"(?:\s+(?:in|of)\s+\d{4})?",
    re.IGNORECASE,
)
_ASK_WORDS = re.compile(
    r"\b(?:what|why|did|does|do|has|have|had|was|were|is|are|the|company|company's|drove|drive|drives|driven|"
    r"drivers?|behind|main|key|primary|primarily|reasons?|caused?|causes|explains?|led|to|of|in|for|or|and|from)\b",
    re.IGNORECASE,
)
_YES_NO = re.compile(
    rf"^\s*(?:{'|'.join(YES_NO_OPENERS)})\b(?P<topic>.+?)\b(?P<verb>"
    rf"{phrases(UP_VERBS + DOWN_VERBS + _JUDGED)})\b(?P<rest>.*)$",
    re.IGNORECASE | re.DOTALL,
)
_BOTH_WAYS = re.compile(rf"\s*\bor\s+(?:{phrases(UP_VERBS + DOWN_VERBS + _JUDGED)})\b", re.IGNORECASE)


# What follows the question proper: a second sentence ("If X is not useful, say so."), the company asked about.
_FIRST_SENTENCE = re.compile(r"^(.*?\?)(?:\s|$)", re.DOTALL)
# A possessive name may run over several words and a corporate suffix after a comma ("Acme Tools' inventories",
# "Brindle Foods, Inc.'s net sales", "Hale & Rowe's margin"), or open with a digit ("7G's revenue"): the company's,
# not the line's.
_FOR_NAME = re.compile(
    r"\s+(?:(?:for|at)\s+(?:(?:[A-Z0-9][\w&.-]*|&)\s*)+|of\s+(?:(?:[A-Z][\w&.-]*|&)\s*)+(?=[?.]?\s*$))|"
    r"\b(?:[A-Z]|\d+[A-Z])[\w&.-]*(?:,?\s+(?:&\s+)?[A-Z][\w&.-]*)*(?:['’]s\b|(?<=s)['’](?=\s))"
)


def topic(question: str) -> str:
    """What a driver or yes/no question asks about: its words less the asking, change and period words, the
    company it is asked of ("… for Acme Tools?") and any sentence after the question."""
    first = _FIRST_SENTENCE.match(question)
    text = _FOR_NAME.sub(" ", first.group(1) if first else question)
    text = re.sub(r"\bas\s+of\b", " ", text, flags=re.IGNORECASE)
    text = REASON.sub(" ", text)
    text = _PERIOD_PHRASES.sub(" ", text)
    text = PERIOD_WORDS.sub(" ", text)
    text = _CHANGE.sub(" ", text)
    words = re.sub(r"[?.!,;:]", " ", text).split()
    asking = [bool(_ASK_WORDS.fullmatch(w)) for w in words]
    # a small word inside the line's name stays ("cost of sales", "provision for credit losses"); at its edges,
    # or beside the asking words, it goes ("the change in revenue")
    return " ".join(
        w
        for i, w in enumerate(words)
        if not asking[i]
        or (w.lower() in NAME_GLUE and 0 < i < len(words) - 1 and not asking[i - 1] and not asking[i + 1])
    )


def asks_driver(question: str) -> bool:
    """A question asking what drove a line's change ("What drove …", "Why did X fall", "… primarily due to?")."""
    return bool(REASON.search(question)) and bool(_CHANGE.search(REASON.sub(" ", question)))


def direction_asked(question: str) -> str | None:
    """ "up" or "down" when a driver question asks about a change of one direction."""
    asked = REASON.sub(" ", question)
    up, down = bool(UP.search(asked)), bool(DOWN.search(asked))
    return "up" if up and not down else "down" if down and not up else None


@dataclass(frozen=True)
class YesNoAsked:
    """A yes/no on a line's change: the lead word if the line rose, and if it fell; and the same question asked
    as a change ("What was the change in net revenue in 2022?"), for the statement cells."""

    if_up: str
    if_down: str
    as_change: str
    topic: str = ""  # what the question asks moved ("the current ratio"), as written
    judged: str = ""  # "better" ("improve") or "worse" ("deteriorate") when the verb judges, else ""


# The verb written as an adjective before what moved: "Has Acme shown an improving gross margin trend over FY2023?"
# asks whether the gross margin improved; "trend", "profile" name no line.
_HAS_A = re.compile(r"\b(?:have|has|had|show|shows|showed)\s+(?:an?|the)\s*$", re.IGNORECASE)
_MOVED_NOUN = re.compile(
    r"^\s*(?P<what>.+?)\s*(?:\b(?:profile|trend|trajectory|picture)\b)?\s*(?P<rest>(?:\b(?:as\s+of|in|for|over|during|from|between|since|compared|versus|vs)\b.*)?[?.!]?\s*)$",
    re.IGNORECASE | re.DOTALL,
)


def yes_no_asked(question: str) -> YesNoAsked | None:
    """The yes/no a question asks of a line's change, or None (a reason asked is no yes/no)."""
    m = _YES_NO.match(question)
    if m is None or REASON.search(question):
        return None
    topic, rest = m.group("topic").strip(), m.group("rest")
    if _HAS_A.search(topic) and (noun := _MOVED_NOUN.match(rest)) is not None and noun.group("what").strip():
        topic, rest = f"{_HAS_A.sub('', topic).strip()} {noun.group('what').strip()}", noun.group("rest")
    as_change = f"What was the change in {topic} {_BOTH_WAYS.sub('', rest).strip()}".strip()
    verb = " ".join(m.group("verb").lower().split())
    judged = ("better" if verb in BETTER_VERBS else "worse") if verb in _JUDGED else ""
    moved = YesNoAsked("Increased", "Decreased", as_change, topic, judged)
    if _BOTH_WAYS.match(rest):
        return moved
    if verb in _JUDGED:
        words = set(re.findall(r"[a-z-]+", topic.lower()))
        if words & LOWER_IS_BETTER:
            better_up = False
        elif words & HIGHER_IS_BETTER:
            better_up = True
        else:
            return moved  # which way is better is not known: the direction, no judgement
        yes_up = better_up == (verb in BETTER_VERBS)
    else:
        yes_up = verb in UP_VERBS
    return replace(moved, if_up="Yes" if yes_up else "No", if_down="No" if yes_up else "Yes")
