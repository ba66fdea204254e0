"""The rerank stage: the hybrid search's top pages put in the order a reader would open them.

The fused ranking (core.retrieval.search) scores passages by their words; a question about a filing asks for a
page: the filing of the period asked, the statement that prints the figure, the page holding all it names. Over
the first RERANK_PAGES pages of the fused ranking, plus the statement pages the question asks for (a question
naming "the balance sheet", or a line item read from one, gets that statement's pages of the room as candidates
even when its words rank them low), each page is scored (`page_score`, docs/answering.md "The right page first"):

* its place in the fused ranking (the words and vectors still count: 1 at the top, falling with the rank);
* + PERIOD_BONUS when it is in a filing of the period asked (`RerankHints.documents`, read by the planner);
  a question naming no period asks about the latest: + LATEST_BONUS for the filings of the room's latest year;
* + NAMED_STATEMENT_BONUS when it is a statement page (a heading such as "Consolidated Balance Sheets" at its
  top and a page of figures) of a statement the question names, IMPLIED_STATEMENT_BONUS when the question names
  a line item that statement prints ("capex": the cash-flow statement);
* + ITEM_BONUS when the question asks for an amount and a statement page prints its line item ("Purchases of
  property, plant and equipment" for "What was the capex ..."): the statement page comes before the prose;
* + SEGMENT_BONUS when the question asks about the company's segments ("Which segment grew fastest?") and the
  page's heading names them ("Sales and operating income by business segment", "Note 18. Segment information"):
  the segment note or the table of all segments, not one segment's page nor prose mentioning one;
* + DISCUSSION_BONUS when the question asks a reason ("What drove the FY2022 gross margin down?", not the amount:
  no ITEM_BONUS) and a page of the filings asked (not a statement page) explains a change of what it names: a
  sentence with "due to", "driven by", "compared to the prior year"... and two of the question's telling words
  (held by fewer than half the candidates), or for a margin its parts ("Cost of sales, as a percent of sales,
  increased ... primarily due to"): management's discussion of results. The statement's bonus stays (a company
  printing no gross margin is answered from its income statement);
* + COVERAGE_WEIGHT times the share of the question's content words found on the page (each weighed by its
  rarity among the candidates: a word every page holds tells nothing).

With a model (`scorer`: question and page texts in, one score per page out; core.qa.rerank builds it over the
configured OpenAI-compatible server), the first MODEL_PAGES pages of that order are scored by the model in one
request and sorted by its scores (the heuristic's order breaks ties); when the model fails or times out, the
heuristic order stands and the failure is logged.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import psycopg

from core.db import q
from core.lexicon.drivers import CAUSE_PHRASES, CAUSE_QUALIFIERS
from core.lexicon.finance import STATEMENT_HEADINGS
from core.lexicon.periods import INTERIM

log = logging.getLogger(__name__)

RERANK_PAGES = 30  # pages of the fused ranking reranked
STATEMENT_PAGES = 12  # statement pages the question asks for, added as candidates
MODEL_PAGES = 20  # pages the model scores
MODEL_CHARS = 1500  # characters of each page the model reads
HEADING_CHARS = 160  # a statement's heading is within the first characters of its page (spaces removed)
STATEMENT_FIGURES = 20  # a statement page prints at least this many figures (a contents page names them only)
PERIOD_BONUS = 1.0
LATEST_BONUS = 0.5
NAMED_STATEMENT_BONUS = 1.5
IMPLIED_STATEMENT_BONUS = 0.6
ITEM_BONUS = 1.5
SEGMENT_BONUS = 0.8
DISCUSSION_BONUS = 0.4
DISCUSSION_WORDS = 2  # the question's words in a sentence explaining a change
COVERAGE_WEIGHT = 1.0
RANK_SCALE = 5  # the fused rank at which a page's rank score halves

# A page's text and the question's page texts -> one score per page (higher: more relevant).
Scorer = Callable[[str, Sequence[str]], Sequence[float]]

_FIGURE = re.compile(r"(?<![\w.])\(?\$?\d{1,3}(?:,\d{3})+(?:\.\d+)?\)?|(?<![\w.,])\d+\.\d+(?![\w.])")


def _heading_pattern(heading: str) -> str:
    """A heading's words as a pattern over text with its spaces removed: "statement of income" also reads
    "Statements of Consolidated Income" and "Statement of Income" split by extraction ("Inco me" is squashed)."""
    out = []
    for word in heading.lower().split():
        if word == "statement":
            out.append("statements?")
        elif word == "of":
            out.append("of(?:consolidated)?")
        elif word in ("sheet", "flow", "flows"):
            out.append(word.rstrip("s") + "s?")
        else:
            out.append(re.escape(word))
    return "".join(out)


HEADINGS: dict[str, re.Pattern[str]] = {
    kind: re.compile("|".join(_heading_pattern(h) for h in headings)) for kind, headings in STATEMENT_HEADINGS.items()
}


@dataclass(frozen=True)
class RerankHints:
    """What the question asks of a page, as the planner read it (core.qa.planner.pages)."""

    question: str
    documents: tuple[int, ...] = ()  # the filings of the period asked
    latest: tuple[int, ...] = ()  # when it names no period: the filings of the room's latest fiscal year
    statements: tuple[str, ...] = ()  # the statements the question names (keys of STATEMENT_HEADINGS)
    implied: tuple[str, ...] = ()  # the statements that print a line item it names
    items: tuple[str, ...] = ()  # the line-item wordings of the amount it asks (lower-case words, space-joined)
    words: tuple[str, ...] = ()  # its content words (lower-case, a plural's ending dropped)
    segments: bool = False  # it asks about the company's segments
    reason: bool = False  # it asks why a figure moved ("What drove ...", "why did ..."), not the figure

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.statements + self.implied))


@dataclass(frozen=True)
class Page:
    """A candidate page: its text and its place in the fused ranking (RERANK_PAGES for an added page)."""

    key: int  # the chunk id of its hit
    document_id: int
    text: str
    rank: int


def statement_kind(text: str) -> str | None:
    """The statement a page is ("balance sheet", ...): its heading at the top and a page of figures; else None."""
    top = re.sub(r"\s+", "", text[: HEADING_CHARS * 2]).lower()[:HEADING_CHARS]
    for kind, pattern in HEADINGS.items():
        if pattern.search(top) and len(_FIGURE.findall(text)) >= STATEMENT_FIGURES:
            return kind
    return None


_ANNUAL = re.compile(r"\btwelve\s+months\b|\b(?:fiscal\s+)?years?\s+ended\b|\bfull[\s-]year\b|\b5[23]\s+weeks\b", re.I)
_UNAUDITED = re.compile(r"\bunaudited\b", re.I)
_INTERIM_TOP = 400


def interim_page(text: str) -> bool:
    """Whether a page's statement is of a part of a year: its top names a quarter or months ("Six Months Ended
    July 29, 2023") or says it is unaudited (a 10-Q's condensed statements), and names no whole year ("Twelve
    Months", "Years Ended")."""
    top = text[:_INTERIM_TOP]
    return bool(INTERIM.search(top) or _UNAUDITED.search(top)) and not _ANNUAL.search(top)


