"""The words and patterns the cell rules read a question (and a grid's labels) with, in one place.

Every word list and regular expression of the statement-grid reader lives here, so that a shared lexicon can
take them over in one move. What the planner and the execution both read (the words of a label, the stop words,
a split fiscal year) stays in core.retrieval.cellmath, below both.
"""

from __future__ import annotations

import re

from core.lexicon.numbers import SCALE_WORDS
from core.lexicon.periods import MONTHS, YEAR_DIGITS
from core.retrieval.cellmath import Operation

# "thousands?|millions?|billions?": the scale words, singular or plural.
_SCALE_PLURALS = "|".join(f"{w}s?" for w in SCALE_WORDS)

# Words of the question that ask for arithmetic rather than name the line item (or anything else).
OPERATION_WORDS = frozenset(
    "change changes increase increased decrease decreased difference growth percentage percent average mean "
    "sum combined largest highest larger higher greatest most lowest smaller least lower smallest less "
    "more greater variance".split()
)
# A relative change, however it is asked: "percentage change", "grew by what percent", "in percentage terms".
# ("The change in the gross margin percentage" is a change of a percentage line: points, not this.)
PCT = re.compile(
    r"percent(?:age)?\s+(?:change|increase|decrease|growth|difference)|%\s*change|"
    r"change\s*\(%\)|change\s+in\s+percent|growth\s+rate|rate\s+of\s+(?:change|growth)"
)
# Looser wordings: relative for amounts, but "how many percent did the rate change" of a line of percentages
# asks for the difference in points.
PCT_LOOSE = re.compile(
    r"\bby\s+what\s+(?:percent(?:age)?|%)|\bin\s+(?:percent(?:age)?|%)(?:\s+terms)?(?:\s*[?.]|$)|"
    r"\bwhat\s+(?:percent(?:age)?|%)\s+(?:did|has|have|was|were)\b|\bhow\s+(?:much|many)\s+percent"
)
# Words that ask for a change between periods, in every tense a question uses.
CHANGE_WORDS = (
    "change changed increase increased decrease decreased difference grow grew growth rise rose fall fell drop "
    "variance"  # "the product revenue variance for 2019 vs 2018": a change, as management's discussion says
)
CHANGE = re.compile(rf"\b(?:{'|'.join(CHANGE_WORDS.split())}|dropped|declin\w*)\b")
# A change asked as how much the line fell (`CellsStep.decrease`): "how much did fees decrease by", "the decline in
# fees from 2021 to 2022". A word of a signed move beside it keeps the later figure minus the earlier ("the
# increase/(decrease) in fees", "the change in fees").
DECREASE_ASKED = re.compile(r"\b(?:decrease[ds]?|declin(?:e|ed|es)|f[ae]ll(?!\s+due)|dropped|drop)\b")
# A change asked as a rise: "the increase in fees", "how much did fees grow".
RISE_ASKED = re.compile(r"\b(?:increase[ds]?|rise|rose|grow|grew|growth)\b")
SIGNED_CHANGE = re.compile(
    r"\b(?:change[sd]?|increase[sd]?|grow|grew|growth|rise|rose|variance|net|movements?)\b|\(decrease\)"
)
# ("the weighted-average discount rate in 2021" names the rate a statement reports, averaged over its items, not an
# average over periods)
AVERAGE = re.compile(r"(?<!weighted\s)(?<!weighted-)\b(?:average|mean)\b")
SUM = re.compile(r"\b(?:sum|combined|in total|total of|altogether|aggregate)\b|\btotal\b.*\b(?:and|&)\b")
WHICH = re.compile(r"\b(?:which|what)\s+(?:year|period|fiscal year|fy|quarter|month)s?\b|\bin which\b")
# Two periods offered to choose from: "were fees higher in 2021 or 2022?" asks which of the two, as "which year".
EITHER_PERIOD = re.compile(rf"\b(?:fy\s*)?{YEAR_DIGITS}\s+or\s+(?:in\s+)?(?:fy\s*)?{YEAR_DIGITS}\b")
# "from 2017 to 2019", "between 2017-2019", "over the 3 years": every period in the span.
SPAN = re.compile(
    rf"(?:from|between|years?)\s+(?:fy\s*)?({YEAR_DIGITS})\s*(?:to|-|–|and|through)\s*(?:fy\s*)?({YEAR_DIGITS})|"
    rf"\b({YEAR_DIGITS})\s*[-–]\s*({YEAR_DIGITS})\b|"  # "for 2017-2019", "in 2017–2019": the span, not two years
    r"\b(?:three|3|four|4|five|5)[- ]years?\b"
)
# A line whose figure is already a rate, price, ratio or span of time, not a balance: "the average interest rate in
# 2021" or "the average useful life in 2021" is that year's figure, never the mean of its opening and closing
# ("long-term debt" is a balance).
INTENSIVE_LINE = re.compile(
    r"\b(?:rates?|ratios?|margins?|prices?|yields?|expectancy|ages?|per|percentage|percent|days|life|lives|duration|"
    r"multiples?|returns?|basis points)\b|(?<!long-)(?<!short-)(?<!long )(?<!short )\bterms?\b|%"
)
AVERAGE_OF_PERIODS = re.compile(
    rf"\b{YEAR_DIGITS}\s+average\b|"
    r"\baverage\s+(?:annual\s+|yearly\s+)?(?:change|increase|decrease|growth)\b"
)
YEAR_RANGE = re.compile(rf"\b{YEAR_DIGITS}\s*[-–]\s*(?:{YEAR_DIGITS}|\d\d)\b")
MAX = re.compile(r"\b(?:largest|highest|larger|higher|greatest|greater|most|more|biggest|bigger|maximum|peak)\b")
MIN = re.compile(r"\b(?:lowest|smaller|least|lower|smallest|less|fewer|minimum)\b")
TOTAL = re.compile(r"\btotal\b")
ABSOLUTE = re.compile(r"\babsolute\b")
# Questions a figure does not answer: a reason or a description ("What caused the increase in X?").
REASON = re.compile(
    r"\b(?:why|reasons?|caused?|causes|causing|led to|lead to|leads to|due to|driven|drivers?|attribut\w*|"
    r"because|explain\w*|describe\w*)\b"
    r"|\b(?:how|what)\s+(?:is|are|was|were)\s+(?:\w+\s+){1,4}(?:determined|calculated|measured|defined|computed)\b"
)
# A share of another line item ("X as a percentage of total Y", "the proportion of X over Y"): two lines.
PART_OF = re.compile(
    r"\b(?:ratio|proportion|constitution|fraction|portion)\b|\bas\s+an?\s+(?:percent(?:age)?|%|share)\s+of\b"
    r"|\b(?:percent(?:age)?|share)\s+of\s+(?!(?:the\s+)?(?:change|increase|decrease|growth|difference)\b)"
)
# "The difference between the northern and southern rates": two items of one period, not a change.
BETWEEN = re.compile(r"\bdifference\s+between\s+(.+?)\s+and\s+(.+?)(?=\s+(?:in|for|as|at|of|on)\b|[?.,]|$)")
# Two line items of one period, and which is the part: "A as a percentage of B", "the ratio of A to B",
# "what percentage of B was A", "the percentage of A in B". Each pattern names its operation and its part (A) and
# whole (B) groups; a percentage is a share (x100), a ratio or proportion a plain quotient.
ITEM_PATTERNS: tuple[tuple[re.Pattern[str], str, str, str], ...] = (
    (
        re.compile(
            r"^(?P<a>.+?)\s+as\s+an?\s+(?P<kind>percent(?:age)?|%|share|proportion|fraction|ratio)\s+(?:of|to)\s+(?P<b>.+)$"
        ),
        "kind",
        "a",
        "b",
    ),
    # "the percentage constitution of A among (or in) B": A's share of B
    (
        re.compile(
            r"\bpercent(?:age)?\s+(?:of\s+)?(?P<kind>constitution)\s+of\s+(?P<a>.+?)\s+(?:among|in|within)\s+"
            r"(?P<b>.+)$"
        ),
        "kind",
        "a",
        "b",
    ),
    (
        re.compile(
            r"\b(?P<kind>ratio|proportion|fraction|percent(?:age)?|%|share|portion)\s+of\s+(?P<a>.+?)\s+"
            r"(?:(?:to|over|against|versus|vs|relative\s+to)\b\.?|(?:in|within|among|out\s+of)\s+(?=(?:the\s+)?total\b))\s*"
            r"(?P<b>.+)$"
        ),
        "kind",
        "a",
        "b",
    ),
    (
        re.compile(
            r"\b(?P<kind>percent(?:age)?|%|proportion|share|portion|fraction)\s+of\s+(?P<b>.+?)\s+"
            r"(?:(?:is|was|are|were|that\s+(?:is|was|are|were))\s+)?(?:made\s+up\s+(?:of|by)|accounted\s+for\s+by|"
            r"represented\s+by|attributable\s+to|comprised\s+of|generated\s+(?:from|by)|derived\s+from|"
            r"contributed\s+by|(?:is|was|are|were)\s+from)\s+(?P<a>.+)$"
        ),
        "kind",
        "a",
        "b",
    ),
)
ITEM_FRACTION = frozenset({"ratio", "proportion", "fraction", "portion"})
COUNTED = re.compile(r"\bhow\s+many\s+(?:of\s+the\s+)?(?:years|periods|times|quarters)\b|\bin\s+how\s+many\b")
# "less than 600,000", "exceed $1,500 thousand", "above 50%": the test of a which-periods or how-many question.
THRESHOLD_AT = re.compile(
    r"\b(?P<op>less|lower|below|under|fewer|smaller|more|greater|higher|above|over|larger|exceed(?:ed|s|ing)?)"
    r"\s*(?:than\s*)?(?:\$\s*)?(?P<n>\d[\d,]*(?:\.\d+)?)\s*(?P<scale>" + _SCALE_PLURALS + r"|%)?"
)
BELOW = frozenset("less lower below under fewer smaller".split())
# "Answer in USD billions", "(in USD millions)", "in $ thousands": the unit the answer's amount is asked in.
ASKED_SCALE = re.compile(
    r"\bin\s+(?:(?:usd|us\$|\$|dollars?|eur|euros?|gbp|£|€)\s*)?(" + _SCALE_PLURALS.replace("?", "") + r")\b",
    re.IGNORECASE,
)
SCALES = re.compile(rf"\b({'|'.join(SCALE_WORDS)})s?\b")
# "Which periods does the table cover?", "For which years were lease costs reported?": the periods.
WHICH_PERIODS = re.compile(
    r"\b(?:which|what)\s+(?:are\s+the\s+)?(?:financial\s+|fiscal\s+)?(?:years?|periods?)(?:\(s\))?(?:'s?)?\s.*"
    r"\b(?:table|include[sd]?|shown|show|provided|provide|presented|covered|listed|available|calculated|recorded|"
    r"reported|computed|disclosed|given)\b"
)


