"""Rate limits on the real database: the limit holds, the window slides, no race lets more through, and the app
role can neither reset a count nor change a limit (the owner's rules, migration 027)."""

from __future__ import annotations

import subprocess
import sys
import threading
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import psycopg
import pytest

from core.config import Settings
from core.errors import RateLimited
from core.qa.service import ask
from core.rooms.ratelimit import Count, check_and_count, refusal, set_rule
from core.rooms.store import ensure_room
from tests.factories import run_workbench

ROOT = Path(__file__).resolve().parents[2]
T0 = datetime(2026, 3, 2, 14, 0, 0, tzinfo=UTC)


def _user(db) -> str:
    user_id = str(uuid.uuid4())
    # Accounts are made by the owner's connection (the app role may not add users).
    with psycopg.connect(db.conninfo, autocommit=True) as conn:
        conn.execute("INSERT INTO users (id, display_name) VALUES (%s, %s)", (user_id, "Analyst"))
    return user_id


def _check(view, limit: int, *, kind: str = "question", at: datetime | None = None) -> None:
    """The owner sets the rule (`limit` an hour), then one request of the view's user is counted: now through the
    app's own path, or at `at` through the owner-only function with a clock of its own (RateLimited past it)."""
    set_rule(view.conninfo, kind, limit)  # type: ignore[arg-type]
    if at is None:
        check_and_count(view, kind=kind)  # type: ignore[arg-type]
        return
    with psycopg.connect(view.conninfo) as conn:
        row = conn.execute("SELECT * FROM workbench_count_request_at(%s, %s, %s)", (view.user_id, kind, at)).fetchone()
    count = Count(*row)
    if not count.counted:
        raise refusal(kind, count)  # type: ignore[arg-type]


def _stored(db, user_id: str | None = None) -> int:
    """Request times kept for a user (default: the view's), read by the owner (the app role cannot)."""
    with psycopg.connect(db.conninfo) as conn:
        row = conn.execute(
            "SELECT coalesce(sum(cardinality(asked_at)), 0) FROM rate_limits WHERE user_id = %s",
            (user_id or db.user_id,),
        ).fetchone()
    return int(row[0])


def test_the_limit_holds_and_the_message_says_when_to_ask_again(db) -> None:
    ensure_room(db, "Deal")
    for minute in range(3):
        _check(db, 3, at=T0 + timedelta(minutes=minute, seconds=20))
    with pytest.raises(RateLimited) as caught:
        _check(db, 3, at=T0 + timedelta(minutes=5))
    message = str(caught.value)
    # The first question (14:00:20) leaves the window at 15:00:20: the user is told 15:01, never earlier.
    assert "You have asked 3 questions in the last hour, across all your rooms" in message
    assert "you can ask again at 15:01 UTC" in message
    assert caught.value.retry_at == datetime(2026, 3, 2, 15, 1, tzinfo=UTC)
    assert _stored(db) == 3  # a refused question is not counted


def test_the_window_slides(db) -> None:
    ensure_room(db, "Deal")
    for minutes in (0, 10, 20):
        _check(db, 3, at=T0 + timedelta(minutes=minutes))
    with pytest.raises(RateLimited):
        _check(db, 3, at=T0 + timedelta(minutes=59, seconds=59))
    # One hour after the first question it has left the window: one more fits, and only one.
    _check(db, 3, at=T0 + timedelta(minutes=60, seconds=1))
    with pytest.raises(RateLimited) as caught:
        _check(db, 3, at=T0 + timedelta(minutes=61))
    assert "ask again at 15:10 UTC" in str(caught.value)
    _check(db, 3, at=T0 + timedelta(minutes=70, seconds=1))
    assert _stored(db) == 3  # times older than the window are pruned as it slides


def test_users_are_counted_apart_and_rooms_together(db) -> None:
    alice, bob = _user(db), _user(db)
    for user in (None, alice, bob):
        view = db if user is None else db.as_user(user)
        for _ in range(2):
            _check(view, 2, at=T0)
        with pytest.raises(RateLimited, match="across all your rooms"):
            _check(view, 2, at=T0)
        # Searches have their own count.
        _check(view, 2, kind="search", at=T0)
    assert _stored(db, alice) == 3 and _stored(db, bob) == 3 and _stored(db) == 3


def test_one_limit_holds_across_rooms(settings, db) -> None:
    """Before migration 016 each room had its own count: a user made rooms to ask more."""
    from core.workbench import Workbench

    set_rule(db.conninfo, "question", 3)
    wb = Workbench(settings.model_copy(update={"rate_limit_per_hour": 3}), db=db)
    asked = refused = 0
    for n in range(6):
        room = f"Room {n}"
        assert wb.ingest_upload(b"Company,Amount\nAcme,100\n", "a.csv", room, embed=False).status == "ready"
        try:
            list(ask(wb, "What is the Amount of Acme?", room))
            asked += 1
        except RateLimited:
            refused += 1
    print(f"questions over a limit of 3 spread over 6 rooms: 6 attempts, {asked - 3} got through")
    assert (asked, refused) == (3, 3)


