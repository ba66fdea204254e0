"""Drivers and yes/no answers read from a filing's sentences (the passages of the period asked only).

- **Drivers**: "What drove the rise in freight costs?", "Why did inventories increase?", "What was the decline in
  margin primarily due to?" are answered by the sentence that states it ("Inventories increased 8%, primarily due
  to earlier receipts of holiday goods."), quoted whole. The sentence must name what the question asks about (its
  topic words, or the line's wording in core/lexicon/finance.py) and hold a driver's words (core/lexicon/drivers.py);
  a sentence opening on "This"/"The increase" that gives the reason of the sentence before it is quoted with it.
  A sentence of the other direction ("decreased" asked "increase") states no driver of the change asked. None in
  the passages: the caller abstains saying so.
- **Yes/no**: "Did X increase or decrease?", "Is X improving?", "Did X rise in FY2023?" are answered from a
  sentence stating both figures of X ("X was 31.0% compared with 32.5% last year", "X rose to $5.2 million from
  $4.1 million"): the direction is read from the two figures, never from one, and "improving" is answered yes or
  no only for a line whose better direction is known (core/lexicon/drivers.py), else with its direction.

Pure: question and passages in, the chosen sentence out. Examples are invented.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from core.lexicon.drivers import (
    BETTER_VERBS,
    CAUSE_PHRASES,
    CAUSE_QUALIFIERS,
    CURRENT_FIRST,
    DOWN_VERBS,
    HIGHER_IS_BETTER,
    LOWER_IS_BETTER,
    OTHER_DRIVER_PHRASES,
    PRIOR_FIRST,
    REASON_ASKED,
    UP_VERBS,
    WORSE_VERBS,
)
from core.lexicon.finance import FIGURE_WORDINGS, METRICS
from core.qa.passage_figures import MAX_WORDS, Figure, figures, topic_share
from core.qa.passage_spans import MIN_TOPIC, passage_span, phrases
from core.retrieval.retriever import Evidence

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")
_REASON = re.compile("|".join(REASON_ASKED), re.IGNORECASE)
_DRIVER = re.compile(
    rf"\b(?:{phrases(CAUSE_PHRASES)}|{phrases(OTHER_DRIVER_PHRASES)}|{phrases(CAUSE_QUALIFIERS)})\b", re.IGNORECASE
)
_UP_NOUNS = ("increase", "increases", "rise", "growth", "gain", "improvement", "higher")
_DOWN_NOUNS = ("decrease", "decreases", "decline", "fall", "drop", "reduction", "lower")
_UP = re.compile(rf"\b(?:{phrases(UP_VERBS + _UP_NOUNS)}|up)\b", re.IGNORECASE)
_DOWN = re.compile(rf"\b(?:{phrases(DOWN_VERBS + _DOWN_NOUNS)}|down)\b", re.IGNORECASE)
_CHANGE = re.compile(
    rf"{_UP.pattern}|{_DOWN.pattern}|\b(?:{phrases(BETTER_VERBS + WORSE_VERBS)})\b|\bchang\w*|\bdriv\w*|\bvariance\b",
    re.IGNORECASE,
)
# "This was due to …", "The increase reflects …": a sentence giving the reason of the one before it.
_ANAPHORA = re.compile(
    rf"^\s*(?:this|these|that|it|the\s+(?:{phrases(_UP_NOUNS + _DOWN_NOUNS)}|change|improvement|variance))\b",
    re.IGNORECASE,
)
# Period words: what the scope already took care of, no topic the sentence must repeat.
_PERIOD_WORDS = re.compile(
    r"\b(?:fy\s?'?\d{2,4}|q[1-4]|fiscal(?:\s+year)?|(?:first|second|third|fourth)[-\s]quarter|quarter|year|"
    r"full[-\s]year|\d{4}|(?:over|during|for|in)\s+the\s+(?:year|period|quarter))\b",
    re.IGNORECASE,
)
_ASK_WORDS = re.compile(
    r"\b(?:what|why|did|does|do|has|have|had|was|were|is|are|the|company|company's|drove|drive|drives|driven|"
    r"drivers?|behind|main|key|primary|primarily|reasons?|caused?|causes|explains?|led|to|of|in|for|or|and)\b",
    re.IGNORECASE,
)

# A yes/no on a change: "Did X increase or decrease …", "Is X improving?", "Has X fallen …".
_YES_NO = re.compile(
    rf"^\s*(?:did|does|do|has|have|had|was|were|is|are)\b(?P<topic>.+?)\b(?P<verb>"
    rf"{phrases(UP_VERBS + DOWN_VERBS + BETTER_VERBS + WORSE_VERBS)})\b(?P<rest>.*)$",
    re.IGNORECASE | re.DOTALL,
)
_BOTH_WAYS = re.compile(rf"\bor\s+(?:{phrases(UP_VERBS + DOWN_VERBS + BETTER_VERBS + WORSE_VERBS)})\b", re.I)
_CURRENT_FIRST = re.compile(rf"^[\s,;]*(?:{phrases(CURRENT_FIRST)})\s+(?:the\s+)?$", re.IGNORECASE)
_PRIOR_FIRST = re.compile(rf"^[\s,;]*(?:{phrases(PRIOR_FIRST)})\s+$", re.IGNORECASE)
_FROM_BEFORE = re.compile(r"\bfrom\s+(?:approximately\s+|about\s+)?$", re.IGNORECASE)


def sentences(text: str) -> list[str]:
    """A passage's sentences, whitespace folded."""
    return [s.strip() for s in _SENTENCE.split(" ".join(text.split())) if s.strip()]