DUE_RANGE = re.compile(
    r"\b(\d{1,2}|one|two|three|four|five|ten)\s*(?:-|–|to|and)\s*(\d{1,2}|one|two|three|four|five|ten)\s+years?\b"
)
DUE_BOUND = re.compile(
    r"\b(less|fewer|under|within|up to|more|over|after|greater)\s+(?:than\s+)?(\d{1,2}|one|two|three|four|five|ten)\s+"
    r"years?\b"
)


THRESHOLD = re.compile(r"\b(?:than\s*|(?:above|below|over|under|exceed\w*)\s+)\$?\d")  # "less than15,000"

NOISE_BRACKET = re.compile(
    r"(?:in\s+)?[$€£]?\s*(?:thousands|millions|billions|%|percent|unaudited|notes?\b.*|see\b.*|\d+[a-z]?)", re.I
)
# A line-item label must be found whole in the question; labels longer than this are never matched.
MAX_LABEL_WORDS = 12

# A column that states a share or a change of the period's amount, not the amount: "% of Total", "Change".
# (An opening balance restated on 1 January sits beside the year-end column of the year before: not its amount.)
SECONDARY = re.compile(
    r"%|\bpercent|\bchange\b|\bincrease\b|\bdecrease\b|\bvariance\b|\bvs\.?\b|\bjan(?:uary)?\.?\s+1\b(?!\d)|"
    r"(?<!\d)\b1\s+jan(?:uary)?\b",
    re.IGNORECASE,
)


