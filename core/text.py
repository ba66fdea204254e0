"""Words and patterns that several modules read questions and answers with, gathered from core.lexicon.

Stop words are the words of a question that name nothing (core.lexicon.stop); YEAR finds a calendar year inside
text and years_in reads its other spellings too (core.lexicon.periods); NUMBER_WORDS are numbers written as
words (core.lexicon.numbers).  Defined here: MARKER, a citation marker "[3]", and BAD_CHARS, what Postgres
text cannot hold.
"""

from __future__ import annotations

import re

from core.lexicon.numbers import NUMBER_WORDS
from core.lexicon.periods import YEAR, year_mentions, years_in
from core.lexicon.stop import STOP_WORDS

__all__ = ["BAD_CHARS", "MARKER", "NUMBER_WORDS", "STOP_WORDS", "YEAR", "year_mentions", "years_in"]

# A citation marker in an answer: "[3]" cites evidence item 3.
MARKER = re.compile(r"\[(\d+)\]")
# Characters Postgres text cannot hold (NUL, lone surrogates), dropped from what PDFs give.
BAD_CHARS = re.compile("[\x00\ud800-\udfff]")

_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+")


def word_pattern(words: list[str]) -> re.Pattern[str] | None:
    """Query words at a word's start, with their longer forms ('round' finds 'rounds'); None for no words."""
    if not words:
        return None
    return re.compile(r"(?<!\w)(" + "|".join(re.escape(w) for w in words) + r")\w*", re.IGNORECASE)


def excerpt(text: str, words: list[str], width: int = 400) -> str:
    """About `width` characters of `text` (whitespace made single spaces) centred on its sentence holding the
    most query words (the first such), cut at word breaks and marked "…" where cut; the start when none does."""
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    pattern = word_pattern(words)
    best, best_span = 0, (0, 0)
    if pattern is not None:
        start = 0
        for piece in _SENTENCE_END.split(text):
            at = text.index(piece, start)
            count = len({m.group(1).casefold() for m in pattern.finditer(piece)})
            if count > best:
                best, best_span = count, (at, at + len(piece))
            start = at + len(piece)
    if not best:
        begin = 0
    elif best_span[1] - best_span[0] >= width:
        begin = best_span[0]
    else:
        middle = (best_span[0] + best_span[1]) // 2
        begin = min(max(middle - width // 2, 0), len(text) - width)
        if begin > best_span[0]:
            begin = best_span[0]
    end = min(begin + width, len(text))
    if begin > 0 and begin != best_span[0]:  # start at a word (a sentence's start is one)
        space = text.find(" ", begin)
        if 0 <= space and (not best or space < best_span[0]):
            begin = space + 1
    if end < len(text):  # end at a word
        space = text.rfind(" ", begin, end)
        end = space if space > max(best_span[1], begin) else end
    return ("…" if begin > 0 else "") + text[begin:end] + ("…" if end < len(text) else "")
