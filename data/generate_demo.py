#!/usr/bin/env python3
"""Generate the synthetic demo data room: funding CSV, portfolio workbook, PDF memo, demo questions.

Every company, investor, person and figure is fictional and produced from a fixed seed, so the
outputs contain no third-party data and regenerate identically:

    python data/generate_demo.py [--out data/demo]

Outputs (all in ``--out``):
    funding_rounds.csv    ~300 funding rounds (one row per round)
    funding_rounds.xlsx   ``Portfolio`` (one row per company) and ``Valuations`` (priced rounds)
    portfolio_memo.pdf    a 6-10 page investment memo about the same companies
    questions.md          10 demo questions with answers computed from the data above
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import html
import io
import random
import re
import statistics
import zipfile
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pymupdf
from openpyxl import Workbook
from openpyxl.styles import Font, PatternFill
from openpyxl.worksheet.worksheet import Worksheet
from openpyxl.writer.excel import ExcelWriter

K = TypeVar("K")
V = TypeVar("V", int, float)

SEED = 20240614
DEFAULT_OUT = Path(__file__).resolve().parent / "demo"

CSV_NAME = "funding_rounds.csv"
XLSX_NAME = "funding_rounds.xlsx"
PDF_NAME = "portfolio_memo.pdf"
QUESTIONS_NAME = "questions.md"

CSV_COLUMNS = [
    "Company",
    "Country",
    "Sector",
    "Round",
    "Date",
    "Amount Raised (USD)",
    "Lead Investor",
]
PORTFOLIO_COLUMNS = [
    "Company",
    "Country",
    "Sector",
    "Founded",
    "Employees",
    "Total Raised (USD)",
]
VALUATION_COLUMNS = [
    "Company",
    "Round",
    "Date",
    "Post-money Valuation (USD)",
    "Ownership Sold",
]

FUND_NAME = "Fictional Demo Fund"
MEMO_TITLE = "Portfolio Review 2024 \u2014 Fictional Demo Fund"
MEMO_DATE = dt.datetime(2025, 1, 15, 9, 0, 0)  # fixed creation date for the XLSX and PDF metadata
FIRST_DATE = dt.date(2019, 1, 1)
LAST_DATE = dt.date(2024, 12, 31)
FOLLOW_ON_RESERVE = 120_000_000  # memo-only fund facts
NEW_INVESTMENTS_2025 = 6
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]

ROUNDS = ["Pre-seed", "Seed", "Series A", "Series B", "Series C", "Growth"]
# stage -> (minimum, maximum, rounding step) in USD before the country factor
ROUND_SIZE: dict[str, tuple[int, int, int]] = {
    "Pre-seed": (250_000, 1_500_000, 50_000),
    "Seed": (1_500_000, 6_000_000, 100_000),
    "Series A": (6_000_000, 25_000_000, 500_000),
    "Series B": (20_000_000, 70_000_000, 1_000_000),
    "Series C": (50_000_000, 150_000_000, 1_000_000),
    "Growth": (100_000_000, 300_000_000, 5_000_000),
}
# stage -> share of the company sold in that round (priced rounds only)
OWNERSHIP_SOLD: dict[str, tuple[float, float]] = {
    "Series A": (0.15, 0.25),
    "Series B": (0.12, 0.20),
    "Series C": (0.08, 0.15),
    "Growth": (0.05, 0.12),
}

# country -> multiplier on round size (larger rounds in the deepest markets)
COUNTRIES: dict[str, float] = {
    "Canada": 0.95,
    "United States": 1.30,
    "United Kingdom": 1.05,
    "Germany": 1.00,
    "France": 0.95,
    "India": 0.80,
    "Brazil": 0.75,
    "Singapore": 1.00,
}

# sector -> [(fictional company, what it does)]
SECTOR_COMPANIES: dict[str, list[tuple[str, str]]] = {
    "Fintech": [
        ("Ledgerlark", "automates month-end close and reconciliation for mid-market finance teams"),
        ("Tallyforge", "provides usage-based billing infrastructure for software vendors"),
        ("Coppervane Pay", "runs cross-border payouts for online marketplaces"),
        ("Brightmint Finance", "offers embedded savings accounts through payroll providers"),
        ("Quorvel Credit", "underwrites working-capital loans for small manufacturers"),
        ("Kestrel Ledger", "builds treasury management software for exporters"),
        ("Pennyroyal Banking", "is a mobile-first bank for freelancers and sole traders"),
        ("Oakhollow Payments", "processes instant account-to-account payments for utilities"),
    ],
    "Healthtech": [
        ("Mendwell Bio", "develops at-home blood testing kits with clinician follow-up"),
        ("Pulsewren Health", "offers remote cardiac monitoring for post-operative patients"),
        ("Carrowmed", "schedules and staffs operating theatres for hospital networks"),
        ("Vitalloom", "runs a virtual physiotherapy clinic with motion-tracked exercises"),
        ("Heronvale Diagnostics", "builds AI-assisted review of pathology slides"),
        ("Sutureline", "digitises surgical supply chains for regional hospitals"),
        ("Nimbuscare Clinics", "operates hybrid primary-care clinics for employers"),
        ("Thymeleaf Health", "offers nutrition coaching programmes prescribed by physicians"),
    ],
    "Climate": [
        ("Verdant Loop", "recycles lithium-ion batteries into cathode-grade materials"),
        ("Solvane Energy", "develops community solar projects with shared ownership"),
        ("Carbonwick", "measures and verifies soil carbon for offset buyers"),
        ("Tidemark Grid", "sells software that balances distributed batteries on the grid"),
        ("Emberless Heat", "manufactures industrial heat pumps for food processors"),
        ("Greywater Works", "builds modular water-recycling units for commercial buildings"),
        ("Kelpforge", "farms seaweed for bio-based packaging"),
        ("Windrose Storage", "builds long-duration thermal energy storage"),
    ],
    "AI Infrastructure": [
        ("Tensorfield", "rents GPU clusters with managed training pipelines"),
        ("Gradient Harbor", "provides model evaluation and red-teaming tools"),
        ("Vectorquay", "offers a managed vector database for retrieval workloads"),
        ("Inferlane", "cuts model inference costs with automatic batching and routing"),
        ("Latticebright", "labels and curates training data for vision models"),
        ("Northwind Analytics", "runs a governed analytics layer that answers business questions in plain language"),
        ("Cobaltmind Compute", "designs low-power inference accelerators for edge devices"),
        ("Promptwell", "monitors large-language-model applications in production"),
    ],
    "Cybersecurity": [
        ("Bastionly", "secures identity and access for distributed workforces"),
        ("Cipherhollow", "provides post-quantum encryption libraries for banks"),
        ("Keywarden", "manages secrets and credentials across cloud environments"),
        ("Moatline Security", "detects phishing and business-email compromise"),
        ("Sentrivale", "runs a managed detection and response service for mid-sized firms"),
        ("Lockfern", "scans software supply chains for vulnerable dependencies"),
        ("Watchgable", "monitors operational-technology networks in factories"),
    ],
    "Logistics": [
        ("Freightwren", "is a digital freight forwarder for small importers"),
        ("Dockmeadow", "schedules dock appointments for warehouses"),
        ("Palletry", "runs a pallet-sharing network with IoT tracking"),
        ("Routeharbor", "optimises last-mile delivery routes for grocers"),
        ("Cargoquill", "automates customs paperwork with document AI"),
        ("Lastmile Loom", "operates micro-fulfilment hubs in dense cities"),
        ("Haulbright", "electrifies regional trucking fleets through battery leasing"),
    ],
    "Edtech": [
        ("Slatewise", "provides adaptive maths practice for secondary schools"),
        ("Quillstone Learning", "offers writing-feedback tools for universities"),
        ("Brightacre Academy", "runs online coding bootcamps with income-share options"),
        ("Chalkwind", "builds timetabling and attendance software for school districts"),
        ("Tutorfox", "matches students with vetted live tutors"),
        ("Lessonloft", "lets teachers build and share interactive lessons"),
        ("Mapleprimer", "teaches early literacy through phonics games"),
    ],
    "Agritech": [
        ("Furrowlight", "uses satellite imagery to forecast crop yields"),
        ("Seedvane", "breeds drought-tolerant seed varieties"),
        ("Orchardly", "automates fruit picking with robotic harvesters"),
        ("Rootwell Ag", "sells soil-sensor networks for precision irrigation"),
        ("Harvestquay", "runs a wholesale marketplace connecting farms and restaurants"),
        ("Tillerbright", "provides farm-management software for smallholders"),
        ("Grainmere", "offers grain-storage monitoring bundled with crop insurance"),
    ],
}

# sector -> (why we invest, what could go wrong) used in the memo's sector reviews
SECTOR_VIEWS: dict[str, tuple[str, str]] = {
    "Fintech": (
        "Our fintech exposure is weighted towards infrastructure that earns revenue on transaction "
        "volume rather than on lending spreads, which kept margins stable as rates moved.",
        "Interchange regulation and rising credit losses at lending-adjacent companies are the main watch points.",
    ),
    "Healthtech": (
        "We favour companies that are paid by employers or hospital systems rather than by patients, "
        "because reimbursement is slower to win but far stickier once granted.",
        "Sales cycles with hospital networks lengthened through 2024, delaying revenue recognition.",
    ),
    "Climate": (
        "Climate holdings combine project-finance-heavy hardware with asset-light software; "
        "the software companies fund the portfolio's near-term revenue while hardware provides upside.",
        "Hardware companies remain exposed to equipment costs and to changes in public incentive schemes.",
    ),
    "AI Infrastructure": (
        "Demand for training and inference capacity outran supply throughout 2023 and 2024; we back the "
        "tooling and capacity layers rather than model developers themselves.",
        "Dependence on a small number of chip suppliers and rapid price cuts by hyperscalers could compress margins.",
    ),
    "Cybersecurity": (
        "Security budgets proved resilient; our companies sell to security teams that were protected "
        "from the spending cuts seen elsewhere in IT.",
        "Consolidation among platform vendors is pressuring point solutions on price.",
    ),
    "Logistics": (
        "After the freight boom of 2021 normalised, we concentrated on software and services that "
        "save shippers money in a soft market.",
        "Freight volumes remain below their 2021 peak, and asset-heavy models carry utilisation risk.",
    ),
    "Edtech": (
        "Edtech holdings sell to institutions rather than consumers, which reduced churn after "
        "pandemic-era demand faded.",
        "School budgets funded by temporary stimulus programmes expire during 2025.",
    ),
    "Agritech": (
        "Agritech companies address yield and input-cost pressure for growers, with revenue tied to "
        "planting seasons rather than to commodity prices.",
        "Revenue is seasonal and weather-dependent, which makes quarterly forecasts volatile.",
    ),
}

# (fictional investor, earliest stage led, latest stage led, selection weight)
INVESTORS: list[tuple[str, str, str, int]] = [
    ("Harbor Peak Ventures", "Seed", "Series C", 4),
    ("Larkspur Seed Fund", "Pre-seed", "Seed", 2),
    ("Foxglove Seed", "Pre-seed", "Seed", 2),
    ("Tamarack Lane Capital", "Pre-seed", "Series A", 2),
    ("Bluefen Partners", "Seed", "Series A", 2),
    ("Ironbark Ventures", "Seed", "Series B", 2),
    ("Saltmarsh Capital", "Pre-seed", "Seed", 1),
    ("Copperline Ventures", "Seed", "Series A", 2),
    ("Granite Owl Capital", "Series A", "Series B", 2),
    ("Northstack Ventures", "Series A", "Series C", 2),
    ("Cedar Arc Partners", "Series A", "Series B", 1),
    ("Halcyon Reef Capital", "Series B", "Growth", 2),
    ("Wildthorn Ventures", "Seed", "Series A", 1),
    ("Quayside Growth Partners", "Series C", "Growth", 2),
    ("Silverbirch Capital", "Series B", "Growth", 1),
    ("Amberfield Ventures", "Pre-seed", "Seed", 1),
    ("Kettlebrook Partners", "Series A", "Series C", 1),
    ("Kestrelmoor Capital", "Series B", "Growth", 1),
    ("Lanternfish Ventures", "Pre-seed", "Series A", 1),
    ("Oxbow Street Capital", "Series A", "Series B", 1),
    ("Summit Hollow Partners", "Series C", "Growth", 1),
    ("Bramblewood Ventures", "Seed", "Series B", 1),
    ("Tessellate Capital", "Series B", "Series C", 1),
    ("Meridian Fold Partners", "Growth", "Growth", 1),
    ("Juniper Ridge Growth", "Series C", "Growth", 1),
]

FIRST_NAMES = [
    "Amara",
    "Bastien",
    "Chiara",
    "Dev",
    "Elodie",
    "Farid",
    "Greta",
    "Hiro",
    "Ines",
    "Jonah",
    "Kavya",
    "Lucas",
    "Maren",
    "Nikhil",
    "Odette",
    "Priya",
    "Quentin",
    "Rosa",
    "Soren",
    "Tamsin",
    "Umar",
    "Valeria",
    "Wen",
    "Ximena",
    "Yusuf",
    "Zara",
    "Anneliese",
    "Rafael",
    "Mei",
    "Callum",
]
LAST_NAMES = [
    "Okonkwo-Hale",
    "Villeneuve",
    "Brandtner",
    "Achterberg",
    "Ravindran",
    "Moreau-Lind",
    "Castellan",
    "Whitcombe",
    "Nakashima",
    "Delacroix-Ware",
    "Fenwright",
    "Oyelaran",
    "Marchetti",
    "Svedberg",
    "Quintero",
    "Halvorsen",
    "Iyengar",
    "Lachapelle",
    "Tavernier",
    "Koenigsmark",
    "Pemberton-Rao",
    "Ardelean",
    "Solberg",
    "Maranhao",
    "Thistlewood",
    "Abernethy-Cole",
    "Bellweather",
    "Cavendale",
    "Dunmore-Sato",
    "Eskildsen",
    "Farrowby",
    "Gallardo-Voss",
    "Hawthorne-Iqbal",
    "Ilves",
    "Jarnstrom",
    "Kavanagh-Mbeki",
    "Lindqvist",
    "Montferrand",
    "Nwachukwu-Bell",
    "Oyarzun",
    "Pellegrino-Shaw",
    "Quarrington",
    "Rosenthorpe",
    "Sandoval-Kerr",
    "Trevanion",
    "Ulbrecht",
    "Vasquez-Holm",
    "Wetherell",
    "Yarborough",
    "Zielinski-Park",
    "Ashdown",
    "Brennecke",
    "Corvino",
    "Desrosiers",
    "Ekwueme",
    "Fairbairn",
    "Gorecki-Lane",
    "Holloway-Tan",
    "Ingersoll-Ode",
    "Jovanovski",
]

COMPANY_THESES = [
    "We back {name} because the product sits inside a daily workflow, which keeps switching costs high.",
    "The thesis is distribution: {name} sells through partners that already own the customer relationship.",
    "{name} has the best unit economics in its peer group, with payback on sales spend of {payback} months.",
    "We see {name} as the category leader in {country}, with room to expand into neighbouring markets in 2025.",
]
COMPANY_RISKS = [
    "The main risk is concentration: the three largest customers account for {concentration}% of revenue.",
    "Execution risk remains around the planned international expansion, which doubles the sales team.",
    "A larger incumbent could bundle a competing product at a low price.",
    "Margins depend on supplier pricing that the company does not control.",
]


@dataclass(frozen=True)
class Round:
    """One funding round (one CSV row)."""

    company: str
    country: str
    sector: str
    stage: str
    date: dt.date
    amount: int
    lead: str


@dataclass
class Company:
    """A fictional portfolio company and its funding history."""

    name: str
    sector: str
    country: str
    description: str
    founded: int
    employees: int
    ceo: str
    rounds: list[Round]

    @property
    def total_raised(self) -> int:
        """Sum of all round amounts."""
        return sum(r.amount for r in self.rounds)


@dataclass(frozen=True)
class Valuation:
    """Post-money valuation of a priced round (Series A onwards)."""

    company: str
    stage: str
    date: dt.date
    post_money: int
    ownership_sold: float


@dataclass(frozen=True)
class Profile:
    """Memo-only operating metrics for a profiled company."""

    company: str
    arr: int
    gross_margin: int
    logo_churn: float
    net_retention: int
    headcount_plan: int
    runway_months: int
    payback: int
    concentration: int
    thesis: str
    risk: str


@dataclass
class DataRoom:
    """Everything the generator produces, before it is written to files."""

    companies: list[Company]
    rounds: list[Round]
    valuations: list[Valuation]
    profiles: list[Profile]

    def company(self, name: str) -> Company:
        """Look a company up by name."""
        return next(c for c in self.companies if c.name == name)


# --------------------------------------------------------------------------- data generation


def round_to(value: float, step: int) -> int:
    """Round a value to the nearest multiple of step."""
    return round(value / step) * step


def pick_lead(rng: random.Random, stage: str) -> str:
    """Pick a lead investor whose stage focus covers the round."""
    idx = ROUNDS.index(stage)
    eligible = [(name, weight) for name, lo, hi, weight in INVESTORS if ROUNDS.index(lo) <= idx <= ROUNDS.index(hi)]
    names, weights = zip(*eligible, strict=False)
    return rng.choices(names, weights=weights)[0]


def build_rounds(rng: random.Random, name: str, sector: str, country: str) -> list[Round]:
    """Generate a company's rounds in stage and time order within 2019-2024."""
    stage_idx = 0 if rng.random() < 0.5 else 1
    date = FIRST_DATE + dt.timedelta(days=rng.randint(0, 420))
    target = rng.randint(4, 7)
    rounds: list[Round] = []
    while len(rounds) < target and date <= LAST_DATE:
        stage = ROUNDS[stage_idx]
        lo, hi, step = ROUND_SIZE[stage]
        amount = max(step, round_to(rng.uniform(lo, hi) * COUNTRIES[country], step))
        rounds.append(Round(name, country, sector, stage, date, amount, pick_lead(rng, stage)))
        stage_idx = min(stage_idx + 1, len(ROUNDS) - 1)
        date += dt.timedelta(days=rng.randint(240, 480))
    return rounds


