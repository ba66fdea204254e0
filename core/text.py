"""Words and patterns that several modules read questions and answers with: one copy each.

Stop words are the words of a question that name nothing (articles, auxiliaries, question words); each reader
adds the words that are glue for its own job (the planner: "total", "average"; the cell arithmetic: "fiscal",
"year") to the common set here.  YEAR finds a calendar year inside text, MARKER a citation marker "[3]",
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
# A citation marker in an answer: "[3]" cites evidence item 3.
MARKER = re.compile(r"\[(\d+)\]")
# Characters Postgres text cannot hold (NUL, lone surrogates), dropped from what PDFs give.
BAD_CHARS = re.compile("[\x00\ud800-\udfff]")
