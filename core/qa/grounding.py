"""Is the question about this room at all? The names it mentions must occur in the room's documents.

A question about "K9 Systems' FY2021 capital expenditure" asked in a room of Northwind filings finds plenty of
passages about capital expenditure; only the name tells that the room cannot answer it. A name is a
run of capitalised words ("Northwind Retail", "Smith & Smith") or a token with capitals or digits inside
("AMD", "K9", "SnS"). It is found when the room's text holds it as a phrase (full-text phrase query
on the room-scoped index), or when it reads as an abbreviation of a document title or the room name
("GLOBEX" in GLOBALEXPRESS_2021_10K.pdf, "SnS" in SMITH_SMITH_2021_10K.pdf).
"""

from __future__ import annotations

import re

from core.db import Database, q
from core.lexicon.comparison import LIMIT_WORDS
from core.lexicon.finance import FINANCE_ABBREVIATIONS
from core.lexicon.periods import HALVES, MONTHS, QUARTERS, WEEKDAYS
from core.lexicon.stop import SENTENCE_OPENERS, STOP_WORDS

# Words a question may capitalise that name no entity: sentence openers and finance vocabulary ("that" is
# not among them: "That" inside a question may start a name).
_NOT_NAMES = (
    (STOP_WORDS - {"that"})
    | SENTENCE_OPENERS
    | FINANCE_ABBREVIATIONS
    | frozenset(QUARTERS + HALVES + MONTHS + WEEKDAYS)
)
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9&.\-]*(?:'s|')?")
# Periods, numbers and filing forms: FY2022, Q2, 2023, 2,048, 10-K, 8K.
# A figure or a period ("FY22", "Q3", "10k"), or a span of periods ("2017-2019", "2018/19", "FY18-FY19"): no name.
_PERIOD = re.compile(
    r"^(?:fy|q[1-4]|h[12]|cy)?'?\d+(?:[.,]\d+)*$|^\d+-?[kq]$|^(?:fy)?'?\d{2,4}(?:[-–/](?:fy)?'?\d{2,4})+$",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.!?]\s+|[\n:;(]\s*")


def _clean(token: str) -> str:
    token = re.sub(r"(?:'s|')$", "", token)
    return token.rstrip(".-")


def _is_name_token(token: str, sentence_start: bool) -> bool:
    word = token.lower()
    if len(token) < 2 or word in _NOT_NAMES or _PERIOD.match(token):
        return False
    if re.fullmatch(r"\d+-[a-z]+", token):
        return False  # a count of a unit, "2-year", "10-day": no name ("10-K" is a form, left to _NOT_NAMES)
    glued = re.fullmatch(r"([a-z]+)\d[\d,.]*", token)
    if glued and glued.group(1) in _NOT_NAMES | LIMIT_WORDS:
        return False  # a figure typed against the word before it: "less than15,000", "in2019"
    inner_caps = any(c.isupper() for c in token[1:]) or any(c.isdigit() for c in token)
    if sentence_start:
        return inner_caps
    return token[0].isupper() or inner_caps


def question_names(question: str) -> list[str]:
    """The names a question mentions, as runs of capitalised words (possessives removed)."""
    names: list[str] = []
    for sentence in _SENTENCE_END.split(question):
        run: list[str] = []
        tokens = list(_TOKEN.finditer(sentence))
        for i, match in enumerate(tokens):
            raw = match.group(0)
            token = _clean(raw)
            gap = sentence[tokens[i - 1].end() : match.start()] if i else ""
            joined = run and gap.strip() in ("", "&") and token.lower() not in _NOT_NAMES
            if _is_name_token(token, sentence_start=(i == 0)) or (joined and token[:1].isupper() and len(token) > 1):
                if run and gap.strip() not in ("", "&"):
                    names.append(" ".join(run))
                    run = []
                run.append(token)
                if raw != token:  # a possessive ends the name: "Northwind's stores"
                    names.append(" ".join(run))
                    run = []
            else:
                if run:
                    names.append(" ".join(run))
                run = []
        if run:
            names.append(" ".join(run))
    return list(dict.fromkeys(n for n in names if n.lower() not in _NOT_NAMES))


def abbreviates(token: str, title: str) -> bool:
    """`token` reads as an abbreviation of `title`: same first letter, its letters in order in the title."""
    letters = re.sub(r"[^a-z0-9]", "", token.lower())
    text = re.sub(r"[^a-z0-9]", "", title.lower())
    if not letters or not text or letters[0] != text[0]:
        return False
    position = 0
    for ch in letters:
        position = text.find(ch, position)
        if position < 0:
            return False
        position += 1
    return True


def missing_names(db: Database, room_id: int, question: str) -> list[str]:
    """The names of `question` that neither the room's text nor its titles hold (empty: on topic)."""
    names = question_names(question)
    if not names:
        return []
    with db.connection() as conn:
        titles = [r[0] for r in conn.execute(q("room_titles"), {"room_id": room_id})]
        missing = []
        for name in names:
            found = conn.execute(q("room_has_phrase"), {"room_id": room_id, "phrase": name}).fetchone()
            if found and found[0]:
                continue
            if " " not in name and len(name) <= 6 and any(abbreviates(name, t) for t in titles):
                continue
            missing.append(name)
    return missing
