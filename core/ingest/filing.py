"""What a filing is: its company, form and fiscal period, read from its first pages and its file name.

Pure: text in, a `Filing` out. The pipeline reads every PDF with it at ingestion and stores the result as
columns of `documents`; an editor corrects them (`workbench documents --edit`). What is read, in order of trust:

* **form**: the cover's "FORM 10-K" (10-Q, 8-K), else the report it says it is ("QUARTERLY REPORT PURSUANT TO
  SECTION 13 ..."), else a release's headline ("Acme Reports Fourth-Quarter Results", "press release"), else
  the file name's words (`ACME_2022_10K.pdf`, `acme-q3-earnings.pdf`), else "annual report" when the first
  page says so, else "other".
* **period end**: the date after "for the fiscal year ended", "for the quarterly period ended", "quarter
  ended", "three months ended" (first pages, first found).
* **fiscal year**: as the cover's convention states it ("fiscal 2022 ended January 28, 2023", "the fiscal year
  ended January 28, 2023 ("fiscal 2022")"); else the year a cover or headline names ("fourth quarter and
  full-year 2022", "Q2 FY2024", "fiscal 2023"), then the file name's year, when that year can be the period
  end's fiscal year (a year ending by June may be named by the year it began; a quarter may fall in a fiscal
  year ending the next calendar year); else the period end's calendar year; without a period end, the named year.
* **fiscal quarter**: a quarterly filing's or release's words ("second quarter", "Q2 2023"), else the file
  name's ("2024Q2"); an annual filing has none.
* A current report (8-K) has a period only when its words name one ("second-quarter 2023 results"): the year of
  its file name dates the event it reports.
* A document that is no filing (form "other") takes its period from its file name alone, and no company: the
  years its prose names are not periods of its own.
* **company**: the cover line above "(Exact name of registrant as specified in its charter)", else the name
  before a release's "reports"/"announces", else a first-page line ending in a corporate suffix ("Inc."),
  else (a filing's) file name's words before its year.

Examples in tests/unit/test_filing.py use invented companies.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from pathlib import Path

from core.errors import BadInput
from core.lexicon.filings import (
    COMPANY_SUFFIXES,
    FORM_NAME_WORDS,
    FORMS,
    QUARTER_ORDINALS,
    REPORT_KINDS,
    SEC_FORMS,
)
from core.lexicon.periods import FISCAL_PREFIX, MONTH_NUMBERS, WRITTEN_DATE, YEAR_DIGITS
from core.models import Filing, period_label

__all__ = [
    "FORMS",
    "Filing",
    "filing_changes",
    "fiscal_header",
    "name_words",
    "parse_period",
    "period_label",
    "read_company",
    "read_filing",
    "read_form",
]

# How much of the first pages is read: covers and headlines are at the top.
FIRST_PAGES = 3
FIRST_CHARS = 8000

# "January 28, 2023", "Jan. 28 2023", "28 January 2023"
DATE = WRITTEN_DATE
_DATE = re.compile(DATE, re.IGNORECASE)
_FORM = re.compile(r"\bFORM\s+(" + "|".join(SEC_FORMS) + r")\b")
_REPORT = re.compile(r"\b(" + "|".join(REPORT_KINDS) + r")\s+REPORT\s+PURSUANT\b", re.IGNORECASE)
_QUARTER_WORD = "|".join(QUARTER_ORDINALS)
# A release's headline: "Acme Tools Reports Fourth-Quarter and Full-Year 2022 Results".
_RELEASE = re.compile(
    r"\b(?:reports?|announces?|reported|posts?|delivers?)\b[^.\n]{0,80}?\bresults\b|\bpress release\b"
    r"|\bearnings release\b",
    re.IGNORECASE,
)
_ENDED = re.compile(
    rf"\b(?:fiscal\s+year|year|quarterly\s+period|quarter|period|three\s+months|twelve\s+months|"
    rf"(?:thirteen|fourteen|twelve|fifty-two|fifty-three|52|53|13|14)[-\s]weeks?)\s+(?:ended|ending)[:\s]+{DATE}",
    re.IGNORECASE,
)
# "fiscal 2022 ended January 28, 2023", "fiscal year 2022, which ended on January 28, 2023"
_CONVENTION = re.compile(
    rf"\bfiscal\s+(?:year\s+)?(?P<fy>{YEAR_DIGITS})\b,?\s+(?:which\s+|that\s+)?(?:ended|ends|ending)\s+"
    rf"(?:on\s+)?{DATE}",
    re.IGNORECASE,
)
# "fiscal year ended January 28, 2023 ("fiscal 2022")"
_CONVENTION_AFTER = re.compile(
    rf"\b(?:fiscal\s+)?year\s+ended\s+{DATE}\s*\(\s*[\"“”']?\s*fiscal\s+(?:year\s+)?(?P<fy>{YEAR_DIGITS})\b",
    re.IGNORECASE,
)
# "fourth quarter and full-year 2022", "second-quarter 2023", "third quarter of fiscal 2023", "Q2 FY2024", "Q3 2023"
_QUARTER = re.compile(
    rf"\b(?:(?P<ord>{_QUARTER_WORD})[-\s]quarter|q(?P<q>[1-4]))\b[^.\n]{{0,30}}?"
    rf"\b{FISCAL_PREFIX}?(?P<year>{YEAR_DIGITS})\b",
    re.IGNORECASE,
)
_FISCAL_YEAR = re.compile(
    rf"\b(?:{FISCAL_PREFIX}|full[-\s]year\s+)(?P<year>{YEAR_DIGITS})\b",
    re.IGNORECASE,
)
_REGISTRANT = re.compile(r"\(\s*exact\s+name\s+of\s+registrant", re.IGNORECASE)
_SUFFIX = "|".join(re.escape(s) for s in COMPANY_SUFFIXES)
_COMPANY_LINE = re.compile(rf"^(?P<name>[A-Z0-9][\w&.,'’ -]{{0,70}}?\b(?i:{_SUFFIX})\b\.?)\s*$")
# Lines of a cover that end like a company's name but name a stock exchange or a market.
_NOT_COMPANY = re.compile(r"\b(?:exchange|market|nasdaq)\b", re.IGNORECASE)
_RELEASE_NAME = re.compile(
    r"^(?P<name>(?:[A-Z0-9][\w&.'’-]*,?\s+){0,5}?[A-Z0-9][\w&.'’-]*)\s+"
    r"(?i:reports?|announces?|reported|posts?|delivers?)\b"
)
_FILE_QUARTER = re.compile(rf"(?:(?<=[\W_])|^|(?<=\d))q(?P<q>[1-4])(?:(?=[\W_])|$|(?={YEAR_DIGITS}))", re.IGNORECASE)
_FILE_YEAR = re.compile(rf"(?<!\d)({YEAR_DIGITS})(?!\d)")


_LABEL = re.compile(
    rf"^\s*(?:q(?P<q>[1-4])\s*(?:fy\s?'?)?|(?:fy|fiscal(?:\s+year)?)\s*'?)?\s*(?P<year>{YEAR_DIGITS}|\d\d)\s*$",
    re.IGNORECASE,
)


def parse_period(text: str) -> tuple[int, int | None] | None:
    """(fiscal year, quarter or None) of a period label: "FY2022", "fiscal 2022", "2022", "Q3 FY2023", "Q3 2023",
    "FY23"; None when `text` is not one."""
    m = _LABEL.match(text)
    if not m:
        return None
    year = m.group("year")
    return (int(year) if len(year) == 4 else 2000 + int(year)), (int(m.group("q")) if m.group("q") else None)


def _date(m: re.Match[str]) -> date | None:
    month = m.group("month") or m.group("month2")
    day = m.group("day") or m.group("day2")
    year = m.group("year") or m.group("year2")
    try:
        return date(int(year), MONTH_NUMBERS[month.lower().rstrip(".")], int(day))
    except (ValueError, KeyError):
        return None


def _squash(text: str) -> str:
    return re.sub(r"[ \t\u00a0]+", " ", text)


_SEC_FORM_IN_NAME = re.compile(r"(?<![a-z0-9])(10|8)[-_ ]?([kq])(?![a-z0-9])", re.IGNORECASE)


def name_words(filename: str, *, case: bool = False) -> list[str]:
    """The words of a file name: `ACME_2023Q2_10-K.pdf` -> acme, 2023, q2, 10k (a year and a quarter written
    together are two words; a form's number and letter are one)."""
    stem = _SEC_FORM_IN_NAME.sub(lambda m: f" {m.group(1)}{m.group(2)} ", Path(filename).stem)
    stem = re.sub(rf"(?<!\d)({YEAR_DIGITS})(?=q[1-4])", r"\1 ", stem, flags=re.IGNORECASE)
    words = [w for w in re.split(r"[\W_]+", stem) if w]
    return words if case else [w.lower() for w in words]


def read_form(text: str, filename: str) -> str:
    """The form: cover, report kind, release headline, file name, "annual report" on the cover, else "other"."""
    first_page = text[:3000]
    if m := _FORM.search(first_page):
        return m.group(1)
    if m := _REPORT.search(first_page):
        return REPORT_KINDS[m.group(1).lower()]
    if _RELEASE.search(first_page):
        return "earnings release"
    words = set(name_words(filename))
    for form, form_words in FORM_NAME_WORDS.items():
        if words & set(form_words):
            return form
    if re.search(r"\bannual\s+report\b", first_page, re.IGNORECASE):
        return "annual report"
    return "other"


def _convention(text: str) -> tuple[int, date | None, str] | None:
    for pattern in (_CONVENTION, _CONVENTION_AFTER):
        if m := pattern.search(text):
            return int(m.group("fy")), _date(m), " ".join(m.group(0).split())
    return None


def _period_end(text: str) -> date | None:
    for m in _ENDED.finditer(text):
        found = _date(m)
        if found is not None:
            return found
    return None


def _stated_period(text: str, form: str) -> tuple[int | None, int | None]:
    """(fiscal year, quarter) a cover or headline names: "fourth quarter and full-year 2022", "Q2 FY2024"."""
    quarter_allowed = form not in ("10-K", "annual report")
    if quarter_allowed and (m := _QUARTER.search(text[:3000])):
        number = QUARTER_ORDINALS[m.group("ord").lower()] if m.group("ord") else int(m.group("q"))
        return int(m.group("year")), number
    if m := _FISCAL_YEAR.search(text[:3000]):
        return int(m.group("year")), None
    return None, None


def _file_period(filename: str) -> tuple[int | None, int | None]:
    stem = Path(filename).stem
    year = _FILE_YEAR.search(stem)
    quarter = _FILE_QUARTER.search(stem)
    return (int(year.group(1)) if year else None), (int(quarter.group("q")) if quarter else None)


def read_company(text: str, filename: str, *, release: bool = False, filing: bool = True) -> str | None:
    """The company: the registrant's line, a release's subject, a first-page line with a corporate suffix, or the
    file name's words before its first figure (only when the document is a `filing`: a memo's name names no
    company). A release's subject is read only when `release`."""
    lines = [line.strip() for line in text[:4000].splitlines() if line.strip()]
    for i, line in enumerate(lines):
        if _REGISTRANT.search(line):
            before = _REGISTRANT.split(line)[0].strip()
            name = before or (lines[i - 1] if i else "")
            if name and len(name) <= 80:
                return name.rstrip(" ,")
    for line in lines[:12] if release else ():
        if m := _RELEASE_NAME.match(line):
            return m.group("name").rstrip(" ,")
    for line in lines[:40]:
        if (m := _COMPANY_LINE.match(line)) and not _NOT_COMPANY.search(line):
            return m.group("name").rstrip(" ,")
    words: list[str] = []
    for word in name_words(filename, case=True) if filing else ():
        if re.search(r"\d", word) or word.lower() in _FORM_WORDS:
            break
        words.append(word)
    return " ".join(words) or None


_FORM_WORDS = {w for ws in FORM_NAME_WORDS.values() for w in ws} | {"form", "report", "filing"}


def _fiscal_year(quarterly: bool, period_end: date | None, stated: int | None, named: int | None) -> int | None:
    """The fiscal year without a stated convention: the year the cover or headline names, else the file name's,
    when it can be the period end's fiscal year (a year ending by June may be named by the year it began; a
    quarter's year may end the next calendar year); else the period end's calendar year."""
    if period_end is None:
        return stated or named
    if quarterly:  # a quarter's fiscal year may be named by the calendar year before or after its end
        candidates = {period_end.year - 1, period_end.year, period_end.year + 1}
    else:
        candidates = {period_end.year, period_end.year - 1} if period_end.month <= 6 else {period_end.year}
    return next((year for year in (stated, named) if year in candidates), period_end.year)


def read_filing(pages: Sequence[str], filename: str) -> Filing:
    """The filing's company, form and period from its first pages' text and its file name (see the module)."""
    text = _squash("\n".join(pages[:FIRST_PAGES])[:FIRST_CHARS])
    form = read_form(text, filename)
    convention = _convention(text)
    period_end = _period_end(text)
    stated_year, stated_quarter = _stated_period(text, form)
    file_year, file_quarter = _file_period(filename)
    quarterly = form not in ("10-K", "annual report")
    if form == "8-K":  # a current report's name dates the event it reports, not a fiscal period
        file_year, file_quarter = None, None
    convention_words: str | None = None
    fiscal_year: int | None
    if form == "other":  # no filing: a year its prose names is no period of its own; only its name's
        fiscal_year, quarter = file_year, file_quarter if file_year else None
        return Filing(form=form, fiscal_year=fiscal_year, fiscal_quarter=quarter, period_end=period_end)
    if convention is not None:
        fiscal_year, end, convention_words = convention
        period_end = period_end or end
    else:
        fiscal_year = _fiscal_year(quarterly, period_end, stated_year, file_year)
    quarter = stated_quarter or file_quarter
    assert form in FORMS
    return Filing(
        company=read_company(text, filename, release=form == "earnings release", filing=form != "other"),
        form=form,
        fiscal_year=fiscal_year,
        fiscal_quarter=quarter if quarterly and fiscal_year is not None else None,
        period_end=period_end,
        fiscal_convention=convention_words,
    )


def filing_changes(
    *,
    company: str | None = None,
    form: str | None = None,
    period: str | None = None,
    period_end: str | date | None = None,
) -> dict[str, object]:
    """An editor's corrections as the fields of a `Filing` (None: keep; "": clear); BadInput names what is wrong."""
    changes: dict[str, object] = {}
    if company is not None:
        changes["company"] = " ".join(company.split())[:200] or None
    if form is not None:
        folded = form.strip().lower()
        known = {f.lower(): f for f in FORMS}
        if folded and folded not in known:
            raise BadInput(f"{form!r} is not a form the workbench knows: use one of {', '.join(FORMS)}.")
        changes["form"] = known.get(folded)
    if period is not None:
        read = parse_period(period) if period.strip() else (None, None)
        if read is None:
            raise BadInput(f"{period!r} is not a period: write it as FY2022, Q3 FY2023 or fiscal 2022.")
        changes["fiscal_year"], changes["fiscal_quarter"] = read
    if period_end is not None:
        changes["period_end"] = _iso_date(period_end)
    return changes


def _iso_date(value: str | date) -> date | None:
    if isinstance(value, date) or not value.strip():
        return value if isinstance(value, date) else None
    try:
        return date.fromisoformat(value.strip())
    except ValueError:
        raise BadInput(f"{value!r} is not a date: write the period end as YYYY-MM-DD (2023-01-28).") from None


# How near a column's date must be to the cover's period end (in its own year) to be a fiscal year's end: a 52-53
# week year ends on a weekday nearest a month end, a day or six apart from year to year.
_YEAR_END_SLACK = 10


def fiscal_header(name: str, filing: Filing) -> str:
    """A statement column headed by a fiscal year's last day, named as the filing names its fiscal years, when it
    names them by the year they began: a retailer whose "fiscal 2022 ended January 28, 2023" heads its balance
    sheet "January 28, 2023" and "January 29, 2022": those columns are "Fiscal 2022" and "Fiscal 2021" (read as
    dates, "2023" and "2022", a question's fiscal 2022 took the prior year's column). Any other header, or a
    filing naming its years by the year they end, is kept."""
    end = filing.period_end
    if end is None or filing.fiscal_year is None or filing.fiscal_quarter is not None:
        return name
    if filing.fiscal_year != end.year - 1 or not (m := _DATE.fullmatch(name.strip().rstrip(","))):
        return name
    day = _date(m)
    if day is None:
        return name
    try:
        anchor = end.replace(year=day.year)
    except ValueError:  # February 29
        anchor = end.replace(year=day.year, day=28)
    if abs((day - anchor).days) > _YEAR_END_SLACK:
        return name
    return f"Fiscal {day.year - 1}"
