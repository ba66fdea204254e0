"""Who may do what in a room: members and their roles (owner, editor, viewer).

The rules live in Postgres (migration 009: row-level security on every table of room data); this
module only reads and changes memberships, as the current user, so the database refuses what the
user's role does not allow (a viewer or editor adding members, anyone touching a room they are not in).
"""

from __future__ import annotations

from typing import Literal

import psycopg
from psycopg.rows import dict_row
from pydantic import BaseModel

from core.db import Database, q
from core.errors import AccessDenied, WorkbenchError

Role = Literal["owner", "editor", "viewer"]


class Member(BaseModel):
    """A room member."""

    user_id: str
    display_name: str
    email: str | None
    role: Role


def members(db: Database, room_id: int) -> list[Member]:
    """The room's members (empty when the current user is not one of them)."""
    with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
        return [
            Member(**{**r, "user_id": str(r["user_id"])}) for r in cur.execute(q("room_members"), {"room_id": room_id})
        ]


def my_role(db: Database, room_id: int) -> Role | None:
    """The current user's role in the room, None when not a member."""
    with db.connection() as conn:
        row = conn.execute(q("my_role"), {"room_id": room_id}).fetchone()
    return row[0] if row else None


def set_member(db: Database, room_id: int, user_id: str, role: Role) -> None:
    """Add a member or change a member's role (owners only)."""
    try:
        with db.connection() as conn:
            cur = conn.execute(q("set_member"), {"room_id": room_id, "user_id": user_id, "role": role})
            if cur.rowcount == 0:
                raise AccessDenied("Only an owner of this room can add members or change their roles.")
    except psycopg.errors.InsufficientPrivilege as exc:
        raise AccessDenied("Only an owner of this room can add members or change their roles.") from exc
    except psycopg.errors.ForeignKeyViolation as exc:
        raise WorkbenchError(f"No user {user_id}: create the account first.") from exc


def remove_member(db: Database, room_id: int, user_id: str) -> bool:
    """Remove a member (owners only); False when nothing was removed."""
    with db.connection() as conn:
        return conn.execute(q("remove_member"), {"room_id": room_id, "user_id": user_id}).rowcount > 0


def require_writer(db: Database, room_id: int, room_name: str) -> None:
    """Refuse (AccessDenied) unless the current user is an owner or editor of the room."""
    role = my_role(db, room_id)
    if role not in ("owner", "editor"):
        who = f"a {role}" if role else "not a member"
        raise AccessDenied(
            f"You are {who} of data room {room_name!r}: only its owners and editors can add or change files."
        )
