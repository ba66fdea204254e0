"""What a question asks of a page, for the rerank stage (core.retrieval.rerank): the filings of the period it
names, the statements it names or whose line items it names, and its content words.

"What was the FY2021 inventory of Acme, per its balance sheet?" asks for a page of the FY2021 filing (or of the
filing printing FY2021 as its prior year, core.qa.planner.periods), a balance-sheet page, holding "inventory"
(or "inventories"), Acme and the other words it names. Examples are invented.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.lexicon.finance import FIGURE_WORDINGS, STATEMENT_ITEMS, STATEMENTS
from core.lexicon.stop import QUESTION_GLUE, SENTENCE_OPENERS
from core.lexicon.words import stem_of, words_of
from core.qa.planner.periods import FilingPeriod, filings_for, read_period
from core.retrieval.rerank import RerankHints

_TOKEN = re.compile(r"[a-z0-9&]+")  # as core.retrieval.rerank reads a page
_PERIOD_WORD = re.compile(r"\b(?:fy|q[1-4])\s?'?\d{2,4}\b|\b(?:19|20)\d\d\b")
# "What was the FY2022 capex", "How much did ... spend": an amount asked; "What drove ...", "why": a reason.
_FIGURE_ASKED = re.compile(r"\b(?:what\s+(?:is|was|were|are)|how\s+much)\b", re.IGNORECASE)
_REASON_ASKED = re.compile(
    r"\b(?:why|drove|drive[sn]?|driving|drivers?|reasons?|due\s+to|explain|caused?|causing)\b", re.IGNORECASE
)
# "Which segment grew fastest", "sales by business segment": the company's segments asked about; not when named
# in an aside ("the proceeds of the sale of Acme Tools (formerly its Tools segment)" asks about the proceeds).
_SEGMENTS_ASKED = re.compile(r"\bsegments?\b", re.IGNORECASE)
_ASIDE = re.compile(r"\([^()]*\)")
_GLUE = QUESTION_GLUE | SENTENCE_OPENERS


def asks_figure(question: str) -> bool:
    """Whether `question` asks for an amount ("What was ...", "How much ..."), not why or whether."""
    return bool(_FIGURE_ASKED.search(question)) and not _REASON_ASKED.search(question)


def _named(text: str, wordings: Sequence[str]) -> bool:
    return any(f" {' '.join(words_of(w))} " in text for w in wordings)


def rerank_hints(question: str, filings: Sequence[FilingPeriod] = ()) -> RerankHints:
    """What `question` asks of a page, `filings` being the room's documents with their stored periods."""
    text = f" {' '.join(words_of(question))} "
    asked = read_period(question)
    scope = filings_for(asked, filings) if asked is not None and filings else None
    documents = tuple(scope.documents) if scope is not None else ()
    latest = _latest(filings) if asked is None else ()
    statements = tuple(kind for kind, wordings in STATEMENTS.items() if _named(text, wordings))
    implied = tuple(kind for kind, items in STATEMENT_ITEMS.items() if kind not in statements and _named(text, items))
    items = tuple(
        " ".join(_TOKEN.findall(w.lower()))
        for wordings in FIGURE_WORDINGS.values()
        if asks_figure(question) and _named(text, wordings)
        for w in wordings
    )
    # The period's words are read as its filings; a page prints "2022", not "FY2022".
    plain = _PERIOD_WORD.sub(" ", question.lower())
    words = tuple(dict.fromkeys(stem_of(w) for w in _TOKEN.findall(plain) if w not in _GLUE and len(w) > 1))
    segments = bool(_SEGMENTS_ASKED.search(_ASIDE.sub(" ", question)))
    reason = bool(_REASON_ASKED.search(question))
    return RerankHints(question, documents, latest, statements, implied, items, words, segments, reason)


def _latest(filings: Sequence[FilingPeriod]) -> tuple[int, ...]:
    """The filings covering the room's latest fiscal year whole (its annual filing, a fourth-quarter release)."""
    years = [f.fiscal_year for f in filings if f.fiscal_year is not None and f.fiscal_quarter in (None, 4)]
    if not years:
        return ()
    return tuple(f.document_id for f in filings if f.fiscal_year == max(years) and f.fiscal_quarter in (None, 4))
