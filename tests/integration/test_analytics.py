"""QA analytics on real Postgres: every figure checked against a computation over the rows the test inserted."""

from __future__ import annotations

import random
import uuid
from collections import Counter, defaultdict
from datetime import UTC, date, datetime, timedelta

import numpy as np
import psycopg
import pytest

from core.db import LOCAL_USER
from core.errors import BadRange
from core.qa.service import ask
from core.rooms.analytics import report, span

START, END = date(2026, 3, 1), date(2026, 3, 5)


def _percentile(values: list[float], p: float) -> float | None:
    # numpy's default (linear) method is the definition of Postgres' percentile_cont.
    return float(np.percentile(values, p)) if values else None


@pytest.fixture
def logged(db):
    """Rooms A, B, C; 120 logged questions from Feb 27 to Mar 7 (UTC) with feedback from three users."""
    rng = random.Random(7)
    rows: list[dict] = []
    votes: list[dict] = []
    # Written by the owner's connection (log rows as they would have been written over time); rooms made
    # there belong to the local user, whose view the analytics read.
    with psycopg.connect(db.conninfo) as conn:
        rooms = {
            name: conn.execute("INSERT INTO rooms (name) VALUES (%s) RETURNING id", (name,)).fetchone()[0]
            for name in "ABC"
        }
        # The local user asked every question (conversations are private: the attention list shows the
        # reader's own) and votes with two others (the figures count every vote of the owner's rooms).
        users = [uuid.UUID(LOCAL_USER)] + [uuid.uuid4() for _ in range(2)]
        for i, user in enumerate(users[1:]):
            conn.execute("INSERT INTO users (id, display_name) VALUES (%s, %s)", (user, f"user {i}"))
        base = datetime(2026, 2, 27, tzinfo=UTC)
        times = [base + timedelta(seconds=rng.randrange(10 * 86400)) for _ in range(116)]
        # Day edges: the last second of Mar 2 and the first of Mar 3; just outside the range on both sides.
        times += [
            datetime(2026, 3, 2, 23, 59, 59, tzinfo=UTC),
            datetime(2026, 3, 3, tzinfo=UTC),
            datetime(2026, 2, 28, 23, 59, 59, tzinfo=UTC),
            datetime(2026, 3, 6, tzinfo=UTC),
        ]
        for n, created in enumerate(times):
            abstained = rng.random() < 0.25
            error = "model server down" if not abstained and rng.random() < 0.05 else None
            answered = not abstained and error is None
            row = {
                "room_id": rooms[rng.choice("AABC")],
                "question": f"question {n}?",
                "answer": None if error else ("I don't have enough information." if abstained else f"answer {n}"),
                "abstained": abstained,
                "error": error,
                "total_ms": round(rng.uniform(50, 3000), 1),
                "first_token_ms": None if rng.random() < 0.1 else round(rng.uniform(20, 900), 1),
                "n_citations": rng.randrange(1, 6) if answered else 0,
                "created_at": created,
            }
            row["id"] = conn.execute(
                "INSERT INTO qa_queries (room_id, user_id, question, answer, abstained, error, total_ms,"
                " first_token_ms, n_citations, created_at) VALUES (%(room_id)s, %(user_id)s, %(question)s, %(answer)s,"
                " %(abstained)s, %(error)s, %(total_ms)s, %(first_token_ms)s, %(n_citations)s, %(created_at)s)"
                " RETURNING id",
                {**row, "user_id": LOCAL_USER},
            ).fetchone()[0]
            rows.append(row)
            for user in users:
                if rng.random() < 0.3:
                    vote = {
                        "query_id": row["id"],
                        "user_id": user,
                        "helpful": rng.random() < 0.6,
                        "comment": rng.choice([None, "", "wrong year", "missed the table"]),
                    }
                    conn.execute(
                        "INSERT INTO qa_feedback (query_id, user_id, helpful, comment)"
                        " VALUES (%(query_id)s, %(user_id)s, %(helpful)s, %(comment)s)",
                        vote,
                    )
                    votes.append(vote)
    return rooms, rows, votes


def _selected(rows: list[dict], room_ids: list[int]) -> list[dict]:
    return [r for r in rows if r["room_id"] in room_ids and START <= r["created_at"].date() <= END]


