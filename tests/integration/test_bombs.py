"""Hostile files parse in a memory- and time-limited child: refused with the fix, the parent never grows."""

from __future__ import annotations

import resource

import pytest

from core.config import Settings
from core.errors import ParserLimit, TooMuchContent
from core.ingest.sandbox import last_peak_rss, parse_isolated
from tests.bombs import pdf_bomb, xlsx_bomb
from tests.factories import FUNDING_CSV

MB = 1024 * 1024
LIMIT_MB = 1536  # the aim: any file ingests or fails with peak RSS at most 1.5 GB


def _parent_peak() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


@pytest.fixture
def settings_() -> Settings:
    return Settings(WORKBENCH_PARSE_MEMORY_MB=LIMIT_MB)


def test_a_pdf_page_inflating_to_60_mb_of_text_is_refused_before_its_layout(settings_: Settings) -> None:
    data = pdf_bomb(60)
    assert len(data) < 400_000
    before = _parent_peak()
    with pytest.raises(
        TooMuchContent, match=r"page 1's drawing instructions unpack to 60 MB.*WORKBENCH_MAX_PAGE_CHARS"
    ):
        parse_isolated(data, "bomb.pdf", settings_)
    print(f"\nPDF bomb (60 MB of text): child peak {last_peak_rss() / MB:.0f} MB")
    assert 0 < last_peak_rss() <= LIMIT_MB * MB
    assert _parent_peak() - before < 100 * MB  # the parent never holds the page


def test_with_the_caps_raised_the_address_space_limit_still_stops_the_pdf_bomb(settings_: Settings) -> None:
    loose = settings_.model_copy(update={"max_page_chars": 10**10, "max_file_chars": 10**12})
    with pytest.raises(ParserLimit, match=r"needs more than 1,536 MB of memory.*WORKBENCH_PARSE_MEMORY_MB"):
        parse_isolated(pdf_bomb(60), "bomb.pdf", loose)
    print(f"\nPDF bomb, caps off: child peak {last_peak_rss() / MB:.0f} MB")
    assert 0 < last_peak_rss() <= LIMIT_MB * MB


def test_a_workbook_of_a_million_copies_of_one_long_string_is_refused_while_streaming(settings_: Settings) -> None:
    data = xlsx_bomb(1_000_000, 2_000)
    assert len(data) < 1_000_000
    with pytest.raises(TooMuchContent, match=r"more than 30,000,000 characters.*Split it"):
        parse_isolated(data, "bomb.xlsx", settings_)
    print(f"\nXLSX bomb: child peak {last_peak_rss() / MB:.0f} MB")
    assert 0 < last_peak_rss() <= 400 * MB


def test_too_many_cells_are_refused(settings_: Settings) -> None:
    few = settings_.model_copy(update={"max_cells": 1000})
    with pytest.raises(TooMuchContent, match=r"more than 1,000 cells.*WORKBENCH_MAX_CELLS"):
        parse_isolated(xlsx_bomb(5_000, 3), "cells.xlsx", few)
    csv = b"a,b\n" + b"1,2\n" * 1000
    with pytest.raises(TooMuchContent, match=r"more than 1,000 cells"):
        parse_isolated(csv, "cells.csv", few)


def test_a_parse_past_its_time_limit_is_stopped(settings_: Settings) -> None:
    hurried = settings_.model_copy(update={"parse_timeout": 0.05, "max_page_chars": 10**10, "max_file_chars": 10**12})
    with pytest.raises(ParserLimit, match=r"took over 0.05 s to read.*WORKBENCH_PARSE_TIMEOUT"):
        parse_isolated(pdf_bomb(20), "slow.pdf", hurried)


def test_an_ordinary_file_parses_in_the_child(settings_: Settings) -> None:
    parsed = parse_isolated(FUNDING_CSV, "funding.csv", settings_).parsed
    assert parsed.kind == "sheet" and len(parsed.sheets[0].rows) == 4


def test_the_parent_holds_no_second_copy_of_the_file(settings_: Settings) -> None:
    """A 64 MB upload (here one field that runs on, refused in the child): the bytes reach the child through a
    file, so the process that asked allocates nothing near their size (pickled as an argument, they were a
    second copy: one 190 MB field took a worker to 1.85 GB)."""
    import tracemalloc

    data = b'a,b\n1,"' + b"x" * (64 * MB)
    tracemalloc.start()
    try:
        with pytest.raises(Exception, match="runs on for over"):
            parse_isolated(data, "field.csv", settings_)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * MB, f"the parent allocated {peak / MB:.0f} MB around a {len(data) / MB:.0f} MB file"


def test_a_merged_range_over_every_column_is_refused_in_seconds(settings_: Settings) -> None:
    """`A1:XFD3000` merged: 49 M cells once filled. It ran 420 s past a 300 s timeout; it is refused when counted."""
    import time

    from tests.unit.test_sheets import _merge_bomb

    started = time.perf_counter()
    with pytest.raises(TooMuchContent, match=r"once its merged ranges are filled.*WORKBENCH_MAX_CELLS"):
        parse_isolated(_merge_bomb(3_000), "merged.xlsx", settings_)
    assert time.perf_counter() - started < 30
