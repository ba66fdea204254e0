"""What users type (questions, search queries, names, ids in batch files): refused with a message saying
what to change when it cannot be used, before anything reaches the database (which would otherwise answer a
NUL byte or a blank room name with a driver error)."""

from __future__ import annotations

from typing import Any

from core.errors import BadInput
from core.text import BAD_CHARS

# A question is a sentence or a paragraph: longer text is a document to upload, not a question, and every
# extra word costs the planner, the full-text search and (when one is configured) a model call.
MAX_QUESTION_CHARS = 4000
MAX_QUERY_CHARS = 1000
MAX_NAME_CHARS = 200
MAX_HITS = 100


def checked_text(value: Any, what: str, *, max_chars: int) -> str:
    """`value` when it is non-blank text of at most `max_chars` characters Postgres can store, else BadInput."""
    if not isinstance(value, str):
        raise BadInput(f"The {what} must be text, not {type(value).__name__} ({value!r}).")
    if BAD_CHARS.search(value):
        raise BadInput(
            f"The {what} holds a character that cannot be stored (a NUL byte or a broken surrogate): "
            "remove it and try again."
        )
    if not value.strip():
        raise BadInput(f"The {what} is blank: type one.")
    if len(value) > max_chars:
        raise BadInput(f"The {what} has {len(value):,} characters; keep it to {max_chars:,} or fewer.")
    return value


def checked_int(value: Any, what: str, *, low: int = 1, high: int | None = None) -> int:
    """`value` as an int within [low, high] (a JSON number or a string of digits), else BadInput."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise BadInput(f"The {what} must be a whole number, not {value!r}.")
    try:
        number = int(value)
    except ValueError:
        raise BadInput(f"The {what} must be a whole number, not {value!r}.") from None
    if number < low or (high is not None and number > high):
        limits = f"from {low:,} to {high:,}" if high is not None else f"at least {low:,}"
        raise BadInput(f"The {what} must be {limits}, not {number:,}.")
    return number
