"""Chat page: the conversation beside the evidence. Ask the room, watch the plan, read the cited answer; a
citation opens its cell (in the sheet's grid) or its PDF page, highlighted, in the pane on the right."""

from __future__ import annotations

from views._shared.chat_pane import chat_pane, load_turns
from views._shared.common import page_room
from views._shared.layout import chat_and_evidence
from views._shared.pane import evidence_pane

wb, room = page_room("Chat")
turns = load_turns(wb, room)
talk, evidence = chat_and_evidence(evidence_first=False)
with evidence:
    evidence_pane(wb, room, turns, key="chat_pane", height=520, picker=False)
with talk:
    chat_pane(wb, room, turns, height=560)
