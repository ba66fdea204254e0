"""PII redaction: emails, phone numbers, card numbers, IBANs and national-ID-like numbers -> typed placeholders.

Used on copies that leave the document tables: the question log (qa_queries, qa_citations) and the text
sent to an external model. The documents themselves are never changed: an authorised user still sees
the original.

Financial text is full of numbers, so every detector is strict about shape before it checks a checksum:
- cards: 13-19 digits written as one run or in the groups cards are printed in (4-4-4-4, 4-6-5, ...),
  a card network's prefix and length (Visa, Mastercard, Amex, Diners, JCB, Discover, UnionPay) and a
  valid Luhn check digit (python-stdnum);
- IBANs: country code, check digits, country length and mod-97 checksum (python-stdnum);
- phones: a "+" or "00" international prefix, a European national number with its trunk 0
  ("020 7946 0958") or a North American one written with dashes, dots or an (area code), valid for
  its country by Google's libphonenumber metadata (phonenumbers). A bare run of digits, or groups
  joined by spaces alone without a leading 0, is never a phone number here: amounts look like that;
- national IDs: US SSN (###-##-####, issued ranges only), UK National Insurance numbers, and numbers
  after a label such as "passport no." or "ID number:".
Amounts ("1,234,567.89", "450000"), years, dates, "10-K", percentages and cell refs stay as they are
(tests/unit/test_pii.py checks that, on the demo data too).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any, TypeVar

import phonenumbers
from pydantic import BaseModel
from stdnum import iban as _iban
from stdnum import luhn

from core.lexicon.periods import YEAR_DIGITS

__all__ = ["PLACEHOLDERS", "caught", "redact", "redact_citation", "redact_evidence", "redact_json", "redact_stored"]

PLACEHOLDERS = ("[email]", "[phone]", "[card]", "[iban]", "[national id]")

# Unicode letters in the local part and the domain ("josé@café.fr", internationalised domains); a PDF line
# may wrap around the "@" or after a dot of the domain.
_EMAIL = re.compile(
    r"(?<![\w.+-])[\w!#$%&'*+/=?^`{|}~-]+(?:\.\n?[\w!#$%&'*+/=?^`{|}~-]+)*"
    r"\n?@\n?(?:[^\W_](?:[\w-]*[^\W_])?\.\n?)+[^\W\d_](?:[\w-]*[^\W_])?(?![\w-])"
)
# Look-alikes folded before detection (the redacted copy keeps the folded text): full-width digits and signs,
# the no-break and thin spaces, the Unicode hyphens. "１２３" and "GB82\u00a0WEST" are the same numbers.
_FOLD = str.maketrans(
    {
        **{0xFF10 + d: str(d) for d in range(10)},
        0xFF0B: "+", 0xFF0D: "-", 0xFF0E: ".", 0xFF20: "@", 0xFF08: "(", 0xFF09: ")",
        0x00A0: " ", 0x2007: " ", 0x2009: " ", 0x202F: " ", 0x3000: " ",
        0x2010: "-", 0x2011: "-", 0x2012: "-", 0x2013: "-", 0x2212: "-",
    }
)  # fmt: skip

# A card as one run of digits, or as groups of digits; the groups must be those cards are printed in
# (checked in _cards). A newline may stand for a space: PDF text wraps lines anywhere.
_CARD = re.compile(r"(?<![\w.,])(?:\d{13,19}|\d{4}(?:[ \n.-]\d{1,6}){2,4})(?![\w]|[.,]\d)")
_CARD_GROUPS = re.compile(r"^(?:4,4,4,4(?:,[1-3])?|4,6,[45]|4,4,4,[1-3])$")
# Upper or lower case, groups joined by a space, line break, dash or dot (the checksum decides).
_IBAN = re.compile(r"(?i)\b[A-Z]{2}\d{2}(?:[A-Z0-9]{11,30}|(?:[ \n.-][A-Z0-9]{1,4}){3,8})\b")

# US SSN: never 000, 666 or 9xx in the area, never 00 in the group, never 0000 in the serial. Joined by
# spaces ("123 45 6789") too, unless the last group reads as a year ("450 12 2023" is three numbers in a row).
_SSN = re.compile(
    r"(?<![\w.,-])(?!000|666|9\d\d)\d{3}([-. ])(?!00)\d{2}\1(?!0000)(?!(?<= )(?:19|20)\d\d)\d{4}(?![\w-]|[.,]\d)"
)
# An e-mail address written to dodge a filter: "jane (at) example (dot) com", "jane [at] example [dot] com",
# "jane at example dot com" (the bare word "at" only with a "dot" word: "sold at auction.com" stays).
_AT, _DOT = r"\s*[(\[{]\s*at\s*[)\]}]\s*", r"\s*(?:[(\[{]\s*dot\s*[)\]}]|\.)\s*"
_OBFUSCATED_EMAIL = re.compile(
    rf"(?i)(?<![\w.+-])[\w.+-]+(?:{_AT}[\w-]+(?:{_DOT}[\w-]+)+"
    r"|\s+at\s+(?!(?:the|a|an|this|that)\b)[\w-]+(?:\s+dot\s+[\w-]+)+)(?![\w-])"
)
# An address with spaces around its "@" and dots ("jane @ example . com"): the top-level domain must be letters.
_SPACED_EMAIL = re.compile(r"(?i)(?<![\w.+-])[\w.+-]+\s*@\s*[\w-]+(?:\s*\.\s*[\w-]+)*\s*\.\s*[a-z]{2,24}(?![\w-])")
# "%40" (a URL-encoded "@", as in "mailto:jane%40example.com") between the parts of an address.
_ENCODED_AT = re.compile(r"(?i)(?<=[\w.+-])%40(?=[\w-])")
# A US number written as one run of digits ("2125550143", "12125550143") after a word that says it is one:
# a bare ten-digit run is otherwise an amount ("4200000000"), which stays.
_LABELLED_US_PHONE = re.compile(
    r"(?i)\b((?:phone|tel|telephone|call|mobile|cell|cellphone|fax|contact|reach|text|sms|whatsapp|ph|dial)"
    r"(?:\s*(?:no\.?|number|nr\.?|#))?\b[\s:#.=-]*(?:(?:me|him|her|them|us|at|on)\s+)*)(\+?1?\d{10})(?![\w]|[.,]\d)"
)
# UK NINO: two letters, three pairs of digits and a suffix A-D. The prefixes HMRC never issues (QQ, the one its own
# examples use, and the other invalid ones) are caught too (issue 41: "QQ123456C" got through): a number written in
# that shape is meant as one. Upper or lower case, the groups joined by one kind of space, dash or dot.
_NINO = re.compile(r"(?i)\b[A-Z]{2}([ .-]?)\d{2}\1\d{2}\1\d{2}\1[A-D]\b")
# A number after an identity-document label: "Passport no. X1234567", "ID number: 12 345 678".
_LABELLED_ID = re.compile(
    r"(?i)\b((?:passport|national[ -]?id(?:entity)?|identity(?: card)?|id[ -]?card|personal id|tax id"
    r"|social security|driver'?s licen[cs]e|nino|ssn|id)"
    r"(?:\s*(?:no\.?|number|nr\.?|#))?\s*[:#]?\s*)"
    r"(?=[A-Z0-9 -]*\d)([A-Z0-9](?:[A-Z0-9]|[ -](?=[A-Z0-9])){4,24})(?![\w])"
)
# "ID" alone is too common ("sheet ID 4"): it needs "no.", "number", "#" or "nr." to count as a label.
_BARE_ID_LABEL = re.compile(r"(?i)^id\s*[:#]?\s*$")

# Phone-shaped text: an optional "+cc" / "00cc" prefix, an optional "(area)", then 2-6 digit groups
# joined by one space (or a PDF line break), dash or dot; or "+" and 7-15 digits in one run.
_PHONE = re.compile(
    r"(?<![\w+.,/-])(?:"
    r"\+\d{7,15}"
    r"|(?:(?:\+|00)\d{1,3}[ \n.-]?)?(?:\(\d{1,5}\)[ \n.-]?)?\d{1,5}(?:[ \n.-]\d{1,8}){1,5}"
    r"|(?:(?:\+|00)\d{1,3}[ \n.-]?)?\(\d{1,5}\)[ \n.-]?\d{3,10}"
    r")(?![\w]|[.,/-]\d)"
)
_DAY, _MONTH = r"(?:0?[1-9]|[12]\d|3[01])", r"(?:0?[1-9]|1[0-2])"
# A date anywhere in the candidate (ISO, day-first, month-first): "01.01.1900 0" is a date and a number.
_DATE = re.compile(
    rf"(?<!\d)(?:{YEAR_DIGITS}[-./]{_MONTH}[-./]{_DAY}|{_DAY}[-./]{_MONTH}[-./](?:\d{{4}}|\d\d)"
    rf"|{_MONTH}[-./]{_DAY}[-./](?:\d{{4}}|\d\d))(?!\d)"
)
# National formats checked for numbers without a country prefix. Outside North America a national
# number starts with its trunk prefix 0, which sets it apart from amounts written with spaces.
_NATIONAL_REGIONS = ("GB", "DE", "FR", "NL", "IT", "IE", "BE", "AT", "CH", "ES")


# (first digits, lengths) of the card networks: Visa, Mastercard, Amex, Diners, JCB, Discover, UnionPay.
_NETWORKS: tuple[tuple[tuple[str, ...], range], ...] = (
    (("4",), range(13, 20)),
    (("51", "52", "53", "54", "55", *(str(n) for n in range(2221, 2721))), range(16, 17)),
    (("34", "37"), range(15, 16)),
    (("300", "301", "302", "303", "304", "305", "36", "38", "39"), range(14, 20)),
    (("35",), range(16, 20)),
    (("6011", "644", "645", "646", "647", "648", "649", "65", "62"), range(16, 20)),
)


def _is_card(digits: str) -> bool:
    """A card network's prefix and length, and a valid Luhn check digit."""
    return any(digits.startswith(prefixes) and len(digits) in lengths for prefixes, lengths in _NETWORKS) and (
        luhn.is_valid(digits)
    )


