"""Periods: one year pattern, month and weekday names, quarters and halves.

A year is four digits from a century start up to 2099.  Reports and filings are read with years from 1900
(``year_digits()``, the default: "FY2022", "2021-22"); the table planner also reads historic years from 1500
(``year_digits(HISTORIC_SINCE)``: a table of kings or battles).  Every year pattern in core derives from
``year_digits`` with the range its caller has always accepted, so a caller's matches are unchanged.
"""

from __future__ import annotations

import re

# The first year the table planner reads as a year in a question or a cell ("in 1648").
HISTORIC_SINCE = 1500


def year_digits(since: int = 1900, *, decade: bool = False) -> str:
    """The regex (no group, no boundaries) of a four-digit year from `since` (a century start, 1000-1900)
    to 2099: year_digits() is "(?:19|20)\\d\\d"; with `decade`, only a decade's first year ("1990")."""
    if since % 100 or not 1000 <= since <= 1900:
        raise ValueError(f"a year range starts at a century from 1000 to 1900, not {since}")
    century = since // 100 % 10
    first = "19" if century == 9 else f"1[{century}-9]"
    last = "0" if decade else r"\d"
    return rf"(?:{first}|20)\d{last}"


# A calendar year (1900-2099) as digits.
YEAR_DIGITS = year_digits()
# A calendar year (1900-2099) standing alone in text: "FY2022" and "2021-22" hold one, "120219" does not.
YEAR = re.compile(rf"(?<!\d)({YEAR_DIGITS})(?!\d)")
# A folded question word or cell that is a year for the table planner (1500-2099; match, fullmatch or search).
YEAR_RE = re.compile(year_digits(HISTORIC_SINCE))
# The ways a report writes a year besides "2019": a short fiscal year ("FY19", "FY '19", "F19", "fiscal 19"),
# and a year letter-spaced by the typesetter ("2 0 1 8").
_YEAR_FORMS = re.compile(
    rf"(?<!\d)(?P<full>{YEAR_DIGITS})(?!\d)"
    r"|\b(?:fy|f|fiscal(?:\s+year)?)\s?'?(?P<short>\d\d)\b"
    r"|(?<!\w)(?P<spaced>(?:1 9|2 0) \d \d)(?!\w)",
    re.IGNORECASE,
)


def year_mentions(text: str) -> list[tuple[str, str]]:
    """Each year `text` names, in order: (the calendar year, the words that name it) — ("2019", "FY19")."""
    found = []
    for m in _YEAR_FORMS.finditer(text):
        if m.group("full"):
            found.append((m.group("full"), m.group("full")))
        elif m.group("short"):
            found.append((f"20{m.group('short')}", m.group(0)))
        else:
            found.append((m.group("spaced").replace(" ", ""), m.group(0)))
    return found


def years_in(text: str) -> list[str]:
    """The calendar years `text` names, in order, once each: "FY19" and "2 0 1 8" count as 2019 and 2018."""
    return list(dict.fromkeys(year for year, _ in year_mentions(text)))


MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december")  # fmt: skip
# The short forms of the months: their first three letters, and "sept".
MONTH_ABBREVIATIONS = tuple(a for m in MONTHS for a in ((m[:3], "sept") if m == "september" else (m[:3],)))
# A month's name or short form -> its number (1-12).
MONTH_NUMBERS = {name: i for i, month in enumerate(MONTHS, 1) for name in (month, month[:3])} | {"sept": 9}
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
QUARTERS = ("q1", "q2", "q3", "q4")
HALVES = ("h1", "h2")
