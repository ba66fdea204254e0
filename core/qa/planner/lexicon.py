"""The offline planner's word tables, gathered from core.lexicon: stop words, synonyms, question and
comparison words, number words and scales, superlatives, nationalities; and the folding and stemming every
comparison uses.  Nothing is defined here but the aggregate words, derived from the table registry: each list lives once in
core.lexicon."""

from __future__ import annotations

from core.lexicon.comparison import COMPARATIVE_AS, COMPARATORS, ORDER_PAIRS, POST_COMPARATORS, SUPERLATIVES
from core.lexicon.numbers import (
    CLOCK_RE,
    MONEY_SCALE_RE,
    MONEY_SCALE_WORDS,
    NUMBER_RE,
    ORDINAL_SUFFIX_RE,
    ORDINALS,
    SCALES,
    as_number,
    num_text,
)
from core.lexicon.periods import YEAR_RE
from core.lexicon.questions import (
    DOCUMENT_WORDS,
    HOW_LONG_WORDS,
    PLACE_AFTER,
    PLACE_BEFORE,
    RANK_WORDS,
    SUM_COUNT_WORDS,
    SYNONYMS,
    TOTAL_WORDS,
    WEAK_COLUMN_WORDS,
    WHEN_WORDS,
    WHERE_WORDS,
    WHO_WORDS,
)
from core.lexicon.stop import QUESTION_GLUE as STOP
from core.lexicon.trivia import DEMONYMS, OUTCOME_CELLS, OUTCOME_WORDS
from core.lexicon.words import QUOTES, TOKEN_RE, fold, stem_of, words_of
from core.retrieval.tables.aggregates import AGGREGATES

# Words naming an aggregate: those of sums and counts, and the words each aggregate's registry entry is asked by.
AGGREGATE_WORDS = SUM_COUNT_WORDS | {w for a in AGGREGATES.values() for w in a.words}

__all__ = [
    "AGGREGATE_WORDS",
    "CLOCK_RE",
    "COMPARATIVE_AS",
    "COMPARATORS",
    "DEMONYMS",
    "DOCUMENT_WORDS",
    "HOW_LONG_WORDS",
    "MONEY_SCALE_RE",
    "MONEY_SCALE_WORDS",
    "NUMBER_RE",
    "ORDER_PAIRS",
    "ORDINALS",
    "ORDINAL_SUFFIX_RE",
    "OUTCOME_CELLS",
    "OUTCOME_WORDS",
    "PLACE_AFTER",
    "PLACE_BEFORE",
    "POST_COMPARATORS",
    "QUOTES",
    "RANK_WORDS",
    "SCALES",
    "STOP",
    "SUPERLATIVES",
    "SYNONYMS",
    "TOKEN_RE",
    "TOTAL_WORDS",
    "WEAK_COLUMN_WORDS",
    "WHEN_WORDS",
    "WHERE_WORDS",
    "WHO_WORDS",
    "YEAR_RE",
    "as_number",
    "fold",
    "num_text",
    "stem_of",
    "words_of",
]