def test_daily_figures_match_the_rows(db, logged) -> None:
    rooms, rows, votes = logged
    room_ids = [rooms["A"], rooms["B"]]
    chosen = _selected(rows, room_ids)
    assert 40 < len(chosen) < len(rows)  # the room and date filters both exclude something
    result = report(db, room_ids, START, END)
    assert [d.day for d in result.days] == [START + timedelta(days=i) for i in range(5)]
    by_day: dict[date, list[dict]] = defaultdict(list)
    for row in chosen:
        by_day[row["created_at"].date()].append(row)
    votes_by_query = defaultdict(list)
    for vote in votes:
        votes_by_query[vote["query_id"]].append(vote["helpful"])
    for day in result.days:
        mine = by_day[day.day]
        assert day.questions == len(mine)
        assert day.abstained == sum(r["abstained"] for r in mine)
        assert day.errors == sum(r["error"] is not None for r in mine)
        assert day.abstention_rate == pytest.approx(day.abstained / len(mine) if mine else None)
        totals = [r["total_ms"] for r in mine]
        firsts = [r["first_token_ms"] for r in mine if r["first_token_ms"] is not None]
        assert day.total_p50 == pytest.approx(_percentile(totals, 50), rel=1e-6)
        assert day.total_p95 == pytest.approx(_percentile(totals, 95), rel=1e-6)
        assert day.first_token_p50 == pytest.approx(_percentile(firsts, 50), rel=1e-6)
        assert day.first_token_p95 == pytest.approx(_percentile(firsts, 95), rel=1e-6)
        answered = [r["n_citations"] for r in mine if not r["abstained"] and r["error"] is None]
        assert day.citations_mean == pytest.approx(sum(answered) / len(answered) if answered else None)
        day_votes = [v for r in mine for v in votes_by_query[r["id"]]]
        assert (day.votes, day.helpful) == (len(day_votes), sum(day_votes))
        assert day.helpful_rate == pytest.approx(sum(day_votes) / len(day_votes) if day_votes else None)
    # The edge rows land on their own UTC days; those outside the range are not counted.
    assert sum(d.questions for d in result.days) == len(chosen)


def test_totals_and_citation_distribution_match_the_rows(db, logged) -> None:
    rooms, rows, votes = logged
    room_ids = [rooms["A"], rooms["B"]]
    chosen = _selected(rows, room_ids)
    totals = report(db, room_ids, START, END).totals
    assert totals.questions == len(chosen)
    assert totals.abstained == sum(r["abstained"] for r in chosen)
    assert totals.abstention_rate == pytest.approx(totals.abstained / len(chosen))
    assert totals.total_p50 == pytest.approx(_percentile([r["total_ms"] for r in chosen], 50), rel=1e-6)
    assert totals.total_p95 == pytest.approx(_percentile([r["total_ms"] for r in chosen], 95), rel=1e-6)
    firsts = [r["first_token_ms"] for r in chosen if r["first_token_ms"] is not None]
    assert totals.first_token_p95 == pytest.approx(_percentile(firsts, 95), rel=1e-6)
    ids = {r["id"] for r in chosen}
    mine = [v["helpful"] for v in votes if v["query_id"] in ids]
    assert (totals.votes, totals.helpful) == (len(mine), sum(mine))
    assert totals.helpful_rate == pytest.approx(sum(mine) / len(mine))
    answered = [r["n_citations"] for r in chosen if not r["abstained"] and r["error"] is None]
    assert totals.citations_mean == pytest.approx(sum(answered) / len(answered))
    assert report(db, room_ids, START, END).citation_counts == dict(sorted(Counter(answered).items()))


def test_needs_attention_lists_abstained_failed_and_voted_down_questions(db, logged) -> None:
    rooms, rows, votes = logged
    names = {v: k for k, v in rooms.items()}
    chosen = _selected(rows, [rooms["C"]])
    down = defaultdict(list)
    for vote in votes:
        # A vote is its voter's own (migration 016): the attention list shows the reader's.
        if not vote["helpful"] and str(vote["user_id"]) == LOCAL_USER:
            down[vote["query_id"]].append(vote["comment"])
    expected = [r for r in chosen if r["abstained"] or r["error"] or r["id"] in down]
    expected.sort(key=lambda r: (r["created_at"], r["id"]), reverse=True)
    found = report(db, [rooms["C"]], START, END).attention
    assert [a.query_id for a in found] == [r["id"] for r in expected]
    assert found, "the fixture should give room C something to act on"
    for item, row in zip(found, expected, strict=True):
        assert (item.room, item.question, item.answer, item.abstained, item.error) == (
            names[row["room_id"]],
            row["question"],
            row["answer"],
            row["abstained"],
            row["error"],
        )
        assert item.asked_at == row["created_at"]
        assert item.thumbs_down == len(down[row["id"]])
        comments = [c for c in down[row["id"]] if c]
        assert (item.comment or None) == (" | ".join(comments) if comments else None)
        assert item.reasons
    assert len(report(db, [rooms["C"]], START, END, attention_limit=2).attention) == min(2, len(expected))