# A day of a month in a header or a question ("January 26", "27 April", "Sept. 30"): the dated periods of a grid.
MONTH_DAY = re.compile(
    r"\b(?P<m1>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+(?P<d1>\d{1,2})\b(?!\d)|"
    r"\b(?P<d2>\d{1,2})\s+(?P<m2>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b",
    re.IGNORECASE,
)


# The word of "percentage change" (increase, decrease, difference) that names the operation, not a line.
PCT_ASKED = re.compile(r"\bpercent(?:age)?(?=\s+(?:change|increase|decrease|difference|growth)\b)")

# Words that make "A before B" another quantity than A or B: "income before income tax expense" is neither the
# Income line nor the income tax line.
QUALIFIERS = r"(?:before|after|excluding|excl|pre|ex|net\s+of)"

# "What are the parts of X", "What items does X consist of", "How many items are listed
# under X": the lines of a section (under its heading) or of a total (above its line).
PARTS = re.compile(
    r"^\s*(?:(?:what|which)\s+(?:are|were)\s+the\s+(?:\w+\s+)?(?:components|items|elements|constituents|parts)\s+"
    r"(?:(?:listed|included|recorded|shown)\s+)?(?:under|of|in|making\s+up|that\s+make\s+up)\s+(?P<x>.+?)"
    r"|what\s+(?:\w+\s+)?items\s+(?:does|do|did)\s+(?P<y>.+?)\s+consists?\s+of"
    r"|how\s+many\s+(?:\w+\s+)?(?:components|items|elements|parts)\s+(?:are\s+there\s+)?(?:under|of|in)\s+(?P<z>.+?)"
    r")\s*(?:in\s+the\s+table\s*)?[?.]?\s*$"
)
PARTS_GENERIC = frozenset("table".split())
# A question whose answer is a kind of line (a component, a segment) or a count of them, not a figure.
KIND_ASKED = re.compile(
    r"(?:\bwhat\s+(?:is|was|are|were)\s+the\s+(?:\w+\s+)?(?P<kind>(?:component|item|segment|region|country|"
    r"categor(?:y|ie)|source|element|department|division|product|customer)s?)\s+(?:that|which|with|whose)\b"
    r"|^\s*how\s+many\s+(?:\w+\s+)?(?P<counted>(?:component|item|segment|region|countr(?:y|ie)|categor(?:y|ie)|"
    r"source|element|type|department|division|line)s?)\b)"
)

