"""PII redaction: what must go, and the financial numbers that must stay."""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from stdnum import luhn

from core.qa.pii import redact

DEMO = Path(__file__).resolve().parents[2] / "data" / "demo"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Write to jane.doe+deals@example.co.uk today.", "Write to [email] today."),
        ("Call +1 (415) 555-2671 or 415-555-2671.", "Call [phone] or [phone]."),
        ("London office 020 7946 0958, Paris 01 42 68 53 00", "London office [phone], Paris [phone]"),
        ("Berlin: +49 30 12345678 / 0049 30 12345678", "Berlin: [phone] / [phone]"),
        ("Visa 4111 1111 1111 1111, 4111-1111-1111-1111", "Visa [card], [card]"),
        ("Amex 3782 822463 10005; MC 5555555555554444.", "Amex [card]; MC [card]."),
        ("Pay to DE89 3704 0044 0532 0130 00 or GB82WEST12345698765432.", "Pay to [iban] or [iban]."),
        ("SSN 123-45-6789, NINO AB 12 34 56 C", "SSN [national id], NINO [national id]"),
        ("Passport no. X1234567; ID number: 12 345 678", "Passport no. [national id]; ID number: [national id]"),
        # PDF text wraps lines inside numbers; a card may be followed by its expiry.
        ("at +44 20\n7946 0958 or DE89 3704\n0044 0532 0130 00.", "at [phone] or [iban]."),
        ("card 4111 1111\n1111 1111 12/26", "card [card] 12/26"),
    ],
)
def test_each_kind_is_replaced_by_its_placeholder(text: str, expected: str) -> None:
    assert redact(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Amount Raised (USD): 1,234,567.89 on 2019-01-05",
        "See the 10-K and the 10-Q for FY2021 (4K_2021_10K.pdf).",
        "Churn rose to 4.2% per month; margin 12.5 %; growth -3.1%",
        "Cells B12:D40 and funding_rounds!F12, Sheet1!A1:A300",
        "Rounds in 2019 2020 2021 2022; years 1999-2003; Q3 2024; 12/31/2024; 31.12.2024",
        "450000 850000 5200000 2800000 15000000 $15.9B €2.1M",
        "Funding 15 000 000 EUR, 1.234.567,89 EUR, 4200000000, 2125551234",
        "Not a card: 4111 1111 1111 1112; not an IBAN: DE89 3704 0044 0532 0130 01",
        "sheet ID 4, document id 2024, ID: 12, invoice 123-456",
        "Codes 000-12-3456, 666-12-3456 and 900-12-3456",
        "",
    ],
)
def test_financial_text_is_left_alone(text: str) -> None:
    assert redact(text) == text


def test_the_demo_data_room_has_nothing_to_redact() -> None:
    csv = (DEMO / "funding_rounds.csv").read_text(encoding="utf-8")
    assert redact(csv) == csv
    with pymupdf.open(DEMO / "portfolio_memo.pdf") as doc:
        memo = "\n".join(page.get_text() for page in doc)
    assert len(memo) > 10_000
    assert redact(memo) == memo


# -- property-based: generated PII always goes, generated financial numbers never do -----------------

# (prefix, lengths) of real card networks: Visa, Mastercard (both ranges), Amex, Diners, JCB, Discover, UnionPay.
_CARD_NETWORKS = [
    ("4", [13, 16, 19]),
    ("51", [16]),
    ("55", [16]),
    ("2221", [16]),
    ("2720", [16]),
    ("34", [15]),
    ("37", [15]),
    ("36", [14]),
    ("300", [14]),
    ("35", [16, 19]),
    ("6011", [16]),
    ("65", [16]),
    ("62", [16, 17, 18, 19]),
]


@st.composite
def cards(draw: st.DrawFn) -> str:
    """A Luhn-valid card number of a real network, printed as one run, in fours, or 4-6-5 / 4-6-4 (Amex, Diners)."""
    prefix, lengths = draw(st.sampled_from(_CARD_NETWORKS))
    length = draw(st.sampled_from(lengths))
    body = prefix + "".join(
        draw(
            st.lists(
                st.sampled_from("0123456789"), min_size=length - len(prefix) - 1, max_size=length - len(prefix) - 1
            )
        )
    )
    number = body + luhn.calc_check_digit(body)
    style = draw(st.sampled_from(["run", " ", "-"]))
    if style == "run":
        return number
    if length in (14, 15) and draw(st.booleans()):
        return style.join([number[:4], number[4:10], number[10:]])
    return style.join(number[i : i + 4] for i in range(0, len(number), 4))