def test_the_app_role_cannot_read_or_rewrite_rate_limits(db) -> None:
    alice = _user(db)
    _check(db.as_user(alice), 1, at=T0)
    with db.connection() as conn:
        for statement in (
            "SELECT * FROM rate_limits",
            "UPDATE rate_limits SET asked_at = '{}'",
            "DELETE FROM rate_limits",
            "INSERT INTO rate_limits (user_id, kind, asked_at) VALUES (workbench_user(), 'question', '{}')",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)
            conn.rollback()
    assert _stored(db, alice) == 1


def test_searches_are_limited_when_embeddings_are_remote(settings, db, server) -> None:
    from core.workbench import Workbench
    from tests.openai_server import pointed_at

    set_rule(db.conninfo, "search", 2)
    remote = pointed_at(settings, server, embeddings="openai", llm="offline", search_rate_limit_per_hour=2)
    wb = Workbench(remote, db=db)
    assert wb.ingest_upload(b"Company,Amount\nAcme,100\n", "a.csv", "Deal").status == "ready"
    for _ in range(2):
        wb.search("Acme", "Deal")
    with pytest.raises(RateLimited, match="You have run 2 searches in the last hour"):
        wb.search("Acme", "Deal")
    # Local embeddings cost nothing: no limit.
    local = Workbench(settings.model_copy(update={"search_rate_limit_per_hour": 1}), db=db)
    assert local.ingest_upload(b"Company,Amount\nBeta,7\n", "b.csv", "Local").status == "ready"
    for _ in range(3):
        local.search("Beta", "Local")


def test_a_lower_limit_takes_effect_at_once_and_zero_turns_it_off(db) -> None:
    ensure_room(db, "Deal")
    for minutes in range(5):
        _check(db, 10, at=T0 + timedelta(minutes=minutes))
    with pytest.raises(RateLimited) as caught:
        _check(db, 2, at=T0 + timedelta(minutes=6))
    # Four must leave before a fifth fits under a limit of 2: the fourth (14:03) leaves at 15:03.
    assert "ask again at 15:03 UTC" in str(caught.value)
    for _ in range(100):
        _check(db, 0, at=T0 + timedelta(minutes=7))
    assert _stored(db) == 5
    assert Settings.from_env({"WORKBENCH_AUTH": "accounts"}).rate_limit == 60
    assert Settings.from_env({"WORKBENCH_AUTH": "accounts", "WORKBENCH_RATE_LIMIT": "0"}).rate_limit == 0


def test_the_database_clock_is_used_by_default(db) -> None:
    ensure_room(db, "Deal")
    _check(db, 1)
    with pytest.raises(RateLimited) as caught:
        _check(db, 1)
    now = datetime.now(UTC)
    assert now + timedelta(minutes=59) <= caught.value.retry_at <= now + timedelta(minutes=61)


def test_threads_asking_at_once_never_get_past_the_limit(db) -> None:
    ensure_room(db, "Deal")
    set_rule(db.conninfo, "question", 25)
    allowed, refused = [], []
    barrier = threading.Barrier(8)

    def worker() -> None:
        barrier.wait()
        for _ in range(10):
            try:
                check_and_count(db)
                allowed.append(1)
            except RateLimited:
                refused.append(1)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(allowed) == 25 and len(refused) == 55
    assert _stored(db) == 25


_WORKER = """
import sys
from core.db import Database
from core.rooms.ratelimit import Count, check_and_count, refusal, set_rule
from core.errors import RateLimited
db = Database(sys.argv[1], max_size=2, run_migrations=False)
print("ready", flush=True)
sys.stdin.readline()  # start together
ok = 0
for _ in range(15):
    try:
        check_and_count(db)
        ok += 1
    except RateLimited:
        pass
print(ok)
db.close()
"""


def test_processes_asking_at_once_never_get_past_the_limit(db, db_url: str) -> None:
    ensure_room(db, "Deal")
    set_rule(db.conninfo, "question", 20)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _WORKER, db_url],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    for proc in procs:
        assert proc.stdout.readline().strip() == "ready"  # type: ignore[union-attr]
    for proc in procs:  # release them together once all are connected
        proc.stdin.write("go\n")  # type: ignore[union-attr]
        proc.stdin.flush()  # type: ignore[union-attr]
    counts = [int(proc.communicate(timeout=120)[0].strip()) for proc in procs]
    assert all(proc.returncode == 0 for proc in procs)
    assert sum(counts) == 20, counts
    assert _stored(db) == 20


