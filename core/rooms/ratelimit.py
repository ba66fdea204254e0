"""Rate limits: at most WORKBENCH_RATE_LIMIT questions per user per room in any hour (off by default in local
mode), counted in the database.

The count lives in Postgres (migration 008, core/sql/ratelimit.sql), checked and bumped by one statement
that locks the (room, user) row, so the limit holds for any number of app processes, CLI runs and
threads. The window slides: a question counts for exactly one hour after it was asked.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

from core.config import get_settings
from core.db import Database, q
from core.errors import RateLimited

__all__ = ["WINDOW", "RateLimited", "check_and_count"]

WINDOW = timedelta(hours=1)


def _minute_up(moment: datetime) -> datetime:
    """The next whole minute at or after `moment` (a user told 14:32 must not be refused at 14:32)."""
    floor = moment.replace(second=0, microsecond=0)
    return floor if floor == moment else floor + timedelta(minutes=1)


def check_and_count(
    db: Database, user_id: str | None, room_id: int, limit: int | None = None, *, at: datetime | None = None
) -> None:
    """Count one question of `user_id` (None: the single local user) in `room_id`, or raise RateLimited.

    `limit` defaults to the settings' (WORKBENCH_RATE_LIMIT; off in local mode); 0 turns the limit off. `at` is
    for tests (default: the database's clock).
    """
    limit = get_settings().rate_limit if limit is None else limit
    if limit <= 0:
        return
    params = {"room_id": room_id, "user_id": user_id, "limit": limit, "window": WINDOW, "at": at}
    with db.connection() as conn:
        counted = conn.execute(q("count_question"), params).fetchone()
        if counted is not None:
            return
        now, asked = conn.execute(q("recent_questions"), params).fetchone()  # type: ignore[misc]
    asked = sorted(asked) or [now]
    # The question that has to leave the window before one more fits in it.
    freed_by = asked[max(0, len(asked) - limit)]
    retry_at = _minute_up((freed_by + WINDOW).astimezone(UTC))
    minutes = max(1, math.ceil((retry_at - now).total_seconds() / 60))
    raise RateLimited(
        f"You have asked {len(asked)} question{'s' if len(asked) != 1 else ''} in this room in the last hour "
        f"(the limit is {limit}); "
        f"you can ask again at {retry_at:%H:%M} UTC (in {minutes} minute{'s' if minutes != 1 else ''}).",
        retry_at=retry_at,
        asked=len(asked),
        limit=limit,
    )