def build_valuations(rng: random.Random, rounds: list[Round]) -> list[Valuation]:
    """Derive post-money valuations for priced rounds from amount and share sold."""
    valuations = []
    for r in rounds:
        if r.stage not in OWNERSHIP_SOLD:
            continue
        post_money = round_to(r.amount / rng.uniform(*OWNERSHIP_SOLD[r.stage]), 1_000_000)
        valuations.append(Valuation(r.company, r.stage, r.date, post_money, round(r.amount / post_money, 4)))
    return valuations


def build_profiles(rng: random.Random, companies: list[Company]) -> list[Profile]:
    """Choose the companies the memo profiles and invent their operating metrics."""
    chosen: list[Company] = []
    for sector in SECTOR_COMPANIES:
        in_sector = [c for c in companies if c.sector == sector]
        chosen.append(max(in_sector, key=lambda c: c.total_raised))
    # four more companies whose latest round is still a Series A-C, for a mix of stages
    rest = [c for c in companies if c not in chosen and c.rounds[-1].stage in ("Series A", "Series B", "Series C")]
    chosen += rng.sample(rest, 4)
    chosen.sort(key=lambda c: (list(SECTOR_COMPANIES).index(c.sector), -c.total_raised))
    n = len(chosen)
    # sampled without replacement so the memo's "highest/lowest/longest" claims have one clear answer
    runways = rng.sample(range(6, 12), 3) + rng.sample(range(14, 41), n - 3)
    rng.shuffle(runways)
    churns = [tenths / 10 for tenths in rng.sample(range(20, 141), n)]
    retentions = rng.sample(range(96, 143), n)
    profiles = []
    for i, c in enumerate(chosen):
        profiles.append(
            Profile(
                company=c.name,
                arr=round_to(c.total_raised * rng.uniform(0.12, 0.40), 100_000),
                gross_margin=rng.randint(42, 82),
                logo_churn=churns[i],
                net_retention=retentions[i],
                headcount_plan=round_to(c.employees * rng.uniform(1.10, 1.55), 5),
                runway_months=runways[i],
                payback=rng.randint(9, 22),
                concentration=rng.randint(18, 46),
                thesis=COMPANY_THESES[i % len(COMPANY_THESES)],
                risk=COMPANY_RISKS[(i * 3 + 1) % len(COMPANY_RISKS)],
            )
        )
    return profiles


