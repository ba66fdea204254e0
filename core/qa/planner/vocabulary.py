"""The analyst vocabulary (core/lexicon/vocabulary.json) as the planner reads a question with it."""

from __future__ import annotations

import functools

from core.lexicon.vocabulary import phrase_groups
from core.retrieval.cellmath import content_words, word_list


def synonyms(wanted: set[str]) -> dict[str, set[str]]:
    """Each question word of a phrase in the analyst vocabulary (core/lexicon/vocabulary.json) -> the words of the
    other phrases of its group: "opex" -> {"operating", "expense", "cost"}."""
    out: dict[str, set[str]] = {}
    for phrases in _group_words():
        asked = [p for p in phrases if p and p <= wanted]
        for phrase in asked:
            others = set().union(*(p for p in phrases if p is not phrase))
            for word in phrase:
                out.setdefault(word, set()).update(others)
    return out


@functools.cache
def _group_words() -> tuple[tuple[frozenset[str], ...], ...]:
    """Each vocabulary group's phrases as the words a label is matched by (read once)."""
    return tuple(tuple(frozenset(content_words(p) or word_list(p)) for p in group) for group in phrase_groups())
