"""Chat page: ask the room, watch the plan, read the cited answer, jump to its sources, vote, export a memo."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import streamlit as st

from core.errors import ConversationNotInRoom, WorkbenchError
from core.models import Citation
from core.qa.exports import escape_markdown
from core.qa.feedback import Turn, answer_memo
from views._shared.common import open_citation, page_room

# Chips shown per [n] before the rest fold into a "+N more" popover (a sum over a sheet cites every cell).
SHOWN_CHIPS = 8

wb, room = page_room("Chat")


def escape(text: str) -> str:
    """Markdown-safe: Streamlit reads `$...$` as LaTeX, and answers are full of dollar amounts."""
    return escape_markdown(text, math_only=True)


def active_conversation() -> int | None:
    """The conversation on screen: kept in session_state, seeded from `?conversation=ID` on a fresh session."""
    if "chat_room" not in st.session_state:  # a new browser session (first visit or reload): trust the URL
        raw = st.query_params.get("conversation", "")
        st.session_state["chat_conversation"] = int(raw) if raw.isdigit() else None
    elif st.session_state["chat_room"] != room:  # the sidebar switched rooms: its conversations differ
        st.session_state["chat_conversation"] = None
    st.session_state["chat_room"] = room
    return st.session_state.get("chat_conversation")


def set_conversation(conversation_id: int | None) -> None:
    st.session_state["chat_conversation"] = conversation_id
    if conversation_id is None:
        st.query_params.pop("conversation", None)
    else:
        st.query_params["conversation"] = str(conversation_id)


def tooltip(citation: Citation) -> str:
    if citation.kind == "cell":
        return escape(f"{citation.title} · {citation.column} = {citation.value or '(empty)'}")
    quote = " ".join((citation.quote or "").split())
    return escape(f"{citation.title}, page {citation.page}: “{quote[:300]}{'…' if len(quote) > 300 else ''}”")


def chip(turn: Turn, index: int, key: str) -> None:
    citation = turn.citations[index]
    stale = citation.kind == "cell" and citation.ref in turn.stale
    if st.button(citation.label, key=f"{key}_{index}", help=tooltip(citation), icon="⚠️" if stale else None):
        open_citation(citation)


def chips(turn: Turn, key: str) -> None:
    """One button per citation, after the [n] that cites it, in one wrapping row; click -> the cell or page."""
    groups = sorted(turn.markers.items()) if turn.markers else [(None, list(range(len(turn.citations))))]
    with st.container(horizontal=True, gap="small", vertical_alignment="center"):
        for n, positions in groups:
            if n is not None:
                st.markdown(f"**[{n}]**", width="content")
            for index in positions[:SHOWN_CHIPS]:
                chip(turn, index, key)
            if len(positions) > SHOWN_CHIPS:
                with st.popover(f"+{len(positions) - SHOWN_CHIPS} more"):
                    for index in positions[SHOWN_CHIPS:]:
                        chip(turn, index, key)


def feedback(turn: Turn, key: str) -> None:
    """Thumbs up/down saved at once; an optional comment saved with the vote; the memo export."""
    if turn.query_id is None:
        return
    with st.container(horizontal=True, gap="small", vertical_alignment="center"):
        default = None if turn.helpful is None else int(turn.helpful)
        vote = st.feedback("thumbs", key=f"{key}_vote", default=default)
        comment = turn.comment
        if vote is not None or turn.helpful is not None:
            comment = st.text_input("Comment", value=turn.comment or "", key=f"{key}_comment",
                                    placeholder="What was wrong or missing? (optional)",
                                    label_visibility="collapsed", width=360)  # fmt: skip
            send = st.button("Send comment", key=f"{key}_send")
        else:
            send = False
        st.download_button("Export memo", answer_memo(turn, room), file_name=f"answer-{turn.query_id}.md",
                           mime="text/markdown", key=f"{key}_memo", on_click="ignore",
                           help="The answer and each [n] with its cells' values or passages' quotes, as Markdown")  # fmt: skip
    helpful = turn.helpful if vote is None else vote == 1
    changed = vote is not None and helpful != turn.helpful
    if helpful is None or not (changed or (send and (comment or None) != turn.comment)):
        if turn.helpful is not None:
            said = f" — “{escape(turn.comment)}”" if turn.comment else ""
            st.caption(f"Feedback saved: {'helpful' if turn.helpful else 'not helpful'}{said}")
        return
    try:
        wb.record_feedback(turn.query_id, helpful, comment)
    except WorkbenchError as exc:
        st.error(str(exc))
        return
    st.rerun()  # redraw from the store, so what is shown is what was saved


def turn_key(turn: Turn) -> str:
    return f"chat_q{turn.query_id}" if turn.query_id is not None else f"chat_m{turn.message_id}"


def follow_clicked_chip(turns: list[Turn]) -> None:
    """A chip clicked on the last run: go to its cell or page now, without drawing the conversation first.

    The button's value is in session_state before the script draws it; each turn drawn costs ~50 ms of CPU,
    which a busy machine multiplies. The `if st.button(...)` in chip() does the same for a turn not listed here.
    """
    for turn in turns:
        key = turn_key(turn)
        for index, citation in enumerate(turn.citations):
            if st.session_state.get(f"{key}_{index}") is True:
                open_citation(citation)


def answer(turn: Turn) -> None:
    # Markers of answers written in this session are exact; the store's are inferred (core.qa.feedback.infer_markers).
    markers = st.session_state.get("chat_markers", {}).get(turn.query_id)
    if markers:
        turn = replace(turn, markers=markers)
    key = turn_key(turn)
    trace = st.session_state.get("chat_trace", {}).get(turn.query_id)
    if trace:  # the planner's steps, for answers asked in this session (the store keeps the plan's reasoning only)
        label, lines = trace
        with st.status(label, state="complete", expanded=False):
            for line in lines:
                st.markdown(line)
    if turn.note:
        st.warning(escape(turn.note), icon="⚠️")
    if turn.abstained:
        st.info(escape(turn.answer), icon=":material/search_off:")
        st.caption("No passage or cell in this data room supports an answer, so none is given.")
    else:
        st.markdown(escape(turn.answer))
        if turn.stale:
            st.warning(f"Stale: {', '.join(turn.stale)} changed after this answer was written. "
                       "Ask again for current figures.", icon="⚠️")  # fmt: skip
        chips(turn, key)
    feedback(turn, key)


def stream_answer(question: str, conversation_id: int | None) -> int | None:
    """Ask, showing the planner's steps in a collapsed status and the answer as it streams; the conversation id."""
    status = st.status("Planning…", expanded=False)
    slot = st.empty()
    finished: dict = {}
    lines: list[str] = []

    def note(line: str) -> None:
        lines.append(line)
        status.markdown(line)

    def tokens() -> Iterator[str]:
        steps = 0
        writing = False
        for event in wb.ask(question, room, conversation_id=conversation_id):
            if event.type == "step":
                steps += 1
                note(f"- {escape(event.text)}")
                status.update(label=f"{escape(event.text)}…")
            elif event.type == "plan" and event.text:
                note(f"*{escape(event.text)}*")
            elif event.type == "evidence":
                note(f"- {len(event.evidence)} piece{'s' if len(event.evidence) != 1 else ''} of evidence found")
            elif event.type == "token":
                if not writing:
                    writing = True
                    status.update(label=f"Planned in {steps} step(s)", state="complete")
                yield escape(event.text)
            elif event.type == "done":
                finished["event"] = event

    try:
        with slot.container():
            st.write_stream(tokens())
    except WorkbenchError as exc:
        status.update(label="Stopped", state="error")
        slot.error(str(exc))
        return None
    event = finished.get("event")
    if event is None:
        return None
    query_id = event.result["query_id"]
    st.session_state.setdefault("chat_markers", {})[query_id] = event.answer.markers
    seconds = event.result["timings"]["total_ms"] / 1000
    st.session_state.setdefault("chat_trace", {})[query_id] = (f"Answered in {seconds:.1f} s · show the plan", lines)
    return int(event.result["conversation_id"])


