"""Filings: the forms a company files or publishes, and the words that name a fiscal period.

Vocabulary only: core.ingest.filing reads a document's cover with it, and the planner reads a question's period.
"""

from __future__ import annotations

from core.lexicon.numbers import ORDINALS

# The forms a document is filed as, in the order they are shown. "other" is every document that is none of these.
FORMS = ("10-K", "10-Q", "8-K", "earnings release", "annual report", "other")
# The SEC forms as a cover writes them ("FORM 10-K"), and the words of a file name that name each form.
SEC_FORMS = ("10-K", "10-Q", "8-K")
FORM_NAME_WORDS: dict[str, tuple[str, ...]] = {
    "10-K": ("10k", "10-k"),
    "10-Q": ("10q", "10-q"),
    "8-K": ("8k", "8-k"),
    "earnings release": ("earnings", "release", "press"),
    "annual report": ("annual", "ar"),
}
# The report a cover says it is ("ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d)") -> its form.
REPORT_KINDS: dict[str, str] = {"annual": "10-K", "quarterly": "10-Q", "current": "8-K"}
# A fiscal quarter's ordinal word -> its number ("third quarter" is 3); "fourth" also names the last.
QUARTER_ORDINALS: dict[str, int] = {word: n for n, word in enumerate(ORDINALS[:4], start=1)}
# Words that name a whole fiscal year in a cover or a question ("full-year 2022", "fiscal 2022", "FY2022").
FISCAL_WORDS = ("fiscal year", "fiscal", "full year", "full-year", "financial year", "fy")
# Words of a corporate name's end ("Acme Tools, Inc."): a cover's line ending so names the company.
COMPANY_SUFFIXES = ("Inc", "Incorporated", "Corporation", "Corp", "Company", "Co", "Ltd", "Limited", "plc", "PLC",
                    "N.V", "S.A", "AG", "SE", "Holdings", "Group", "LLC", "L.P", "LP")  # fmt: skip