def topic(question: str) -> str:
    """What a driver or yes/no question asks about: its words less the asking, change and period words."""
    text = _REASON.sub(" ", question)
    text = _PERIOD_WORDS.sub(" ", text)
    text = _CHANGE.sub(" ", text)
    text = _ASK_WORDS.sub(" ", text)
    return " ".join(re.sub(r"[?.!,;:]", " ", text).split())


def names(subject: str, sentence: str) -> bool:
    """Whether `sentence` names `subject`: most of its words, or one of its line's other wordings."""
    if not subject or topic_share(subject, sentence) >= MIN_TOPIC:
        return bool(subject)
    low, said = f" {subject.lower()} ", sentence.lower()
    for wordings in (*FIGURE_WORDINGS.values(), *METRICS.values()):
        asked = [w for w in wordings if f" {w.lower()} " in low]
        if not asked:
            continue
        rest = low.replace(f" {max(asked, key=len).lower()} ", " ")
        if any(re.search(rf"\b{re.escape(w.lower())}\b", said) for w in wordings):
            if not rest.strip() or topic_share(rest, sentence) >= MIN_TOPIC:
                return True
    return False


def asks_driver(question: str) -> bool:
    """A question asking what drove a line's change ("What drove …", "Why did X fall", "… primarily due to?")."""
    return bool(_REASON.search(question)) and bool(_CHANGE.search(_REASON.sub(" ", question)) or "drov" in question)


@dataclass(frozen=True)
class Quote:
    """The sentence(s) a driver or yes/no answer quotes, from passage `n`, and what it reads of them."""

    n: int
    text: str
    span: str | None = None  # the reason, in the source's words ("primarily due to higher freight costs")


def _direction(question: str) -> str | None:
    asked = _REASON.sub(" ", question)
    up, down = bool(_UP.search(asked)), bool(_DOWN.search(asked))
    return "up" if up and not down else "down" if down and not up else None


def _against(question: str, sentence: str) -> bool:
    """The sentence states a change only of the other direction than the one asked."""
    asked = _direction(question)
    up, down = bool(_UP.search(sentence)), bool(_DOWN.search(sentence))
    return (asked == "up" and down and not up) or (asked == "down" and up and not down)


