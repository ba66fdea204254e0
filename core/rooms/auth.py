"""Who is asking: the local user (laptop), an account in the database (team), or a Supabase Auth user.

WORKBENCH_AUTH picks the mode:
- ``none`` (default): one implicit user, the owner of every room (core.db.LOCAL_USER);
- ``accounts``: users with e-mail and password stored in the database, hashed with argon2id
  (argon2-cffi); `workbench user add` creates them, the app shows a sign-in form;
- ``supabase``: sign-in through Supabase Auth (supabase-py, SUPABASE_URL and SUPABASE_ANON_KEY); the
  Supabase user's id is the database user, so the same row-level security policies apply.
Whatever the mode, a signed-in user is a `User`, and `Database.as_user(user.id)` is their view: its
transactions carry a token signed by the database for that user (migration 015), which SQL run as the
app role cannot forge. Reading password hashes and creating accounts run as the separate sign-in role.
"""

from __future__ import annotations

import math
import re
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache

import psycopg
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from core.config import Settings
from core.db import LOCAL_USER, Database, q, returned
from core.errors import AccessDenied, AuthError, RateLimited
from core.inputs import MAX_NAME_CHARS, checked_text
from core.rooms.ratelimit import window_words

_HASHER = PasswordHasher()  # argon2id with the library's current recommended parameters
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
MIN_PASSWORD = 10
# Account lookups per owner and hour by default (the owner's rule, migration 027: `workbench limits`), and the
# SQLSTATE past it (workbench_find_user; its HINT is the limit in force, its DETAIL when to try again).
LOOKUP_LIMIT = 30
LOOKUP_LIMITED = "WB429"


@cache
def _dummy_hash() -> str:
    # Compared against when the e-mail is unknown, so a wrong e-mail costs as long as a wrong password.
    # Made on first use: hashing takes ~0.3 s, which every process (the CLI's `rooms` too) paid on import.
    return _HASHER.hash("not a password of anyone")


@dataclass(frozen=True)
class User:
    """A signed-in user."""

    id: str
    display_name: str
    email: str | None = None


LOCAL = User(id=LOCAL_USER, display_name="Local user")


def create_account(db: Database, email: str, display_name: str, password: str) -> User:
    """A new account with an argon2id password hash."""
    email = checked_text(email, "e-mail address", max_chars=MAX_NAME_CHARS).strip()
    if display_name.strip():
        display_name = checked_text(display_name, "display name", max_chars=MAX_NAME_CHARS)
    if not _EMAIL.match(email):
        raise AuthError(f"{email!r} is not an e-mail address.")
    if len(password) < MIN_PASSWORD:
        raise AuthError(f"Choose a password of at least {MIN_PASSWORD} characters.")
    name = display_name.strip() or email.split("@")[0]
    try:
        with db.login_connection() as conn:  # only the sign-in role may create accounts (migration 015)
            row = conn.execute(
                q("create_account"),
                {"id": str(uuid.uuid4()), "email": email, "name": name, "hash": _HASHER.hash(password)},
            ).fetchone()
    except psycopg.errors.UniqueViolation as exc:
        raise AuthError(f"There is already an account for {email}: sign in instead.") from exc
    assert row is not None
    return User(id=row[0], display_name=name, email=email)


