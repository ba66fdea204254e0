"""The measures analysts compute from statement line items: one registry, each a formula over named inputs.

`INPUTS`: an input's name -> the line-item wordings a statement prints it under (matched whole against a line's
label: "Total current liabilities" is current liabilities; "Current liabilities of discontinued operations" is
not). `MEASURES`: each measure's name, the wordings a question asks it by, its formula(s) over input names, its
kind (how the result is shown) and its convention (said in the answer).

A formula is a small expression over input names: `+ - * /` (a minus between spaces), brackets, numbers, and
two functions of a balance: `prior(x)` (the same line in the period before the one asked: the prior column)
and `avg(x)` (the average of the opening and closing balance: `(x + prior(x)) / 2`). A measure may list more
than one formula: the first whose inputs a statement holds is used ("gross profit / revenue", else
"(revenue - cost of sales) / revenue"). core.retrieval.formula parses and evaluates them.

Kinds: "percent" (the quotient times 100, shown with %), "ratio" (the quotient, two decimals), "days" (the
formula already multiplies by 365), "amount" (in the statement's unit).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from core.lexicon.finance import FIGURE_WORDINGS

MeasureKind = Literal["percent", "ratio", "days", "amount"]

# Input name -> the line-item wordings that print it. A wording is matched against a whole label (its words,
# singular, without stop words), so each form a statement prints is listed.
INPUTS: dict[str, tuple[str, ...]] = {
    "revenue": (*FIGURE_WORDINGS["revenue"], "sales", "net sales and revenue", "total net sales and revenue"),
    "cost of sales": (*FIGURE_WORDINGS["cost of goods sold"], "total cost of sales", "total cost of revenue",
                      "total cost of revenues", "cost of goods sold"),
    "gross profit": ("gross profit", "total gross profit"),
    "operating income": (*FIGURE_WORDINGS["operating income"], "operating income (loss)", "income from operations"),
    "net income": (*FIGURE_WORDINGS["net income"], "net income (loss)", "net earnings (loss)", "profit for the year"),
    "operating cash flow": (*FIGURE_WORDINGS["operating cash flow"], "net cash from operating activities",
                            "net cash provided by (used in) operating activities",
                            "net cash generated from operating activities", "cash generated from operations",
                            "net cash provided by operating activities"),
    "capital expenditure": FIGURE_WORDINGS["capital expenditure"],
    "current assets": ("current assets", "total current assets"),
    "current liabilities": ("current liabilities", "total current liabilities"),
    "inventory": FIGURE_WORDINGS["inventory"],
    "receivables": ("accounts receivable", "accounts receivable, net", "trade receivables", "receivables",
                    "trade and other receivables", "accounts receivable, less allowance"),
    "total assets": ("total assets",),
    "total equity": ("total equity", "total shareholders' equity", "total stockholders' equity",
                     "shareholders' equity", "stockholders' equity", "total shareholders' equity (deficit)"),
    "total debt": ("total debt", "total borrowings"),
    "interest expense": ("interest expense",),
    "income tax": ("provision for income taxes", "income tax expense", "income taxes", "income tax provision",
                   "provision for income tax", "income tax expense (benefit)", "income tax",
                   "provision for taxes on income", "provision for (benefit from) income taxes"),
    "pretax income": ("income before income taxes", "income before taxes", "earnings before income taxes",
                      "profit before tax", "income before provision for income taxes", "pretax income",
                      "income before income tax", "earnings before provision for taxes on income",
                      "earnings before income tax expense", "income before taxes on income",
                      "earnings before income tax expense and equity in income of affiliates",
                      "income before income taxes and equity in income of affiliates"),
    "dividends paid": FIGURE_WORDINGS["dividends paid"],
    # lines asked as a share of revenue ("the 3-year average SG&A as a % of revenue")
    "sg&a": (*FIGURE_WORDINGS["SG&A"], "SG&A expenses", "selling, general and administrative expense",
             "total selling, general and administrative expenses"),
    "depreciation and amortization": ("depreciation and amortization", "depreciation & amortization",
                                      "depreciation, depletion and amortization", "D&A",
                                      "depreciation and amortization of property and intangibles",
                                      "depreciation and amortization expense"),
    "research and development": FIGURE_WORDINGS["R&D"],
    # the other two totals of a cash flow statement (brackets are read without: "provided by (used in)")
    "investing cash flow": ("net cash provided by investing activities", "net cash used in investing activities",
                            "net cash used for investing activities", "net cash used by investing activities",
                            "net cash from investing activities", "net cash flows from investing activities",
                            "net cash flows used in investing activities", "total cash used in investing activities",
                            "total cash provided by investing activities", "cash used in investing activities",
                            "cash provided by investing activities"),
    "financing cash flow": ("net cash provided by financing activities", "net cash used in financing activities",
                            "net cash used for financing activities", "net cash used by financing activities",
                            "net cash from financing activities", "net cash flows from financing activities",
                            "net cash flows used in financing activities", "total cash used in financing activities",
                            "total cash provided by financing activities", "cash used in financing activities",
                            "cash provided by financing activities"),
    "accounts payable": ("accounts payable", "trade accounts payable", "accounts payable, trade",
                         "trade payables", "accounts payable and accrued liabilities"),
    # a definition's "PP&E" ("revenue / average PP&E") is the balance after depreciation, as analysts compute it
    "net property, plant and equipment": (*FIGURE_WORDINGS["net property, plant and equipment"], "PP&E", "PPE", "PPNE", "fixed assets",
                "net fixed assets"),
}  # fmt: skip

# Inputs a statement prints with the company's own name in the line, matched against the whole label (lower-cased,
# spaces collapsed) when no line is one of the input's wordings: "Net earnings attributable to Acme Tools, Inc.
# shareholders" is the parent's net income; the noncontrolling interests' share never is.
INPUT_LABELS: dict[str, re.Pattern[str]] = {
    "net income": re.compile(
        r"net (?:income|earnings)(?: \(loss\))? attributable to (?!.*\b(?:non-?controlling|minority|participating)\b)"
        r"(?:.*\b(?:shareholders|stockholders|shareowners|owners|parent)\b\W*|[\w.,&' -]{1,40})"
    ),
}

# Inputs that are balances at a period's end: read from a balance sheet, never from a cash flow statement, whose
# line of the same name ("Inventories (629)") is the period's change.
BALANCES = frozenset({"inventory", "receivables", "accounts payable", "total assets", "total equity", "current assets",
                      "current liabilities", "net property, plant and equipment", "total debt"})  # fmt: skip

# Inputs a cash flow statement prints as outflows, in brackets ("(4,625)"): their size is used, so free cash flow
# is operating cash flow less the capital spent, whichever sign the statement gives it.
OUTFLOWS = frozenset({"capital expenditure", "dividends paid"})


@dataclass(frozen=True)
class Measure:
    """A measure: its name, how a question asks it, its formulas (the first a statement holds is used), its kind
    and its convention (said in the answer)."""

    name: str
    wordings: tuple[str, ...]
    formulas: tuple[str, ...]
    kind: MeasureKind
    convention: str = ""


_AVERAGE = "average of the opening and closing balance (the prior period's column is the opening one)"

MEASURES: tuple[Measure, ...] = (
    Measure("gross margin", ("gross margin", "gross profit margin", "gross margin percentage"),
            ("gross profit / revenue", "(revenue - cost of sales) / revenue"), "percent",
            "gross profit over revenue"),
    Measure("operating margin", ("operating margin", "operating profit margin", "operating income margin"),
            ("operating income / revenue",), "percent", "operating income over revenue"),
    Measure("net margin", ("net margin", "net profit margin", "net income margin"),
            ("net income / revenue",), "percent", "net income over revenue"),
    Measure("revenue growth", ("revenue growth", "revenue growth rate", "sales growth", "growth in revenue",
                               "growth of revenue", "growth in net sales"),
            ("(revenue - prior(revenue)) / prior(revenue)",), "percent",
            "the change in revenue over the prior period's revenue"),
    Measure("current ratio", ("current ratio",), ("current assets / current liabilities",), "ratio",
            "current assets over current liabilities"),
    Measure("quick ratio", ("quick ratio", "acid-test ratio", "acid test ratio"),
            ("(current assets - inventory) / current liabilities",), "ratio",
            "current assets less inventories, over current liabilities"),
    Measure("operating cash flow ratio", ("operating cash flow ratio", "cash flow from operations ratio"),
            ("operating cash flow / current liabilities",), "ratio",
            "cash from operations over current liabilities"),
    Measure("debt-to-equity ratio", ("debt-to-equity ratio", "debt to equity ratio", "debt-to-equity",
                                     "debt to equity"),
            ("total debt / total equity",), "ratio", "total debt over total equity"),
    Measure("interest coverage ratio", ("interest coverage ratio", "interest coverage", "times interest earned"),
            ("operating income / interest expense",), "ratio", "operating income over interest expense"),
    Measure("inventory turnover", ("inventory turnover ratio", "inventory turnover"),
            ("cost of sales / avg(inventory)",), "ratio", f"cost of sales over inventory, the {_AVERAGE}"),
    Measure("days inventory outstanding", ("days inventory outstanding", "days of inventory", "inventory days",
                                           "days in inventory"),
            ("avg(inventory) / cost of sales * 365",), "days",
            f"inventory over cost of sales times 365 days, the inventory the {_AVERAGE}"),
    Measure("receivables turnover", ("receivables turnover ratio", "receivables turnover",
                                     "accounts receivable turnover"),
            ("revenue / avg(receivables)",), "ratio", f"revenue over receivables, the {_AVERAGE}"),
    Measure("days sales outstanding", ("days sales outstanding", "receivable days", "days receivables"),
            ("avg(receivables) / revenue * 365",), "days",
            f"receivables over revenue times 365 days, the receivables the {_AVERAGE}"),
    Measure("asset turnover", ("asset turnover ratio", "asset turnover", "total asset turnover"),
            ("revenue / avg(total assets)",), "ratio", f"revenue over total assets, the {_AVERAGE}"),
    Measure("return on assets", ("return on assets", "return on average assets", "roa"),
            ("net income / avg(total assets)",), "percent", f"net income over total assets, the {_AVERAGE}"),
    Measure("return on equity", ("return on equity", "return on average equity", "roe"),
            ("net income / avg(total equity)",), "percent", f"net income over total equity, the {_AVERAGE}"),
    Measure("capex intensity", ("capex intensity", "capital expenditure intensity", "capital intensity",
                                "capex to revenue", "capex as a percentage of revenue"),
            ("capital expenditure / revenue",), "percent", "capital expenditure over revenue"),
    Measure("free cash flow conversion", ("free cash flow conversion", "fcf conversion", "cash conversion"),
            ("(operating cash flow - capital expenditure) / net income",), "percent",
            "free cash flow (cash from operations less capital expenditure) over net income"),
    Measure("free cash flow", ("free cash flow", "fcf"), ("operating cash flow - capital expenditure",), "amount",
            "cash from operations less capital expenditure"),
    Measure("effective tax rate", ("effective tax rate", "effective income tax rate"),
            ("income tax / pretax income",), "percent", "income tax expense over income before income taxes"),
    Measure("payout ratio", ("payout ratio", "dividend payout ratio"), ("dividends paid / net income",), "percent",
            "dividends paid over net income"),
    Measure("fixed asset turnover", ("fixed asset turnover ratio", "fixed asset turnover", "fixed assets turnover",
                                     "pp&e turnover"),
            ("revenue / avg(net property, plant and equipment)",), "ratio", f"revenue over net property, plant and equipment, the {_AVERAGE}"),
    Measure("EBITDA", ("ebitda", "unadjusted ebitda"), ("operating income + depreciation and amortization",),
            "amount", "operating income plus depreciation and amortization (from the cash flow statement)"),
    Measure("EBITDA margin", ("ebitda margin", "ebitda percent margin", "unadjusted ebitda margin"),
            ("(operating income + depreciation and amortization) / revenue",), "percent",
            "operating income plus depreciation and amortization, over revenue"),
    Measure("days payable outstanding", ("days payable outstanding", "dpo", "days payables outstanding",
                                         "payable days", "days payable"),
            ("avg(accounts payable) / cost of sales * 365",), "days",
            f"accounts payable over cost of sales times 365 days, the payables the {_AVERAGE}"),
    Measure("COGS margin", ("cogs margin", "cogs % margin", "cogs percent margin", "cost of goods sold margin",
                            "cost of sales margin", "cogs as a percent of revenue"),
            ("cost of sales / revenue",), "percent", "cost of sales over revenue"),
    Measure("working capital", ("working capital", "net working capital"), ("current assets - current liabilities",),
            "amount", "current assets less current liabilities"),
)  # fmt: skip

# Registered measures whose rise is an improvement, and those whose fall is: "Did the current ratio improve in
# FY2023?" is answered yes or no from the measure's two figures; a measure in neither (capex intensity, the tax
# rate, the payout) gets its direction, never a judgement.
HIGHER_IS_BETTER_MEASURES = frozenset({
    "gross margin", "operating margin", "net margin", "revenue growth", "current ratio", "quick ratio",
    "operating cash flow ratio", "interest coverage ratio", "inventory turnover", "receivables turnover",
    "asset turnover", "return on assets", "return on equity", "free cash flow conversion", "free cash flow",
    "fixed asset turnover", "EBITDA", "EBITDA margin",
})  # fmt: skip
LOWER_IS_BETTER_MEASURES = frozenset(
    {"debt-to-equity ratio", "days inventory outstanding", "days sales outstanding", "COGS margin"}
)

# Words a question asking for a measure may hold besides the measure's, its inputs', its periods' and the names it
# gives: how it asks and how it wants the answer ("Calculate the FY2022 current ratio; round to two decimal places
# using the balance sheet"). Any other word qualifies the measure ("of the Widgets segment", "adjusted"): no
# whole-company statement line answers it.
MEASURE_FRAME = frozenset(
    """
    what which how much is was were are be been the a an of for in on at as to by from per its their company s
    calculate compute computed calculated give provide show state find determine estimate approximately roughly
    value figure amount number ratio rate percentage percent margin measure metric total times x
    year years fiscal fy annual end ending ended period quarter month months as-of average mean
    round rounded rounding decimal decimals place places nearest whole tenth hundredth answer answers express
    expressed term terms usd dollar dollars million millions billion billions thousand thousands
    using use used based basis according relying rely shown reported stated statement statements balance sheet
    cash flow flows income operations data information detail details line item items p l pnl
    defined definition unadjusted reported attributable shareholders stockholders shareowners common
    agreement accordance consistent line outlined presented disclosed provided given contained included within
    refer referring reference drawing drawn primarily mainly solely
    """.split()
)