def _cards(text: str) -> str:
    def sub(match: re.Match[str]) -> str:
        found = match.group(0)
        parts = re.split(r"([ \n.-])", found)
        groups, seps = parts[::2], parts[1::2]
        if len(groups) == 1:
            return "[card]" if _is_card(found) else found
        # A card may be followed by more digits ("4111 1111 1111 1111 12/26"): try the longest printed form.
        for k in range(len(groups), 2, -1):
            lengths = ",".join(str(len(g)) for g in groups[:k])
            one_kind = len({sep if sep in "-." else " " for sep in seps[: k - 1]}) == 1
            if one_kind and _CARD_GROUPS.match(lengths) and _is_card("".join(groups[:k])):
                return (
                    "[card]"
                    + "".join(seps[k - 1 : k])
                    + "".join(p for pair in zip(groups[k:], [*seps[k:], ""], strict=False) for p in pair)
                )
        return found

    return _CARD.sub(sub, text)


def _ibans(text: str) -> str:
    def sub(match: re.Match[str]) -> str:
        found = match.group(0)
        parts = re.split(r"([ \n.-])", found)
        groups, seps = parts[::2], parts[1::2]
        # The regex may run on into a following word ("... 3000 AND"): keep the longest valid prefix.
        for k in range(len(groups), 0, -1):
            candidate = "".join(groups[:k]).upper()
            if 15 <= len(candidate) <= 34 and _iban.is_valid(candidate):
                return "[iban]" + "".join(p for pair in zip(seps[k - 1 :], groups[k:], strict=False) for p in pair)
        return found

    return _IBAN.sub(sub, text)