def build_data_room(seed: int = SEED) -> DataRoom:
    """Generate companies, rounds, valuations and memo profiles from one seed."""
    rng = random.Random(seed)
    entries = [(name, sector, desc) for sector, items in SECTOR_COMPANIES.items() for name, desc in items]
    countries = (list(COUNTRIES) * 8)[: len(entries)]
    rng.shuffle(countries)
    ceo_pairs = zip(rng.sample(FIRST_NAMES * 2, len(entries)), rng.sample(LAST_NAMES, len(entries)), strict=False)

    companies: list[Company] = []
    for (name, sector, desc), country, (first, last) in zip(entries, countries, ceo_pairs, strict=False):
        rounds = build_rounds(rng, name, sector, country)
        total = sum(r.amount for r in rounds)
        founded = rounds[0].date.year - rng.randint(0, 3)
        employees = max(6, int(total / rng.uniform(350_000, 650_000)))
        companies.append(Company(name, sector, country, desc, founded, employees, f"{first} {last}", rounds))

    rounds = sorted((r for c in companies for r in c.rounds), key=lambda r: (r.date, r.company))
    valuations = build_valuations(rng, [r for c in companies for r in c.rounds])
    profiles = build_profiles(rng, companies)
    room = DataRoom(companies, rounds, valuations, profiles)
    check_clear_answers(room)
    return room


