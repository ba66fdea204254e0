"""FinanceBench abstention: ask each question in its company's room and in another company's room.

Usage: python -m bench.eval_abstention ../shared/eval [--chunk-chars 1200 --overlap 200]

Uses the rooms bench/eval_retrieval.py built (run it first with the same chunk settings). For each
question it records the offline answer in the right room (abstained? cited the evidence page?) and in
a wrong room (abstained?), checks that every citation resolves to a real page whose text holds the
quote, and sweeps the synthesizer's coverage threshold (the share of the question's content words the
best passage must hold) to show the trade-off the shipped MIN_COVERAGE sits on.

Then metrics absent from a room: for each company room and each metric whose name its filings never
print (a plain substring test over the stored page text, independent of the product's full-text check; a
name printed in the plural, "delinquency rates", is printed),
three phrasings are asked; the share answered "I don't have enough information" is reported, for the
metrics of core.qa.metrics' lexicon, for the names core.qa.measures was designed on (TUNED_METRICS) and,
separately, for metric names outside both (held out: neither was written for them; their misses are not
printed).  Metrics the filings do print are asked the same way to show over-firing: the
share whose step says the room has "no column or passage about" it, or that no passage retrieved names it, must
be 0.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from pathlib import Path

from bench.eval_retrieval import evidence_pages, load_questions, open_database
from core.config import Settings
from core.db import Database
from core.qa.grounding import missing_names
from core.qa.measures import unlinked_measures
from core.qa.metrics import METRICS
from core.qa.service import UNHELD, UNLINKED, ask
from core.qa.synth import MIN_COVERAGE, coverage
from core.workbench import Workbench

THRESHOLDS = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
# Metric names the lexicon does not list: how the check does on wordings nobody tuned it for.
HELD_OUT_METRICS = (
    "net interest margin",
    "book-to-bill ratio",
    "average revenue per user",
    "occupancy rate",
    "combined ratio",
    "loss ratio",
    "order backlog",
    "bookings",
    "deferred revenue",
    "customer count",
    "days sales outstanding",
    "weighted average cost of capital",
)
# Metric names core.qa.measures was designed on (its classes: a measure noun, "X per Y", a count, a value, a
# lexicon metric narrowed by a word): the rate on them against the held-out names shows how far the rules carry.
TUNED_METRICS = (
    "net promoter score",
    "average order value",
    "revenue per employee",
    "customer retention rate",
    "annual contract value",
    "gross bookings",
    "load factor",
    "tier 1 capital ratio",
    "monthly active users",
    "interest coverage ratio",
    "cash conversion cycle",
    "utilization rate",
    "efficiency ratio",
    "payout ratio",
    "unearned revenue",
    "organic growth rate",
    "cost per click",
    "average transaction value",
    "store count",
    "subscriber count",
    "active user count",
    "subscription revenue",
    "advertising revenue",
    "contract revenue",
    "franchise revenue",
    "licensing revenue",
    # added while designing the noun phrases a question asks of a name (2026-11-26)
    "expense ratio",
    "cost of risk",
    "average selling price",
    "same-store sales",
    "free float",
    "order intake",
    "net new money",
    "assets under management",
    "claims ratio",
    "fill rate",
    "capacity utilization",
    "customer acquisition cost",
    "revenue backlog",
    "net retention rate",
    "days payable outstanding",
    # added while designing the one-word figures of a name and the ratio rows (2026-11-26, later)
    "average revenue per unit",
    "net interest income margin",
    "recurring revenue",
    "inventory days",
    "unit volume growth",
    "net bookings",
    "backlog",
    "production volume",
    "average fare",
    "market share",
    "warranty claims",
    "revenue per square foot",
    "sales per employee",
    "price/earnings ratio",
    "capital adequacy ratio",
    # added while designing a name's preposition as written, "A to B" ratios and "X per Y" rows (2026-11-26, third)
    "profit per employee",
    "revenue per store",
    "cost per unit",
    "sales per square meter",
    "revenue per available room",
    "average daily rate",
    "cost per available seat mile",
    "dividend yield",
    "price-to-book ratio",
    "employee turnover rate",
    "take rate",
    "attach rate",
    "conversion rate",
    "default rate",
    "delinquency rate",
    "charge-off rate",
    "cost of funds",
    "loan-to-deposit ratio",
    "funds from operations",
    "daily active users",
    "paid subscribers",
    "on-time delivery rate",
    "defect rate",
    "revenue per passenger",
    "gross margin per unit",
    "tangible book value",
    "operating expense ratio",
    "asset turnover",
    "fixed charge coverage ratio",
    "net debt to EBITDA",
    "revenue per available seat mile",
    "earnings per employee",
    "cost per acquisition",
    "revenue per visit",
    "gross profit per unit",
    "sales per store",
    "price to earnings",
    "enterprise value to EBITDA",
    "debt to capital ratio",
    "interest to revenue",
    "net revenue from subscriptions",
    "proceeds from royalties",
    "income from franchising",
    "cash from investments in startups",
    "adjusted funds from operations",
    "return on tangible equity",
    "yield on cost",
    "cost of capital",
    "rate of return on plan assets",
    "number of franchisees",
    "franchisee count",
    "active accounts",
    "average basket size",
    "units shipped",
    "shipments volume",
    "retention of key customers",
    "client retention",
    "fleet utilization",
    "average headcount cost",
    "backlog conversion",
    # looked at while designing them too (their answers printed), not listed until 2026-11-26 (fourth)
    "NPS",
    "DAU",
    "CET1 ratio",
    "liquidity coverage ratio",
    "revenue per head",
    "same-day delivery rate",
    "research and development intensity",
    "gross written premiums",
    "net written premiums",
    "written premium growth",
    "policy retention",
    "reserve replacement ratio",
    "proved reserves",
    "production cost per barrel",
    "average realized price",
    "freight revenue per ton",
    "revenue ton miles",
    "passenger load factor",
    "average ticket price",
    "system-wide sales",
    "new store openings",
    "royalty income",
    "licensing fees",
    "membership fee income",
    "comparable transactions",
    "active members",
    "customer satisfaction score",
    "employee engagement score",
    "carbon emissions",
    "water usage",
    "subscriptions",
    "shipments",
    "deliveries",
    "enrollments",
    "reservations",
    "impressions",
    "downloads",
    "days inventory outstanding",
    "sales backlog",
    "revenue run rate",
    "net sales per square foot",
    "earnings yield",
    "inventory to sales ratio",
    "days receivable",
    "accounts receivable turnover",
    "revenue concentration",
    "return on average equity",
    "cost of equity",
    "cost of debt",
    "average cost of funds",
    "loan-to-value ratio",
    "debt-to-assets ratio",
    "price-to-sales ratio",
    "cash-to-debt ratio",
    "average revenue per customer",
    "average spend per visit",
    "average premium per policy",
    "retention ratio",
    "lapse rate",
    "renewal rate",
    "vacancy rate",
    "absorption rate",
    "expense loss ratio",
    "claims frequency",
    "order book",
    "unbilled revenue",
    "contracted revenue",
    "pending orders",
    "gross written premium",
    "net premiums earned",
    # added while designing "and" inside a name, acronyms, counts and the passages retrieved (2026-11-26, fourth)
    "contribution margin",
    "EBITDAR margin",
    "ARPU",
    "customer lifetime value",
    "debt service coverage ratio",
    "cost per hire",
    "revenue per user",
    "number of patents",
    "branch count",
    "number of active customers",
    "net dollar retention",
    "churn rate",
    "same-restaurant sales",
    "revenue per mile",
    "fuel cost per gallon",
    "average check size",
    "click-through rate",
    "lost time injury rate",
    "solvency ratio",
    "embedded value",
    "net charge-offs to average loans",
    "nonperforming assets ratio",
    "NAV per share",
    "distributable earnings",
    "core earnings per share",
    "price realization",
    "inventory shrink",
    "gross margin return on investment",
    "energy intensity",
    "average order frequency",
)
PHRASINGS = (
    "What was {company}'s {metric} in FY2022?",
    "How did the {metric} of {company} change between FY2021 and FY2022?",
    "What is the {metric} reported by {company}?",
)


# Words too common in metric names to tie one name to another ("net", "ratio").
_COMMON_WORDS = frozenset(
    "net average total gross ratio rate margin revenue cost value count per of to from on in and".split()
)


def _shares_a_word(name: str, names: tuple[str, ...]) -> bool:
    """Whether `name` shares a distinctive word with any of `names` ("order backlog" with "backlog"): a held-out
    name that does is not wholly unseen by the rules designed on `names`."""
    words = set(re.findall(r"[a-z0-9]+", name.lower())) - _COMMON_WORDS
    return any(words & set(re.findall(r"[a-z0-9]+", other.lower())) for other in names)


def _printed(wording: str, text: str, plural: bool = True) -> bool:
    """Whether `text` (lower-cased, whitespace folded, apostrophes straight) prints `wording` as whole words ("EBIT"
    is not in "debit"), its last word also in the plural ("delinquency rates" prints the delinquency rate) unless
    not `plural` (the test of the sections before 2026-11-26, kept for comparison)."""
    ending = "(?:s|es)?" if plural else ""
    wording = wording.lower().replace("’", "'")
    return re.search(rf"(?<![a-z0-9]){re.escape(wording)}{ending}(?![a-z0-9])", text) is not None


def absent_metric_rates(wb: Workbench, companies: list[str]) -> dict[str, dict[str, float]]:
    """Abstention on metrics a room's text never prints (lexicon and held-out), and over-firing on printed ones;
    also the median time of the measure check (core.qa.measures) over these questions, in milliseconds."""
    outcome: dict[str, list[bool]] = {
        "lexicon_absent": [],
        "tuned_absent": [],
        "held_out_absent": [],
        "unshared_absent": [],  # held-out names sharing no distinctive word with a tuned name
        "present_flagged": [],
        # as the sections before 2026-11-26 counted: a name printed only in the plural was counted absent
        "held_out_absent_singular": [],
    }
    check_ms: list[float] = []
    for company in companies:
        with wb.db.connection() as conn:
            text = " ".join(
                r[0]
                for r in conn.execute(
                    "SELECT p.text FROM pages p JOIN documents d ON d.id = p.document_id WHERE d.room_id = %s",
                    (wb.room(company).id,),
                )
            )
        text = " ".join(text.lower().replace("’", "'").split())
        asked = [(name, "lexicon", any(_printed(w, text) for w in words)) for name, words in METRICS.items()]
        asked += [(name, "tuned", _printed(name, text)) for name in TUNED_METRICS]
        asked += [(name, "held_out", _printed(name, text)) for name in HELD_OUT_METRICS]
        for metric, source, present in asked:
            singular_absent = source == "held_out" and not _printed(metric, text, plural=False)
            for phrasing in PHRASINGS:
                question = phrasing.format(company=company, metric=metric)
                started = time.perf_counter()
                unlinked_measures(wb.db, wb.room(company).id, question)
                check_ms.append((time.perf_counter() - started) * 1000)
                events = list(ask(wb, question, company))
                result = events[-1].result or {}
                flagged = any(e.type == "step" and (e.text or "").startswith((UNLINKED, UNHELD)) for e in events)
                if singular_absent:
                    outcome["held_out_absent_singular"].append(bool(result.get("abstained")))
                if present:
                    outcome["present_flagged"].append(flagged)
                else:
                    outcome[f"{source}_absent"].append(bool(result.get("abstained")))
                    if source == "held_out" and not _shares_a_word(metric, TUNED_METRICS):
                        outcome["unshared_absent"].append(bool(result.get("abstained")))
    rates = {k: {"n": len(v), "rate": (sum(v) / len(v)) if v else 0.0} for k, v in outcome.items()}
    return {**rates, "measure_check_ms": {"n": len(check_ms), "rate": statistics.median(check_ms)}}


def run(wb: Workbench, question: str, room: str) -> tuple[dict, float, bool]:
    """The ask result, the best passage coverage its evidence offered, and whether a name is missing."""
    best, result = 0.0, {}
    for event in ask(wb, question, room):
        if event.type == "evidence":
            best = max((coverage(question, e.content) for e in event.evidence if e.kind != "table"), default=0.0)
        if event.type == "done":
            result = event.result or {}
    return result, best, bool(missing_names(wb.db, wb.room(room).id, question))


def resolves(wb: Workbench, result: dict) -> bool:
    """Every page citation's quote is found on that page of that document."""
    with wb.db.connection() as conn:
        for c in result["citations"]:
            row = conn.execute(
                "SELECT text FROM pages WHERE document_id = %s AND page_number = %s", (c["document_id"], c["page"])
            ).fetchone()
            if row is None or (c.get("quote") or "") not in row[0]:
                return False
    return True


