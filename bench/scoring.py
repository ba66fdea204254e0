"""Comparing an answered value with a gold one, for the benches that score right / wrong / abstained."""

from __future__ import annotations

import re


def number(text: object) -> float | None:
    """The number a gold or answered value writes ("$1,234", "(12)", "83.6%"), or None."""
    body = re.sub(r"[,$£€%\s]", "", str(text))
    negative = body.startswith("(") and body.endswith(")")
    body = body.strip("()")
    if not re.fullmatch(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)", body):
        return None
    return -float(body) if negative else float(body)


def places(text: object) -> int:
    """The decimal places a value is printed with."""
    found = re.search(r"\.(\d+)", str(text))
    return len(found.group(1)) if found else 0


def same_figure(gold: object, value: object, *, tolerance: float = 0.002, scaled: bool = False) -> bool | None:
    """Whether two figures agree (None when either is not a number): within `tolerance` of the gold (relative, at
    least 0.006), as a share for a percentage ("0.836" of "83.6%"), at the gold's printed places ("23.2" of
    23.16), and with `scaled` also written out in full of a gold in millions."""
    g, v = number(gold), number(value)
    if g is None or v is None:
        return None
    if places(gold) < places(value) and round(v, places(gold)) == g:
        return True
    allowed = max(abs(g) * tolerance, 0.006)
    if abs(g - v) <= allowed or (abs(g) > 1 and abs(g / 100 - v) <= allowed / 100):
        return True
    return scaled and abs(g * 1e6 - v) <= abs(g) * 1e3
