"""The share of a year's amount made in one quarter, from two sentences of a filing's prose.

"What share of Acme's fiscal 2023 buybacks was made in the fourth quarter?" is answered when one sentence states
the quarter's amount ("During the quarter, the Company repurchased 2.1 million shares for $84 million.") and
another the year's ("For fiscal 2023, share repurchases totaled $312 million."), each naming what is asked (its
words, or another wording of it: a buyback is a repurchase) and holding one amount of money: the answer is the
quotient, both sentences quoted and cited. Anything less (no quarter sentence, two amounts in one, the year's
sentence naming a quarter) is no answer: the caller abstains or answers as before.

Pure: question and passages in, the answer's parts out. Examples are invented.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from core.lexicon.comparison import SHARE_WORDS
from core.lexicon.finance import SAME_THING
from core.lexicon.numbers import SCALE_WORDS
from core.qa.passage_figures import Figure, figures
from core.qa.planner.changes import DOWN, UP
from core.retrieval.retriever import Evidence
from core.text import STOP_WORDS, years_in

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")
# The question: a share of the year's amount made in its last (or a named) quarter.
# (core/lexicon/comparison.py's share words, and "portion"; "share" only as "share of": "share repurchases" asks
# no share)
_SHARE_ASKED = re.compile(
    rf"\bshare\s+of\b|\b(?:{'|'.join(w for w in (*SHARE_WORDS, 'portion') if w != 'share')})\b", re.I
)
_QUARTER_ASKED = re.compile(
    r"\b(?:(?P<ord>first|second|third|fourth|last|final|1st|2nd|3rd|4th)\s+quarter|q(?P<q>[1-4]))\b", re.I
)
_ORDINAL = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "last": 4,
            "final": 4}  # fmt: skip
# Words of the question that say how it asks, not what: what is left names the amount ("share repurchases").
_FRAME = frozenset(
    """what which how much share percentage percent portion proportion fraction of the a an in during was were is
    made happened done bought occurred took place fiscal year years fy quarter quarters first second third fourth
    last final q1 q2 q3 q4 by dollar dollars amount value company company's s its their total full whole
    that this""".split()
)
# A sentence of one quarter, and one of a whole year (naming no quarter).
_QUARTER_SAID = re.compile(r"\b(?:quarter|three\s+months|13\s+weeks|q[1-4])\b", re.I)
_YEAR_SAID = re.compile(
    r"\b(?:fiscal\s+(?:year\s+)?(?:19|20)\d\d|(?:full|fiscal|the)[\s-]+year|year[\s-]to[\s-]date|twelve\s+months|"
    r"(?:19|20)\d\d\s+(?:fiscal\s+)?year|for\s+(?:fy\s*)?(?:19|20)\d\d)\b",
    re.I,
)
# A quarter named with its year ("the fourth quarter of fiscal 2023", "Q4 2023"): the year is the quarter's, so the
# sentence is still one quarter's.
_QUARTER_OF_YEAR = re.compile(
    r"\b(?:(?:first|second|third|fourth|last|final|1st|2nd|3rd|4th)\s+quarter|q[1-4])(?:\s+of)?,?\s+"
    r"(?:(?:the\s+)?fiscal\s+(?:year\s+)?|fy\s*)?(?:19|20)\d\d\b",
    re.I,
)
_WORD = re.compile(r"[a-z0-9&]+")


def _stem(word: str) -> str:
    """A word's stem as far as matching needs: "repurchased"/"repurchases" -> "repurchas", "buybacks" -> "buyback"."""
    for end in ("chases", "chased", "chase", "chasing"):
        if word.endswith(end):
            return word[: len(word) - len(end)] + "chas"
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def _stems(text: str) -> set[str]:
    return {_stem(w) for w in _WORD.findall(text.lower()) if w not in STOP_WORDS}


def _same(stems: set[str]) -> set[str]:
    """The stems with every other wording of the same thing (core/lexicon/finance.py's SAME_THING)."""
    out = set(stems)
    for group in SAME_THING:
        group_stems = [_stems(w) for w in group]
        if any(g and g <= stems for g in group_stems):
            out |= set().union(*group_stems)
    return out


@dataclass(frozen=True)
class ShareAsked:
    """What the share is of (its words' stems, with other wordings) and the quarter asked (1-4)."""

    thing: frozenset[str]
    quarter: int


# A change asked ("the percentage increase in Q4 revenue", "compared with the prior year"; the words of a move are
# core.qa.planner.changes') is no share of the year.
_COMPARED = re.compile(r"\b(?:chang\w*|compared|versus|vs|prior|previous|last\s+year)\b", re.I)
_YEAR_WORDS = re.compile(
    r"\b(?:fiscal\s+(?:year\s+)?(?:19|20)\d\d|fy\s*'?\d{2,4}|(?:19|20)\d\d|the\s+year|annual|full[\s-]year)\b", re.I
)


