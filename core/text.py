"""Words and patterns that several modules read questions and answers with: one copy each.

Stop words are the words of a question that name nothing (articles, auxiliaries, question words); each reader
adds the words that are glue for its own job (the planner: "total", "average"; the cell arithmetic: "fiscal",
"year") to the common set here.  YEAR finds a calendar year inside text (years_in reads its other spellings too), MARKER a citation marker "[3]",
BAD_CHARS what Postgres text cannot hold.
"""

from __future__ import annotations

import re

STOP_WORDS = frozenset(
    """a an and are as at be by did do does for from had has have how i in is it its of on or that the their
    there this to was were what when where which who whose why with""".split()
)
# A calendar year (1900-2099) standing alone in text: "FY2022" and "2021-22" hold one, "120219" does not.
YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)")
# The ways a report writes a year besides "2019": a short fiscal year ("FY19", "FY '19", "F19", "fiscal 19"),
# and a year letter-spaced by the typesetter ("2 0 1 8").
_YEAR_FORMS = re.compile(
    r"(?<!\d)(?P<full>(?:19|20)\d\d)(?!\d)"
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


# A citation marker in an answer: "[3]" cites evidence item 3.
MARKER = re.compile(r"\[(\d+)\]")
# Characters Postgres text cannot hold (NUL, lone surrogates), dropped from what PDFs give.
BAD_CHARS = re.compile("[\x00\ud800-\udfff]")


# Numbers written as words in questions ("three rounds", "less than one year").
NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "hundred": 100,
}  # fmt: skip
