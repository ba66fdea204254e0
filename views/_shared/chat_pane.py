"""The conversation pane, beside the evidence: ask the room, watch the plan, read the cited answer, click a
citation to see it in the evidence pane, vote, export a memo. Used by the Chat and Sheet pages.

Questions, answers and plan text are shown as plain text (st.text): they are the user's and the model's words,
and Markdown in them must not fetch a remote image or draw a link.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace

import streamlit as st

from core.errors import ConversationNotInRoom, WorkbenchError
from core.models import Citation
from core.workbench import CLARIFY_LEAD, ConversationSummary, Turn, Workbench, answer_memo, escape_markdown
from views._shared.chip_jump import cell_target
from views._shared.chip_jump import install as install_chip_jump
from views._shared.layout import MESSAGES_KEY
from views._shared.state import citation_params, note, run_started, show_view, switch_room

# Chips shown per [n] before the rest fold into a "+N more" popover (a sum over a sheet cites every cell).
SHOWN_CHIPS = 8
# A turn citing at least this many cells of one sheet offers "show all cited rows".
MANY_CELLS = 3


def escape(text: str) -> str:
    """Markdown-safe: Streamlit reads `$...$` as LaTeX, and answers are full of dollar amounts."""
    return escape_markdown(text, math_only=True)


def active_conversation(wb: Workbench, room: str) -> int | None:
    """The conversation on screen: the URL's `?conversation=` (kept in session_state while it has none)."""
    raw = (st.query_params.get("conversation") or "").strip()
    if raw.isdigit():
        st.session_state["chat_conversation"] = int(raw)
    elif st.session_state.get("chat_room", room) != room:  # the sidebar switched rooms: its conversations differ
        st.session_state["chat_conversation"] = None
    st.session_state["chat_room"] = room
    return st.session_state.get("chat_conversation")


def set_conversation(conversation_id: int | None) -> None:
    st.session_state["chat_conversation"] = conversation_id
    if conversation_id is None:
        st.query_params.pop("conversation", None)
    else:
        st.query_params["conversation"] = str(conversation_id)


def load_turns(wb: Workbench, room: str) -> list[Turn]:
    """The turns of the conversation on screen; a link to one in another room the user can see switches room."""
    conversation = active_conversation(wb, room)
    turns: list[Turn] = []
    if conversation is not None:
        try:
            turns = wb.conversation_history(room, conversation)
        except ConversationNotInRoom as exc:
            elsewhere = wb.conversation_room(conversation)
            if elsewhere and elsewhere != room:
                switch_room(elsewhere, f"conversation {conversation} was asked there")
            st.warning(escape_markdown(str(exc)))
            conversation = None
    set_conversation(conversation)
    return turns


def tooltip(citation: Citation) -> str:
    """The chip's tooltip: document text, escaped whole (tooltips render Markdown links and images)."""
    if citation.kind == "cell":
        return escape_markdown(f"{citation.title} · {citation.column} = {citation.value or '(empty)'}")
    quote = " ".join((citation.quote or "").split())
    return escape_markdown(f"{citation.title}, page {citation.page}: “{quote[:300]}{'…' if len(quote) > 300 else ''}”")


def chip(turn: Turn, index: int, key: str) -> None:
    citation = turn.citations[index]
    stale = citation.kind == "cell" and citation.ref in turn.stale
    params = citation_params(citation)
    if citation.kind == "page" and turn.query_id is not None:
        params["ans"] = str(turn.query_id)  # the pane lights the passage's lines that this answer quotes
    st.button(escape_markdown(citation.label), key=f"{key}_{index}", help=tooltip(citation), icon="⚠️" if stale else None,
              on_click=show_view, args=(params,))  # fmt: skip


def cited_rows(turn: Turn) -> dict[tuple[int, str], dict[int, set[str]]]:
    """The turn's cited cells per sheet (document id, sheet name) -> row id -> column names."""
    found: dict[tuple[int, str], dict[int, set[str]]] = {}
    for c in turn.citations:
        if c.kind == "cell" and c.page is None and c.sheet and c.row_id is not None:
            found.setdefault((c.document_id, c.sheet), {}).setdefault(c.row_id, set()).add(c.column or "")
    return found


