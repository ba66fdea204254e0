"""Rate limits: at most WORKBENCH_RATE_LIMIT questions per user in any hour, across every room (off by default in
local mode), counted in the database.

The count lives in Postgres (migration 016, core/sql/ratelimit.sql): a SECURITY DEFINER function checks and
bumps the signed-in user's row under a row lock, so the limit holds for any number of app processes, CLI runs
and threads, and no user can reset or rewrite anyone's count (the app role has no access to the table). The
window slides: a request counts for exactly one hour after it was made. Searches are counted the same way
(WORKBENCH_SEARCH_RATE_LIMIT) when each one costs a call to a remote embedding server.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import Literal

from core.config import get_settings
from core.db import Database, q, returned
from core.errors import RateLimited

__all__ = ["WINDOW", "RateLimited", "check_and_count"]

WINDOW = timedelta(hours=1)
Kind = Literal["question", "search"]


def _minute_up(moment: datetime) -> datetime:
    """The next whole minute at or after `moment` (a user told 14:32 must not be refused at 14:32)."""
    floor = moment.replace(second=0, microsecond=0)
    return floor if floor == moment else floor + timedelta(minutes=1)


def check_and_count(
    db: Database, limit: int | None = None, *, kind: Kind = "question", at: datetime | None = None
) -> None:
    """Count one request (a question, or a search) of the database view's user, or raise RateLimited.

    `limit` defaults to WORKBENCH_RATE_LIMIT (questions; off in local mode) or WORKBENCH_SEARCH_RATE_LIMIT
    (searches); 0 turns the limit off. `at` is for tests (default: the database's clock).
    """
    if limit is None:
        settings = get_settings()
        limit = settings.rate_limit if kind == "question" else settings.search_rate_limit_per_hour
    if limit <= 0:
        return
    params = {"kind": kind, "limit": limit, "window": WINDOW, "at": at}
    with db.connection() as conn:
        counted, now, asked = returned(conn.execute(q("count_request"), params))
    if counted:
        return
    asked = sorted(asked) or [now]
    # The request that has to leave the window before one more fits in it.
    freed_by = asked[max(0, len(asked) - limit)]
    retry_at = _minute_up((freed_by + WINDOW).astimezone(UTC))
    minutes = max(1, math.ceil((retry_at - now).total_seconds() / 60))
    noun = ("question", "questions") if kind == "question" else ("search", "searches")
    done, verb = ("asked", "ask") if kind == "question" else ("run", "search")
    raise RateLimited(
        f"You have {done} {len(asked)} {noun[len(asked) != 1]} in the last hour, across all your rooms "
        f"(the limit is {limit}); you can {verb} again at {retry_at:%H:%M} UTC "
        f"(in {minutes} minute{'s' if minutes != 1 else ''}).",
        retry_at=retry_at,
        asked=len(asked),
        limit=limit,
    )
