"""The words of a sentence that answer a question about a reason, a date, a make-up or a method, as the source
writes them: "What caused the rise in freight costs?" + "The rise in freight costs is primarily due to higher
fuel prices." -> "primarily due to higher fuel prices".

A passage answer quotes the sentences that cover the question best; this module reads the answer out of the
best one when the question's form says where it starts, and gives nothing when in doubt (the quoted sentence
stays the answer):

- a reason ("why", "what caused", "what … due to", "reason"): from the sentence's one causal phrase ("primarily
  due to", "because of", "as a result of", "driven by", "attributable to") to its end;
- a date ("when", "in which year/month/period"): the sentence's one date that the question does not give;
- a frequency ("how often"): the sentence's one "annually", "on a quarterly basis", "every three years";
- a make-up or a method ("What does X consist of / include / represent?", "How is X calculated / determined /
  stated?", "What does the firm rely on to …?"): what follows the question's verb in the sentence;
- a question ending on its predicate ("What are these costs primarily related to?", "… driven by?"): what
  follows the same words in the sentence.

The sentence must be about the question (most of its topic words, `passage_figures.topic_share`) and hold the
pivot once; the answer ends where the sentence turns back to the question's own words ("… appraisers to value
its stock" asked "… rely on to value its stock") or gives its subject a second predicate ("… using a lattice model
and is reviewed each year"). "How often" asks a frequency before any other form. Figures are `passage_figures`' job.
"""

from __future__ import annotations

import re

from core.lexicon.drivers import CAUSE_PHRASES, CAUSE_QUALIFIERS, REASON_ASKED
from core.lexicon.periods import MONTHS, YEAR_DIGITS
from core.qa.passage_figures import MAX_WORDS, topic_share
from core.qa.planner.changes import phrases
from core.text import STOP_WORDS

# The sentence must hold this share of the question's topic words: it restates the question, then answers it.
MIN_TOPIC = 0.75
# Spans longer than this are a paragraph's worth, not an answer.
MAX_SPAN_WORDS = 60

_REASON_ASKED = re.compile("|".join(REASON_ASKED), re.IGNORECASE)


_CAUSE = re.compile(rf"\b(?:(?:{phrases(CAUSE_QUALIFIERS)})\s+)?(?:{phrases(CAUSE_PHRASES)})\b", re.IGNORECASE)
_WHEN_ASKED = re.compile(
    r"^\s*when\b|\b(?:in|on|during)\s+(?:which|what)\s+(?:year|month|quarter|period|date|fiscal\s+year)\b",
    re.IGNORECASE,
)
_HOW_OFTEN = re.compile(r"^\s*how\s+(?:often|frequently)\b", re.IGNORECASE)
# "annually", "on a quarterly basis" (read "quarterly basis"), "every three years", "once a year".
_FREQUENCY = re.compile(
    r"\b(?:on\s+an?\s+)?(?P<often>(?:semi-)?(?:annually|quarterly|monthly|weekly|daily)|"
    r"(?:annual|quarterly|monthly|weekly|daily|yearly)\s+basis|every\s+(?:\w+\s+)?(?:years?|months?|quarters?)|"
    r"(?:once|twice)\s+(?:a|per|each)\s+(?:year|quarter|month))\b",
    re.IGNORECASE,
)
_MONTH = rf"(?:{'|'.join(MONTHS)})"
_DATE = re.compile(
    rf"\b{_MONTH}\s+\d{{1,2}},\s+{YEAR_DIGITS}\b|\b\d{{1,2}}\s+{_MONTH}\s+{YEAR_DIGITS}\b|\b{_MONTH}\s+{YEAR_DIGITS}\b|"
    rf"\b(?:fiscal\s+(?:year\s+)?)?{YEAR_DIGITS}\b",
    re.IGNORECASE,
)
# "What does X consist of?", "How is X calculated?", "What does the firm rely on to …?": the question's verb,
# as the sentence writes it (stems), and what the answer skips after it.
_PIVOTS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\b(?:consists?|consisted|comprise[sd]?|composed|made\s+up)\b(?:\s+\w+ly)?\s+of\b", re.I),
     r"\b(?:consists?|consisted|comprise[sd]?|composed|made\s+up)\b(?:\s+(?:primarily|mainly|principally|largely|"
     r"mostly))?(?:\s+of)?\s+"),
    (re.compile(r"\bwhat\s+(?:does|do|did|is|are|was|were)\b.*\b(?:include|included|includes)\b", re.I),
     r"\b(?:includes?|including)\b\s+"),  # active: "X includes …", never "… is included in Y"
    (re.compile(r"\bwhat\s+(?:does|do|did)\b.*\brepresents?\b", re.I), r"\brepresents?\b\s+"),
    (re.compile(r"\bhow\s+(?:is|are|was|were)\b.*\b(?:determined|calculated|computed|measured|derived|estimated|"
                r"stated|recogni[sz]ed|recorded|valued|defined|amortized|depreciated|reported)\b", re.I),
     r"\b(?:determined|calculated|computed|measured|derived|estimated|stated|recogni[sz]ed|recorded|valued|defined|"
     r"amortized|depreciated|reported)\b(?:\s+(?:based\s+(?:up)?on|using))?\s+"),
    (re.compile(r"\bwhat\s+(?:does|do|did)\b.*\brel(?:y|ies|ied)\s+(?:up)?on\b", re.I),
     r"\brel(?:y|ies|ied)\s+(?:up)?on\s+"),
)  # fmt: skip
_WORD = re.compile(r"[a-z0-9]+")
# A question that ends on its predicate: "What are these costs primarily related to?", "What was the increase
# driven by?", "What was the write-down mainly due to?": the answer follows the same words.
_TRAILING = re.compile(
    r"\b(?P<verb>[a-z]+(?:ed|en)|due|attributable|subject|exposed)\s+(?P<prep>to|by|in|of|on|for|with|from|upon)"
    r"\s*\??\s*$",
    re.IGNORECASE,
)
# The sentence's subject given a second predicate after the answer: "… determined using a lattice model and is
# reviewed each year" answers "how is it determined" with "a lattice model".
_SECOND_PREDICATE = re.compile(
    r",?\s+and\s+(?:is|are|was|were|has|have|had|will|would|may|does|do|did)\b.*$",
    re.IGNORECASE | re.DOTALL,
)
_ADVERB = r"(?:primarily|mainly|largely|principally|mostly|partially|partly|significantly|generally|chiefly)"


