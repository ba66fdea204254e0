"""Rate limits: at most so many questions, searches and account lookups per user in a sliding window, across
every room, counted in the database.

The count lives in Postgres (migrations 016 and 027, core/sql/ratelimit.sql): a SECURITY DEFINER function checks
and bumps the signed-in user's row under a row lock, so a limit holds for any number of app processes, CLI runs
and threads. Each kind's size and window are rows of `rate_limit_rules`, which only the database's owner writes
(`workbench limits`, `set_rule`): the app role passes the kind alone, and can neither read, rewrite nor delete a
count nor change a rule. Whether a process counts at all is its own setting (WORKBENCH_RATE_LIMIT=0, the default
in local mode, counts no questions; searches are counted when each one costs a call to a remote embedding server).
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import Literal, NamedTuple

import psycopg

from core.db import Database, q, returned
from core.errors import RateLimited, WorkbenchError

__all__ = ["KINDS", "OWNER_ONLY", "Count", "RateLimited", "check_and_count", "refusal", "rules", "set_rule"]

Kind = Literal["question", "search", "lookup"]
KINDS: tuple[Kind, ...] = ("question", "search", "lookup")
OWNER_ONLY = (
    "Only the database's owner changes rate limits: run `workbench limits` with DATABASE_URL set to the owner's "
    "login (the app's and sign-in's logins cannot)."
)


class Count(NamedTuple):
    """One call of workbench_count_request: counted or not, the clock, the times in the window, and the rule."""

    counted: bool
    clock: datetime
    asked: list[datetime]
    limit: int
    window: timedelta


def _minute_up(moment: datetime) -> datetime:
    """The next whole minute at or after `moment` (a user told 14:32 must not be refused at 14:32)."""
    floor = moment.replace(second=0, microsecond=0)
    return floor if floor == moment else floor + timedelta(minutes=1)


def window_words(window: timedelta) -> str:
    """'hour', '2 hours', '30 minutes', 'day': the window as the message says it."""
    minutes = int(window.total_seconds() // 60)
    for size, unit in ((1440, "day"), (60, "hour"), (1, "minute")):
        if minutes % size == 0:
            count = minutes // size
            return unit if count == 1 else f"{count} {unit}s"
    return f"{int(window.total_seconds())} seconds"


def check_and_count(db: Database, *, kind: Kind = "question") -> None:
    """Count one request (a question, a search) of the database view's user now, or raise RateLimited."""
    with db.connection() as conn:
        count = Count(*returned(conn.execute(q("count_request"), {"kind": kind})))
    if not count.counted:
        raise refusal(kind, count)


def refusal(kind: Kind, count: Count) -> RateLimited:
    """The RateLimited for a request that was not counted: how many were made, the limit, when to try again."""
    asked = sorted(count.asked) or [count.clock]
    # The request that has to leave the window before one more fits in it.
    freed_by = asked[max(0, len(asked) - count.limit)]
    retry_at = _minute_up((freed_by + count.window).astimezone(UTC))
    minutes = max(1, math.ceil((retry_at - count.clock).total_seconds() / 60))
    noun, done, verb = {
        "question": (("question", "questions"), "asked", "ask"),
        "search": (("search", "searches"), "run", "search"),
        "lookup": (("account lookup", "account lookups"), "made", "look up an account"),
    }[kind]
    return RateLimited(
        f"You have {done} {len(asked)} {noun[len(asked) != 1]} in the last {window_words(count.window)}, across "
        f"all your rooms (the limit is {count.limit}); you can {verb} again at {retry_at:%H:%M} UTC "
        f"(in {minutes} minute{'s' if minutes != 1 else ''}).",
        retry_at=retry_at,
        asked=len(asked),
        limit=count.limit,
    )


def rules(owner_url: str) -> dict[str, tuple[int, timedelta]]:
    """Each kind's (limit, window), read with the owner's connection (the app role cannot read them)."""
    with psycopg.connect(owner_url, connect_timeout=10) as conn:
        return {kind: (limit, per) for kind, limit, per in conn.execute(q("rate_limit_rules"))}


def set_rule(owner_url: str, kind: Kind, limit: int, window: timedelta = timedelta(hours=1)) -> None:
    """Set one kind's limit (0: none, questions and searches only) and window, as the database's owner."""
    if kind not in KINDS:
        raise WorkbenchError(f"There is no rate limit for {kind!r}: the kinds are {', '.join(KINDS)}.")
    if limit < 0 or (limit == 0 and kind == "lookup") or window < timedelta(minutes=1):
        raise WorkbenchError(
            f"A {kind} limit must be a whole number of at least {1 if kind == 'lookup' else 0} per window of a "
            "minute or more (0 turns off the question or search limit)."
        )
    try:
        with psycopg.connect(owner_url, connect_timeout=10) as conn:
            conn.execute(q("set_rate_limit_rule"), {"kind": kind, "max_requests": limit, "per": window})
    except psycopg.errors.InsufficientPrivilege as exc:
        raise WorkbenchError(OWNER_ONLY) from exc
