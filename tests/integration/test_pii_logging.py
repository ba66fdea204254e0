"""PII in the query log: qa_queries and qa_citations keep redacted copies; the asker and the documents keep
the original (offline mode, embedded Postgres)."""

from __future__ import annotations

import json

import pytest

from core.qa.service import ask
from core.workbench import Workbench

EMAIL, PHONE = "mara.quill@acme-robotics.example", "+44 20 7946 0958"
CONTACTS = (
    "Company,Contact email,Phone,Amount Raised (USD)\n"
    f"Acme Robotics,{EMAIL},{PHONE},2000000\n"
    "Borealis Bio,li.chen@borealis.example,(415) 555-2671,15000000\n"
).encode()


def _room(wb: Workbench) -> Workbench:
    result = wb.ingest_upload(CONTACTS, "contacts.csv", "Deal", embed=False)
    assert result.status == "ready"
    return wb


def _ask(wb: Workbench, question: str) -> dict:
    return list(ask(wb, question, "Deal"))[-1].result


def _log(wb: Workbench, query_id: int) -> tuple[str, str, list[dict]]:
    with wb.db.connection() as conn:
        question, answer = conn.execute("SELECT question, answer FROM qa_queries WHERE id = %s", (query_id,)).fetchone()
        citations = [
            r[0]
            for r in conn.execute(
                "SELECT citation FROM qa_citations WHERE query_id = %s ORDER BY position", (query_id,)
            )
        ]
    return question, answer, citations


def test_the_log_keeps_redacted_copies_and_the_user_sees_the_original(workbench: Workbench) -> None:
    wb = _room(workbench)
    result = _ask(wb, "What is the contact email and phone of Acme Robotics?")
    # The asker (an authorised user) gets the document's own words.
    assert EMAIL in result["answer"] or any(c.get("value") == EMAIL for c in result["citations"])
    question, answer, citations = _log(wb, result["query_id"])
    logged = json.dumps([question, answer, citations])
    assert EMAIL not in logged and PHONE not in logged and "(415) 555-2671" not in logged
    assert "[email]" in logged
    assert len(citations) == len(result["citations"]) and citations
    for stored, shown in zip(citations, result["citations"], strict=True):
        # Only the document text a citation carries is redacted: where it points is kept.
        assert {k: v for k, v in stored.items() if k not in ("value", "quote")} == {
            k: v for k, v in shown.items() if k not in ("value", "quote")
        }
    with wb.db.connection() as conn:
        stored_rows = [r[0] for r in conn.execute("SELECT values FROM sheet_rows ORDER BY row_index")]
        messages = [r[0] for r in conn.execute("SELECT content FROM messages ORDER BY id")]
    assert stored_rows[0][1] == EMAIL and stored_rows[0][2] == PHONE  # the document is untouched
    assert messages[1] == result["answer"]  # so is the conversation the user reads back


def test_a_question_holding_pii_is_logged_redacted(workbench: Workbench) -> None:
    wb = _room(workbench)
    result = _ask(wb, f"Which company is {EMAIL}?")
    assert "Acme Robotics" in result["answer"]
    question, _, citations = _log(wb, result["query_id"])
    assert question == "Which company is [email]?"
    assert EMAIL not in json.dumps(citations)


def test_redaction_can_be_turned_off(settings, db) -> None:
    wb = _room(Workbench(settings.model_copy(update={"redact_pii": False}), db=db))
    result = _ask(wb, f"Which company is {EMAIL}?")
    question, _, citations = _log(wb, result["query_id"])
    assert question == f"Which company is {EMAIL}?" and EMAIL in json.dumps(citations)


@pytest.mark.parametrize("question", ["What did Acme Robotics raise?", "How much was raised in total?"])
def test_financial_answers_are_logged_as_they_are(workbench: Workbench, question: str) -> None:
    wb = _room(workbench)
    result = _ask(wb, question)
    _, answer, citations = _log(wb, result["query_id"])
    assert answer == result["answer"] and not result["abstained"]
    assert any(v in answer for v in ("2000000", "2,000,000", "17000000", "17,000,000"))
    numbers = [
        (stored.get("value"), shown.get("value"))
        for stored, shown in zip(citations, result["citations"], strict=True)
        if (shown.get("value") or "").isdigit()
    ]
    assert numbers and all(stored == shown for stored, shown in numbers)


IDS = (
    b"Company,Passport,Account,Amount Raised (USD)\n"
    b"Acme Robotics,X1234567,GB82-WEST-1234-5698-7654-32,2000000\n"
    b"Borealis Bio,Y7654321,DE89370400440532013000,15000000\n"
)


def test_every_stored_copy_goes_through_one_function(workbench: Workbench) -> None:
    """Issue 41: the question's formats, and a value the question caught that the answer or a cited cell repeats
    without its label (the passport number) or written otherwise (the IBAN with dashes), are redacted in the
    question, the answer, the citation values and the conversation title alike."""
    assert workbench.ingest_upload(IDS, "ids.csv", "Deal", embed=False).status == "ready"
    # A labelled value in the question, repeated without its label in a cited cell's value.
    result = _ask(workbench, "What is the Account of the company with Passport X1234567?")
    assert "GB82-WEST-1234-5698-7654-32" in result["answer"]  # the asker sees the document's own words
    assert "X1234567" in [c.get("value") for c in result["citations"]]
    # The formats that got through, in a question of their own (stored as the question and the title).
    formats = "jane @ example . com, mailto:jane%40example.com, +44 7700 900123, 078051120, QQ123456C"
    other = _ask(workbench, f"Which company raised the most? Reply to {formats}")
    stored = []
    for query_id in (result["query_id"], other["query_id"]):
        stored.append(_log(workbench, query_id))
    with workbench.db.connection() as conn:
        stored.append(conn.execute("SELECT title FROM conversations ORDER BY id").fetchall())
    text = json.dumps(stored)
    for value in ("X1234567", "GB82", "WEST-1234", "jane", "%40", "7700 900123", "078051120", "QQ123456C"):
        assert value not in text, (value, text)
