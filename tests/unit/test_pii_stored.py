"""Issue 41, item 6: the formats that got through into stored questions, answers, citation values and conversation
titles, each caught by `redact_stored` (the one function every stored copy goes through); one test per row of
SECURITY.md's table of formats, and a value caught in the question is caught wherever else it is stored."""

from __future__ import annotations

import pytest

from core.qa.pii import caught, redact, redact_stored

# (row of SECURITY.md's table, text as stored, its redacted copy)
FORMATS = [
    ("spaced e-mail", "write to jane @ example . com today", "write to [email] today"),
    ("spaced e-mail, no space before the dot", "jane @ example.com", "[email]"),
    ("mailto with %40", "see mailto:jane%40example.com", "see mailto:[email]"),
    ("mailto with %40 and a query", "mailto:jane%40example.co.uk?subject=hi", "mailto:[email]?subject=hi"),
    ("+44 mobile (drama range)", "call +44 7700 900123 now", "call [phone] now"),
    ("+44 mobile in one run", "call +447700900123", "call [phone]"),
    ("bare nine-digit SSN", "is 078051120 on file?", "is [national id] on file?"),
    ("bare nine-digit SSN after a label-free name", "John Smith 219099999", "John Smith [national id]"),
    ("UK NI number, example prefix", "NI QQ123456C", "NI [national id]"),
    ("UK NI number, spaced", "qq 12 34 56 c", "[national id]"),
    ("dashed IBAN", "pay GB82-WEST-1234-5698-7654-32 today", "pay [iban] today"),
    ("dotted IBAN", "pay GB82.WEST.1234.5698.7654.32", "pay [iban]"),
]


@pytest.mark.parametrize(("row", "text", "expected"), FORMATS, ids=[row for row, _, _ in FORMATS])
def test_each_format_is_redacted_in_what_is_stored(row: str, text: str, expected: str) -> None:
    assert redact_stored(text) == expected, row


@pytest.mark.parametrize(
    "text",
    [
        "revenue was $123456789 in 2023",  # a currency amount
        "123456789 USD",
        "150000000 raised",  # not an issued SSN (group 00, serial 0000)
        "the 2023 figure 1,234,567,890",
        "sold at auction.com",
        "growth of +12.5% a year",
        "Series A 10-K filed 2023-03-31",
    ],
)
def test_amounts_and_financial_text_stay(text: str) -> None:
    assert redact_stored(text) == text


def test_a_value_caught_in_the_question_is_caught_in_the_answer_citations_and_title() -> None:
    question = "Is passport number X1234567 in the room, and IBAN GB82 WEST 1234 5698 7654 32?"
    seen = caught(question)
    assert [value for value, _ in seen] == ["X1234567", "GB82 WEST 1234 5698 7654 32"]
    # The answer dropped the label, and wrote the IBAN with dashes: neither is caught alone ...
    answer = "Yes: X1234567 appears on page 2, beside GB82-WEST-1234-5698-7654-32."
    assert "X1234567" in redact(answer)
    # ... and both are caught knowing what the question held.
    stored = redact_stored(answer, seen=seen)
    assert "X1234567" not in stored and "GB82" not in stored and "WEST" not in stored
    assert stored.startswith("Yes: [national id] appears on page 2")