_SEGMENT_HEADING = re.compile(r"\bsegments?\b", re.IGNORECASE)
_RUNNING_HEAD = re.compile(r"^\s*table\s+of\s+contents\s*$", re.IGNORECASE)
HEADING_LINES = 3  # a page's heading: its first lines (a running "Table of Contents" link left out)


def heading(text: str) -> str:
    """A page's heading: its first HEADING_LINES non-empty lines, a running "Table of Contents" left out."""
    lines = [line for line in text[: HEADING_CHARS * 3].splitlines() if line.strip() and not _RUNNING_HEAD.match(line)]
    return " ".join(lines[:HEADING_LINES])[:HEADING_CHARS]


def segment_page(text: str) -> bool:
    """Whether a page's heading names segments ("Results by business segment", "Segment information")."""
    return bool(_SEGMENT_HEADING.search(heading(text)))


# Management's discussion explains a change: "decreased 120 basis points primarily due to", "was driven by",
# "as a result of", "compared to the prior year". A statement page or a note of figures says none of it.
_CAUSES = "|".join(phrase.replace(" ", r"\s+") for phrase in CAUSE_PHRASES)
_EXPLAINS = re.compile(
    rf"\b(?:(?:{'|'.join(CAUSE_QUALIFIERS)})\s+)?(?:{_CAUSES}|offset\s+by)\b"
    r"|\bcompared\s+(?:to|with)\s+(?:the\s+)?(?:prior|previous|same)\b",
    re.IGNORECASE,
)


_SENTENCE = re.compile(r"(?<=[.;])\s+|\n\s*\n")


# A margin is explained through its parts: "Cost of sales, as a percent of sales, increased ... primarily due to".
_MARGIN_PARTS = re.compile(
    r"\bcosts?\s+of\s+(?:sales|goods|products|revenues?)\b|\bpercent(?:age)?\s+(?:of|to)\s+(?:\w+\s+)?(?:sales|revenues?)\b",
    re.IGNORECASE,
)


def discussion_page(text: str, words: Sequence[str], margin: bool = False) -> bool:
    """Whether a page explains a change of what the question names: a sentence with a phrase such as "primarily
    due to" or "driven by" and DISCUSSION_WORDS of the question's words ("Gross margin decreased ... due to"),
    or, the question naming a margin, the margin's parts ("Cost of sales ... increased ... driven by")."""
    for sentence in _SENTENCE.split(text):
        if _EXPLAINS.search(sentence):
            held = set(_words(sentence))
            if sum(_holds(held, w) for w in words) >= DISCUSSION_WORDS or (margin and _MARGIN_PARTS.search(sentence)):
                return True
    return False


_TOKEN = re.compile(r"[a-z0-9&]+")


def _words(text: str) -> list[str]:
    # Plain lower-case tokens: a page is read in about a millisecond (core.lexicon.words folds 20 times slower).
    return _TOKEN.findall(text.lower())


