"""The chat-and-evidence layout on a laptop (1366-1920 px wide): how the width is shared, a message list that
scrolls inside the chat so the question box stays in view, chips kept beside their [n] markers, and tooltips
that do not cover the answer they explain.

The share of the width is the URL's `split=` (`chat`, `even` or `evidence`; kept in the session while a link
has none), picked with the toggle above the evidence.
"""

from __future__ import annotations

import streamlit as st

from views._shared.chip_jump import KEY as CHIP_JUMP_KEY

# split -> (chat, evidence) share of the width
SPLITS: dict[str, tuple[int, int]] = {"chat": (3, 2), "even": (1, 1), "evidence": (2, 3)}
SPLIT_LABELS = {"chat": "Wide chat", "even": "Even", "evidence": "Wide evidence"}
DEFAULT_SPLIT = "even"
SPLIT_KEY = "layout_split"
MESSAGES_KEY = "chat_messages"  # the scrolling message list (st.container key: class st-key-chat_messages)
# Above the message list: the page's title and conversation bar; below it: the question box (pixels).
AROUND_MESSAGES = 280

# The message list takes the window's height less what is drawn around it (never under 260 px), so the question
# box stays in view on a 768 px screen as on a 1080 px one (PAGE_CSS cuts the page's margins); the tooltip of a
# button in the conversation (a chip's cell or quote) opens under the button, not over the answer above it: the
# tooltip is placed above its button, and `translate` (added to the placement's transform) moves it down by its
# own height and the button's; it lets the pointer through to the chips it covers.
# Every page: the page's top margin cut to make room on a laptop's screen.
PAGE_CSS = """<style>[data-testid="stMainBlockContainer"] { padding-top: 2.5rem; padding-bottom: 1rem; }</style>"""
CSS = f"""<style>
body:has(.st-key-{MESSAGES_KEY} button:hover) div:has(> [data-testid="stTooltipContent"]) {{
  translate: 0 calc(100% + 48px); pointer-events: none;
}}
div:has(> .st-key-{MESSAGES_KEY}) {{ flex: 0 0 max(260px, calc(100vh - {AROUND_MESSAGES}px)) !important; }}
.st-key-{MESSAGES_KEY}, div:has(> .st-key-{MESSAGES_KEY}) {{
  height: max(260px, calc(100vh - {AROUND_MESSAGES}px)) !important;
}}
.st-key-{CHIP_JUMP_KEY} {{ display: none; }}
</style>"""


def split() -> str:
    """The share of the width asked for: the URL's `split=`, else the session's, else even."""
    asked = (st.query_params.get("split") or "").strip()
    if asked in SPLITS:
        st.session_state[SPLIT_KEY] = asked
    elif asked:
        st.query_params.pop("split", None)  # a bad value: left out of the URL
    return str(st.session_state.get(SPLIT_KEY) or DEFAULT_SPLIT)


def _picked() -> None:
    chosen = st.session_state.get(f"{SPLIT_KEY}_pick")
    if chosen not in SPLITS:  # the toggle clicked off: keep the share shown
        chosen = st.session_state.get(SPLIT_KEY) or DEFAULT_SPLIT
    st.session_state[SPLIT_KEY] = chosen
    if chosen == DEFAULT_SPLIT:
        st.query_params.pop("split", None)
    else:
        st.query_params["split"] = chosen


def split_toggle() -> None:
    """The toggle choosing the share of the width (drawn at the top of the evidence pane)."""
    st.session_state[f"{SPLIT_KEY}_pick"] = split()
    st.segmented_control(
        "Width", list(SPLITS), format_func=SPLIT_LABELS.__getitem__, key=f"{SPLIT_KEY}_pick",
        on_change=_picked, label_visibility="collapsed", help="Width: more for the chat, even, or more for the evidence (kept in the link)",
    )  # fmt: skip


def chat_and_evidence(*, evidence_first: bool) -> tuple[st.delta_generator.DeltaGenerator, ...]:
    """(chat, evidence) columns sharing the width as `split=` asks; the evidence on the left when `evidence_first`."""
    st.html(CSS)
    chat, evidence = SPLITS[split()]
    if evidence_first:
        left, right = st.columns([evidence, chat], gap="medium")
        talk, pane = right, left
    else:
        talk, pane = st.columns([chat, evidence], gap="medium")
    with pane:
        split_toggle()
    return talk, pane
