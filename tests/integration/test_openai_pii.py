"""PII never reaches an external model: the planner's room schema and the synthesizer's evidence are
redacted before they are sent (WORKBENCH_REDACT_PII), checked on the request bodies a local server
speaking the OpenAI protocol recorded (tests/openai_server.py)."""

from __future__ import annotations

import json
from typing import Any

from core.qa.service import ask
from core.workbench import Workbench
from tests.factories import make_pdf
from tests.openai_server import OpenAIServer, Reply, Status, pointed_at

MODEL = "test-chat-model"
EMAIL, PHONE, IBAN = "mara.quill@acme-robotics.example", "+44 20 7946 0958", "DE89 3704 0044 0532 0130 00"
CSV_EMAIL = "li.chen@borealis.example"
CONTACTS = (
    "Company,Contact email,Amount Raised (USD)\n"
    f"Acme Robotics,{CSV_EMAIL.replace('li.chen', 'ops')},2000000\n"
    f"Borealis Bio,{CSV_EMAIL},15000000\n"
).encode()
MEMO = make_pdf(
    [
        (
            "Portfolio memo. Acme Robotics builds warehouse picking arms; it raised 2,000,000 in 2021.\n"
            f"Its chief executive is Mara Quill, reachable at {EMAIL} or {PHONE}.\n"
            f"Wire the follow-on to IBAN {IBAN} before the 10-K is filed."
        )
    ]
)
# The memo's PDF wraps the phone number over two lines ("+44 20\n7946 0958"): each part must go too.
SECRETS = (EMAIL, "+44 20", "7946 0958", IBAN, IBAN.replace(" ", ""), "3704 0044", CSV_EMAIL, "ops@borealis.example")


def search_plan(body: dict[str, Any]) -> dict[str, Any]:
    return {
        "standalone_question": "Who runs Acme Robotics and how is it reached?",
        "reasoning": "Search the memo.",
        "steps": [
            {
                "kind": "search",
                "reason": "The memo profiles the company.",
                "table": None,
                "query": "Acme Robotics chief executive reachable",
                "document_ids": [],
                "pages": None,
            }
        ],
    }


def echo_model(body: dict[str, Any]) -> Reply:
    """Plans a search; answers by repeating the evidence it was sent (so the answer shows what it saw)."""
    if "response_format" in body:
        return Reply(json.dumps(search_plan(body)))
    user = body["messages"][-1]["content"]
    block = user[user.index("<evidence>\n") + len("<evidence>\n") : user.index("\n</evidence>")]
    texts = [json.loads(line)["text"] for line in block.splitlines()]
    line = next(ln for text in texts for ln in text.splitlines() if "chief executive" in ln)
    return Reply(f"{line.strip()} [1].")


def _workbench(settings, db, server: OpenAIServer, *, redact: bool = True) -> Workbench:
    llm = pointed_at(settings, server, llm="openai", chat_model=MODEL, redact_pii=redact)
    wb = Workbench(llm, db=db)
    assert wb.ingest_upload(MEMO, "memo.pdf", "Deal", embed=False).status == "ready"
    assert wb.ingest_upload(CONTACTS, "contacts.csv", "Deal", embed=False).status == "ready"
    return wb


def _sent(server: OpenAIServer) -> str:
    return json.dumps([r["body"] for r in server.chat_requests()], ensure_ascii=False)


def test_no_pii_in_any_request_body_and_the_documents_keep_it(settings, db, server: OpenAIServer) -> None:
    wb = _workbench(settings, db, server)
    server.chat_default = echo_model
    result = list(ask(wb, "Who runs Acme Robotics and how is it reached?", "Deal"))[-1].result
    planned, answered = server.chat_requests()
    assert "response_format" in planned["body"] and "response_format" not in answered["body"]
    sent = _sent(server)
    for secret in SECRETS:
        assert secret not in sent, secret
    # What was sent is still the evidence, with placeholders where the PII was; amounts and forms stay.
    evidence = answered["body"]["messages"][-1]["content"]
    assert "reachable at [email] or [phone]" in evidence.replace("\n", " ") and "IBAN [iban]" in evidence
    assert "2,000,000 in 2021" in evidence and "10-K" in evidence
    room = json.loads(planned["body"]["messages"][-1]["content"])["room"]
    assert "[email]" in json.dumps(room) and "Acme Robotics" in json.dumps(room)
    assert "Mara Quill" in result["answer"] and not result["abstained"]
    with wb.db.connection() as conn:
        text = conn.execute("SELECT text FROM pages").fetchone()[0]
    assert EMAIL in text and IBAN in text  # the document itself is untouched


def test_with_redaction_off_the_same_request_carries_the_pii(settings, db, server: OpenAIServer) -> None:
    wb = _workbench(settings, db, server, redact=False)
    server.chat_default = echo_model
    list(ask(wb, "Who runs Acme Robotics and how is it reached?", "Deal"))
    sent = _sent(server)
    assert EMAIL in sent and CSV_EMAIL in sent  # so the test above can fail


def test_a_failed_answer_is_logged_redacted(settings, db, server: OpenAIServer) -> None:
    wb = _workbench(settings, db, server)
    server.chat.append(Reply(json.dumps(search_plan({}))))
    server.chat.append(Status(500))
    done = list(ask(wb, f"Who is {EMAIL}?", "Deal"))[-1]
    assert done.result["note"] and EMAIL not in (done.result["note"] or "")
    with wb.db.connection() as conn:
        question, error = conn.execute("SELECT question, error FROM qa_queries").fetchone()
    assert question == "Who is [email]?" and error
