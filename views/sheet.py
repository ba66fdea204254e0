"""Sheet page: the room's sheets in an editable grid, the chat beside it. Edits are written back and re-indexed.

The URL is the page's state (`?room=…&doc=<document id>&sheet=<sheet name>`, plus `&cell=E12&row=<row id>&col=<column>`
when a citation opened it): the cited cell is scrolled to, highlighted and flashed. Tables read from PDFs are
listed too, read-only, with a link to their page. A citation clicked in the chat opens here, beside it.
"""

from __future__ import annotations

from views._shared.chat_pane import chat_pane, load_turns
from views._shared.common import page_room
from views._shared.layout import chat_and_evidence
from views._shared.pane import evidence_pane

wb, room = page_room("Sheet")
turns = load_turns(wb, room)
talk, grid = chat_and_evidence(evidence_first=True)
with grid:
    evidence_pane(wb, room, turns, key="sheet", height=560, picker=True)
with talk:
    chat_pane(wb, room, turns, height=620)
