"""Which lines of a cited PDF passage an answer quotes, so the viewer highlights those and not the whole chunk.

Pure: text in, line numbers out. A passage's lines are its non-empty lines, one per stored highlight box (the
parser builds both from the same visual rows: core.ingest.pdf).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from difflib import SequenceMatcher

from core.text import MARKER, STOP_WORDS, YEAR

# Words and figures: "165.0M", "1,110" and "2024-03-12" stay one token, "Harvestquay's" is "Harvestquay" + "s".
_TOKEN = re.compile(r"[^\W_]+(?:[.,\-][^\W_]+)*")
# An answer's sentences (as the synthesizer writes them: a marker may follow the full stop).
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])|(?<=\])\s+(?=[A-Z0-9\"'(])")
# A figure: two digits or more ("64", "165.0m", "1110", "2024-03-12"); "K9" is a name and "6" is in every table.
_FIGURE = re.compile(r"\d[\d.\-]*\d[a-z%]{0,2}")
# This many words in a row, as the passage has them, are a quote; shorter runs ("in the", "of 2024") are chance.
QUOTE_RUN = 3


def _tokens(text: str) -> list[str]:
    return [t.lower().replace(",", "") if any(ch.isdigit() for ch in t) else t.lower() for t in _TOKEN.findall(text)]


def passage_lines(text: str) -> list[str]:
    """A passage's lines as the viewer highlights them: its non-empty lines, in order."""
    return [line for line in text.split("\n") if line.strip()]


def claims_citing(answer: str, markers: Mapping[int, Sequence[int]], positions: Sequence[int]) -> list[str]:
    """The sentences of `answer` whose [n] markers point at any of the citations `positions`, markers removed;
    the whole answer (markers removed) when no marker says which."""
    wanted = {n for n, cited in markers.items() if set(cited) & set(positions)}
    sentences = [s for s in _SENTENCE.split(answer.strip()) if s.strip()]
    chosen = [s for s in sentences if wanted & {int(m) for m in MARKER.findall(s)}] if wanted else []
    return [re.sub(r"\s+([.,;:])", r"\1", " ".join(MARKER.sub("", s).split())) for s in (chosen or sentences)]


def quoted_lines(passage: str, claims: Sequence[str]) -> list[int]:
    """Indices (into passage_lines) of the lines that hold what the claims take from the passage: runs of words in
    the passage's order (a quoted sentence), the claims' figures, or failing both the words that only one line of
    the passage has (a paraphrase naming a person or product); [] when nothing matches (highlight it all)."""
    lines = [_tokens(line) for line in passage_lines(passage)]
    flat = [(i, token) for i, tokens in enumerate(lines) for token in tokens]
    words = [token for _, token in flat]
    marked = [0] * len(lines)
    figures: set[str] = set()
    content: set[str] = set()
    for claim in claims:
        said = _tokens(claim)
        figures |= {t for t in said if _FIGURE.fullmatch(t)}
        content |= {t for t in said if t not in STOP_WORDS and len(t) > 1 and not any(ch.isdigit() for ch in t)}
        matcher = SequenceMatcher(None, words, said, autojunk=False)
        for start, _, size in matcher.get_matching_blocks():
            if size >= QUOTE_RUN:
                for i, _ in flat[start : start + size]:
                    marked[i] += 1
    # A line is quoted when two of its words are (one trailing word of a sentence is not worth a highlight), or
    # all of them (a heading: "Harvestquay").
    chosen = {i for i, tokens in enumerate(lines) if tokens and (marked[i] >= 2 or marked[i] == len(tokens))}
    for i, tokens in enumerate(lines):
        hits = figures.intersection(tokens)
        # A bare year is in half the lines of a filing: it counts only on a line quoted anyway.
        if any(not YEAR.fullmatch(figure) for figure in hits):
            chosen.add(i)
    if chosen:
        return sorted(chosen)
    holders: dict[str, set[int]] = {}
    for i, tokens in enumerate(lines):
        for token in content.intersection(tokens):
            holders.setdefault(token, set()).add(i)
    rare = [next(iter(found)) for found in holders.values() if len(found) == 1]
    return sorted({i for i in rare if rare.count(i) >= 2})
