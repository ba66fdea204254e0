"""Filter values as a question writes them: numbers, years, dates, texts, and how a result writes them back."""

from __future__ import annotations

import datetime
import math
import re

from core.cells import parse_date, parse_number
from core.retrieval.tables.exact import _float_decimal, _plain

Scalar = str | float


def _norm_text(text: str) -> str:
    return " ".join(text.split()).casefold()


def _as_number(value: Scalar) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value) if math.isfinite(value) else None
    return parse_number(value)


def _as_year(value: Scalar) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return int(value) if math.isfinite(value) and float(value).is_integer() and 1 <= value <= 9999 else None
    return int(value) if re.fullmatch(r"\s*\d{4}\s*", value, re.ASCII) and int(value) >= 1 else None


def _as_day(value: Scalar) -> float | None:
    """Days since 1970-01-01 of a date written as text, or None."""
    parsed = parse_date(value) if isinstance(value, str) else None
    return None if parsed is None else float((parsed - datetime.date(1970, 1, 1)).days)


def _value_text(value: Scalar | list[Scalar]) -> str:
    """A filter value as a person writes it: 2021.0 -> "2021"."""
    if isinstance(value, list):
        return ", ".join(_value_text(v) for v in value)
    if isinstance(value, float):
        return _plain(_float_decimal(value)) if math.isfinite(value) else str(value)
    return value.strip()


def _listed(value: Scalar | list[Scalar]) -> list[Scalar]:
    return list(value) if isinstance(value, list) else [value]
