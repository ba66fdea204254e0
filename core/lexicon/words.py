"""Folding and stemming: the form in which questions, column names and cells are compared."""

from __future__ import annotations

import re
import unicodedata

from core.lexicon.numbers import MONEY_SCALE_RE, MONEY_SCALE_WORDS, ORDINAL_SUFFIX_RE

QUOTES = str.maketrans({"‘": "'", "’": "'", "´": "'", "`": "'", "“": '"', "”": '"', "–": "-", "—": "-"})
TOKEN_RE = re.compile(r"(?<![a-z0-9])\.[0-9]+|[a-z0-9]+(?:\.[0-9]+)?")


def fold(text: str) -> str:
    """Lower-case, accents and typographic quotes removed: the form every comparison uses."""
    text = unicodedata.normalize("NFKD", text.translate(QUOTES))
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = re.sub(r"\b(\d{3}0)'s\b", r"\1s", text.lower())  # "the 1990's" is a decade, not a possessive
    text = re.sub(r"'s\b", "", text)
    # "10,000" is one number; "$1.2m" reads as "1.2 million".
    text = MONEY_SCALE_RE.sub(lambda m: f"{m.group(1)} {MONEY_SCALE_WORDS[m.group(2)]}", text)
    return re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)


def words_of(text: str) -> list[str]:
    """Words and numbers of a text, folded ("8th" reads as "8")."""
    return [ORDINAL_SUFFIX_RE.sub("", t) for t in TOKEN_RE.findall(fold(text))]


def stem_of(word: str) -> str:
    """A crude plural/verb stem so "rounds" meets "Round" and "countries" meets "Country"."""
    if len(word) <= 3 or word[0].isdigit():
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "sses", "xes", "zes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word
