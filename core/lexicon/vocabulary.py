"""The general analyst vocabulary (vocabulary.json beside this file): groups of phrases that name one thing."""

from __future__ import annotations

import functools
import json
from importlib import resources


@functools.cache
def _data() -> dict:
    return json.loads(resources.files("core.lexicon").joinpath("vocabulary.json").read_text(encoding="utf-8"))


def phrase_groups() -> tuple[tuple[str, ...], ...]:
    """Each group of phrases, as written in the data file (read once per process)."""
    return tuple(tuple(group) for group in _data()["groups"])


def name_suffixes() -> frozenset[str]:
    """Words that follow a company's name ("Inc", "Holdings", "Airlines"): bound with the name they follow."""
    return frozenset(_data()["name_suffixes"])
