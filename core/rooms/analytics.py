"""QA analytics: what was asked in a set of rooms over a date range, computed exactly in SQL.

Days are UTC calendar days and a range includes both ends. Latency percentiles are Postgres'
`percentile_cont` (linear interpolation). Abstention rate is abstained / questions asked; citations per
answer count only answers (not abstentions or errors); the helpful rate is thumbs-up / all votes on the
questions asked in the range.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime

from psycopg.rows import dict_row

from core.db import Database, q
from core.errors import BadRange


@dataclass(frozen=True)
class Span:
    """Which days the rooms' logs cover."""

    questions: int
    first_day: date | None
    last_day: date | None


@dataclass(frozen=True)
class Day:
    """One day's figures; rates and latencies are None on a day without questions (or votes)."""

    day: date
    questions: int
    abstained: int
    errors: int
    abstention_rate: float | None
    total_p50: float | None  # ms
    total_p95: float | None
    first_token_p50: float | None
    first_token_p95: float | None
    citations_mean: float | None  # per answer
    votes: int
    helpful: int
    helpful_rate: float | None


@dataclass(frozen=True)
class Totals:
    """The whole range's figures."""

    questions: int
    abstained: int
    errors: int
    abstention_rate: float | None
    total_p50: float | None
    total_p95: float | None
    first_token_p50: float | None
    first_token_p95: float | None
    citations_mean: float | None
    votes: int
    helpful: int

    @property
    def helpful_rate(self) -> float | None:
        """Thumbs-up over all votes, None without votes."""
        return self.helpful / self.votes if self.votes else None


@dataclass(frozen=True)
class Attention:
    """A question someone should look at: abstained, failed, or voted down."""

    query_id: int
    room: str
    asked_at: datetime
    question: str
    answer: str | None
    abstained: bool
    error: str | None
    thumbs_down: int
    comment: str | None  # thumbs-down comments, joined with " | "
    source: str = "cli"  # where it was asked: 'page' or 'cli'

    @property
    def reasons(self) -> str:
        """Why it is listed: abstained, error, thumbs down."""
        found = []
        if self.abstained:
            found.append("abstained")
        if self.error:
            found.append("error")
        if self.thumbs_down:
            found.append("thumbs down" if self.thumbs_down == 1 else f"{self.thumbs_down} thumbs down")
        return ", ".join(found)


@dataclass(frozen=True)
class Report:
    """Everything the analytics page shows for one selection."""

    start: date
    end: date
    totals: Totals
    days: list[Day]
    citation_counts: dict[int, int]  # citations in an answer -> how many answers had that many
    attention: list[Attention]


MAX_DAYS = 3660


def span(db: Database, room_ids: list[int]) -> Span:
    """How many questions the rooms have logged, and over which days."""
    with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        row = cur.execute(q("analytics_span"), {"room_ids": list(room_ids)}).fetchone()
    assert row is not None
    return Span(questions=row["questions"], first_day=row["first_day"], last_day=row["last_day"])


SOURCES = ("page", "cli")


def report(
    db: Database,
    room_ids: list[int],
    start: date,
    end: date,
    *,
    attention_limit: int = 50,
    sources: tuple[str, ...] = SOURCES,
) -> Report:
    """Questions, abstention, latency, citations and feedback per day and overall, plus what needs attention,
    of the questions asked from `sources` ('page': the app, latency as the user waited; 'cli': the command line)."""
    if end < start:
        raise BadRange(f"The range ends ({end}) before it starts ({start}): pick the start date first.")
    if (end - start).days >= MAX_DAYS:
        raise BadRange(f"Pick a range of at most {MAX_DAYS} days.")
    unknown = set(sources) - set(SOURCES)
    if unknown:
        raise BadRange(f"Unknown question source(s) {sorted(unknown)}: pick among {', '.join(SOURCES)}.")
    params = {
        "room_ids": list(room_ids),
        "start": start,
        "end": end,
        "limit": attention_limit,
        "sources": list(sources),
    }
    with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        totals = Totals(**cur.execute(q("analytics_totals"), params).fetchone())  # type: ignore[arg-type]
        days = [Day(**row) for row in cur.execute(q("analytics_daily"), params).fetchall()]
        counts = {row["n_citations"]: row["answers"] for row in cur.execute(q("analytics_citation_counts"), params)}
        attention = [
            Attention(query_id=row.pop("id"), asked_at=row.pop("created_at"), **row)
            for row in cur.execute(q("analytics_attention"), params).fetchall()
        ]
    return Report(start=start, end=end, totals=totals, days=days, citation_counts=counts, attention=attention)
