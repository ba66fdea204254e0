"""Search page: hybrid search in the room; each hit shows the words it matched and opens its cell or page,
highlighted, in the pane beside the hits (the URL keeps the hit on screen, like a citation on the Chat page)."""

from __future__ import annotations

import re

import streamlit as st

from core.errors import WorkbenchError
from core.models import SearchHit
from core.workbench import STOP_WORDS, escape_markdown, excerpt, word_pattern
from views._shared.common import page_room
from views._shared.pane import evidence_pane
from views._shared.state import citation_params, show_view

wb, room = page_room("Search")


def query_words(query: str) -> list[str]:
    """The query's content words (stop words left out), as searched."""
    words = re.findall(r"[\w$%.-]+", query.casefold())
    return list(dict.fromkeys(w.strip(".-") for w in words if w.strip(".-") and w not in STOP_WORDS))


def marked(text: str, words: list[str]) -> tuple[str, list[str]]:
    """`text` as Markdown with the query's words in bold (a word's longer forms too: 'round' marks 'rounds'),
    and the words found."""
    pattern = word_pattern(words)
    if pattern is None:
        return escape_markdown(text), []
    parts, found, last = [], [], 0
    for match in pattern.finditer(text):
        parts.append(escape_markdown(text[last : match.start()]))
        parts.append(f"**{escape_markdown(match.group(0))}**")
        found.append(match.group(1).casefold())
        last = match.end()
    parts.append(escape_markdown(text[last:]))
    return "".join(parts), list(dict.fromkeys(found))


def hit_card(n: int, hit: SearchHit, words: list[str]) -> None:
    with st.container(border=True):
        title = f"{hit.ref} · {hit.title}" if hit.kind == "cell" else f"{hit.title} · p. {hit.page}"
        head = st.container(horizontal=True, vertical_alignment="center")
        head.markdown(f"**[{n}] {escape_markdown(title)}**")
        head.button("Open", key=f"search_open_{n}", on_click=show_view, args=(citation_params(hit),),
                    help="Show this cell or page, highlighted, beside the hits")  # fmt: skip
        if hit.kind == "cell":
            cell, _ = marked(f"{hit.column} = {hit.value}", words)
            st.markdown(cell)
        # The passage whole (a page hit's quote) cut around its sentence with the most query words; the note is
        # on what is shown, and a word only the unshown part holds is said to be further in, not missing.
        passage = hit.quote if hit.kind == "page" and hit.quote else hit.preview
        text, found = marked(excerpt(passage, words), words)
        st.markdown(text)
        _, anywhere = marked(passage, words)
        further = [w for w in words if w not in found and w in anywhere]
        missing = [w for w in words if w not in found and w not in anywhere]
        st.caption(
            ("Matches: " + escape_markdown(", ".join(found)) if found else "No query word verbatim: matched by meaning")
            + (f" · further in the passage: {escape_markdown(', '.join(further))}" if further else "")
            + (f" · not in this passage: {escape_markdown(', '.join(missing))}" if found and missing else "")
        )


hits_column, pane_column = st.columns([1, 1], gap="medium")
with hits_column:
    query = st.text_input("Search this data room", key="search_query", placeholder="e.g. Series B in Canada")
    k = st.slider("Hits", 5, 50, 10, key="search_k")
    if query:
        try:
            hits = wb.search(query, room, k=k)
        except WorkbenchError as exc:
            st.error(escape_markdown(str(exc)))
            hits = []
        if not hits:
            st.info("No hits. Try other words.")
        words = query_words(query)
        with st.container(height=640, border=False):
            for n, hit in enumerate(hits, start=1):
                hit_card(n, hit, words)
with pane_column:
    evidence_pane(wb, room, [], key="search_pane", height=560, picker=False,
                  hint="Open a hit: its cell or page shows here, highlighted.")  # fmt: skip
