"""The filter operators of a table operation, in one table: what each takes, how it reads, how it compares.

Everything that needs to know about an operator reads it here: the Filter model (how many values), the
description of a result ("Country = Canada") and of a plan ("Country ≠ Canada"), the LLM planner's prompt
and schema, and the row masks over numbers, dates and text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np

Arity = Literal["one", "list", "pair", "year"]
# On float keys (numbers, days, years): NaN never matches.
KeyCompare = Callable[[np.ndarray, list[float]], np.ndarray]
# On normalised texts (None for blank), with the filled mask and the wanted normalised values.
TextCompare = Callable[[np.ndarray, np.ndarray, list[str]], np.ndarray]


@dataclass(frozen=True)
class Operator:
    """One filter operator."""

    name: str
    arity: Arity  # one value, a non-empty list, a [low, high] pair, or a year
    result: str  # how a result describes it: {col}, {v} (the value(s) as written), {low}, {high}
    plan: str  # how a plan's reasoning describes it (the same fields)
    order: bool  # compares by order: numbers, then dates, then text alphabetically
    keys: KeyCompare | None  # None: the operator is never a comparison of keys (contains)
    texts: TextCompare | None  # None: never a plain text comparison (contains and year have their own masks)


def _between_keys(key: np.ndarray, values: list[float]) -> np.ndarray:
    low, high = sorted(values)  # inclusive; "between 2022 and 2020" means the same range
    return (key >= low) & (key <= high)


def _alphabetical(compare: Callable[[np.ndarray, str], np.ndarray]) -> TextCompare:
    """An order comparison over words (casefolded), blank cells never matching."""

    def mask(norm: np.ndarray, filled: np.ndarray, wanted: list[str]) -> np.ndarray:
        return filled & compare(np.where(filled, norm, ""), wanted[0]).astype(bool)

    return mask


def _between_texts(norm: np.ndarray, filled: np.ndarray, wanted: list[str]) -> np.ndarray:
    low, high = sorted(wanted)
    texts = np.where(filled, norm, "")
    return filled & (texts >= low) & (texts <= high)


def _in_texts(norm: np.ndarray, filled: np.ndarray, wanted: list[str]) -> np.ndarray:
    import pandas as pd

    return pd.Series(norm, dtype=object).isin(set(wanted)).to_numpy(bool)


OPERATORS: dict[str, Operator] = {
    o.name: o
    for o in (
        Operator("eq", "one", "{col} = {v}", "{col} = {v}", False, lambda k, v: k == v[0], lambda n, f, w: np.equal(n, w[0])),
        Operator(
            "ne", "one", "{col} != {v}", "{col} ≠ {v}", False,
            lambda k, v: ~np.isnan(k) & (k != v[0]), lambda n, f, w: f & np.not_equal(n, w[0]),
        ),
        Operator("gt", "one", "{col} > {v}", "{col} > {v}", True, lambda k, v: k > v[0], _alphabetical(np.greater)),
        Operator("ge", "one", "{col} >= {v}", "{col} ≥ {v}", True, lambda k, v: k >= v[0], _alphabetical(np.greater_equal)),
        Operator("lt", "one", "{col} < {v}", "{col} < {v}", True, lambda k, v: k < v[0], _alphabetical(np.less)),
        Operator("le", "one", "{col} <= {v}", "{col} ≤ {v}", True, lambda k, v: k <= v[0], _alphabetical(np.less_equal)),
        Operator(
            "contains", "one", '{col} contains "{v}"', "{col} contains {v}", False, None, None,
        ),
        Operator("in", "list", "{col} in ({v})", "{col} is one of {v}", False, lambda k, v: np.isin(k, v), _in_texts),
        Operator(
            "between", "pair", "{col} between {low} and {high}", "{col} between {low} and {high}", True,
            _between_keys, _between_texts,
        ),
        Operator("year", "year", "{col} in {v}", "{col} in {v}", False, lambda k, v: k == v[0], None),
    )
}  # fmt: skip


def describe(op: str, column: str, values: list[str], *, style: Literal["result", "plan"]) -> str:
    """A filter as text, its values already written as a person would ("2021", not "2021.0")."""
    operator = OPERATORS[op]
    template = operator.result if style == "result" else operator.plan
    low, high = [*values, "", ""][:2]
    return template.format(col=column, v=", ".join(values), low=low, high=high)