_IBAN_FORMATS = {
    "DE": "8!n10!n",
    "GB": "4!a6!n8!n",
    "FR": "5!n5!n11!c2!n",
    "NL": "4!a10!n",
    "ES": "4!n4!n1!n1!n10!n",
    "IT": "1!a5!n5!n12!c",
    "BE": "3!n7!n2!n",
    "CH": "5!n12!c",
    "AT": "5!n11!n",
    "IE": "4!a6!n8!n",
}


@st.composite
def ibans(draw: st.DrawFn) -> str:
    """A checksum-valid IBAN of a SEPA country, compact or printed in fours."""
    from stdnum import iban

    country = draw(st.sampled_from(sorted(_IBAN_FORMATS)))
    bban = ""
    for count, kind in re.findall(r"(\d+)!([nac])", _IBAN_FORMATS[country]):
        alphabet = {"n": "0123456789", "a": "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "c": "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"}[
            kind
        ]
        bban += "".join(draw(st.lists(st.sampled_from(alphabet), min_size=int(count), max_size=int(count))))
    number = country + iban.calc_check_digits(country + "00" + bban) + bban
    if not iban.is_valid(number):  # a national check digit (e.g. Belgium's) this generator does not compute
        from hypothesis import reject

        reject()
    return number if draw(st.booleans()) else " ".join(number[i : i + 4] for i in range(0, len(number), 4))


_WORDS = st.sampled_from(["The", "fund", "raised", "in", "Canada", "wire", "to", "contact:", "(see", "memo)", "—", "é"])


def _embedded(value: str, before: list[str], after: list[str]) -> str:
    return " ".join([*before, value, *after]) + "."


@settings(max_examples=200, deadline=None)
@given(cards(), st.lists(_WORDS, max_size=4), st.lists(_WORDS, max_size=4))
@example("4111 1111 1111 1111", [], [])
def test_generated_card_numbers_are_always_redacted(card: str, before: list[str], after: list[str]) -> None:
    out = redact(_embedded(card, before, after))
    assert "[card]" in out and card not in out
    assert not re.search(r"\d{4}", out.replace("[card]", "")), out


@settings(max_examples=200, deadline=None)
@given(ibans(), st.lists(_WORDS, max_size=4), st.lists(_WORDS, max_size=4))
def test_generated_ibans_are_always_redacted(number: str, before: list[str], after: list[str]) -> None:
    out = redact(_embedded(number, before, after))
    assert "[iban]" in out and number not in out and number[:4] not in out


@settings(max_examples=200, deadline=None)
@given(st.emails(), st.lists(_WORDS, max_size=4), st.lists(_WORDS, max_size=4))
def test_generated_emails_are_always_redacted(email: str, before: list[str], after: list[str]) -> None:
    out = redact(_embedded(email, before, after))
    assert "[email]" in out and "@" not in out, out


def _grouped(n: int, sep: str) -> str:
    return f"{n:,}".replace(",", sep)


@st.composite
def financial_numbers(draw: st.DrawFn) -> str:
    """Numbers a financial data room is full of: amounts, years, dates, ranges, percentages, refs, forms."""
    amount = draw(st.integers(min_value=0, max_value=999_999_999_999))
    cents = draw(st.integers(min_value=0, max_value=99))
    year = draw(st.integers(min_value=1900, max_value=2099))
    month, day = draw(st.integers(1, 12)), draw(st.integers(1, 28))
    kind = draw(
        st.sampled_from(
            [
                "plain",
                "commas",
                "decimal",
                "currency",
                "year",
                "iso",
                "us_date",
                "eu_date",
                "range",
                "percent",
                "ref",
                "form",
                "scaled",
                "negative",
            ]
        )
    )
    return {
        "plain": str(amount),
        "commas": _grouped(amount, ","),
        "decimal": f"{_grouped(amount, ',')}.{cents:02d}",
        "currency": f"${_grouped(amount, ',')}",
        "year": str(year),
        "iso": f"{year}-{month:02d}-{day:02d}",
        "us_date": f"{month}/{day}/{year}",
        "eu_date": f"{day:02d}.{month:02d}.{year}",
        "range": f"{year}-{year + draw(st.integers(1, 9))}",
        "percent": f"{amount % 1000}.{cents}%",
        "ref": f"{draw(st.sampled_from(['A', 'F', 'AB']))}{amount % 100000 + 1}",
        "form": draw(st.sampled_from(["10-K", "10-Q", "8-K", "20-F", "S-1"])),
        "scaled": f"{amount % 1000}.{cents}{draw(st.sampled_from(['M', 'B', 'bn', 'k']))}",
        "negative": f"({_grouped(amount, ',')})",
    }[kind]


