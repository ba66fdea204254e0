"""Which lines of a cited passage the answer quotes (core.retrieval.quoted): the viewer highlights those."""

from __future__ import annotations

import pytest

from core.retrieval.quoted import claims_citing, passage_lines, quoted_lines

# A passage of the demo memo as ingestion stores it: one line per visual row, the chunk starting mid-paragraph.
PASSAGE = """sector was Harvestquay's $165.0M Growth round in October 2024. Revenue is seasonal and weather-
dependent, which makes quarterly forecasts volatile.

Harvestquay
Harvestquay (United Kingdom, founded 2018) runs a wholesale marketplace connecting farms and
restaurants. The company is led by CEO Nikhil Yarborough. Harvestquay closed a $165.0M Growth round in
October 2024 led by Meridian Fold Partners, bringing total capital raised to $340.2M across 6 rounds. We
see Harvestquay as the category leader in the United Kingdom, with room to expand into neighbouring
markets in 2025. A larger incumbent could bundle a competing product at a low price.
Key metrics: ARR $53.3M · gross margin 64% · annual logo churn 13.8% · net revenue retention 138% · headcount
532, plan 740 by end of 2025 · runway 27 months"""

ANSWER = (
    "Harvestquay Harvestquay (United Kingdom, founded 2018) runs a wholesale marketplace connecting farms and "
    "restaurants [1]. The company is led by CEO Nikhil Yarborough [1]. Company: Harvestquay; Country: United "
    "Kingdom; Amount Raised (USD): 4600000 [2]."
)


def test_the_lines_are_the_non_empty_ones() -> None:
    lines = passage_lines(PASSAGE)
    assert len(lines) == 10 and lines[2] == "Harvestquay" and lines[9].startswith("532, plan 740")


def test_the_sentences_citing_a_passage_are_the_claims() -> None:
    assert claims_citing(ANSWER, {1: [0], 2: [1]}, [0]) == [
        "Harvestquay Harvestquay (United Kingdom, founded 2018) runs a wholesale marketplace connecting farms and "
        "restaurants.",
        "The company is led by CEO Nikhil Yarborough.",
    ]
    assert claims_citing(ANSWER, {1: [0], 2: [1]}, [1]) == [
        "Company: Harvestquay; Country: United Kingdom; Amount Raised (USD): 4600000."
    ]
    # Markers not known (an answer read back whose markers could not be inferred): every sentence.
    assert len(claims_citing(ANSWER, {}, [0])) == 3


def test_a_quoted_sentence_lights_its_lines_only() -> None:
    # The heading, the sentence's two lines and the next sentence's line; not the round, the outlook, the metrics.
    assert quoted_lines(PASSAGE, claims_citing(ANSWER, {1: [0], 2: [1]}, [0])) == [2, 3, 4]
    assert quoted_lines(PASSAGE, ["Harvestquay closed a $165.0M Growth round in October 2024."]) == [0, 4, 5]


@pytest.mark.parametrize(
    ("claim", "lines"),
    [
        ("Harvestquay's gross margin is 64%.", [8]),  # a figure
        ("In total Harvestquay has raised $340.2M.", [5]),
        ("Its runway is 27 months.", [9]),
        ("Harvestquay's CEO is Nikhil Yarborough.", [4]),  # a paraphrase: the words only one line has
    ],
)
def test_figures_and_rare_words_light_their_line(claim: str, lines: list[int]) -> None:
    assert quoted_lines(PASSAGE, [claim]) == lines


@pytest.mark.parametrize("claim", ["Something else entirely.", "It happened in 2024.", ""])
def test_nothing_quoted_lights_nothing_and_the_viewer_shows_the_whole_passage(claim: str) -> None:
    # A bare year is no quote: it is in half the lines of a filing.
    assert quoted_lines(PASSAGE, [claim]) == []


def test_a_name_with_a_digit_is_not_a_figure() -> None:
    # An invented filer whose name holds a digit ("8Q"), as some companies' do: the name is on two lines, no figure.
    table = "Net sales $ 47,210 $ 44,385\nNet income attributable to 8Q 6,072 5,518\nPer share of 8Q common stock:"
    assert quoted_lines(table, ["8Q's net sales were $47,210 million in 2021."]) == [0]
    assert quoted_lines(table, ["Net income attributable to 8Q was $6,072 million."]) == [1]