def unique_max(counts: Mapping[K, V]) -> tuple[K, V]:
    """Return the key with the largest value, failing if the maximum is tied."""
    ranked = sorted(counts.items(), key=lambda kv: kv[1], reverse=True)
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        raise ValueError(f"tie for the maximum: {ranked[:2]}")
    return ranked[0]


def check_clear_answers(room: DataRoom) -> None:
    """Fail loudly if a demo question would not have a single clear answer."""
    unique_max({i: r.amount for i, r in enumerate(room.rounds)})
    unique_max({c.name: c.total_raised for c in room.companies})
    unique_max(Counter(r.lead for r in room.rounds))
    if not any(r.country == "Canada" and r.date.year == 2021 for r in room.rounds):
        raise ValueError("no Canadian rounds in 2021")
    if any(not FIRST_DATE <= r.date <= LAST_DATE for r in room.rounds):
        raise ValueError("round dated outside 2019-2024")


# --------------------------------------------------------------------------- formatting helpers


def usd(amount: int) -> str:
    """Format a dollar amount in full, e.g. $12,000,000."""
    return f"${amount:,}"


def usd_short(amount: int) -> str:
    """Format a dollar amount compactly, e.g. $45.0M or $750K."""
    if amount >= 1_000_000:
        return f"${amount / 1_000_000:,.1f}M"
    return f"${amount // 1_000:,}K"


def month_year(date: dt.date) -> str:
    """Format a date as 'March 2022' independent of the locale."""
    return f"{MONTHS[date.month - 1]} {date.year}"


def country_phrase(country: str) -> str:
    """Prefix 'the' where English needs it, e.g. 'the United States'."""
    return f"the {country}" if country.startswith("United") else country


def round_label(stage: str) -> str:
    """Name a round in prose: 'Series B', but 'Growth round' and 'Seed round'."""
    return stage if stage.startswith("Series") else f"{stage} round"


def article(amount_text: str) -> str:
    """Prefix 'a' or 'an' as the amount is spoken: 'an $89.0M', 'a $110.0M', 'an $11.0M'."""
    digits = amount_text.lstrip("$").split(".")[0].replace(",", "").rstrip("MK")
    spoken_vowel = digits.startswith("8") or (len(digits) == 2 and digits in ("11", "18"))
    return f"{'an' if spoken_vowel else 'a'} {amount_text}"


def possessive(name: str) -> str:
    """English possessive: "Ledgerlark's", "Heronvale Diagnostics'"."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def number_word(n: int) -> str:
    """Spell out small counts ('three'), keep larger ones as digits."""
    words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
    return words[n] if 0 <= n < len(words) else str(n)


def join_names(names: list[str]) -> str:
    """Join names as 'A, B and C'."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# --------------------------------------------------------------------------- CSV


def write_csv(room: DataRoom, path: Path) -> None:
    """Write one row per funding round, sorted by date."""
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for r in room.rounds:
            writer.writerow([r.company, r.country, r.sector, r.stage, r.date.isoformat(), r.amount, r.lead])


# --------------------------------------------------------------------------- XLSX