def main() -> None:
    """Print abstention rates in the right and wrong rooms, cited page-hit and citation integrity."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("eval_dir", type=Path)
    parser.add_argument("--chunk-chars", type=int, default=Settings().chunk_chars)
    parser.add_argument("--overlap", type=int, default=Settings().chunk_overlap)
    parser.add_argument("--home", type=Path, default=Path(".workbench/eval"))
    args = parser.parse_args()

    questions = load_questions(args.eval_dir)
    url = open_database(args.home, f"financebench_c{args.chunk_chars}_o{args.overlap}", None)
    # No rate limit: an evaluation asks far more than a person's 60 questions an hour.
    wb = Workbench(Settings.from_env({"DATABASE_URL": url, "WORKBENCH_RATE_LIMIT": "0"}), db=Database(url))
    companies = sorted({q["company"] for q in questions})
    right, wrong = [], []
    cited_hits = integrity = shipped_right = shipped_wrong = 0
    for i, q in enumerate(questions):
        result, best, missing = run(wb, q["question"], q["company"])
        right.append((best, missing))
        shipped_right += result["abstained"]
        cited = {(c["title"], c["page"]) for c in result["citations"]}
        cited_hits += bool(cited & evidence_pages(q))
        integrity += resolves(wb, result)
        other = companies[(companies.index(q["company"]) + 1 + i) % len(companies)]
        if other == q["company"]:
            other = companies[(companies.index(other) + 1) % len(companies)]
        result_wrong, best_wrong, missing_wrong = run(wb, q["question"], other)
        wrong.append((best_wrong, missing_wrong))
        shipped_wrong += result_wrong["abstained"]
    n = len(questions)
    print(f"FinanceBench dev, {n} questions, offline synthesizer (shipped MIN_COVERAGE = {MIN_COVERAGE})")
    print(f"shipped: abstain in the right room {shipped_right / n:.3f}, in a wrong room {shipped_wrong / n:.3f}")
    print("coverage threshold  abstain(right room)  abstain(wrong room)   (name check in force)")
    sweep = {}
    for t in THRESHOLDS:
        r = sum(c < t for c, _ in right) / n
        w = sum(c < t for c, _ in wrong) / n
        rn = sum(c < t or m for c, m in right) / n
        wn = sum(c < t or m for c, m in wrong) / n
        sweep[t] = (r, w, rn, wn)
        print(f"  {t:.1f}               {rn:.3f}                {wn:.3f}")
    print(f"answers citing an evidence page (right room, shipped threshold): {cited_hits}/{n}")
    print(f"answers whose every citation resolves verbatim: {integrity}/{n}")
    absent = absent_metric_rates(wb, companies)
    print(
        f"metrics absent from the room: abstained {absent['lexicon_absent']['rate']:.3f} of "
        f"{absent['lexicon_absent']['n']} (lexicon), {absent['tuned_absent']['rate']:.3f} of "
        f"{absent['tuned_absent']['n']} (names core.qa.measures was designed on), {absent['held_out_absent']['rate']:.3f} of "
        f"{absent['held_out_absent']['n']} (held out; {absent['unshared_absent']['rate']:.3f} of "
        f"{absent['unshared_absent']['n']} for those sharing no distinctive word with a designed-on name; "
        f"{absent['held_out_absent_singular']['rate']:.3f} of {absent['held_out_absent_singular']['n']} counting a "
        f"name printed only in the plural as absent, as before 2026-11-26); printed "
        f"metrics wrongly flagged "
        f"{absent['present_flagged']['rate']:.3f} of {absent['present_flagged']['n']}"
    )
    print(f"measure check (core.qa.measures): median {absent['measure_check_ms']['rate']:.1f} ms per question")
    print(
        json.dumps(
            {
                "questions": n,
                "min_coverage": MIN_COVERAGE,
                "shipped": {"abstain_right": shipped_right / n, "abstain_wrong": shipped_wrong / n},
                "sweep": {
                    str(t): {"abstain_right": r, "abstain_wrong": w, "with_names_right": rn, "with_names_wrong": wn}
                    for t, (r, w, rn, wn) in sweep.items()
                },
                "cited_evidence_page": cited_hits,
                "citations_resolve": integrity,
                "absent_metrics": absent,
            }
        )
    )


if __name__ == "__main__":
    main()