def _labelled_ids(text: str) -> str:
    def sub(match: re.Match[str]) -> str:
        label, value = match.group(1), match.group(2)
        if _BARE_ID_LABEL.match(label) or sum(c.isdigit() for c in value) < 4:
            return match.group(0)
        # The number ends with its last group holding a digit: "X1234567 in the room" keeps " in the room".
        words = re.split(r"([ -])", value)
        last = max(i for i, word in enumerate(words) if any(c.isdigit() for c in word))
        return f"{label}[national id]" + "".join(words[last + 1 :])

    return _LABELLED_ID.sub(sub, text)


_US_PHONE = re.compile(r"^(?:1[-.])?(?:\d{3}([-.])\d{3}\1\d{4}|\(\d{3}\) ?\d{3}[-.]\d{4})$")


def _is_phone(found: str) -> bool:
    """A phone number written as people write them, and valid for its country.

    International: "+" or "00" and the country code. National with a trunk prefix 0 (most of Europe):
    "020 7946 0958", "01 42 68 53 00", at least 9 digits. North American: 415-555-2671, 415.555.2671,
    (415) 555-2671. Groups of digits joined by spaces alone are otherwise amounts ("450 230 1200").
    """
    candidate = found.replace("\n", " ")  # a PDF line may wrap inside a number
    digits = re.sub(r"\D", "", candidate)
    if not 7 <= len(digits) <= 15 or _DATE.search(candidate):
        return False
    try:
        if candidate.startswith("+"):
            # A "+" and a country code say it is a phone number: one of a range kept out of service (the UK's
            # "+44 7700 900123", used in examples and fiction) is still caught when its length is possible there.
            return phonenumbers.is_possible_number(phonenumbers.parse(candidate, None))
        if candidate.startswith("00"):
            return phonenumbers.is_valid_number(phonenumbers.parse("+" + candidate[2:], None))
        if digits[0] == "0":
            first_group = re.match(r"\(?(\d+)", candidate)
            one_separator = len(set(re.findall(r"[ .-]", candidate.replace(") ", ")")))) <= 1
            if len(digits) < 9 or first_group is None or len(first_group.group(1)) < 2 or not one_separator:
                return False
            return any(phonenumbers.is_valid_number(phonenumbers.parse(candidate, r)) for r in _NATIONAL_REGIONS)
        return bool(_US_PHONE.match(candidate)) and phonenumbers.is_valid_number(phonenumbers.parse(candidate, "US"))
    except phonenumbers.NumberParseException:
        return False


