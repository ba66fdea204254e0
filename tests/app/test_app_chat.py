"""AppTest of the Chat page: cited answers with chips, abstentions, chip clicks, votes, export, history."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from core.qa.synth import ABSTAIN
from core.workbench import CLARIFY_LEAD
from tests.factories import make_sectioned_xlsx, make_statement_pdf

CELL_QUESTION = "How much was raised in Canada in 2021?"
PAGE_QUESTION = "Who is the CEO of Harvestquay?"


def ask(app: AppTest, question: str) -> AppTest:
    app.chat_input[0].set_value(question).run()
    assert not app.exception, app.exception
    return app


@pytest.fixture
def chat(app: AppTest) -> AppTest:
    app.run()
    app.switch_page("views/chat.py").run()
    assert not app.exception and app.title[0].value == "Chat"
    return app


def chips(app: AppTest, query_id: int) -> list:
    """The citation chips of an answer (not its "Show all cited rows" buttons)."""
    return [
        b
        for b in app.button
        if (b.key or "").startswith(f"chat_q{query_id}_") and "_all_" not in b.key and "_clarify_" not in b.key
    ]


def history(workbench, app: AppTest) -> list:
    conversation = int(app.query_params["conversation"])
    return workbench.conversation_history("Demo", conversation)


def test_a_cell_answer_shows_markers_and_one_chip_per_citation(chat: AppTest, workbench) -> None:
    ask(chat, CELL_QUESTION)
    [turn] = history(workbench, chat)
    assert "239,300,000" in turn.answer and "[1]" in turn.answer
    assistant = chat.chat_message[1]
    assert assistant.name == "assistant"
    # Plain text (no Markdown: the answer's words cannot draw links or images); the [n] stays visible.
    assert turn.answer in [t.value for t in assistant.text]
    found = chips(chat, turn.query_id)
    assert [b.label for b in found] == [c.label for c in turn.citations]
    assert len(found) == len(turn.citations) > 8  # the ones past eight sit in a "+N more" popover
    assert found[0].label.startswith("funding_rounds!")
    assert chat.session_state["chat_conversation"] == int(chat.query_params["conversation"])
    assert not chat.info  # not an abstention
    # The memo export (its text is tested in test_feedback.py, its download in the browser test).
    assert [(d.label, d.key, d.proto.ignore_rerun) for d in chat.download_button] == [
        ("Export memo", f"chat_q{turn.query_id}_memo", True)
    ]


def test_an_off_topic_question_is_an_abstention_without_chips(chat: AppTest, workbench) -> None:
    ask(chat, "What is the boiling point of mercury on Mars?")
    [turn] = history(workbench, chat)
    assert turn.abstained
    assert [i.value for i in chat.info] == [ABSTAIN]
    assert chips(chat, turn.query_id) == []
    # It can still be voted on and exported (an analyst flags what the room is missing).
    assert chat.feedback and chat.download_button


def test_clicking_a_chip_shows_the_cited_cell_beside_the_chat(chat: AppTest, workbench) -> None:
    ask(chat, CELL_QUESTION)
    [turn] = history(workbench, chat)
    first = turn.citations[0]
    chips(chat, turn.query_id)[0].click().run()
    assert not chat.exception
    assert chat.title[0].value == "Chat"  # the chat stays; the cell opens in the pane beside it
    column = first.ref.rsplit("!", 1)[1]
    assert chat.query_params == {"room": "Demo", "conversation": str(chat.session_state["chat_conversation"]),
                                 "doc": str(first.document_id), "sheet": first.sheet, "cell": column,
                                 "row": str(first.row_id), "col": first.column}  # fmt: skip
    assert chat.session_state["citation_nonce"] == 1
    assert any(c.value.startswith("Cited cell") and f"**{first.value}**" in c.value for c in chat.caption)
    assert chips(chat, turn.query_id)[0].label == first.ref
    # "Show all cited rows": the pane filters the grid to the answer's rows and paints every cited cell.
    chat.button(key=f"chat_q{turn.query_id}_all_{first.document_id}_{first.sheet}").click().run()
    assert not chat.exception and chat.query_params["all"] == str(turn.query_id)
    assert any(f"{len(turn.citations)} cells cited by" in c.value for c in chat.caption)
    rows = {c.row_id for c in turn.citations}
    assert any(f"Showing the {len(rows)} cited rows" in c.value for c in chat.caption)


def test_clicking_a_page_chip_opens_the_cited_page(chat: AppTest, workbench) -> None:
    ask(chat, PAGE_QUESTION)
    [turn] = history(workbench, chat)
    assert "Nikhil Yarborough" in turn.answer
    page = chips(chat, turn.query_id)[0]
    assert page.label == f"portfolio_memo · p. {turn.citations[0].page}"
    page.click().run()
    assert not chat.exception
    assert chat.title[0].value == "Chat"
    cited = turn.citations[0]
    assert chat.query_params == {"room": "Demo", "conversation": str(chat.session_state["chat_conversation"]),
                                 "doc": str(cited.document_id), "page": str(cited.page),
                                 "chunk": str(cited.chunk_index), "ans": str(turn.query_id)}  # fmt: skip
    alts = [img.alt for el in chat.image for img in el.proto.imgs]
    assert alts == [f"portfolio_memo.pdf, page {cited.page} with the cited passage highlighted"]
    # `ans` names the answer: the pane lights the passage's lines it quotes, not the whole passage.
    assert any(c.value.startswith("Highlighted: the ") and "answer quotes" in c.value for c in chat.caption)


def test_thumbs_down_with_a_comment_is_saved(chat: AppTest, workbench) -> None:
    ask(chat, CELL_QUESTION)
    [turn] = history(workbench, chat)
    chat.feedback[0].set_value(0).run()
    assert not chat.exception
    with workbench.db.connection() as conn:
        stored = conn.execute("SELECT helpful, comment FROM qa_feedback WHERE query_id = %s", (turn.query_id,))
        assert stored.fetchall() == [(False, None)]
    chat.text_input(key=f"chat_q{turn.query_id}_comment").input("Toronto round is missing").run()
    chat.button(key=f"chat_q{turn.query_id}_send").click().run()
    assert not chat.exception
    with workbench.db.connection() as conn:
        stored = conn.execute("SELECT helpful, comment FROM qa_feedback WHERE query_id = %s", (turn.query_id,))
        assert stored.fetchall() == [(False, "Toronto round is missing")]
    assert any("not helpful — “Toronto round is missing”" in c.value for c in chat.caption)
    # Changing the vote replaces it and keeps the comment.
    chat.feedback[0].set_value(1).run()
    with workbench.db.connection() as conn:
        stored = conn.execute("SELECT helpful, comment FROM qa_feedback WHERE query_id = %s", (turn.query_id,))
        assert stored.fetchall() == [(True, "Toronto round is missing")]


def test_a_reload_redraws_the_conversation_from_the_url(app: AppTest, chat: AppTest, workbench) -> None:
    ask(chat, CELL_QUESTION)
    ask(chat, PAGE_QUESTION)
    conversation = chat.query_params["conversation"]
    # A browser reload is a new session with the same URL.
    fresh = AppTest.from_file(chat._script_path, default_timeout=120)
    fresh.query_params["conversation"] = conversation
    fresh.run()
    assert not fresh.exception
    assert [m.name for m in fresh.chat_message] == ["user", "assistant", "user", "assistant"]
    assert fresh.chat_message[0].text[0].value == CELL_QUESTION
    # The plan's steps come back from the log, with what the user waited.
    assert [s.label for s in fresh.status][:2] == [s.label for s in chat.status][:2]
    assert all(s.label.startswith("Answered in ") for s in fresh.status)
    turns = history(workbench, chat)
    assert [len(chips(fresh, t.query_id)) for t in turns] == [len(t.citations) for t in turns]
    # "New conversation" empties the page and the URL.
    fresh.button(key="chat_new").click().run()
    assert not fresh.chat_message and "conversation" not in fresh.query_params


def test_a_link_to_a_conversation_of_another_room_switches_to_it(chat: AppTest, workbench) -> None:
    workbench.ingest_upload(b"Company,Amount\nBocorp,7\n", "bo.csv", "Other", embed=False)
    asked = next(e.result for e in workbench.ask("What is the amount of Bocorp?", "Other") if e.type == "done")
    cid = asked["conversation_id"]
    fresh = AppTest.from_file(chat._script_path, default_timeout=120)
    fresh.query_params["conversation"] = str(cid)
    fresh.run()
    assert not fresh.exception
    assert any(f"Switched to the data room 'Other': conversation {cid} was asked there" in i.value for i in fresh.info)
    assert fresh.session_state["room"] == "Other" and fresh.query_params["room"] == "Other"
    assert [m.name for m in fresh.chat_message] == ["user", "assistant"]


def test_a_conversation_that_is_nowhere_to_be_seen_is_not_shown(chat: AppTest) -> None:
    fresh = AppTest.from_file(chat._script_path, default_timeout=120)
    fresh.query_params["conversation"] = "987654"
    fresh.run()
    assert not fresh.exception
    assert any("is not in this data room" in w.value for w in fresh.warning)
    assert "conversation" not in fresh.query_params


def test_a_room_the_user_cannot_see_is_an_error(chat: AppTest) -> None:
    fresh = AppTest.from_file(chat._script_path, default_timeout=120)
    fresh.query_params["room"] = "Nowhere"
    fresh.run()
    assert not fresh.exception
    assert any("There is no data room 'Nowhere' that you can see" in e.value for e in fresh.error)
    assert fresh.session_state["room"] == "Demo" and fresh.query_params["room"] == "Demo"


# -- model-written answers (the local OpenAI-protocol test server) ------------------------------------------


@pytest.fixture
def llm_chat(settings, monkeypatch):
    """The chat page with the openai provider pointed at the scripted local server."""
    from tests.app.conftest import APP, app_test
    from tests.integration.test_openai_qa import MODEL, model
    from tests.openai_server import OpenAIServer

    with OpenAIServer() as server:
        server.chat_default = model()
        for name, value in {"WORKBENCH_LLM": "openai", "OPENAI_API_KEY": "test-key", "OPENAI_BASE_URL": server.base_url,
                            "WORKBENCH_CHAT_MODEL": MODEL, "WORKBENCH_OPENAI_MAX_RETRIES": "0",
                            "WORKBENCH_OPENAI_TIMEOUT": "5"}.items():  # fmt: skip
            monkeypatch.setenv(name, value)
        for app in app_test(APP, settings, monkeypatch):
            app.run()
            app.switch_page("views/chat.py").run()
            yield app, server


def test_a_streamed_model_answer_is_drawn_with_its_chips(llm_chat, workbench) -> None:
    app, _ = llm_chat
    ask(app, CELL_QUESTION)
    [turn] = history(workbench, app)
    assert turn.answer.startswith("The rounds matching the question raised 239300000 in 2021 [1].")
    assert turn.answer in [t.value for t in app.chat_message[1].text]
    assert [b.label for b in chips(app, turn.query_id)] == [c.ref for c in turn.citations]
    assert app.status and "Answered in" in app.status[0].label  # the planner's steps stay behind it


def test_a_model_failure_still_answers_offline_with_a_warning(llm_chat, workbench) -> None:
    from tests.openai_server import Reply, Status

    app, server = llm_chat
    server.chat_default = None
    server.chat.extend([Reply('{"reasoning": "x", "steps": []}'), Status(500, "model server down")])
    ask(app, PAGE_QUESTION)
    assert not app.exception and not app.error
    assert any("did not answer: HTTP 500" in w.value and "written offline" in w.value for w in app.warning)
    [turn] = history(workbench, app)
    assert turn.note and "did not answer: HTTP 500" in turn.note and turn.answer and not turn.abstained


def test_a_figure_from_a_pdf_statement_opens_its_page_with_the_line_lit(chat: AppTest, workbench) -> None:
    assert workbench.ingest_upload(make_statement_pdf(), "PEP_2022_10K.pdf", "Demo", embed=False).tables == 1
    ask(chat, "What was net revenue in 2022?")
    [turn] = history(workbench, chat)
    assert "86,392" in turn.answer
    [cited] = turn.citations
    assert (cited.kind, cited.page, cited.column) == ("cell", 2, "2022")
    [chip] = chips(chat, turn.query_id)
    assert chip.label == "PEP_2022_10K · p. 2 · 2022"
    chip.click().run()
    assert not chat.exception
    assert chat.title[0].value == "Chat"
    params = {k: v for k, v in chat.query_params.items() if k not in ("room", "conversation")}
    assert params == {"doc": str(cited.document_id), "page": "2", "row": str(cited.row_id), "col": "2022"}
    alts = [img.alt for el in chat.image for img in el.proto.imgs]
    assert alts == ["PEP_2022_10K.pdf, page 2 with the cited passage highlighted"]


def test_markdown_in_a_question_is_shown_as_plain_text(chat: AppTest) -> None:
    question = "![tracker](http://example.invalid/x.png) [click](http://example.invalid) Who is the CEO of Harvestquay?"
    ask(chat, question)
    assert chat.chat_message[0].text[0].value == question  # literally, not an image and a link
    drawn = [m.value for m in chat.markdown] + [s.label for s in chat.status] + [b.label for b in chat.button]
    assert not any("](http://example.invalid" in text and "\\]" not in text for text in drawn)


def test_a_new_conversation_starts_with_an_empty_pane_and_a_clean_url(chat: AppTest, workbench) -> None:
    ask(chat, PAGE_QUESTION)
    [turn] = history(workbench, chat)
    chips(chat, turn.query_id)[0].click().run()
    assert [img.alt for el in chat.image for img in el.proto.imgs]  # the cited page is in the pane
    chat.button(key="chat_new").click().run()
    assert not chat.exception
    assert not chat.chat_message
    assert chat.query_params == {"room": "Demo"}  # no conversation, doc, page, chunk, ans, cite, row...
    assert not chat.image  # the pane is empty: its hint only
    assert any(c.value.startswith("Click a citation") for c in chat.caption)


def test_the_time_shown_is_from_the_run_that_got_the_question(chat: AppTest, workbench, monkeypatch) -> None:
    """What the page drew before the question box (sidebar, room, earlier turns) is part of the wait."""
    import time

    from core.workbench import Workbench

    rooms, ask_ = Workbench.rooms, Workbench.ask
    slept: list[float] = []
    asked: list[float] = []

    def slow_rooms(self):
        time.sleep(0.4)
        slept.append(0.4)
        return rooms(self)

    def timed_ask(self, *args, **kwargs):
        started = time.perf_counter()
        yield from ask_(self, *args, **kwargs)
        asked.append(time.perf_counter() - started)

    monkeypatch.setattr(Workbench, "rooms", slow_rooms)
    monkeypatch.setattr(Workbench, "ask", timed_ask)
    ask(chat, CELL_QUESTION)
    [turn] = history(workbench, chat)
    # The run that got the question slept (0.4 s a call) before its question box was drawn, then asked.
    assert slept and asked and turn.waited_ms is not None
    assert turn.waited_ms / 1000 >= 0.4 + asked[0]
    assert [s.label for s in chat.status if s.label.startswith("Answered in")]


def test_a_question_that_reads_two_ways_offers_buttons_and_one_click_answers(chat: AppTest, workbench) -> None:
    assert workbench.ingest_upload(make_sectioned_xlsx(), "harbor.xlsx", "Demo", embed=False).status == "ready"
    ask(chat, "What were Pumps sales in Q1 2032?")
    [turn] = history(workbench, chat)
    assert turn.abstained and turn.answer.startswith(CLARIFY_LEAD)
    offered = [b for b in chat.button if (b.key or "").startswith(f"chat_q{turn.query_id}_clarify_")]
    assert [b.label for b in offered] == ["North › Pumps (2032 › Q1)", "South › Pumps (2032 › Q1)"]
    assert chips(chat, turn.query_id) == []  # a question back cites nothing
    offered[1].click().run()
    assert not chat.exception, chat.exception
    _first, second = history(workbench, chat)
    assert second.question == "What were Pumps sales in Q1 2032 — South › Pumps?"
    assert not second.abstained and "5" in second.answer
    assert [c.label for c in second.citations] == ["Sales!D10"]