def chips(turn: Turn, key: str) -> None:
    """One button per citation, after the [n] that cites it, in one wrapping row; click -> the cell or page."""
    groups = sorted(turn.markers.items()) if turn.markers else [(None, list(range(len(turn.citations))))]
    with st.container(horizontal=True, gap="small", vertical_alignment="center"):
        for n, positions in groups:
            shown = positions[:SHOWN_CHIPS]
            if n is not None:
                # The marker and its first chip in a row of their own that never wraps: they stay together.
                with st.container(horizontal=True, gap="small", vertical_alignment="center", wrap=False,
                                  width="content", key=f"chip_{key}_{n}"):  # fmt: skip
                    st.markdown(f"**[{n}]**", width="content")
                    if shown:
                        chip(turn, shown[0], key)
                shown = shown[1:]
            for index in shown:
                chip(turn, index, key)
            if len(positions) > SHOWN_CHIPS:
                with st.popover(f"+{len(positions) - SHOWN_CHIPS} more"):
                    for index in positions[SHOWN_CHIPS:]:
                        chip(turn, index, key)
        for (doc, sheet), rows in cited_rows(turn).items():
            cells = sum(len(cs) for cs in rows.values())
            if cells >= MANY_CELLS and turn.query_id is not None:
                st.button(
                    f"Show all {len(rows)} cited rows", key=f"{key}_all_{doc}_{sheet}", type="tertiary",
                    help=f"Filter {escape_markdown(sheet)} to the rows this answer cites and highlight its {cells} cells",
                    on_click=show_view, args=({"doc": str(doc), "sheet": sheet, "all": str(turn.query_id)},),
                )  # fmt: skip


def feedback(wb: Workbench, room: str, turn: Turn, key: str) -> None:
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
            said = f" — “{escape_markdown(turn.comment)}”" if turn.comment else ""
            st.caption(f"Feedback saved: {'helpful' if turn.helpful else 'not helpful'}{said}")
        return
    try:
        wb.record_feedback(turn.query_id, helpful, comment)
    except WorkbenchError as exc:
        st.error(escape_markdown(str(exc)))
        return
    st.rerun()  # redraw from the store, so what is shown is what was saved


def turn_key(turn: Turn) -> str:
    return f"chat_q{turn.query_id}" if turn.query_id is not None else f"chat_m{turn.message_id}"


def plan_trace(turn: Turn) -> None:
    """The planner's steps as the page saw them (this session) or as the log kept them (a reopened conversation)."""
    trace = st.session_state.get("chat_trace", {}).get(turn.query_id)
    if trace:
        label, lines = trace
    elif turn.steps:
        waited = f"Answered in {turn.waited_ms / 1000:.1f} s · " if turn.waited_ms else ""
        label, lines = f"{waited}show the plan", turn.steps
    else:
        return
    with st.status(label, state="complete", expanded=False):
        for line in lines:
            st.text(line)


def answer(wb: Workbench, room: str, turn: Turn) -> None:
    # Markers of answers written in this session are exact; the store's are inferred (core.qa.feedback.infer_markers).
    markers = st.session_state.get("chat_markers", {}).get(turn.query_id)
    if markers:
        turn = replace(turn, markers=markers)
    key = turn_key(turn)
    plan_trace(turn)
    if turn.note:
        st.warning(escape(turn.note), icon="⚠️")
    if turn.abstained and turn.answer.startswith(CLARIFY_LEAD):
        st.info(escape(turn.answer), icon=":material/help:")
        question_back(turn, key)
    elif turn.abstained:
        st.info(escape(turn.answer), icon=":material/search_off:")
        st.caption("No passage or cell in this data room supports an answer, so none is given.")
    else:
        st.text(turn.answer)
        if turn.stale:
            st.warning(f"Stale: {escape_markdown(', '.join(turn.stale))} changed after this answer was written. "
                       "Ask again for current figures.", icon="⚠️")  # fmt: skip
        chips(turn, key)
    feedback(wb, room, turn, key)


def question_back(turn: Turn, key: str) -> None:
    """The readings of a question that reads several ways, as buttons: a click asks the question with that reading
    named. (The readings of an answer written in an earlier session are in its text: typing one asks it.)"""
    options = st.session_state.get("chat_clarify", {}).get(turn.query_id) or []
    if not options:
        st.caption("Ask again naming the reading you mean.")
        return
    with st.container(horizontal=True, gap="small"):
        for i, option in enumerate(options):
            if st.button(option["label"], key=f"{key}_clarify_{i}", type="secondary"):
                st.session_state["chat_pending"] = option["question"]
                st.rerun()


