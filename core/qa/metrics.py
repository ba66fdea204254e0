"""Is the metric a question asks about in the room at all? Each metric must be linked to the room's text.

A question about "EBITDA" in a room whose sheets hold revenue and headcount finds columns and passages
that match its other words ("Company 03", "2021"); answering from them gives a cited figure of another
metric.  So every metric the question names (from core.lexicon.finance) must occur in the room — as a column name, a cell (row chunks hold both), a passage or a title — in any
of its usual wordings: "capex" is found as "purchases of property, plant and equipment", "revenue" as
"net sales".  The check is a full-text phrase query per wording (the room-scoped index; see
core/sql/grounding.sql), so it costs a few milliseconds and runs before retrieval.  Names and acronyms
outside the lexicon (a company, "ARR" written as such) are core.qa.grounding's name check.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import psycopg

from core.db import Database, q, returned
from core.lexicon.finance import FIGURE_WORDINGS, METRICS
from core.text import STOP_WORDS

_WORD = re.compile(r"[a-z0-9&']+")
# A clause that allows for the metric's absence: "if X is not (a useful metric | available | reported) …".
_CONDITIONAL = re.compile(
    r"\b(?:if|unless|where|when)\b[^.?;]*?\b(?:not|no|n't|isn't|unavailable)\b[^.?;]*", re.IGNORECASE
)


@dataclass(frozen=True)
class AskedMetric:
    """A metric the question names, and every wording that would show the room holds it."""

    name: str
    wordings: tuple[str, ...]


def _words(text: str) -> str:
    return " " + " ".join(_WORD.findall(text.lower().replace("’", "'"))) + " "


def asked_metrics(question: str) -> list[AskedMetric]:
    """The metrics `question` names, by the lexicon's wordings (longest first: "earnings per share" is EPS)."""
    text = _words(question)
    found: dict[str, AskedMetric] = {}
    at: dict[str, int] = {}  # where the question first names each metric: the result is in question order
    taken: list[str] = []
    wordings = sorted(((w, name) for name, ws in METRICS.items() for w in ws), key=lambda x: -len(x[0]))
    for wording, name in wordings:
        needle = _words(wording)
        if needle in text and not any(needle in t for t in taken):
            taken.append(needle)
            if name not in found or text.find(needle) < at[name]:
                found[name], at[name] = AskedMetric(name, METRICS[name]), text.find(needle)
    # "If EBITDA is not a meaningful measure for a bank, say so": the question expects the
    # metric may be missing, so its absence is an answer to give, not a reason to abstain.
    anticipated = {
        name for clause in anticipated_clauses(question) for name in found if _mentions(clause, METRICS[name])
    }
    return [found[name] for name in sorted(found, key=at.__getitem__) if name not in anticipated]


def anticipated_clauses(question: str) -> list[str]:
    """Clauses of `question` that allow for a metric's absence ("if EBITDA is not a meaningful measure here …")."""
    return _CONDITIONAL.findall(question)


def figure_aliases(question: str) -> list[str]:
    """Other wordings of the figures `question` names (FIGURE_WORDINGS), for finding their line items."""
    text = _words(question)
    out: list[str] = []
    for wordings in FIGURE_WORDINGS.values():
        if any(_words(w) in text for w in wordings):
            out.extend(w for w in wordings if _words(w) not in text)
    return out


def _mentions(text: str, wordings: tuple[str, ...]) -> bool:
    words = _words(text)
    return any(_words(w) in words for w in wordings)


def word_stems(text: str) -> set[str]:
    """The words of `text`, lower-cased, a plural "s" dropped: for telling whether one wording's words are
    among another text's ("Shareholders' equity" holds shareholders equity)."""
    words = re.findall(r"[a-z0-9]+", text.lower())
    return {w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words}


def beginning(word: str) -> str:
    """A word as written without a plural's ending ("management"; "fund" of "funds", "activit" of "activities")."""
    if len(word) > 3 and word.endswith("ies"):
        return word[:-3]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def written_pattern(words: Sequence[str]) -> str:
    """A POSIX regular expression (for case-insensitive use) of `words` next to each other as written: a stop
    word itself ("debt to equity" is not "debt and equity"), any other word by its beginning ("funds from
    operations" is also "funding from operational")."""
    return r"\W+".join(w if w in STOP_WORDS else re.escape(beginning(w)) + r"\w*" for w in words)


def _linked(conn: psycopg.Connection[Any], room_id: int, wording: str) -> bool:
    """Whether the room holds `wording` as a phrase, and a wording of words as written: with any stop word inside
    it ("debt or equity securities" is no debt to equity), each word as it begins (the stemmer makes "adjusted
    operational earnings" operating earnings)."""
    pattern = _as_written(wording)
    if not pattern:
        return bool(returned(conn.execute(q("room_has_phrase"), {"room_id": room_id, "phrase": wording}))[0])
    params = {"room_id": room_id, "phrase": wording, "pattern": pattern}
    return bool(returned(conn.execute(q("room_has_written"), params))[0])


def _as_written(wording: str) -> str:
    """The regular expression a text must match to show `wording` of several words as written ('' for one word:
    the phrase query is the test)."""
    words = [w.strip("'") for w in _WORD.findall(wording.lower().replace("’", "'"))]  # an apostrophe is no word
    return r"\m" + written_pattern(words) if len(words) > 1 else ""


def unlinked_metrics(db: Database, room_id: int, question: str, places: Sequence[str] = ()) -> list[str]:
    """The metrics `question` names that nothing in the room holds, in any wording (empty: all linked).
    `places`: the text around each cell the plan reads (its labels, its section's and its table's headings); a
    metric all of whose words, in some wording, one of them holds is linked there ("Total" under "Assets not
    allocated:")."""
    held = [word_stems(place) for place in places]
    asked = [
        m for m in asked_metrics(question) if not any(word_stems(w) <= words for w in m.wordings for words in held)
    ]
    if not asked:
        return []
    missing: list[str] = []
    with db.connection() as conn:
        for metric in asked:
            if not any(_linked(conn, room_id, wording) for wording in metric.wordings):
                missing.append(metric.name)
    return missing


def metrics_held(db: Database, question: str, texts: Sequence[str]) -> dict[str, set[int]]:
    """Each metric `question` names -> the positions (from 0) of `texts` (the evidence retrieved to answer it) that
    hold it in some wording, as a phrase and as written (as _linked finds it in a room): a room that prints
    "attrition" somewhere links "churn rate", and a table of debt issuances retrieved for it is no answer."""
    held: dict[str, set[int]] = {}
    with db.connection() as conn:
        for metric in asked_metrics(question):
            params = {"texts": list(texts), "phrases": list(metric.wordings)}
            params["patterns"] = [_as_written(wording) for wording in metric.wordings]
            held[metric.name] = {i - 1 for i in returned(conn.execute(q("texts_holding_phrases"), params))[0]}
    return held


def metric_queries(db: Database, question: str) -> dict[str, str]:
    """Each metric `question` names -> a tsquery's text matching any of its wordings as a phrase: what a search
    for passages naming it must match."""
    with db.connection() as conn:
        return {
            m.name: returned(conn.execute(q("wordings_query_text"), {"wordings": list(m.wordings)}))[0] or ""
            for m in asked_metrics(question)
        }