def sign_in(db: Database, email: str, password: str) -> User:
    """The account's user when the password matches; one message for every failure (no account probing).

    After 5 failures for one e-mail, each further attempt must wait (1 s, 2 s, 4 s … up to 15 minutes,
    migration 016): an attempt that comes too early is refused without checking the password."""
    email = checked_text(email, "e-mail address", max_chars=MAX_NAME_CHARS).strip()
    with db.login_connection() as conn:  # only the sign-in role reads password hashes (migration 015)
        wait = float(returned(conn.execute(q("sign_in_wait"), {"email": email}))[0])
        if wait > 0:
            seconds = math.ceil(wait)
            raise AuthError(
                f"Too many failed sign-ins for {email}: wait {seconds} second{'s' if seconds != 1 else ''} "
                "and try again."
            )
        row = conn.execute(q("credentials"), {"email": email}).fetchone()
        user = _verified(row, password)
        conn.execute(q("sign_in_result"), {"email": email, "ok": user is not None})
    if user is None:
        raise AuthError("Wrong e-mail or password.")
    user_id, name, stored = row  # type: ignore[misc]
    if _HASHER.check_needs_rehash(stored):
        # As the signed-in user: the database lets a user replace only their own hash.
        with db.as_user(str(user_id)).connection() as conn:
            conn.execute(q("set_password_hash"), {"id": user_id, "hash": _HASHER.hash(password)})
    return User(id=user_id, display_name=name, email=email)


def _verified(row: tuple[str, str, str | None] | None, password: str) -> str | None:
    """The user id when `password` matches the row's hash; an unknown e-mail costs a hash too."""
    if row is None or not row[2]:
        try:
            _HASHER.verify(_dummy_hash(), password)
        except VerificationError:
            pass
        return None
    try:
        _HASHER.verify(row[2], password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return None
    return row[0]


def find_user(db: Database, email: str, room_id: int | None = None) -> User | None:
    """The user with this e-mail (to add them to room `room_id`), None if there is no such account.

    Only an owner of the room may look (of any room they own when `room_id` is None: AccessDenied otherwise),
    at most 30 times an hour by default (RateLimited): the database enforces both (migrations 021, 027)."""
    email = checked_text(email, "e-mail address", max_chars=MAX_NAME_CHARS)
    try:
        with db.connection() as conn:
            row = conn.execute(q("find_user"), {"email": email.strip(), "room_id": room_id}).fetchone()
    except psycopg.errors.InsufficientPrivilege as exc:
        raise AccessDenied("Only an owner of the room can look up accounts to add as members.") from exc
    except psycopg.Error as exc:
        if exc.sqlstate != LOOKUP_LIMITED:
            raise
        retry_at = datetime.fromisoformat(exc.diag.message_detail or datetime.now(UTC).isoformat())
        size, _, seconds = (exc.diag.message_hint or f"{LOOKUP_LIMIT}/3600").partition("/")
        limit = int(size)
        raise RateLimited(
            f"You have looked up {limit} accounts in the last {window_words(timedelta(seconds=int(seconds)))} (the "
            f"limit); you can look up another at {retry_at:%H:%M} UTC.",
            retry_at=retry_at,
            asked=limit,
            limit=limit,
        ) from exc
    return User(id=row[0], display_name=row[1], email=email.strip()) if row else None


def supabase_sign_in(db: Database, settings: Settings, email: str, password: str) -> User:
    """Sign in with Supabase Auth (e-mail + password); the Supabase user id becomes the database user."""
    if not (settings.supabase_url and settings.supabase_anon_key):
        raise AuthError("Set SUPABASE_URL and SUPABASE_ANON_KEY to sign in with Supabase.")
    from supabase import create_client  # imported here: only this mode needs it

    client = create_client(settings.supabase_url, settings.supabase_anon_key)
    try:
        response = client.auth.sign_in_with_password({"email": email.strip(), "password": password})
    except Exception as exc:
        message = str(exc) or type(exc).__name__
        if "invalid" in message.lower() or "credentials" in message.lower():
            raise AuthError("Wrong e-mail or password.") from exc
        raise AuthError(f"Supabase Auth at {settings.supabase_url} did not sign you in: {message}") from exc
    user = response.user
    if user is None:
        raise AuthError("Wrong e-mail or password.")
    name = (user.user_metadata or {}).get("full_name") or (user.email or email).split("@")[0]
    # As the Supabase user: the database lets a user record only themselves.
    with db.as_user(str(user.id)).connection() as conn:
        conn.execute(q("ensure_user"), {"id": user.id, "email": user.email or email.strip(), "name": name})
    return User(id=str(user.id), display_name=name, email=user.email or email.strip())