def _stem(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _question_words(question: str) -> set[str]:
    return {_stem(w) for w in _WORD.findall(question.lower()) if w not in STOP_WORDS}


def _tidy(span: str) -> str:
    return span.strip().rstrip(".;:,").strip()


_CONNECTIVES = frozenset("to for in of on at by from with".split())


def _cut_back_to_question(span: str, question: str) -> str:
    """The span without a tail that only repeats the question ("… appraisers to value its stock" asked "what
    does it rely on to value its stock"): the longest tail that starts at a connective and whose words (numbers
    aside) are all the question's."""
    asked = _question_words(question)
    words = list(re.finditer(r"\S+", span))
    for i, word in enumerate(words):
        if i == 0 or word.group().lower() not in _CONNECTIVES:
            continue
        tail = {_stem(w) for w in _WORD.findall(span[word.start() :].lower()) if not w.isdigit()} - STOP_WORDS
        if tail and tail <= asked:
            return span[: word.start()]
    return span


def passage_span(question: str, sentence: str) -> str | None:
    """The words of `sentence` that answer `question` (a reason, a date, a make-up or a method), or None."""
    # the asking words ("what caused", "why") are no topic the sentence must hold
    topic = _REASON_ASKED.sub(" ", question)
    if len(sentence.split()) > MAX_WORDS or topic_share(topic, sentence) < MIN_TOPIC:
        return None
    span: str | None = None
    trailing = _TRAILING.search(question)
    # "How often" asks a frequency whatever the question ends on ("… are based on?" names the topic's predicate)
    if _HOW_OFTEN.search(question):
        often = {m.group("often").lower() for m in _FREQUENCY.finditer(sentence)}
        return often.pop() if len(often) == 1 else None
    if trailing:
        verb, prep = re.escape(trailing.group("verb")), re.escape(trailing.group("prep"))
        found = list(re.finditer(rf"\b{verb}(?:\s+{_ADVERB})?\s+{prep}\s+", sentence, re.IGNORECASE))
        span = sentence[found[0].end() :] if len(found) == 1 else None
    elif _REASON_ASKED.search(question):
        causes = list(_CAUSE.finditer(sentence))
        span = sentence[causes[0].start() :] if len(causes) == 1 else None
    elif _WHEN_ASKED.search(question):
        given = {m.group().lower() for m in _DATE.finditer(question)}
        dates = {m.group() for m in _DATE.finditer(sentence) if m.group().lower() not in given}
        # a date inside a longer one ("2014" of "May 2014") is the same date
        dates = {d for d in dates if not any(d != other and d in other for other in dates)}
        return dates.pop() if len(dates) == 1 else None
    else:
        for asked, pivot in _PIVOTS:
            if asked.search(question):
                found = list(re.finditer(pivot, sentence, re.IGNORECASE))
                span = sentence[found[0].end() :] if len(found) == 1 else None
                break
    if span is None:
        return None
    span = _tidy(_cut_back_to_question(_tidy(_SECOND_PREDICATE.sub("", span)), question))
    words = [_stem(w) for w in _WORD.findall(span.lower()) if w not in STOP_WORDS]
    if not words or len(span.split()) > MAX_SPAN_WORDS:
        return None
    own = _question_words(question)
    if sum(1 for w in words if w in own) * 2 > len(words):
        return None  # mostly the question's own words: the pivot was not where the answer starts
    return span
