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