def share_asked(question: str) -> ShareAsked | None:
    """The share of a year's amount made in a quarter the question asks, or None. The year comes before the
    quarter ("… of fiscal 2023 buybacks … in Q4"): "the percentage of Q4 revenue from services" asks a share of
    the quarter, not of the year."""
    quarter = _QUARTER_ASKED.search(question)
    share = _SHARE_ASKED.search(question)
    moved = UP.search(question) or DOWN.search(question) or _COMPARED.search(question)
    if share is None or quarter is None or len(set(years_in(question))) > 1 or moved:
        return None
    year = _YEAR_WORDS.search(question)
    if year is None or year.start() > quarter.start():
        return None
    n = _ORDINAL[quarter.group("ord").lower()] if quarter.group("ord") else int(quarter.group("q"))
    words = [w for w in _WORD.findall(question.lower()) if w not in _FRAME and w not in STOP_WORDS]
    names = {w.lower() for w in re.findall(r"\b[A-Z][\w&]*", question)}  # the company's name is no part of it
    thing = {_stem(w) for w in words if w not in names and not years_in(w)} - {"share"}
    return ShareAsked(frozenset(_same(thing)), n) if thing else None


@dataclass(frozen=True)
class ProseShare:
    """The share, its two figures and the sentences (with their passages' numbers) that state them."""

    share: Decimal
    part: Figure
    whole: Figure
    part_quote: tuple[int, str]
    whole_quote: tuple[int, str]


def _amount(figure: Figure) -> Decimal | None:
    m = re.search(r"(\d[\d,]*(?:\.\d+)?)\s*(thousand|million|billion|trillion|[kmb]n?)?\b", figure.value, re.I)
    if m is None:
        return None
    try:
        number = Decimal(m.group(1).replace(",", ""))
    except InvalidOperation:
        return None
    scale = (m.group(2) or "").lower()
    scale = {"k": "thousand", "m": "million", "mn": "million", "b": "billion", "bn": "billion"}.get(scale, scale)
    return number * Decimal(SCALE_WORDS.get(scale, 1)) if scale else number


def _one_amount(sentence: str) -> Figure | None:
    money = [f for f in figures(sentence) if f.kind == "money" and not f.ranged]
    return money[0] if len(money) == 1 else None


def prose_share(
    question: str, passages: Sequence[Evidence], labels: dict[int, str], places: int = 2
) -> ProseShare | None:
    """The share the question asks (see the module), from the first passages stating both amounts. `labels`: each
    passage's period ("Q4 FY2023"): "during the quarter" is the quarter of its passage's filing. The year's
    sentence names the year asked; the quarter's names it or is in a filing of it."""
    asked = share_asked(question)
    if asked is None:
        return None
    year = next(iter(years_in(question)), "")
    part: tuple[Figure, int, str] | None = None
    whole: tuple[Figure, int, str] | None = None
    for item in passages:
        label = labels.get(item.n, "")
        for sentence in (s.strip() for s in _SENTENCE.split(" ".join(item.content.split()))):
            if not _stems(sentence) & asked.thing - {"share", "stock", "common"}:
                continue
            figure = _one_amount(sentence)
            if figure is None:
                continue
            said_years = years_in(sentence)
            if _QUARTER_SAID.search(sentence) and not _YEAR_SAID.search(_QUARTER_OF_YEAR.sub(" quarter ", sentence)):
                # the quarter of the year asked: the sentence or its filing's period says which year
                of_year = not year or year in said_years or (not said_years and year in years_in(label))
                if part is None and of_year and _quarter_named(sentence, asked.quarter, label):
                    part = (figure, item.n, sentence)
            elif _YEAR_SAID.search(sentence) and not _QUARTER_SAID.search(sentence) and whole is None:
                if not year or year in said_years:
                    whole = (figure, item.n, sentence)
    if part is None or whole is None:
        return None
    a, b = _amount(part[0]), _amount(whole[0])
    if a is None or b is None or b <= 0 or a > b:
        return None
    share = (a / b * 100).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return ProseShare(share, part[0], whole[0], (part[1], part[2]), (whole[1], whole[2]))


def _quarter_named(sentence: str, quarter: int, label: str) -> bool:
    """A quarter's sentence of the quarter asked: it names that quarter, or says "the quarter" in the filing of
    that quarter (its passage's period label, "Q4 FY2023")."""
    named = _QUARTER_ASKED.search(sentence)
    if named is None:
        return bool(re.search(rf"\bQ{quarter}\b", label))
    n = _ORDINAL[named.group("ord").lower()] if named.group("ord") else int(named.group("q"))
    return n == quarter
