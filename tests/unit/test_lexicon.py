"""core.lexicon: each concept written once, and the lists derived from it read the same words as before."""

from __future__ import annotations

import re

import pytest

from core.cells import parse_number
from core.lexicon import comparison, numbers, periods


def test_one_year_pattern_keeps_each_callers_range() -> None:
    """Reports read 1900-2099; the table planner also reads historic years from 1500."""
    modern, historic = re.compile(periods.year_digits()), periods.YEAR_RE
    assert [y for y in ("1499", "1500", "1899", "1900", "2099", "2100") if modern.fullmatch(y)] == ["1900", "2099"]
    assert [y for y in ("1499", "1500", "1899", "1900", "2099", "2100") if historic.fullmatch(y)] == [
        "1500",
        "1899",
        "1900",
        "2099",
    ]
    decade = re.compile(periods.year_digits(periods.HISTORIC_SINCE, decade=True))
    assert decade.fullmatch("1990") and decade.fullmatch("1500") and not decade.fullmatch("1995")
    assert periods.YEAR.findall("FY2022 vs 120219 and 2021-22") == ["2022", "2021"]
    with pytest.raises(ValueError):
        periods.year_digits(1950)


def test_months_listed_once() -> None:
    assert periods.MONTH_NUMBERS["sept"] == periods.MONTH_NUMBERS["sep"] == periods.MONTH_NUMBERS["september"] == 9
    assert len(periods.MONTHS) == 12 and "sept" in periods.MONTH_ABBREVIATIONS


def test_scales_derived_from_the_scale_words() -> None:
    assert numbers.SCALES == {"thousand": 1e3, "million": 1e6, "mn": 1e6, "mm": 1e6, "billion": 1e9, "bn": 1e9}
    assert parse_number("$1.2M") == 1_200_000.0 and parse_number("3bn") == 3e9 and parse_number("450K") == 450_000.0
    assert numbers.MONEY_SCALE_RE.sub(lambda m: f"{m.group(1)} {numbers.MONEY_SCALE_WORDS[m.group(2)]}", "$5bn") == (
        "5 billion"
    )


def test_one_number_parser() -> None:
    """Question words and cells read digits through parse_number; number words through NUMBER_WORDS."""
    assert parse_number is numbers.parse_number
    assert numbers.as_number("12") == 12.0 and numbers.as_number(".5") == 0.5 and numbers.as_number("twelve") == 12.0
    assert numbers.as_number("1e5") is None and numbers.as_number("k") is None  # a question word, not a cell
    assert numbers.as_number("20k") == 20000.0 and numbers.as_number("2.5k") == 2500.0  # thousands written glued
    assert parse_number("(4,625)") == -4625.0 and parse_number("\u22127") == -7.0 and parse_number("12%") == 12.0


def test_comparison_sets_derived() -> None:
    assert comparison.RANKED == frozenset("higher highest lower lowest better best worse worst".split())
    assert comparison.AMOUNT_SUPERLATIVES == frozenset(
        "most highest largest biggest greatest top least lowest smallest fewest".split()
    )
    assert not comparison.COMPARATIVES_ASC & comparison.COMPARATIVES_DESC
    assert comparison.ORDER_WORDS == frozenset("above below before after earlier later".split())