def _holds(words: set[str], stem: str) -> bool:
    """Whether a page's words hold a question's word stem, singular or plural ("margin": "margins")."""
    return stem in words or stem + "s" in words or (stem.endswith("y") and stem[:-1] + "ies" in words)


def _rarity(pages: Sequence[Page], stems: Sequence[str]) -> tuple[list[set[str]], dict[str, float]]:
    """Each page's words, and each question word's weight: its IDF among the candidate pages."""
    words = [set(_words(p.text)) for p in pages]
    n = len(pages)
    weights = {w: math.log(1 + (n + 0.5) / (sum(_holds(ws, w) for ws in words) + 0.5)) for w in stems}
    return words, weights


def _telling(weights: dict[str, float]) -> list[str]:
    """The question's words held by fewer than half the candidates (the company's name, on all, tells nothing)."""
    return [w for w, weight in weights.items() if weight > math.log(3)]


def page_score(page: Page, hints: RerankHints, words: set[str], weights: dict[str, float]) -> float:
    """The heuristic's score of one candidate page (see the module)."""
    score = 1 / (1 + page.rank / RANK_SCALE)
    if page.document_id in hints.documents:
        score += PERIOD_BONUS
    elif page.document_id in hints.latest:
        score += LATEST_BONUS
    kind = statement_kind(page.text) if hints.kinds or hints.reason else None
    # A reason asked: the statement prints the figure, management's discussion (of the filings asked) says why.
    scoped = page.document_id in (hints.documents or hints.latest) or not (hints.documents or hints.latest)
    if (
        hints.reason
        and kind is None
        and scoped
        and discussion_page(page.text, _telling(weights), margin="margin" in hints.words)
    ):
        score += DISCUSSION_BONUS
    if kind is not None and kind in hints.statements:
        score += NAMED_STATEMENT_BONUS
    elif kind is not None and kind in hints.implied:
        score += IMPLIED_STATEMENT_BONUS
    if kind is not None and hints.items:
        joined = f" {' '.join(_words(page.text))} "
        if any(f" {item} " in joined for item in hints.items):
            score += ITEM_BONUS
    if hints.segments and segment_page(page.text):
        score += SEGMENT_BONUS
    total = sum(weights.values())
    if total:
        score += COVERAGE_WEIGHT * sum(weight for word, weight in weights.items() if _holds(words, word)) / total
    return score


def heuristic_order(pages: Sequence[Page], hints: RerankHints) -> list[Page]:
    """The candidate pages by the heuristic's score, best first (the fused order breaks ties)."""
    stems, weights = _rarity(pages, hints.words)
    scored = [(page_score(p, hints, s, weights), -i, p) for i, (p, s) in enumerate(zip(pages, stems, strict=True))]
    return [p for *_, p in sorted(scored, key=lambda t: (t[0], t[1]), reverse=True)]


def model_order(pages: list[Page], hints: RerankHints, scorer: Scorer) -> list[Page]:
    """The first MODEL_PAGES of `pages` (in the heuristic's order) sorted by the model's scores; `pages` as they
    are when the model fails (logged)."""
    head, tail = pages[:MODEL_PAGES], pages[MODEL_PAGES:]
    try:
        scores = [float(s) for s in scorer(hints.question, [p.text[:MODEL_CHARS] for p in head])]
        if len(scores) != len(head) or not all(math.isfinite(s) for s in scores):
            raise ValueError(f"{len(scores)} scores for {len(head)} pages")
    except Exception as exc:  # any failure of the model leaves the heuristic's order: the answer is still given
        log.warning("rerank: the model's scores were not used (%s); the heuristic order stands", exc)
        return pages
    ranked = sorted(range(len(head)), key=lambda i: (-scores[i], i))
    return [head[i] for i in ranked] + tail


def statement_pages(
    cur: psycopg.Cursor[Any], room_id: int, hints: RerankHints, documents: Sequence[int]
) -> list[dict[str, Any]]:
    """The first chunk of each page of the room (of `documents`, else of the period's filings when the
    question names one) whose top names a statement the question asks for: candidates its words may miss."""
    if not hints.kinds:
        return []
    pattern = "|".join(HEADINGS[k].pattern for k in hints.kinds)
    scope = list(documents) or list(hints.documents)
    rows = cur.execute(
        q("statement_pages"),
        {
            "room_id": room_id,
            "pattern": pattern,
            "documents": scope,
            "chars": HEADING_CHARS,
            "limit": 4 * STATEMENT_PAGES,
        },
    ).fetchall()
    return [r for r in rows if statement_kind(r["text"]) in hints.kinds][:STATEMENT_PAGES]


def page_texts(cur: psycopg.Cursor[Any], keys: Sequence[tuple[int, int]]) -> dict[tuple[int, int], str]:
    """The whole text of each (document id, page number)."""
    if not keys:
        return {}
    rows = cur.execute(q("page_texts"), {"docs": [d for d, _ in keys], "pages": [p for _, p in keys]}).fetchall()
    return {(r["document_id"], r["page_number"]): r["text"] for r in rows}