def test_span_and_empty_selection(db, logged) -> None:
    rooms, rows, _ = logged
    a_rows = [r for r in rows if r["room_id"] == rooms["A"]]
    found = span(db, [rooms["A"]])
    assert found.questions == len(a_rows)
    assert found.first_day == min(r["created_at"] for r in a_rows).date()
    assert found.last_day == max(r["created_at"] for r in a_rows).date()
    assert span(db, []).questions == 0 and span(db, []).first_day is None
    empty = report(db, [], START, END)
    assert empty.totals.questions == 0 and empty.totals.abstention_rate is None and empty.totals.helpful_rate is None
    assert [d.questions for d in empty.days] == [0] * 5 and empty.attention == [] and empty.citation_counts == {}


def test_a_reversed_range_is_a_clear_error(db) -> None:
    with pytest.raises(BadRange, match=r"ends .* before it starts"):
        report(db, [1], END, START)


def test_real_questions_asked_through_the_qa_service_are_counted(workbench, db) -> None:
    workbench.ensure_demo(embed=False)
    room = workbench.room("Demo")
    results = []
    for question in ("Who is the CEO of Harvestquay?", "What is the boiling point of mercury at sea level?"):
        results.append(next(e.result for e in ask(workbench, question, "Demo") if e.type == "done"))
    assert [r["abstained"] for r in results] == [False, True]
    today = datetime.now(UTC).date()
    got = report(db, [room.id], today - timedelta(days=1), today)
    assert got.totals.questions == 2
    assert got.totals.abstained == sum(r["abstained"] for r in results)
    totals_ms = [r["timings"]["total_ms"] for r in results]  # rounded to 0.1 ms in the result
    assert got.totals.total_p50 == pytest.approx(sum(totals_ms) / 2, abs=0.1)
    answered = [len(r["citations"]) for r in results if not r["abstained"]]
    assert got.citation_counts == dict(Counter(answered))
    assert [a.question for a in got.attention] == [
        q
        for q, r in zip(
            ("What is the boiling point of mercury at sea level?", "Who is the CEO of Harvestquay?"),
            reversed(results),
            strict=True,
        )
        if r["abstained"]
    ]


def test_page_questions_count_what_the_user_waited_and_sources_filter(workbench, db) -> None:
    workbench.ensure_demo(embed=False)
    room = workbench.room("Demo")
    cli = next(e.result for e in ask(workbench, "Who is the CEO of Harvestquay?", "Demo") if e.type == "done")
    page = next(e.result for e in ask(workbench, "How many seed rounds were there?", "Demo") if e.type == "done")
    waited = page["timings"]["total_ms"] + 1234.5  # the page drew the last word later than the service finished
    workbench.record_wait(page["query_id"], waited)
    with db.connection() as conn:
        stored = dict(conn.execute("SELECT id, source FROM qa_queries").fetchall())
    assert stored == {cli["query_id"]: "cli", page["query_id"]: "page"}
    today = datetime.now(UTC).date()
    only_page = report(db, [room.id], today - timedelta(days=1), today, sources=("page",))
    assert only_page.totals.questions == 1 and only_page.totals.total_p50 == pytest.approx(waited, abs=0.1)
    only_cli = report(db, [room.id], today - timedelta(days=1), today, sources=("cli",))
    assert only_cli.totals.questions == 1
    assert only_cli.totals.total_p50 == pytest.approx(cli["timings"]["total_ms"], abs=0.1)
    assert report(db, [room.id], today - timedelta(days=1), today).totals.questions == 2
    with pytest.raises(BadRange, match="Unknown question source"):
        report(db, [room.id], today, today, sources=("phone",))
