"""Numbers as written: one parser for a number in cell or question text, number words, and scale words.

``parse_number`` is the one function that reads a number written with digits ("1,234.5", "(4,625)",
"$3.2M", "12%", "−7"); every other reader (measures with units, question words, dates) finds the digits
and hands them to it.  The scale words (thousand, million, billion) and their abbreviations are listed
once in SCALE_WORDS and SCALE_ABBREVIATIONS; each reader's spelling table is derived from them.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Literal

# ---------------------------------------------------------------------------------------------
# Scales
# ---------------------------------------------------------------------------------------------

# A scale word and the power of ten it multiplies by.
SCALE_WORDS = {"thousand": 10**3, "million": 10**6, "billion": 10**9}
# The short forms of the scale words ("$5m", "3bn", "450K"), lower-cased.
SCALE_ABBREVIATIONS = {
    "k": "thousand",
    "m": "million",
    "mm": "million",
    "mn": "million",
    "b": "billion",
    "bn": "billion",
}
# The scale words a question may write after a number ("5 million", "2 bn"), as factors: the words, and the
# abbreviations of more than one letter (a bare "m" or "k" after a number is a unit: metres, a kilo-something).
SCALES = {word: float(factor) for word, factor in SCALE_WORDS.items()} | {
    short: float(SCALE_WORDS[word]) for short, word in SCALE_ABBREVIATIONS.items() if len(short) > 1
}
# "$5m", "£1.2bn", "$450k": a money amount's short scale (a bare "80 m" stays metres).
MONEY_SCALE_RE = re.compile(rf"[$£€¥]\s?(\d+(?:\.\d+)?)\s?({'|'.join(SCALE_ABBREVIATIONS)})\b")
MONEY_SCALE_WORDS = SCALE_ABBREVIATIONS

# Numbers written as words in questions ("three rounds", "less than one year").
NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
    "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
    "forty": 40, "fifty": 50, "hundred": 100,
}  # fmt: skip
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")

# A folded question word that is a number: "12", "3.5", ".5".
NUMBER_RE = re.compile(r"\d+(?:\.\d+)?|\.\d+")
ORDINAL_SUFFIX_RE = re.compile(r"(?<=\d)(?:st|nd|rd|th)$")
CLOCK_RE = re.compile(r"\d{1,2}:\d{2}(?::\d{2})?(?:\.\d+)?")

# ---------------------------------------------------------------------------------------------
# Numbers in cell text
# ---------------------------------------------------------------------------------------------

# The building blocks are shared by parse_number and by dtype inference (core.cells).  Whitespace is spelled
# out (never \s) so that a value holding a line break is never a number.
_WS = r"[ \t\u00a0\u202f]*"
_SIGN = r"[-+\u2212]"
# Digits with correctly grouped thousand separators, or no separators; optional decimals and
# exponent ("1.5e-05" is how a float from a workbook is rendered).
_NUM = r"(?:(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
# Magnitude suffixes seen in analysts' summary tables ("$1.2M", "3bn", "450K"): the spellings of
# SCALE_ABBREVIATIONS a cell may use (a lower-case "m" is metres, a lower-case "b" nothing).
_SUFFIXES = ("MM", "mn", "bn", "Bn", "BN", "K", "k", "M", "B")
_MULT = r"(?:MM|mn|bn|Bn|BN|[KkMB])(?![A-Za-z])"
_NUMM = rf"{_NUM}(?:{_WS}{_MULT})?"
_CURRENCY_CODES = "USD|EUR|GBP|JPY|CHF|CAD|AUD|NZD|CNY|RMB|HKD|SGD|INR|SEK|NOK|DKK|BRL|MXN|ZAR|KRW|RUB|TRY|PLN"
CURRENCY_SYMBOLS = "€£¥₹₩₽₺₪₫฿₱₴₦₡₲₵₸"
_CUR = rf"(?:[A-Z]{{0,2}}\$|[{CURRENCY_SYMBOLS}]|(?:{_CURRENCY_CODES})(?![A-Za-z]))"

_PLAIN_ALT = rf"(?:{_SIGN}{_WS})?{_NUMM}|\({_WS}{_NUMM}{_WS}\)"
_PERCENT_ALT = rf"(?:{_SIGN}{_WS})?{_NUM}{_WS}%|\({_WS}{_NUM}{_WS}%{_WS}\)"
_CURRENCY_ALT = (
    rf"(?:{_SIGN}{_WS})?{_CUR}{_WS}{_NUMM}"
    rf"|{_CUR}{_WS}{_SIGN}{_WS}{_NUMM}"
    rf"|(?:{_SIGN}{_WS})?{_NUMM}{_WS}{_CUR}"
    rf"|\({_WS}{_CUR}{_WS}{_NUMM}{_WS}\)"
    rf"|\({_WS}{_NUMM}{_WS}{_CUR}{_WS}\)"
    rf"|{_CUR}{_WS}\({_WS}{_NUMM}{_WS}\)"
)


# re.ASCII: only 0-9 are digits; Excel does not read "３" or "٣" as numbers either.
def _single(alt: str) -> re.Pattern[str]:
    return re.compile(rf"{_WS}(?:{alt}){_WS}", re.ASCII)


PLAIN_RE = _single(_PLAIN_ALT)
PERCENT_RE = _single(_PERCENT_ALT)
CURRENCY_RE = _single(_CURRENCY_ALT)
ANY_NUMBER_RE = _single(f"{_PLAIN_ALT}|{_PERCENT_ALT}|{_CURRENCY_ALT}")
# Integers written with a leading zero ("02134", "007") are codes, not quantities.
# (Searched in the column joined by "\n": the leading literal makes the scan fast.)
LEADING_ZERO_RE = re.compile(rf"\n{_WS}{_SIGN}?0\d", re.ASCII)
SIMPLE_NUMBER_RE = re.compile(r"-?\d+(?:\.\d+)?", re.ASCII)
_CORE_RE = re.compile(rf"({_NUM})(?:{_WS}({_MULT}))?", re.ASCII)
_MULTIPLIERS = {suffix: Decimal(SCALE_WORDS[SCALE_ABBREVIATIONS[suffix.lower()]]) for suffix in _SUFFIXES}


def parse_number(text: str) -> float | None:
    """Return the number a cell's text shows, or None when the text is not a number.

    Accepted: thousand separators with correct 3-digit grouping ("12,000,000"), decimals (".5",
    "5."), exponents ("1.5e-05"), a leading "+", "-" or U+2212 minus, accounting negatives in
    parentheses ("(1,234)" -> -1234), percentages as written ("15%" -> 15.0, not 0.15), one
    currency symbol or ISO code before or after the number ("€3.5", "USD 1,000", "1,000 EUR",
    "US$5", "$(1,234.00)"), and a magnitude suffix K/k (10**3), M/MM/mn (10**6) or B/bn (10**9),
    so "$1.2M" -> 1200000.0 — suffixed values are computed through Decimal to avoid float noise.
    Not accepted: decimal commas ("1,5"), space or apostrophe grouping ("1 234", "1'234"),
    a trailing minus ("5-"), "nan"/"inf", and words ("1.2 million").
    """
    kind = number_kind(text)
    if kind is None:
        return None
    m = _CORE_RE.search(text)
    if m is None:  # unreachable: every accepted form contains the core
        return None
    digits, mult = m.group(1).replace(",", ""), m.group(2)
    if mult:
        value = float(Decimal(digits) * _MULTIPLIERS[mult])
    else:
        value = float(digits)
    before = text[: m.start()]
    if "(" in before or "-" in before or "\u2212" in before:
        value = -value
    return value


def number_kind(text: str) -> Literal["plain", "percent", "currency"] | None:
    """Classify text as a plain number, a percentage, an amount of money, or not a number."""
    if PLAIN_RE.fullmatch(text):
        return "plain"
    if PERCENT_RE.fullmatch(text):
        return "percent"
    if CURRENCY_RE.fullmatch(text):
        return "currency"
    return None


# ---------------------------------------------------------------------------------------------
# Numbers in questions
# ---------------------------------------------------------------------------------------------


def as_number(word: str) -> float | None:
    """The number a folded question word names: digits ("12", "3.5") or a number word ("twelve"); else None."""
    if NUMBER_RE.fullmatch(word):
        return parse_number(word)
    if word.endswith("k") and NUMBER_RE.fullmatch(word[:-1]):  # "20k", "2.5k": thousands, written glued
        found_k = parse_number(word[:-1])
        return None if found_k is None else found_k * 1000
    found = NUMBER_WORDS.get(word)
    return None if found is None else float(found)


def num_text(value: float) -> str:
    """A number as a question writes it: 2010.0 -> "2010", 2.5 -> "2.5"."""
    return str(int(value)) if value.is_integer() else repr(value)