def stream_answer(wb: Workbench, room: str, question: str, conversation_id: int | None, asked_at: float) -> int | None:
    """Ask, showing the planner's steps in a collapsed status and the answer as it streams; the conversation id.

    `asked_at` is when the run the question started began: the time shown and logged is from then to the last
    token drawn (not the server's total_ms, which leaves out the page drawn around it).
    """
    status = st.status("Planning…", expanded=False)
    slot = st.empty()
    finished: dict = {}
    lines: list[str] = []

    def add_line(line: str) -> None:
        lines.append(line)
        status.text(line)

    def tokens() -> Iterator[str]:
        steps = 0
        writing = False
        for event in wb.ask(question, room, conversation_id=conversation_id):
            if event.type == "step":
                steps += 1
                add_line(f"- {event.text}")
                # Labels render Markdown links and images: a model-written step is escaped whole.
                status.update(label=f"{escape_markdown(event.text)}…")
            elif event.type == "plan" and event.text:
                add_line(event.text)
            elif event.type == "evidence":
                add_line(f"- {len(event.evidence)} piece{'s' if len(event.evidence) != 1 else ''} of evidence found")
            elif event.type == "token":
                if not writing:
                    writing = True
                    status.update(label=f"Planned in {steps} step(s)", state="complete")
                yield event.text
            elif event.type == "done":
                finished["event"] = event

    written = ""
    try:
        for token in tokens():
            written += token
            slot.text(written)  # plain text as it streams, like the answer drawn afterwards
    except WorkbenchError as exc:
        status.update(label="Stopped", state="error")
        slot.error(escape_markdown(str(exc)))
        return None
    waited_ms = (time.perf_counter() - asked_at) * 1000
    event = finished.get("event")
    if event is None:
        return None
    query_id = event.result["query_id"]
    try:
        wb.record_wait(query_id, waited_ms)
    except WorkbenchError as exc:
        st.error(escape_markdown(str(exc)))
    st.session_state.setdefault("chat_markers", {})[query_id] = event.answer.markers
    if event.result.get("clarify"):
        st.session_state.setdefault("chat_clarify", {})[query_id] = event.result["clarify"]
    st.session_state.setdefault("chat_trace", {})[query_id] = (
        f"Answered in {waited_ms / 1000:.1f} s · show the plan",
        lines,
    )
    return int(event.result["conversation_id"])


def _open_conversation(summary: ConversationSummary, room: str) -> None:
    if summary.room != room:  # a conversation of another room: the room follows it
        st.session_state["room"] = summary.room
        st.query_params.from_dict({"room": summary.room})
        note(f"Switched to the data room {summary.room!r}: the conversation was asked there.")
    set_conversation(summary.id)


def conversation_bar(wb: Workbench, room: str, turns: list[Turn]) -> None:
    """New conversation, and recent conversations (titled by their first question and room), of this room or all."""
    with st.container(horizontal=True, gap="small", vertical_alignment="center"):
        if st.button("New conversation", key="chat_new", disabled=not turns):
            # The evidence on screen was the old conversation's: the URL keeps the room alone.
            set_conversation(None)
            st.query_params.from_dict({"room": room})
            st.rerun()
        with st.popover("Recent conversations"):
            scope = st.segmented_control(
                "Rooms", ["This room", "All my rooms"], default="This room", key="chat_recent_scope",
                label_visibility="collapsed",
            )  # fmt: skip
            recent = wb.recent_conversations(None if scope == "All my rooms" else room)
            if not recent:
                st.caption("No conversations yet.")
            for summary in recent:
                when = summary.last_at.strftime("%d %b %H:%M")
                count = f"{summary.turns} question{'s' if summary.turns != 1 else ''}"
                label = f"{escape_markdown(summary.title)} · {escape_markdown(summary.room)} · {count} · {when}"
                if st.button(label, key=f"chat_open_{summary.id}", type="tertiary"):
                    _open_conversation(summary, room)
                    st.rerun()


def chat_pane(wb: Workbench, room: str, turns: list[Turn], *, height: int | None = None) -> None:
    """The conversation (scrolling inside `height` pixels when given) and the question box under it."""
    conversation_bar(wb, room, turns)
    # The message list scrolls inside the chat (its height follows the window: views/_shared/layout.py).
    box = st.container(height=height, border=height is not None, key=MESSAGES_KEY)
    with box:
        if not turns:
            st.caption(f"Ask about the spreadsheets and PDFs in **{escape_markdown(room)}**. Every answer cites the cells or "
                       "pages it rests on: click a citation to see it highlighted beside the chat.")  # fmt: skip
        for turn in turns:
            with st.chat_message("user"):
                st.text(turn.question)
            with st.chat_message("assistant"):
                answer(wb, room, turn)
    # Each cell chip's cell, for the page to light it at the click, before the rerun that follows it.
    targets = {}
    for turn in turns:
        for index, citation in enumerate(turn.citations):
            target = cell_target(citation)
            if target is not None:
                targets[f"{turn_key(turn)}_{index}"] = target
    if targets:
        install_chip_jump(targets)
    question = st.chat_input("Ask a question about this data room", key="chat_input")
    # a reading chosen from a question back is asked as if typed
    question = question or st.session_state.pop("chat_pending", None)
    if question and question.strip():
        asked_at = run_started()  # the run the question started: what was drawn before this box is waited too
        with box:
            with st.chat_message("user"):
                st.text(question.strip())
            with st.chat_message("assistant"):
                asked_in = stream_answer(
                    wb, room, question.strip(), st.session_state.get("chat_conversation"), asked_at
                )
        if asked_in is not None:
            set_conversation(asked_in)
            st.rerun()  # draw the new turn like every other: chips, vote, export, stale marks
