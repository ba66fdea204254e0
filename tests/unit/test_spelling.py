"""A question's words put in the sheet's spelling (core/qa/planner/spelling.py)."""

from __future__ import annotations

from core.qa.planner.spelling import capitalised, initials, respell, spelled_like


def test_inflections_and_typos_of_a_word_are_the_word() -> None:
    assert spelled_like("actually", "actual") and spelled_like("budgeted", "budget")
    assert spelled_like("categories", "category") and spelled_like("revnue", "revenue")
    # short words differing by a letter mean otherwise; a different first letter is another word
    assert not spelled_like("sales", "scales") and not spelled_like("cost", "post")
    assert not spelled_like("margin", "marine") and not spelled_like("revenue", "avenue")


def test_initials_and_capitalised_names() -> None:
    assert initials("Available seat miles (millions)") == "asm"
    assert initials("Revenue") == ""
    assert capitalised("What did IT spend, and HR?") == {"it", "hr"}
    assert capitalised("What did it spend?") == set()


def test_a_word_is_respelled_only_when_one_of_the_sheets_words_is_meant() -> None:
    held = {"revenue", "passenger", "mile", "available", "seat", "actual", "budget"}
    labels = ["Revenue passenger miles", "Available seat miles"]
    read = respell({"rpm", "actually", "regional"}, held, labels)
    assert read.words == {"revenue", "passenger", "mile", "actual", "regional"}
    assert read.read == {"rpm": "mile passenger revenue", "actually": "actual"}
    # two labels with the same initials: which is meant is not known, the word stays as asked
    assert respell({"asm"}, held, [*labels, "Average selling margin"]).words == {"asm"}


def test_a_written_abbreviation_is_the_word_it_shortens() -> None:
    from core.qa.planner.spelling import abbreviates

    assert all(
        abbreviates(a, h) for a, h in [("amt", "amount"), ("qty", "quantity"), ("hrs", "hours"), ("dept", "department")]
    )
    assert not any(
        abbreviates(a, h) for a, h in [("tix", "tickets"), ("am", "amount"), ("amoun", "amount"), ("qty", "query")]
    )


def test_two_letters_swapped_are_a_typo_of_the_word() -> None:
    assert spelled_like("recieve", "receive") and spelled_like("wieght", "weight")
    assert not spelled_like("form", "from") and not spelled_like("trial", "trail")  # short words, other words