# A column's unit ("RMB’Million", "$'000"): no word a question names its line by.
UNIT_WORD = re.compile(r"\S*?[’']?\s*\b(?:" + _SCALE_PLURALS + r"|'000)\b", re.IGNORECASE)

# What asks for the figures of two line items joined by "and": each, their total, their average.
LISTED: tuple[tuple[re.Pattern[str], Operation], ...] = (
    (re.compile(r"\brespective(?:ly)?\b"), "items_values"),
    (re.compile(r"\b(?:total|sum|combined|aggregate)\b"), "items_sum"),
    (re.compile(r"\b(?:average|mean)\b"), "items_average"),
)
# The words that frame such a question rather than name a line item or what the table is about.
LISTED_FRAME = frozenset(
    "respective respectively combined aggregate sum total average mean value values amount amounts figure figures "
    "number numbers balance balances due payable one two three four five ten".split()
)


SHARE_OF = re.compile(r"\b(?P<kind>percent(?:age)?|%|proportion|share|portion|fraction)\s+of\s+(?P<rest>.+)$")
# Verbs that join a part to its whole in a share question: "was accounted for by", "is made up of".
SHARE_VERBS = frozenset(
    "accounted made represented attributable comprised generated derived contributed came come constitute "
    "constituted consist consisted".split()
)


# Words a side of a two-item question may hold besides its line item's: articles of quantity, not other things.
ITEM_GENERIC = frozenset(
    "total amount value figure number balance company companys group fy fiscal year end ended period much many "
    "respectively as at of on for the in its their quarter month week half".split()
) | frozenset(MONTHS)


VERBS = {
    "value": "The value",
    "change": "The change",
    "pct_change": "The percentage change",
    "average": "The average",
    "sum": "The total",
    "argmax": "The period with the largest value",
    "argmin": "The period with the smallest value",
    "where": "The periods",
    "count_where": "The number of periods",
    "periods": "The periods",
    "share": "As a percentage:",
    "ratio": "The ratio of",
    "items_difference": "The difference between",
    "items_values": "The figures of",
    "items_sum": "The total of",
    "items_average": "The average of",
}
