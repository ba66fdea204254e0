"""Finance terms: the metrics analysts ask about and the wordings filings, models and dashboards use for them."""

from __future__ import annotations

# Metric -> the wordings filings, models and dashboards use for it.  The first wording names it in a message.
# A question mentioning any wording asks for the metric; the room holds it when it holds any wording.
METRICS: dict[str, tuple[str, ...]] = {
    "revenue": (
        "revenue",
        "revenues",
        "net revenue",
        "net revenues",
        "net sales",
        "sales",
        "turnover",
        "total revenue",
        "top line",
    ),
    "EBITDA": ("EBITDA", "earnings before interest, taxes, depreciation and amortization", "adjusted EBITDA"),
    "EBIT": ("EBIT", "operating income", "operating profit", "income from operations", "operating earnings"),
    "operating income": (
        "operating income",
        "operating profit",
        "income from operations",
        "operating earnings",
        "EBIT",
    ),
    "net income": (
        "net income",
        "net earnings",
        "net profit",
        "net loss",
        "profit attributable",
        "net income attributable",
        "earnings",
    ),
    "gross margin": ("gross margin", "gross profit", "gross profit margin"),
    "gross profit": ("gross profit", "gross margin"),
    "operating margin": ("operating margin", "operating income", "operating profit"),
    "EPS": ("EPS", "earnings per share", "per share"),
    "capital expenditure": (
        "capital expenditure",
        "capital expenditures",
        "capex",
        "purchases of property, plant and equipment",
        "purchases of property and equipment",
        "additions to property, plant and equipment",
        "additions to property and equipment",
        "capital spending",
        "property and equipment",
    ),
    "free cash flow": ("free cash flow", "FCF"),
    "operating cash flow": (
        "operating cash flow",
        "cash from operations",
        "cash provided by operating activities",
        "cash flow from operations",
        "operating activities",
    ),
    "ARR": ("ARR", "annual recurring revenue", "annualized recurring revenue"),
    "MRR": ("MRR", "monthly recurring revenue"),
    "net revenue retention": ("net revenue retention", "NRR", "net dollar retention", "NDR", "net retention"),
    "churn": ("churn", "churn rate", "attrition"),
    "customer acquisition cost": ("customer acquisition cost", "CAC"),
    "lifetime value": ("lifetime value", "LTV", "CLV", "customer lifetime value"),
    "burn rate": ("burn rate", "cash burn", "burn"),
    "runway": ("runway", "cash runway"),
    "headcount": ("headcount", "employees", "staff", "FTE", "full-time employees", "workforce"),
    "dividend": ("dividend", "dividends", "dividend per share"),
    "market capitalisation": ("market capitalisation", "market capitalization", "market cap"),
    "valuation": ("valuation", "post-money", "pre-money", "enterprise value"),
    "return on equity": ("return on equity", "ROE"),
    "return on assets": ("return on assets", "ROA"),
    "return on invested capital": ("return on invested capital", "ROIC"),
    "total assets": ("total assets",),
    "total liabilities": ("total liabilities",),
    "shareholders' equity": ("shareholders' equity", "stockholders' equity", "shareholders equity", "total equity"),
    "inventory": ("inventory", "inventories"),
    "net property, plant and equipment": (
        "net property, plant and equipment",
        "net PP&E",
        "net PPNE",
        "net PPE",
        "property, plant and equipment, net",
        "net property and equipment",
        "property and equipment, net",
    ),
    "accounts receivable": ("accounts receivable", "receivables", "trade receivables"),
    "accounts payable": ("accounts payable", "payables", "trade payables"),
    "total debt": ("total debt", "long-term debt", "borrowings", "debt", "notes payable"),
    "cost of goods sold": ("cost of goods sold", "COGS", "cost of sales", "cost of revenue", "cost of revenues"),
    "SG&A": ("SG&A", "selling, general and administrative", "selling, general, and administrative"),
    "R&D": ("R&D", "research and development"),
    "interest expense": ("interest expense", "interest paid"),
    "depreciation and amortization": ("depreciation and amortization", "depreciation", "amortization", "D&A"),
    "effective tax rate": ("effective tax rate", "tax rate"),
    "quick ratio": ("quick ratio", "acid-test ratio"),
    "current ratio": ("current ratio",),
    "debt-to-equity ratio": ("debt-to-equity", "debt to equity", "leverage ratio"),
    "same-store sales": ("same-store sales", "comparable sales", "comparable store sales", "like-for-like sales"),
    "gross merchandise value": ("gross merchandise value", "GMV"),
}
# Line-item wordings that print the very figure a metric names, for reading it from a statement's cells: a
# question about "capex" is answered from "Purchases of property, plant and equipment". Narrower than METRICS,
# whose wordings also count a metric's ingredients as its presence (operating income for operating margin):
# reading an ingredient's cell would give a cited figure of another quantity.
FIGURE_WORDINGS: dict[str, tuple[str, ...]] = {
    "revenue": ("revenue", "revenues", "net revenue", "net revenues", "net sales", "total revenue", "total revenues",
                "total net sales", "total net revenue", "total net revenues", "sales to customers", "revenues, net",
                # a bank's revenue line, after its interest expense
                "total revenues net of interest expense"),
    "capital expenditure": ("capital expenditure", "capital expenditures", "capex", "capital spending",
                            "purchases of property, plant and equipment", "purchases of property and equipment",
                            "additions to property, plant and equipment", "additions to property and equipment",
                            "purchases of premises and equipment", "purchase of premises and equipment"),
    "cost of goods sold": ("cost of goods sold", "cost of sales", "cost of revenue", "cost of revenues",
                           "cost of products sold", "COGS"),
    "net income": ("net income", "net earnings"),
    "dividends paid": ("dividends paid", "cash dividends paid", "dividends paid to shareholders",
                       "dividends to shareholders", "cash dividends paid to shareholders", "dividends paid on common stock"),
    "operating income": ("operating income", "operating profit", "income from operations"),
    "inventory": ("inventory", "inventories", "merchandise inventories"),
    "SG&A": ("SG&A", "selling, general and administrative", "selling, general and administrative expenses"),
    "R&D": ("R&D", "R&D expense", "R&D expenses", "research and development", "research and development expense",
            "research, development and related expenses", "research and development costs"),
    "operating cash flow": ("operating cash flow", "cash provided by operating activities",
                            "net cash provided by operating activities", "cash from operations",
                            "net cash flows from operating activities", "total cash provided by operating activities",
                            "cash flows provided by operating activities",
                            "cash flows from operating activities", "net cash provided by (used for) operating activities"),
    # the balance after depreciation, as analysts abbreviate it; "PP&E" alone may be the gross line: not listed
    "net property, plant and equipment": ("net PP&E", "net PPNE", "net PPE", "PP&E, net", "PPNE, net",
                                          "net property, plant and equipment", "property, plant and equipment, net",
                                          "property, plant and equipment - net", "net property and equipment",
                                          "property and equipment, net"),
}  # fmt: skip