def test_ask_refuses_a_question_over_the_limit_before_doing_anything(settings, db) -> None:
    from core.workbench import Workbench

    set_rule(db.conninfo, "question", 2)
    wb = Workbench(settings.model_copy(update={"rate_limit_per_hour": 2}), db=db)
    assert wb.ingest_upload(b"Company,Amount\nAcme,100\n", "a.csv", "Deal", embed=False).status == "ready"
    for _ in range(2):
        assert list(ask(wb, "What is the Amount of Acme?", "Deal"))[-1].type == "done"
    with pytest.raises(RateLimited, match=r"You have asked 2 questions in the last hour, across all your rooms .* UTC"):
        list(ask(wb, "What is the Amount of Acme?", "Deal"))
    with db.connection() as conn:
        assert conn.execute("SELECT count(*) FROM qa_queries").fetchone()[0] == 2
        assert conn.execute("SELECT count(*) FROM conversations").fetchone()[0] == 2


def test_the_command_line_says_when_to_ask_again(settings, db, tmp_path) -> None:
    ensure_room(db, "Deal")
    _check(db, 1)  # the command line asks as the local user
    env = {"DATABASE_URL": settings.database_url, "WORKBENCH_HOME": str(tmp_path), "WORKBENCH_RATE_LIMIT": "1"}
    run = run_workbench("ask", "How much?", "--room", "Deal", env=env, timeout=120)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "You have asked 1 question in the last hour, across all your rooms (the limit is 1)" in run.stderr
    assert "you can ask again at" in run.stderr


def test_the_app_role_cannot_reset_or_widen_a_limit(db) -> None:
    """Issue 41: `workbench_count_request('lookup', 1000000, interval '0 seconds')` from a user's own app
    connection wiped their history (300 of 300 account lookups answered under a limit of 30). The window and
    size are the owner's (migration 027): every caller-supplied form is refused, and the limit still holds."""
    from core.rooms.auth import create_account, find_user
    from core.workbench import Workbench

    ann = create_account(db, "ann@example.com", "Ann", "ann's long password")
    Workbench(db=db.as_user(ann.id)).ingest_upload(b"Company,Amount\nAcme,5\n", "a.csv", "Ann's", embed=False)
    view = db.as_user(ann.id)
    answered = 0
    attempts = (
        "SELECT * FROM workbench_count_request('lookup', 1000000, interval '0 seconds')",
        "SELECT * FROM workbench_count_request('lookup', 1000000, interval '0 seconds', now() + interval '1 day')",
        "SELECT * FROM workbench_count_request_at(workbench_user(), 'lookup', now() + interval '1 day')",
        "UPDATE rate_limit_rules SET max_requests = 1000000",
        "INSERT INTO rate_limit_rules VALUES ('lookup', 1000000, interval '1 second')",
        "DELETE FROM rate_limit_rules",
        "DELETE FROM rate_limits",
    )
    for round_ in range(10):
        for statement in attempts:
            with view.connection() as conn, pytest.raises(psycopg.Error):
                conn.execute(statement)
        for _ in range(30):
            try:
                find_user(view, f"x{round_}@example.com")
                answered += 1
            except RateLimited:
                pass
    print(f"account lookups after reset attempts: 300 attempts, {answered} answered (limit 30 an hour)")
    assert answered == 30


def test_the_owner_sets_limits_from_the_command_line_and_the_app_login_cannot(settings, db, tmp_path) -> None:
    from tests.conftest import team_urls

    env = {"DATABASE_URL": settings.database_url, "WORKBENCH_HOME": str(tmp_path)}
    shown = run_workbench("limits", env=env, timeout=120)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.split("\n")[:3] == [
        "lookup    30 per 60 minutes",
        "question  60 per 60 minutes",
        "search    600 per 60 minutes",
    ]
    changed = run_workbench("limits", "--questions", "2", "--minutes", "30", env=env, timeout=120)
    assert changed.returncode == 0 and "question  2 per 30 minutes" in changed.stdout, changed.stderr
    for _ in range(2):
        check_and_count(db)
    with pytest.raises(RateLimited, match="in the last 30 minutes, across all your rooms"):
        check_and_count(db)
    app_login = {**env, "DATABASE_URL": team_urls(settings.database_url)["WORKBENCH_APP_DATABASE_URL"]}
    refused = run_workbench("limits", "--questions", "1000", env=app_login, timeout=120)
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert "Only the database's owner changes rate limits" in refused.stderr, refused.stderr