conversation = active_conversation()
turns: list[Turn] = []
if conversation is not None:
    try:
        turns = wb.conversation_history(room, conversation)
    except ConversationNotInRoom as exc:
        st.warning(str(exc))
        conversation = None
set_conversation(conversation)
follow_clicked_chip(turns)

with st.container(horizontal=True, gap="small", vertical_alignment="center"):
    if st.button("New conversation", key="chat_new", disabled=not turns):
        set_conversation(None)
        st.rerun()
    recent = wb.recent_conversations(room)
    with st.popover("Recent conversations", disabled=not recent):
        for summary in recent:
            when = summary.last_at.strftime("%d %b %H:%M")
            label = f"{escape(summary.title)} · {summary.turns} question{'s' if summary.turns != 1 else ''} · {when}"
            if st.button(label, key=f"chat_open_{summary.id}", type="tertiary"):
                set_conversation(summary.id)
                st.rerun()

if not turns:
    st.caption(f"Ask about the spreadsheets and PDFs in **{escape(room)}**. Every answer cites the cells or "
               "pages it rests on: click a citation to see it highlighted.")  # fmt: skip
for turn in turns:
    with st.chat_message("user"):
        st.markdown(escape(turn.question))
    with st.chat_message("assistant"):
        answer(turn)

question = st.chat_input("Ask a question about this data room", key="chat_input")
if question and question.strip():
    with st.chat_message("user"):
        st.markdown(escape(question.strip()))
    with st.chat_message("assistant"):
        asked_in = stream_answer(question.strip(), conversation)
    if asked_in is not None:
        set_conversation(asked_in)
        st.rerun()  # draw the new turn like every other: chips, vote, export, stale marks