# Currencies, accounting abbreviations, statement acronyms and company suffixes a question writes in capitals
# although they name no company ("EBITDA", "FY", "Inc").
FINANCE_ABBREVIATIONS = frozenset(
    """usd eur gbp gaap non-gaap eps ebit ebitda capex cogs sg&a r&d m&a pp&e d&a roa roe roic cagr yoy qoq ttm ltm
    ppne fy dpo dso dio ccc fcf ocf cfo ceo cfo coo cto ipo etf llc inc corp ltd plc co us u.s usa""".split()
)

# The primary financial statements: the words a question names each by ("in the balance sheet")...
STATEMENTS: dict[str, tuple[str, ...]] = {
    "balance sheet": ("balance sheet", "balance sheets", "statement of financial position", "financial position"),
    "income statement": ("income statement", "income statements", "statement of income", "statements of income",
                         "statement of operations", "statements of operations", "statement of earnings",
                         "statements of earnings", "profit and loss", "p&l"),
    "cash flow statement": ("cash flow statement", "cash flow statements", "statement of cash flows",
                            "statements of cash flows", "cash flows statement"),
}  # fmt: skip
# ... the headings a filing prints above each (matched with spaces removed: extracted text splits words, as in
# "Balance Shee t"; "statement"/"statements" and an inserted "consolidated" are read as the same heading) ...
STATEMENT_HEADINGS: dict[str, tuple[str, ...]] = {
    "balance sheet": ("balance sheet", "statement of financial position", "statement of financial condition"),
    "income statement": ("statement of income", "statement of operations", "statement of earnings"),
    "cash flow statement": ("statement of cash flows", "statement of cash flow"),
}  # fmt: skip
# ... and the line items and measures read from each: a question naming one is answered from that statement.
STATEMENT_ITEMS: dict[str, tuple[str, ...]] = {
    "balance sheet": ("total assets", "total liabilities", "liability", "liabilities", "shareholders' equity",
                      "stockholders' equity", "inventory", "inventories", "accounts receivable", "receivables",
                      "accounts payable", "payables", "total debt", "long-term debt", "pp&e", "ppne",
                      "property, plant and equipment", "working capital", "current ratio", "quick ratio",
                      "debt-to-equity", "book value"),
    "income statement": ("revenue", "revenues", "net sales", "total revenue", "gross margin", "gross margins",
                         "gross profit", "operating margin", "operating income", "operating profit", "net income",
                         "net earnings", "net profit", "profit margin", "net profit margin", "eps",
                         "earnings per share", "cost of goods sold", "cost of sales", "cogs", "sg&a",
                         "selling, general and administrative", "operating expenses"),
    "cash flow statement": ("capital expenditure", "capital expenditures", "capex", "free cash flow",
                            "cash from operations", "operating cash flow", "cash provided by operating activities",
                            "dividends paid", "share repurchases", "buybacks"),
}  # fmt: skip

# Words a filing and a question use for the same thing, either way round ("buybacks" asked, "repurchased" written).
SAME_THING: tuple[tuple[str, ...], ...] = (("repurchase", "buyback"),)

# Metrics that are themselves expenses, and the nouns a question may add to one without naming another quantity:
# "SG&A expenses", "R&D spending" and "depreciation expense" are the lexicon's SG&A, R&D and D&A.
EXPENSE_METRICS = ("SG&A", "R&D", "interest expense", "depreciation and amortization")
EXPENSE_NOUNS = frozenset("expense expenses cost costs spend spending".split())