def driver_quote(question: str, passages: Sequence[Evidence], first: Sequence[str] = ()) -> Quote | None:
    """The sentence of `passages` that states what drove the change asked (see the module); `first`: the best
    passage's best sentences, preferred when one gives the reason in so many words."""
    best = passages[0] if passages else None
    for sentence in first:
        span = passage_span(question, sentence)
        if best is not None and span is not None:
            return Quote(best.n, sentence, span)
    subject = topic(question)
    undated = _PERIOD_WORDS.sub(" ", question)  # the period is the scope's: no word the reason must repeat
    found: list[tuple[float, int, Quote]] = []
    for order, item in enumerate(passages):
        said = sentences(item.content)
        for i, sentence in enumerate(said):
            if not _DRIVER.search(sentence) or len(sentence.split()) > MAX_WORDS:
                continue
            quoted = sentence
            if not names(subject, sentence):
                before = said[i - 1] if i else ""
                if not (before and _ANAPHORA.match(sentence) and names(subject, before)):
                    continue
                quoted = f"{before} {sentence}"
            if _against(question, quoted):
                continue
            share = topic_share(subject, quoted)
            found.append((share, -order, Quote(item.n, quoted, passage_span(undated, sentence))))
    return max(found, key=lambda f: (f[0], f[1]))[2] if found else None


# -- yes/no ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class YesNo:
    """A yes/no answer's lead word ("Yes", "No", "Increased", "Decreased") and the quote stating both figures."""

    word: str
    quote: Quote
    current: Figure
    prior: Figure
    rose: bool


def asks_yes_no(question: str) -> bool:
    """A yes/no question on a line's change ("Did X increase or decrease?", "Is X improving?")."""
    return bool(_YES_NO.match(question)) and not _REASON.search(question)


def _number(figure: Figure) -> Decimal | None:
    digits = re.sub(r"[^\d.]", "", figure.value)
    try:
        value = Decimal(digits)
    except InvalidOperation:
        return None
    return -value if "(" in figure.text or figure.value.startswith("-") else value


def _pair(sentence: str) -> tuple[Figure, Figure] | None:
    """The sentence's current and prior figure of one kind, as its wording sets them against each other."""
    found = [f for f in figures(sentence) if not f.ranged and f.kind in ("money", "percent", "count")]
    pairs = [(a, b) for a, b in zip(found, found[1:], strict=False) if a.kind == b.kind]
    read: list[tuple[Figure, Figure]] = []
    for a, b in pairs:
        between = sentence[a.start + len(a.text) : b.start]
        if _CURRENT_FIRST.match(between):
            # "from A to B" is prior first: the word before A says so
            read.append((b, a) if _FROM_BEFORE.search(sentence[: a.start]) else (a, b))
        elif _PRIOR_FIRST.match(between) and _FROM_BEFORE.search(sentence[: a.start]):
            read.append((b, a))  # "from B to A"
    return read[0] if len(read) == 1 else None


def _word(question: str, subject: str, rose: bool) -> str | None:
    """The answer's lead word for a change up (`rose`) or down, as the question asks it."""
    m = _YES_NO.match(question)
    if m is None:
        return None
    verb = m.group("verb").lower()
    moved = "Increased" if rose else "Decreased"
    if _BOTH_WAYS.search(m.group("rest")):
        return moved
    if verb in BETTER_VERBS or verb in WORSE_VERBS:
        words = set(re.findall(r"[a-z-]+", subject.lower()))
        if words & LOWER_IS_BETTER:
            better = not rose
        elif words & HIGHER_IS_BETTER:
            better = rose
        else:
            return moved  # which way is better is not known: the direction, no judgement
        return "Yes" if better == (verb in BETTER_VERBS) else "No"
    return "Yes" if rose == (verb in UP_VERBS) else "No"


def yes_no(question: str, passages: Sequence[Evidence]) -> YesNo | None:
    """The yes/no answer from the first passage sentence naming the line and stating both of its figures."""
    if not asks_yes_no(question):
        return None
    subject = topic(question)
    for item in passages:
        for sentence in sentences(item.content):
            if len(sentence.split()) > MAX_WORDS or not names(subject, sentence):
                continue
            pair = _pair(sentence)
            if pair is None:
                continue
            current, prior = (_number(f) for f in pair)
            if current is None or prior is None or current == prior:
                continue
            word = _word(question, subject, current > prior)
            if word is not None:
                return YesNo(word, Quote(item.n, sentence), *pair, rose=current > prior)
    return None