def _us_run(match: re.Match[str]) -> str:
    digits = match.group(2).lstrip("+")
    if len(digits) == 11 and digits[0] != "1":
        return match.group(0)
    try:
        valid = phonenumbers.is_valid_number(phonenumbers.parse(digits[-10:], "US"))
    except phonenumbers.NumberParseException:
        valid = False
    return match.group(1) + "[phone]" if valid else match.group(0)


def _phones(text: str) -> str:
    text = _LABELLED_US_PHONE.sub(_us_run, text)
    return _PHONE.sub(lambda m: "[phone]" if _is_phone(m.group(0)) else m.group(0), text)


def redact(text: str) -> str:
    """`text` with emails, phone numbers, card numbers, IBANs and national IDs replaced by typed placeholders."""
    if not text:
        return text
    text = _ENCODED_AT.sub("@", text.translate(_FOLD))
    text = _EMAIL.sub("[email]", text)
    text = _OBFUSCATED_EMAIL.sub("[email]", text)
    text = _SPACED_EMAIL.sub("[email]", text)
    text = _ibans(text)
    text = _cards(text)
    text = _SSN.sub("[national id]", text)
    text = _NINO.sub("[national id]", text)
    text = _labelled_ids(text)
    return _phones(text)


def redact_json(text: str, key: str) -> str:
    """A JSON object's text with every string under `key` redacted (e.g. the room schema sent to a model)."""
    data = json.loads(text)
    data[key] = _redact_strings(data[key])
    return json.dumps(data, ensure_ascii=False)


