"""Exact numbers and their display: the decimal a float was written as, exact sums, rounding, thousands."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, localcontext
from typing import Any

import numpy as np

# Averages and medians are shown rounded to this many significant digits (integer digits are always kept).
SIGNIFICANT_DIGITS = 10


def _float_decimal(x: float) -> Decimal:
    """The decimal a float was written as: repr is the shortest text that reads back as the same float."""
    return Decimal(repr(float(x)))


def _plain(d: Decimal) -> str:
    """Shortest exact decimal text: no exponent, no trailing zeros, integers without ".0"."""
    text = format(d.normalize(), "f")
    return "0" if text in ("-0", "0") else text


def _grouped(d: Decimal) -> str:
    """As _plain, with thousands separators (for descriptions)."""
    text = format(d.normalize(), ",f")
    return "0" if text in ("-0", "0") else text


def _rounded(d: Decimal) -> Decimal:
    """Rounded (half away from zero, as Excel) to SIGNIFICANT_DIGITS, keeping every integer digit."""
    if d == 0:
        return Decimal(0)
    places = max(0, SIGNIFICANT_DIGITS - 1 - d.adjusted())
    with localcontext() as ctx:
        ctx.prec = max(SIGNIFICANT_DIGITS, d.adjusted() + 1) + 2
        return d.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def _units(values: np.ndarray) -> tuple[np.ndarray, int]:
    """Exact integers and a scale such that values == units / 10**scale, for exact sums.

    Each float is the nearest double to the decimal in its cell; with a scale at which every value times
    10**scale rounds to an integer n that divides back to the same float, n/10**scale IS that decimal
    (both n and 10**scale are exact doubles below 2**53, and IEEE division is correctly rounded).
    When no scale up to 15 fits, Decimal(repr(x)) per value is the fallback.
    """
    if len(values) == 0:
        return np.zeros(0, dtype=np.int64), 0
    top = float(np.max(np.abs(values)))
    for scale in range(16):
        factor = 10.0**scale
        if top * factor >= 2**53:
            break
        units = np.round(values * factor)
        if np.array_equal(units / factor, values):
            ints = units.astype(np.int64)
            # Python ints when an int64 sum could overflow.
            if top * factor * len(values) >= 2**62:
                return ints.astype(object), scale
            return ints, scale
    return np.array([_float_decimal(v) for v in values], dtype=object), 0


def _exact(unit: Any, scale: int) -> Decimal:
    if isinstance(unit, Decimal):
        return unit
    return Decimal(int(unit)).scaleb(-scale)


def _dividing(numerator: Decimal, denominator: int | Decimal) -> Decimal:
    """Quotient with enough precision that rounding to SIGNIFICANT_DIGITS afterwards is exact."""
    with localcontext() as ctx:
        ctx.prec = max(40, numerator.adjusted() + 20)
        return numerator / Decimal(denominator)


def _describe_value(value: str) -> str:
    """A display value with thousands separators when it is a number ("239,300,000", "12.5%")."""
    body, suffix = (value[:-1], "%") if value.endswith("%") else (value, "")
    if re.fullmatch(r"-?\d+(?:\.\d+)?", body):
        return _grouped(Decimal(body)) + suffix
    return value
