"""Questions about something the room never mentions abstain (core.qa.grounding + the QA service)."""

from __future__ import annotations

import pytest

from core.qa.grounding import missing_names
from core.qa.service import ask
from core.qa.synth import ABSTAIN


@pytest.fixture
def demo(workbench):
    workbench.ensure_demo(embed=False)
    return workbench


def test_names_found_in_the_room_text_or_titles(demo) -> None:
    room = demo.room("Demo").id
    # Harvestquay is in the memo and the sheets; "Solvane Energy" is a phrase of the sheets.
    assert missing_names(demo.db, room, "Who is the CEO of Harvestquay?") == []
    assert missing_names(demo.db, room, "What annual logo churn did Solvane Energy report?") == []
    # Both words occur in the room, but never as the phrase "Solvane Health".
    assert missing_names(demo.db, room, "What did Solvane Health report?") == ["Solvane Health"]
    # A name with a digit in it (an invented "5T Haulage") is a name too.
    assert missing_names(demo.db, room, "How much did 5T spend on new trucks in FY2021?") == ["5T"]


def test_a_question_about_another_company_abstains(demo) -> None:
    events = list(ask(demo, "How much did Initech raise in its Series B?", "Demo"))
    result = events[-1].result
    assert result["abstained"] and result["answer"] == ABSTAIN and result["citations"] == []
    assert any(e.type == "step" and "Initech" in e.text for e in events)