def _redact_strings(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, list):
        return [_redact_strings(v) for v in value]
    if isinstance(value, dict):
        return {k: _redact_strings(v) for k, v in value.items()}
    return value


_Content = TypeVar("_Content", bound=BaseModel)


def redact_evidence(evidence: Sequence[_Content]) -> list[_Content]:
    """Copies of evidence items (anything with a `content` text) with their content redacted."""
    return [item.model_copy(update={"content": redact(item.content)}) for item in evidence]  # type: ignore[attr-defined]


def redact_citation(citation: dict[str, Any], *, seen: Sequence[tuple[str, str]] = ()) -> dict[str, Any]:
    """A citation's JSON with the document text it carries (`quote`, `value`) redacted, for the query log."""
    return {
        k: redact_stored(v, seen=seen) if k in ("quote", "value") and isinstance(v, str) else v
        for k, v in citation.items()
    }


# A bare nine-digit run in the SSN's issued ranges. Only stored copies (the log, titles) look for it: document text
# sent to a model is full of nine-digit amounts, which a stored copy may lose (the user and the documents keep them).
# Not after a currency sign or code, nor before one or a scale word.
_BARE_SSN = re.compile(
    r"(?<![\w.,$€£¥-])(?<![$€£¥] )(?<!(?i:usd|eur|gbp) )(?!000|666|9\d\d)\d{3}(?!00)\d{2}(?!0000)\d{4}"
    r"(?![\w-]|[.,]\d|\s*(?i:%|usd|eur|gbp|dollars|euros|pounds|million|m\b|k\b|bn\b))"
)
_PLACEHOLDER = re.compile("|".join(re.escape(p) for p in PLACEHOLDERS))


def caught(text: str) -> list[tuple[str, str]]:
    """The values `redact` replaces in `text`, with their placeholders: what else stored beside it must not keep
    (an answer that repeats a passport number without its label, an IBAN the answer writes with dashes)."""
    original = _ENCODED_AT.sub("@", text.translate(_FOLD))
    redacted = redact(text)
    found, start = [], 0
    # Walk the redacted copy: between placeholders the text is the original's, so each placeholder stands for the
    # original's text up to where the next unchanged part begins.
    pieces = _PLACEHOLDER.split(redacted)
    holders = _PLACEHOLDER.findall(redacted)
    for index, holder in enumerate(holders):
        before, after = pieces[index], pieces[index + 1]
        start = original.index(before, start) + len(before) if before else start
        end = original.find(after, start) if after else len(original)
        found.append((original[start:end].strip(), holder))
        start = end
    return [(value, holder) for value, holder in found if sum(c.isalnum() for c in value) >= 5]


def _value_pattern(value: str) -> re.Pattern[str]:
    """`value` however it is written again: any case, its letters and digits joined by spaces, dashes or dots."""
    characters = [re.escape(c) for c in value if c.isalnum()]
    return re.compile(r"(?i)(?<![\w])" + r"[ .\n-]?".join(characters) + r"(?![\w])")


def redact_stored(text: str, *, seen: Sequence[tuple[str, str]] = ()) -> str:
    """The copy of `text` that is stored (questions, answers, plan steps, citation values, conversation titles): every
    detector of `redact`, bare nine-digit SSNs, and the values `seen` (`caught` in the question) however written."""
    if not text:
        return text
    text = _BARE_SSN.sub("[national id]", redact(text))
    for value, holder in seen:
        text = _value_pattern(value).sub(holder, text)
    return text