@settings(max_examples=500, deadline=None)
@given(st.lists(financial_numbers(), min_size=1, max_size=8), st.sampled_from([" ", "; ", ", ", "\n", " | "]))
def test_generated_financial_numbers_are_never_redacted(numbers: list[str], sep: str) -> None:
    text = "Raised " + sep.join(numbers) + " in total."
    assert redact(text) == text


# Each a PII item written the ways the attack run found getting through (issue 12): accented domains,
# wrapped lines, lower case, dash/dot/no-break-space separators, full-width digits.
EVASIONS = [
    "josé@café.fr",
    "anna.müller@bücher.de",
    "ceo@例え.jp",
    "john.smith@\nexample.com",
    "john.smith\n@example.com",
    "john.\nsmith@example.com",
    "jane@example.\ncom",
    "gb82 west 1234 5698 7654 32",
    "gb82west12345698765432",
    "GB82-WEST-1234-5698-7654-32",
    "GB82.WEST.1234.5698.7654.32",
    "GB82\u00a0WEST\u00a01234\u00a05698\u00a07654\u00a032",
    "ab 12 34 56 c",
    "ab123456c",
    "AB-12-34-56-C",
    "AB.12.34.56.C",
    "AB\u00a012\u00a034\u00a056\u00a0C",
    "4111.1111.1111.1111",
    "4111\u00a01111\u00a01111\u00a01111",
    "\uff14\uff11\uff11\uff11 \uff11\uff11\uff11\uff11 \uff11\uff11\uff11\uff11 \uff11\uff11\uff11\uff11",
    "\uff11\uff12\uff13-\uff14\uff15-\uff16\uff17\uff18\uff19",
    "123.45.6789",
    "+44\u00a020\u00a07946\u00a00958",
    "\uff0b\uff14\uff14 \uff12\uff10 \uff17\uff19\uff14\uff16 \uff10\uff19\uff15\uff18",
    "jo\uff20example.com",
]


def test_evasions_of_the_detectors_are_redacted() -> None:
    missed = []
    for item in EVASIONS:
        out = redact(f"Contact: {item} today.")
        if not re.fullmatch(r"Contact: \[[a-z ]+\] today\.", out):
            missed.append((item, out))
    print(f"PII written to evade the detectors: {len(EVASIONS)} attempts, {len(missed)} got through")
    assert missed == []


# Issue 25: formats that reached the query log.
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("write to jane (at) example (dot) com", "write to [email]"),
        ("write to jane.doe [at] example [dot] co [dot] uk.", "write to [email]."),
        ("write to jane at example dot com", "write to [email]"),
        ("jane{at}example.com", "[email]"),
        ("Jane Roe 123 45 6789, born 1980", "Jane Roe [national id], born 1980"),
        ("call 2125550143", "call [phone]"),
        ("Phone: 2125550143.", "Phone: [phone]."),
        ("reach me at 12125550143", "reach me at [phone]"),
    ],
)
def test_dodged_formats_are_redacted(text: str, expected: str) -> None:
    assert redact(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Funding 4200000000, 2125550143 in total",  # a bare ten-digit run is an amount
        "the dot com bubble; sold at auction.com; meet at the dot com office",
        "Rounds 450 12 2023; 123 45 1999",  # three numbers in a row, the last a year
        "call 1234567890",  # not a valid US number
    ],
)
def test_lookalikes_of_the_dodged_formats_stay(text: str) -> None:
    assert redact(text) == text
