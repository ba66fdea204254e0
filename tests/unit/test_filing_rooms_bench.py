"""bench.filing_rooms: its golds are the figures its PDFs print, on the pages it names; its covers read as filings."""

from __future__ import annotations

from functools import cache

import pymupdf

from bench.filing_rooms import Company, Item, build, same, score
from core.ingest.filing import read_filing


@cache
def built() -> tuple[list[Company], list[Item]]:
    return build(5)


def test_line_item_golds_are_printed_on_the_pages_named() -> None:
    companies, items = built()
    rooms = {c.slug: c for c in companies}
    checked = 0
    for item in items:
        if item.klass != "a line item":
            continue
        c = rooms[item.room]
        assert item.year is not None
        figure = c.figures[item.year][item.line]
        assert item.gold == round(figure * c.layout["scale"] / item.scale, item.places)
        printed = f"{figure:,}"
        assert item.pages
        for name, number in item.pages:
            with pymupdf.open(stream=c.files[name]) as doc:
                assert printed in doc[number - 1].get_text(), (name, number, printed)
        checked += 1
    assert checked >= 6


def test_covers_read_as_the_fiscal_years_the_bench_asks_about() -> None:
    companies, _ = built()
    for c in companies:
        for name, year in c.file_years.items():
            if "10" not in name.lower() and "annual" not in name:
                continue
            with pymupdf.open(stream=c.files[name]) as doc:
                filing = read_filing([page.get_text() for page in doc], name)
            assert (filing.form, filing.fiscal_year) == ("10-K", year), name
    retailer = next(c for c in companies if c.retail)
    assert retailer.end(2022).isoformat() == "2023-01-28"


def test_scoring_reads_units_shares_and_leading_words() -> None:
    amount = Item("a line item", "r", "q", 2.08, places=2, scale=1e9)
    assert same(amount, "2.08") and same(amount, "$2,080 million") and not same(amount, "2.3")
    share = Item("c registry ratio", "r", "q", 18.24, percent=True)
    assert same(share, "18.2%") and same(share, "0.1824") and not same(share, "19.5%")
    yes = Item("g yes/no", "r", "q", text="yes")
    assert score(yes, {"answer": "Yes. Operating margin rose.", "values": []}) == "right"
    assert score(yes, {"answer": "No, it fell.", "values": ["1"]}) == "wrong"
    absent = Item("i period absent", "r", "q")
    assert score(absent, {"abstained": True, "values": []}) == "right"
