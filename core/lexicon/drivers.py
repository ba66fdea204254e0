"""Drivers and directions: the words a filing gives a reason with, and the words a question asks one with.

Vocabulary only: core.qa.passage_spans reads the reason out of a sentence with it, core.qa.passage_drivers picks
the sentence that states what drove a line's change and reads a yes/no ("did X increase?") from a sentence
stating both figures.
"""

from __future__ import annotations

# Adverbs that qualify a cause ("primarily due to", "driven mainly by").
CAUSE_QUALIFIERS = ("primarily", "mainly", "largely", "partially", "partly", "principally", "mostly", "chiefly")
# The phrases a sentence gives its reason with, as regular-expression parts (one space: any whitespace).
CAUSE_PHRASES = (
    "due to",
    "because of",
    "because",
    "as a result of",
    r"driven (?:primarily |mainly |largely )?by",
    "attributable to",
    "resulting from",
    "owing to",
    r"reflect(?:s|ed|ing)?",
)
# Single words of those phrases, for a keyword search of the passages stating a reason (core/qa/service.py).
CAUSE_WORDS = ("due", "driven", "primarily", "mainly", "largely", "result", "reflect", "attributable", "because",
               "owing")  # fmt: skip
# Verbs of change a line's name stands just before when a sentence states its move ("Card Member loans increased
# 22 percent …"), for a phrase search of those sentences (core/qa/service.py).
MOVE_VERBS = ("increased", "decreased", "rose", "fell", "declined", "grew", "improved", "dropped")
# Nouns of change a line's name follows when a sentence names its move first ("The decrease in revenue was driven
# by …"), for the same phrase search.
MOVE_NOUNS = ("increase", "decrease", "decline", "rise", "growth", "reduction", "improvement", "drop", "fall")
# Further words a sentence stating a driver holds, though no reason starts at them ("led by", "offset by").
# "The primary factors that decreased the effective tax rate were …": the reason named after the move it made, the
# line the object of the factors' verb.
# "The components of the 3.1% revenue increase in fiscal 2027 were as follows: Comparable sales impact 2.6 % …": the
# move named after them, the rows of its table the reasons.
FACTORS_THAT = (r"factors?\s+that", r"factors?\s+which", r"components\s+of")
OTHER_DRIVER_PHRASES = (
    "led by",
    "on account of",
    "offset by",
    "contributed to",
    "primarily",
    "mainly",
    "largely",
    "which included",
    "held back by",
    "benefited from",
    # a move's own word before "impacted by" ("Growth was impacted by softer demand"); alone it names no cause of a
    # move ("SG&A was impacted by …" is how a line was affected, its move stated elsewhere)
    r"(?:growth|decline|increase|decrease)\s+(?:was|were|continues\s+to\s+be|continued\s+to\s+be)\s+impacted\s+by",
)
# Words naming the components a change is split into ("organic local-currency sales increased 2.6 percent, and
# foreign currency translation increased sales by 0.3 percent", "operational growth", "divestitures reduced sales").
COMPONENT_WORDS = frozenset(
    "organic operational translation currency acquisitions acquisition divestitures divestiture price pricing "
    "volume volumes mix".split()
)
# The words a question asks for a reason with ("What drove …", "Why did …", "… primarily due to?").
REASON_ASKED = (
    r"^\s*why\b",
    r"\bwhat\s+(?:caused|causes|led\s+to|drove|drives|resulted\s+in|contributed\s+to|explains?)\b",
    r"\b(?:due\s+to|attributable\s+to|reasons?\s+for|primarily\s+due|driven\s+by)\s*\??\s*$",
    r"\breasons?\b",
    r"\bdrivers?\s+(?:of|behind|for)\b",
)
# Verbs of change as a question asks a yes/no with them ("did X rise?"), by direction; "improve" is read with
# LOWER_IS_BETTER.
UP_VERBS = ("increase", "increased", "rise", "rose", "risen", "grow", "grew", "grown", "go up", "gone up", "climb",
            "climbed", "higher")  # fmt: skip
DOWN_VERBS = ("decrease", "decreased", "fall", "fell", "fallen", "decline", "declined", "drop", "dropped", "shrink",
              "shrank", "go down", "gone down", "lower")  # fmt: skip
BETTER_VERBS = ("improve", "improved", "improving", "get better", "getting better")
WORSE_VERBS = ("deteriorate", "deteriorated", "deteriorating", "worsen", "worsened", "worsening", "get worse",
               "getting worse")  # fmt: skip
# A line whose fall is an improvement: a question asking whether it "improved" is answered by a decrease.
LOWER_IS_BETTER = frozenset(
    "cost costs expense expenses loss losses debt borrowings liabilities leverage days churn impairment "
    "write-offs delinquencies defaults attrition turnover".split()
)
# A line whose rise is an improvement; a line in neither list gets its direction, never a "Yes"/"No" on
# "improving".
HIGHER_IS_BETTER = frozenset(
    "revenue revenues sales income profit profits earnings margin margins cash return returns eps ebitda ebit "
    "coverage liquidity equity backlog bookings".split()
)
# How a sentence sets the current figure against the prior one: "A compared with B", "A, up from B", "A versus
# B", "to A from B" (current first), and "from B to A" (prior first).
CURRENT_FIRST = (r"compared\s+(?:with|to)", r"(?:up|down)\s+from", "versus", r"vs\.?", "from", "against")
PRIOR_FIRST = ("to",)
# Words that scope a sentence to a part of the company: a driver of one segment's move is the company's only when
# the question asks of that part ("Domestic segment", "electronics-related businesses").
PART_WORDS = ("segment", "segments", "segment's", "business", "businesses", "division", "divisions", "unit", "units")
# Headings of a filing's discussion that open the whole company's part of it again after a segment's ("Consolidated
# Results", "Liquidity and Capital Resources", "Item 7A.", "Critical Accounting Estimates", "Non-GAAP Financial
# Measures"), as printed (capitalised, alone on a line).
WHOLE_COMPANY_HEADINGS = ("Consolidated", "Liquidity", r"Item\s+\d", "Critical Accounting", "Non-GAAP",
                          "Results of Operations", "Overview", "Financial Condition")  # fmt: skip
# Words making a line another measure than the one printed in the statements ("non-GAAP operating income",
# "adjusted EBITDA", "pro forma net sales"): a move of it is not the line's, unless the question asks it.
ADJUSTED_WORDS = ("non-GAAP", "adjusted", "pro forma", "as adjusted")