def stable_zip(data: bytes) -> bytes:
    """Re-pack a zip archive with fixed member timestamps so it is byte-stable."""
    stamp = MEMO_DATE.timetuple()[:6]
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            info = zipfile.ZipInfo(item.filename, date_time=stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o600 << 16
            dst.writestr(info, src.read(item.filename))
    return out.getvalue()


def write_xlsx(room: DataRoom, path: Path) -> None:
    """Write the Portfolio and Valuations sheets with fixed document timestamps."""
    wb = Workbook()
    header_font = Font(bold=True, color="FFFFFF")
    header_fill = PatternFill("solid", fgColor="1F3A5F")

    def add_header(ws: Worksheet, columns: list[str], widths: list[int]) -> None:
        ws.append(columns)
        for cell, width in zip(ws[1], widths, strict=False):
            cell.font, cell.fill = header_font, header_fill
            ws.column_dimensions[cell.column_letter].width = width
        ws.freeze_panes = "A2"

    portfolio = wb.active
    portfolio.title = "Portfolio"
    add_header(portfolio, PORTFOLIO_COLUMNS, [24, 16, 18, 10, 12, 20])
    for c in sorted(room.companies, key=lambda c: c.name):
        portfolio.append([c.name, c.country, c.sector, c.founded, c.employees, c.total_raised])
        portfolio.cell(row=portfolio.max_row, column=6).number_format = "$#,##0"

    valuations = wb.create_sheet("Valuations")
    add_header(valuations, VALUATION_COLUMNS, [24, 10, 12, 26, 15])
    for v in sorted(room.valuations, key=lambda v: (v.company, v.date)):
        valuations.append([v.company, v.stage, v.date, v.post_money, v.ownership_sold])
        row = valuations.max_row
        valuations.cell(row=row, column=3).number_format = "yyyy-mm-dd"
        valuations.cell(row=row, column=4).number_format = "$#,##0"
        valuations.cell(row=row, column=5).number_format = "0.0%"

    wb.properties.creator = FUND_NAME
    wb.properties.title = "Fictional portfolio companies and valuations (synthetic demo data)"
    wb.properties.created = MEMO_DATE
    wb.properties.modified = MEMO_DATE
    buffer = io.BytesIO()
    # ExcelWriter directly: openpyxl's save_workbook() would overwrite `modified` with the current time.
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        ExcelWriter(wb, archive).save()
    path.write_bytes(stable_zip(buffer.getvalue()))


# --------------------------------------------------------------------------- PDF memo

PAGE_W, PAGE_H = 612, 792  # US Letter in points
MARGIN_X, BODY_TOP, BODY_BOTTOM = 64, 72, 736
BLOCK_GAP = 9
NAVY = "#1f3a5f"
MEMO_CSS = f"""
* {{ font-family: sans-serif; font-size: 10pt; color: #222222; }}
h1 {{ font-size: 18pt; color: {NAVY}; margin: 0 0 4pt 0; }}
h2 {{ font-size: 13pt; color: {NAVY}; margin: 0 0 3pt 0; }}
h3 {{ font-size: 11pt; color: {NAVY}; margin: 0 0 2pt 0; }}
p {{ margin: 0 0 4pt 0; line-height: 1.35; text-align: left; }}
p.metrics {{ font-size: 9pt; color: #444444; background-color: #eef2f7; padding: 3pt 5pt; text-align: left; }}
p.caption {{ font-size: 9pt; color: #555555; text-align: left; }}
li {{ margin: 0 0 3pt 0; line-height: 1.35; }}
table {{ border-collapse: collapse; width: 100%; }}
th {{ background-color: {NAVY}; color: #ffffff; text-align: left; padding: 3pt 4pt; font-size: 8.5pt; }}
td {{ padding: 3pt 4pt; border-bottom: 0.5pt solid #b0b8c4; font-size: 8.5pt; }}
td.num, th.num {{ text-align: right; }}
"""


@dataclass(frozen=True)
class Block:
    """A chunk of memo HTML that is never split across pages."""

    key: str
    html: str
    new_page: bool = False
    keep_with_next: bool = False


def esc(text: str) -> str:
    """Escape text for the memo HTML."""
    return html.escape(text, quote=False)


@dataclass(frozen=True)
class PortfolioStats:
    """Aggregates of the funding data that the memo quotes."""

    total: int
    by_year: dict[int, int]
    by_country: dict[str, int]
    by_sector: dict[str, int]
    biggest: Round
    short_runway: list[Profile]


def portfolio_stats(room: DataRoom) -> PortfolioStats:
    """Aggregate capital by year, country and sector."""
    by_year: dict[int, int] = defaultdict(int)
    by_country: dict[str, int] = defaultdict(int)
    by_sector: dict[str, int] = defaultdict(int)
    for r in room.rounds:
        by_year[r.date.year] += r.amount
        by_country[r.country] += r.amount
        by_sector[r.sector] += r.amount
    short = sorted((p for p in room.profiles if p.runway_months < 12), key=lambda p: p.runway_months)
    return PortfolioStats(
        total=sum(r.amount for r in room.rounds),
        by_year=dict(by_year),
        by_country=dict(by_country),
        by_sector=dict(by_sector),
        biggest=max(room.rounds, key=lambda r: r.amount),
        short_runway=short,
    )


def overview_blocks(room: DataRoom, st: PortfolioStats) -> list[Block]:
    """Executive summary, market overview and Table 1."""
    rounds, profiles = room.rounds, room.profiles
    top_country, _ = unique_max(st.by_country)
    top_sector, _ = unique_max(st.by_sector)
    headcount_now = sum(room.company(p.company).employees for p in profiles)
    headcount_plan = sum(p.headcount_plan for p in profiles)
    gaps = []
    for c in room.companies:
        dates = {r.stage: r.date for r in c.rounds}
        if "Seed" in dates and "Series A" in dates:
            gaps.append((dates["Series A"] - dates["Seed"]).days / 30.44)
    early = Counter(r.date.year for r in rounds if r.stage in ("Pre-seed", "Seed"))
    late = Counter(r.date.year for r in rounds if r.stage in ("Series C", "Growth"))
    early_year, early_count = unique_max(early)
    late_year, late_count = unique_max(late)
    weighted_nrr = sum(p.net_retention * p.arr for p in profiles) / sum(p.arr for p in profiles)
    year_text = "; ".join(f"{y}: {usd_short(st.by_year[y])}" for y in sorted(st.by_year))
    b = st.biggest

    summary = (
        "<h1>1. Executive summary</h1>"
        f"<p>This review covers the {len(room.companies)} companies tracked by {FUND_NAME} and the "
        f"{len(rounds)} financing rounds they closed between {rounds[0].date.year} and {rounds[-1].date.year}. "
        f"Together these rounds raised {usd_short(st.total)}. The largest single financing was the "
        f"{usd_short(b.amount)} {b.stage} round closed by {esc(b.company)} in {month_year(b.date)}, "
        f"led by {esc(b.lead)}.</p>"
        f"<p>{top_sector} attracted the most capital of any sector ({usd_short(st.by_sector[top_sector])}), "
        f"and companies headquartered in {country_phrase(top_country)} raised "
        f"{usd_short(st.by_country[top_country])}, the most of any country. The {number_word(len(profiles))} "
        f"companies profiled in this review employ {headcount_now:,} people today and plan to reach "
        f"{headcount_plan:,} by the end of 2025, a {100 * (headcount_plan / headcount_now - 1):.0f}% increase.</p>"
        "<p>Our overall assessment is constructive: revenue retention is healthy and most companies are "
        f"funded into 2026, but {number_word(len(st.short_runway))} profiled companies need to raise or cut "
        "costs within the next year (see section 6).</p>"
    )
    market = (
        "<h1>2. Market overview</h1>"
        f"<p>Capital raised by the portfolio, by year of closing: {year_text}. Early rounds (Pre-seed and "
        f"Seed) were most frequent in {early_year}, with {early_count} closings, while later-stage rounds "
        f"(Series C and Growth) peaked in {late_year}, with {late_count} closings, as companies matured.</p>"
        f"<p>The median time between a company's Seed and Series A rounds was "
        f"{statistics.median(gaps):.0f} months. Weighted by annual recurring revenue, net revenue retention "
        f"across the profiled companies was {weighted_nrr:.0f}%, and their average gross margin was "
        f"{statistics.mean(p.gross_margin for p in profiles):.0f}%.</p>"
    )
    top10 = sorted(room.companies, key=lambda c: c.total_raised, reverse=True)[:10]
    rows = "".join(
        f"<tr><td>{esc(c.name)}</td><td>{c.country}</td><td>{c.sector}</td>"
        f"<td class='num'>{len(c.rounds)}</td><td class='num'>{usd_short(c.total_raised)}</td>"
        f"<td>{c.rounds[-1].stage}, {c.rounds[-1].date.isoformat()}</td></tr>"
        for c in top10
    )
    table = (
        "<h2>Table 1. Ten largest companies by capital raised</h2>"
        "<table><tr><th>Company</th><th>Country</th><th>Sector</th><th class='num'>Rounds</th>"
        f"<th class='num'>Total raised</th><th>Latest round</th></tr>{rows}</table>"
        f"<p class='caption'>Totals are the sum of all rounds from 2019 to 2024 in {CSV_NAME}.</p>"
    )
    return [Block("summary", summary), Block("market", market), Block("table", table)]


def sector_blocks(room: DataRoom, st: PortfolioStats) -> list[Block]:
    """One review per sector, each followed by its company profiles."""
    blocks = []
    for i, (sector, (view, sector_risk)) in enumerate(SECTOR_VIEWS.items()):
        in_sector = [c for c in room.companies if c.sector == sector]
        sector_rounds = [r for r in room.rounds if r.sector == sector]
        largest = max(sector_rounds, key=lambda r: r.amount)
        heading = "<h1>3. Sector reviews</h1>" if i == 0 else ""
        blocks.append(
            Block(
                f"sector:{sector}",
                f"{heading}<h2>{sector}</h2>"
                f"<p>{len(in_sector)} companies, {len(sector_rounds)} rounds, "
                f"{usd_short(st.by_sector[sector])} raised. {view} The largest round in the sector was "
                f"{possessive(esc(largest.company))} {usd_short(largest.amount)} {round_label(largest.stage)} in "
                f"{month_year(largest.date)}. {sector_risk}</p>",
                new_page=i == 0,
                keep_with_next=True,
            )
        )
        blocks += [profile_block(room, p) for p in room.profiles if room.company(p.company).sector == sector]
    return blocks


def closing_blocks(room: DataRoom, st: PortfolioStats) -> list[Block]:
    """Key metrics, outlook, risks and the methodology note."""
    rounds, profiles = room.rounds, room.profiles
    by_name = {p.company: p for p in profiles}
    best_nrr = by_name[unique_max({p.company: p.net_retention for p in profiles})[0]]
    low_churn = by_name[unique_max({p.company: -p.logo_churn for p in profiles})[0]]
    long_runway = by_name[unique_max({p.company: p.runway_months for p in profiles})[0]]
    top_lead, top_lead_count = unique_max(Counter(r.lead for r in rounds))
    em_share = (st.by_country["Brazil"] + st.by_country["India"]) / st.total
    short_text = join_names([f"{esc(p.company)} ({p.runway_months} months)" for p in st.short_runway])
    metrics = (
        "<h1>4. Key metrics at a glance</h1>"
        f"<p>Across the {number_word(len(profiles))} profiled companies, annual logo churn ranges from "
        f"{min(p.logo_churn for p in profiles):.1f}% to {max(p.logo_churn for p in profiles):.1f}% and gross "
        f"margins from {min(p.gross_margin for p in profiles)}% to {max(p.gross_margin for p in profiles)}%. "
        f"Their combined annual recurring revenue is {usd_short(sum(p.arr for p in profiles))}. "
        f"{esc(best_nrr.company)} has the highest net revenue retention ({best_nrr.net_retention}%), "
        f"{esc(low_churn.company)} the lowest logo churn ({low_churn.logo_churn:.1f}%), and "
        f"{esc(long_runway.company)} the longest runway ({long_runway.runway_months} months).</p>"
    )
    outlook = (
        "<h1>5. Outlook for 2025</h1>"
        f"<p>The fund has set aside {usd_short(FOLLOW_ON_RESERVE)} of follow-on reserves for 2025 and plans "
        f"{number_word(NEW_INVESTMENTS_2025)} new investments, prioritising AI Infrastructure and Climate. "
        "We expect most follow-on capital to go to companies that are growing revenue faster than headcount, "
        "and we will support the companies with short runway through bridge financings only where a "
        "credible path to profitability exists.</p>"
    )
    risks = (
        "<h1>6. Risks</h1><ul>"
        f"<li><b>Runway.</b> {number_word(len(st.short_runway)).capitalize()} profiled companies report less "
        f"than 12 months of runway at current burn: {short_text}. Each is preparing a financing or a cost "
        "plan for the first half of 2025.</li>"
        f"<li><b>Investor concentration.</b> {esc(top_lead)} led {top_lead_count} of the {len(rounds)} rounds "
        f"({100 * top_lead_count / len(rounds):.0f}%). A change in its strategy would affect follow-on "
        "financing for several companies at once.</li>"
        f"<li><b>Currency.</b> Companies in Brazil and India raised {100 * em_share:.0f}% of the portfolio's "
        "capital in US dollars but earn most revenue in local currency.</li>"
        "<li><b>Regulation.</b> Fintech and Healthtech companies face licensing and data-protection rules "
        "that differ by country and lengthen expansion timelines.</li>"
        "<li><b>Valuation.</b> Some priced rounds from 2021 and 2022 may not be exceeded by the next "
        f"financing; we mark holdings at the latest post-money valuation in {XLSX_NAME}.</li></ul>"
    )
    method = (
        "<h1>7. Methodology and disclaimer</h1>"
        f"<p>Round data come from {CSV_NAME}; headcount, founding years and valuations from {XLSX_NAME}. "
        "Operating metrics (annual recurring revenue, margins, churn, retention, runway and headcount plans), "
        "chief executives and the 2025 outlook are reported by management and appear only in this memo.</p>"
        "<p><b>All companies, investors, people and figures in this document are fictional.</b> They were "
        "generated by a seeded program to demonstrate the Analyst Workbench; any resemblance to real "
        "organisations or persons is coincidental.</p>"
    )
    return [
        Block("metrics", metrics, new_page=True),
        Block("outlook", outlook),
        Block("risks", risks),
        Block("method", method),
    ]


def memo_blocks(room: DataRoom) -> list[Block]:
    """Compose the memo body as a list of unsplittable HTML blocks."""
    st = portfolio_stats(room)
    return overview_blocks(room, st) + sector_blocks(room, st) + closing_blocks(room, st)


def profile_block(room: DataRoom, p: Profile) -> Block:
    """Render one company profile: overview, thesis, risk and memo-only metrics."""
    c = room.company(p.company)
    last = c.rounds[-1]
    thesis = p.thesis.format(name=c.name, payback=p.payback, country=country_phrase(c.country))
    risk = p.risk.format(concentration=p.concentration)
    return Block(
        f"profile:{c.name}",
        f"<h3>{esc(c.name)}</h3>"
        f"<p>{esc(c.name)} ({c.country}, founded {c.founded}) {esc(c.description)}. The company is led by "
        f"CEO {esc(c.ceo)}. {esc(c.name)} closed {article(usd_short(last.amount))} {round_label(last.stage)} in "
        f"{month_year(last.date)} led by {esc(last.lead)}, bringing total capital raised to "
        f"{usd_short(c.total_raised)} across {len(c.rounds)} rounds. {esc(thesis)} {esc(risk)}</p>"
        f"<p class='metrics'><b>Key metrics:</b> ARR {usd_short(p.arr)} \u00b7 gross margin {p.gross_margin}% "
        f"\u00b7 annual logo churn {p.logo_churn:.1f}% \u00b7 net revenue retention {p.net_retention}% "
        f"\u00b7 headcount {c.employees:,}, plan {p.headcount_plan:,} by end of 2025 "
        f"\u00b7 runway {p.runway_months} months</p>",
    )


def no_ligatures(markup: str) -> str:
    """Wrap an 'f' before f/i/l in its own span so MuPDF's shaper emits plain letters, not ligature glyphs.

    Ligatures (U+FB01 'fi' and friends) would otherwise appear in the extracted text and break searches.
    """
    parts = re.split(r"(<[^>]*>)", markup)
    return "".join(p if p.startswith("<") else re.sub(r"f(?=[fil])", "<span>f</span>", p) for p in parts)


def insert_html(page: pymupdf.Page, rect: tuple[float, float, float, float], text: str, css: str = MEMO_CSS) -> float:
    """Insert HTML into a rectangle, failing instead of shrinking or clipping; return the spare height."""
    spare, scale = page.insert_htmlbox(pymupdf.Rect(rect), no_ligatures(text), css=css, scale_low=1)
    if spare < 0 or scale < 1:
        raise ValueError(f"memo text does not fit on page {page.number + 1}: {text[:60]!r}")
    return spare


def layout_memo(doc: pymupdf.Document, blocks: list[Block]) -> dict[str, int]:
    """Flow blocks onto body pages (after the title page); return block key -> 1-based page number."""
    scratch = pymupdf.open()  # blocks are measured on tall throw-away pages first
    width = PAGE_W - 2 * MARGIN_X
    heights = []
    for block in blocks:
        tall = scratch.new_page(width=PAGE_W, height=5000)
        heights.append(5000 - insert_html(tall, (0, 0, width, 5000), block.html))
    scratch.close()

    pages: dict[str, int] = {}
    page, y = None, BODY_BOTTOM
    for i, (block, height) in enumerate(zip(blocks, heights, strict=False)):
        needed = height
        if block.keep_with_next and i + 1 < len(blocks):
            needed += BLOCK_GAP + heights[i + 1]
        if page is None or block.new_page or y + needed > BODY_BOTTOM:
            page, y = doc.new_page(width=PAGE_W, height=PAGE_H), BODY_TOP
        insert_html(page, (MARGIN_X, y, PAGE_W - MARGIN_X, y + height + 2), block.html)
        pages[block.key] = page.number + 1
        y += height + BLOCK_GAP
    return pages


def draw_title_page(page: pymupdf.Page, room: DataRoom, pages: dict[str, int]) -> None:
    """Draw the cover: title band, fund summary, contents and disclaimer."""
    navy = (0x1F / 255, 0x3A / 255, 0x5F / 255)
    page.draw_rect(pymupdf.Rect(0, 0, PAGE_W, 250), color=None, fill=navy)
    cover_css = "* { font-family: sans-serif; color: #ffffff; } p { margin: 0 0 6pt 0; }"
    insert_html(
        page,
        (MARGIN_X, 96, PAGE_W - MARGIN_X, 240),
        f"<p style='font-size:11pt; letter-spacing:1pt'>{FUND_NAME.upper()} \u00b7 INVESTMENT COMMITTEE</p>"
        "<p style='font-size:30pt; font-weight:bold'>Portfolio Review 2024</p>"
        f"<p style='font-size:12pt'>Prepared {MEMO_DATE.day} {MONTHS[MEMO_DATE.month - 1]} {MEMO_DATE.year}"
        " \u00b7 Covers financings from 2019 to 2024</p>",
        css=cover_css,
    )
    sector_page = pages[f"sector:{next(iter(SECTOR_VIEWS))}"]
    contents = [
        ("1. Executive summary", pages["summary"]),
        ("2. Market overview", pages["market"]),
        ("3. Sector reviews and company profiles", sector_page),
        ("4. Key metrics at a glance", pages["metrics"]),
        ("5. Outlook for 2025", pages["outlook"]),
        ("6. Risks", pages["risks"]),
        ("7. Methodology and disclaimer", pages["method"]),
    ]
    rows = "".join(f"<tr><td>{title}</td><td class='num'>{num}</td></tr>" for title, num in contents)
    total = sum(r.amount for r in room.rounds)
    glance = [
        (str(len(room.companies)), "companies"),
        (str(len(COUNTRIES)), "countries"),
        (str(len(SECTOR_COMPANIES)), "sectors"),
        (str(len(room.rounds)), "rounds"),
        (f"${total / 1e9:.1f}B", "raised"),
    ]
    cells = "".join(
        f"<td style='text-align:center; border-bottom:none'><span style='font-size:18pt; font-weight:bold;"
        f" color:{NAVY}'>{value}</span><br/>{label}</td>"
        for value, label in glance
    )
    insert_html(
        page,
        (MARGIN_X, 280, PAGE_W - MARGIN_X, 640),
        f"<p>This memo reviews the {len(room.companies)} companies tracked by {FUND_NAME}: their financings, "
        f"operating metrics and the risks we see for 2025. {number_word(len(room.profiles)).capitalize()} "
        "companies are profiled in detail. Figures on rounds and valuations agree with the accompanying "
        "workbook and CSV.</p>"
        f"<table style='margin: 10pt 0 14pt 0'><tr>{cells}</tr></table>"
        f"<h2>Contents</h2><table>{rows}</table>",
    )
    page.draw_rect(pymupdf.Rect(MARGIN_X, 668, PAGE_W - MARGIN_X, 712), color=(0.75, 0.78, 0.82), width=0.8)
    insert_html(
        page,
        (MARGIN_X + 10, 675, PAGE_W - MARGIN_X - 10, 708),
        "<p style='font-size:9pt'><b>Synthetic demo document.</b> All companies, investors, "
        "people and figures are fictional and were generated by code for the Analyst Workbench demo. "
        "They do not describe any real organisation.</p>",
    )


def draw_header_footer(doc: pymupdf.Document) -> None:
    """Add a running header and 'Page n of N' footer to every page after the cover."""
    small = "* { font-family: sans-serif; font-size: 8pt; color: #666666; } p { margin: 0; }"
    total = doc.page_count
    for page in doc:
        if page.number == 0:
            continue
        page.draw_line((MARGIN_X, 52), (PAGE_W - MARGIN_X, 52), color=(0.7, 0.72, 0.76), width=0.5)
        page.draw_line((MARGIN_X, 748), (PAGE_W - MARGIN_X, 748), color=(0.7, 0.72, 0.76), width=0.5)
        insert_html(page, (MARGIN_X, 36, PAGE_W - MARGIN_X, 50), f"<p>{esc(MEMO_TITLE)}</p>", css=small)
        insert_html(
            page,
            (MARGIN_X, 36, PAGE_W - MARGIN_X, 50),
            "<p style='text-align:right'>Confidential \u00b7 synthetic demo data</p>",
            css=small,
        )
        insert_html(
            page,
            (MARGIN_X, 754, PAGE_W - MARGIN_X, 768),
            f"<p style='text-align:center'>Page {page.number + 1} of {total}</p>",
            css=small,
        )


def build_memo(room: DataRoom) -> tuple[bytes, dict[str, int]]:
    """Render the memo to PDF bytes; also return block key -> page number."""
    doc = pymupdf.open()
    doc.new_page(width=PAGE_W, height=PAGE_H)  # the cover is drawn last, once section pages are known
    pages = layout_memo(doc, memo_blocks(room))
    draw_title_page(doc[0], room, pages)
    draw_header_footer(doc)
    stamp = MEMO_DATE.strftime("D:%Y%m%d%H%M%S+00'00'")
    doc.set_metadata(
        {
            "title": MEMO_TITLE,
            "author": FUND_NAME,
            "subject": "Synthetic investment memo for the Analyst Workbench demo",
            "keywords": "demo, fictional, portfolio review",
            "creator": "data/generate_demo.py",
            "producer": "PyMuPDF",
            "creationDate": stamp,
            "modDate": stamp,
        }
    )
    doc.subset_fonts()  # every htmlbox embeds its own font copy; subsetting + garbage=4 shrinks 2.4 MB to ~75 KB
    # garbage=4 also merges duplicate objects; no_new_id keeps the trailer /ID stable, so bytes are reproducible
    data = doc.tobytes(garbage=4, deflate=True, no_new_id=True)
    doc.close()
    return data, pages


def write_pdf(room: DataRoom, path: Path) -> dict[str, int]:
    """Write the memo PDF and return block key -> page number (used to cite pages)."""
    data, pages = build_memo(room)
    path.write_bytes(data)
    return pages


# --------------------------------------------------------------------------- questions


def csv_line(room: DataRoom, target: Round) -> int:
    """Spreadsheet row number of a round in the CSV (the header is row 1)."""
    return room.rounds.index(target) + 2


def build_questions(room: DataRoom, pages: dict[str, int]) -> list[tuple[str, str, str]]:
    """Compute the 10 demo questions as (question, answer, source)."""
    rng = random.Random(SEED + 1)
    rounds = room.rounds
    qs: list[tuple[str, str, str]] = []

    biggest = max(rounds, key=lambda r: r.amount)
    qs.append(
        (
            "Which company raised the largest single round?",
            f"{biggest.company} \u2014 {usd(biggest.amount)} ({biggest.stage}, {biggest.date.isoformat()}, "
            f"led by {biggest.lead}).",
            f"Sheet: `{CSV_NAME}`, row {csv_line(room, biggest)}",
        )
    )

    top_name, top_total = unique_max({c.name: c.total_raised for c in room.companies})
    top = room.company(top_name)
    qs.append(
        (
            "Which company has raised the most money in total?",
            f"{top_name} \u2014 {usd(top_total)} across {len(top.rounds)} rounds.",
            f"Sheet: `{CSV_NAME}` (sum of its rounds) or `{XLSX_NAME}` \u203a Portfolio, Total Raised (USD)",
        )
    )

    canada = [r for r in rounds if r.country == "Canada" and r.date.year == 2021]
    qs.append(
        (
            "How much was raised in Canada in 2021?",
            f"{usd(sum(r.amount for r in canada))} across {len(canada)} rounds "
            f"({join_names(sorted({r.company for r in canada}))}).",
            f"Sheet: `{CSV_NAME}`, rows {', '.join(str(csv_line(room, r)) for r in canada)}",
        )
    )

    seeds = [r for r in rounds if r.stage == "Seed"]
    qs.append(
        (
            "How many seed rounds were there?",
            f"{len(seeds)} Seed rounds (plus {sum(r.stage == 'Pre-seed' for r in rounds)} Pre-seed rounds), "
            f"raising {usd(sum(r.amount for r in seeds))} in total.",
            f"Sheet: `{CSV_NAME}`, Round = Seed",
        )
    )

    lead, count = unique_max(Counter(r.lead for r in rounds))
    qs.append(
        (
            "Which investor led the most rounds?",
            f"{lead} \u2014 {count} rounds, {usd(sum(r.amount for r in rounds if r.lead == lead))} in total.",
            f"Sheet: `{CSV_NAME}`, Lead Investor",
        )
    )

    priced = sorted({v.company for v in room.valuations})
    val_company = rng.choice(priced)
    latest = max((v for v in room.valuations if v.company == val_company), key=lambda v: v.date)
    qs.append(
        (
            f"What was {val_company}'s post-money valuation at its most recent priced round?",
            f"{usd(latest.post_money)} at its {latest.stage} round on {latest.date.isoformat()}, "
            f"with {latest.ownership_sold:.1%} of the company sold.",
            f"Workbook: `{XLSX_NAME}` \u203a Valuations",
        )
    )

    ceo_p, churn_p, plan_p = rng.sample(room.profiles, 3)
    qs.append(
        (
            f"Who is the CEO of {ceo_p.company}?",
            f"{room.company(ceo_p.company).ceo}.",
            f"Memo: `{PDF_NAME}`, p. {pages['profile:' + ceo_p.company]} (company profile)",
        )
    )
    qs.append(
        (
            f"What annual logo churn did {churn_p.company} report?",
            f"{churn_p.logo_churn:.1f}% (net revenue retention {churn_p.net_retention}%).",
            f"Memo: `{PDF_NAME}`, p. {pages['profile:' + churn_p.company]} (key metrics)",
        )
    )
    plan_c = room.company(plan_p.company)
    qs.append(
        (
            f"How many employees does {plan_p.company} plan to have by the end of 2025?",
            f"{plan_p.headcount_plan:,}, up from {plan_c.employees:,} today "
            f"(today's headcount is also in `{XLSX_NAME}` \u203a Portfolio).",
            f"Memo: `{PDF_NAME}`, p. {pages['profile:' + plan_p.company]} (key metrics)",
        )
    )
    short = sorted((p for p in room.profiles if p.runway_months < 12), key=lambda p: p.runway_months)
    qs.append(
        (
            "Which companies does the memo flag as having less than 12 months of runway?",
            join_names([f"{p.company} ({p.runway_months} months)" for p in short]) + ".",
            f"Memo: `{PDF_NAME}`, p. {pages['risks']} (Risks \u2014 Runway)",
        )
    )
    return qs


def write_questions(room: DataRoom, pages: dict[str, int], path: Path) -> None:
    """Write questions.md: each demo question with its expected answer and source."""
    lines = [
        "# Demo questions",
        "",
        "Try these against the demo data room. Answers are computed by `data/generate_demo.py` from the "
        "same synthetic data, so they always match the files. Questions 1\u20136 are answered from the "
        "spreadsheets; 7\u201310 only from the PDF memo.",
        "",
    ]
    for i, (question, answer, source) in enumerate(build_questions(room, pages), start=1):
        indent = " " * len(f"{i}. ")  # continuation lines align with the item text (CommonMark)
        lines += [f"{i}. **{question}**  ", f"{indent}Answer: {answer}  ", f"{indent}Source: {source}", ""]
    lines += [
        "_All companies, investors and people in the demo data room are fictional._",
        "",
    ]
    path.write_text("\n".join(lines), encoding="utf-8", newline="\n")


# --------------------------------------------------------------------------- entry point


def generate(out: Path, seed: int = SEED) -> dict[str, Path]:
    """Write all four demo files into `out` and return their paths."""
    out.mkdir(parents=True, exist_ok=True)
    room = build_data_room(seed)
    paths = {name: out / name for name in (CSV_NAME, XLSX_NAME, PDF_NAME, QUESTIONS_NAME)}
    write_csv(room, paths[CSV_NAME])
    write_xlsx(room, paths[XLSX_NAME])
    pages = write_pdf(room, paths[PDF_NAME])
    write_questions(room, pages, paths[QUESTIONS_NAME])
    return paths


def main(argv: list[str] | None = None) -> None:
    """Parse arguments and generate the demo data room."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default: data/demo)")
    args = parser.parse_args(argv)
    for path in generate(args.out).values():
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
