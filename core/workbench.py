"""The workbench facade: one object the CLI, the pages and the tests call.

Every way in goes through it (the pages and the CLI never hand a Database to a core function): each method
is a thin, typed call into the module that does the work, acting as this workbench's user.
"""

from __future__ import annotations

import copy
import ipaddress
import logging
from collections.abc import Collection, Iterable, Iterator, Sequence
from datetime import date
from functools import cached_property
from pathlib import Path

from core.cells import cell_ref
from core.config import Settings, get_settings
from core.db import APP_ROLE, LOGIN_ROLE, Database, RoleSetup, database_url, q, refusal, setup_roles
from core.errors import BadInput, DocumentNotFound, IngestError, WorkbenchError
from core.ingest import edits, jobs
from core.ingest.edits import Column, Grid, SheetInfo, field_of
from core.ingest.filing import FORMS, filing_changes, parse_period
from core.ingest.jobs import IngestJob
from core.ingest.parse import SUPPORTED_SUFFIXES
from core.ingest.pipeline import Progress, embed_pending, ingest_bytes, ingest_path, read_file
from core.inputs import MAX_HITS, MAX_NAME_CHARS, MAX_QUERY_CHARS, checked_int, checked_text
from core.models import IngestResult, Room, SearchHit
from core.providers.embeddings import Embedder, get_embedder
from core.qa import feedback, service
from core.qa.exports import escape_markdown, neutralise_bidi, neutralise_links
from core.qa.feedback import ConversationSummary, Turn, answer_memo
from core.qa.planner import Planner
from core.qa.rerank import hints_for, model_scorer
from core.qa.service import CLARIFY_LEAD
from core.qa.synth import Synthesizer
from core.retrieval import viewer
from core.retrieval.quoted import claims_citing, passage_lines
from core.retrieval.search import search
from core.rooms import access, analytics, auth, ratelimit
from core.rooms.analytics import Day
from core.rooms.auth import LOCAL, User
from core.rooms.store import (
    DocumentInfo,
    RoomRef,
    delete_document,
    ensure_room,
    get_room,
    list_documents,
    list_rooms,
    set_filing,
)
from core.sheetmodel import ROLES, SCALES
from core.text import STOP_WORDS, excerpt, word_pattern

# What the pages use besides the Workbench, re-exported so that views/ and app.py depend on this facade alone
# (with core.models, core.errors and core.config): values they show and pure helpers that format them.
__all__ = [
    "CLARIFY_LEAD",
    "FORMS",
    "LOCAL",
    "ROLES",
    "SCALES",
    "STOP_WORDS",
    "SUPPORTED_SUFFIXES",
    "Column",
    "ConversationSummary",
    "Day",
    "Grid",
    "IngestJob",
    "SheetInfo",
    "Turn",
    "User",
    "Workbench",
    "answer_memo",
    "cell_ref",
    "claims_citing",
    "escape_markdown",
    "excerpt",
    "field_of",
    "neutralise_bidi",
    "neutralise_links",
    "passage_lines",
    "refusal",
    "word_pattern",
]

log = logging.getLogger(__name__)


def _is_loopback(address: str | None) -> bool:
    """Is `address` this computer alone (127.0.0.0/8, ::1, localhost)?"""
    if not address:
        return False
    if address.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(address.strip().strip("[]")).is_loopback
    except ValueError:
        return False


DEMO_DIR = Path(__file__).resolve().parent.parent / "data" / "demo"


def _quiet(stage: str, done: int, total: int) -> None:
    return None


def expand_paths(paths: Iterable[Path]) -> list[Path]:
    """Files as given, folders replaced by the supported files inside them (sorted)."""
    out: list[Path] = []
    for path in paths:
        if path.is_dir():
            out.extend(sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in SUPPORTED_SUFFIXES))
        else:
            out.append(path)
    return out


class Workbench:
    """Settings, the database and the embedder, loaded once per process."""

    def __init__(self, settings: Settings | None = None, db: Database | None = None) -> None:
        self.settings = settings or get_settings()
        self.db = db or Database.from_settings(self.settings)

    @staticmethod
    def setup_database(
        settings: Settings, *, app_password: str | None = None, login_password: str | None = None
    ) -> RoleSetup:
        """`workbench setup`: run once by the database's owner (DATABASE_URL) for the team modes. Migrates, gives
        the app and sign-in roles logins with passwords of their own (generated unless given) and no role
        they could SET ROLE to; returns the three URLs to set. No Workbench is made: in the team modes one
        cannot start before this has run."""
        if not settings.database_url:
            raise WorkbenchError(
                "Set DATABASE_URL to the database owner's login first: `workbench setup` is for a team's own "
                "Postgres; local mode (the embedded server) needs no set-up."
            )
        return setup_roles(database_url(settings), {APP_ROLE: app_password, LOGIN_ROLE: login_password})

    @staticmethod
    def exposure_refusal(settings: Settings, address: str | None) -> str | None:
        """Why the app must not serve on `address` (Streamlit's `server.address`), or None when it may.

        Local mode (WORKBENCH_AUTH=none) has no sign-in and owns every room: it serves loopback alone. An unset
        address is refused too: Streamlit then listens on every interface."""
        if settings.server_address is None or _is_loopback(address):
            return None
        where = f"on {address}" if address else "on every network interface (no --server.address given)"
        return (
            f"This app was started {where} in local mode (WORKBENCH_AUTH=none: no sign-in, you own every room), "
            f"which would let anyone who reaches this computer read every room. Start it with `workbench serve` "
            f"(or `streamlit run app.py --server.address {settings.server_address}`); to open it to a team, set "
            "WORKBENCH_AUTH=accounts and add their accounts (docs/deployment.md)."
        )

    def as_user(self, user_id: str) -> Workbench:
        """This workbench (same pool, same loaded model) acting for `user_id` (row-level security applies)."""
        view = copy.copy(self)
        view.db = self.db.as_user(user_id)
        return view

    @cached_property
    def embedder(self) -> Embedder:
        """The configured embedding provider (the local model loads on first use)."""
        return get_embedder(self.settings)

    def room(self, name: str, *, create: bool = False) -> RoomRef:
        """The named room (created when `create`)."""
        name = checked_text(name, "room name", max_chars=MAX_NAME_CHARS)
        return ensure_room(self.db, name) if create else get_room(self.db, name)

    def rooms(self) -> list[Room]:
        """Every room with its counts."""
        return list_rooms(self.db)

    def documents(self, room: str) -> list[DocumentInfo]:
        """A room's documents."""
        return list_documents(self.db, self.room(room).id)

    def edit_document(
        self,
        room: str,
        document_id: int,
        *,
        company: str | None = None,
        form: str | None = None,
        period: str | None = None,
        period_end: str | date | None = None,
    ) -> DocumentInfo:
        """Correct what a document is (editors and owners): its company, its form (one of FORMS), its period
        ("FY2022", "Q3 FY2023") or its period end (an ISO date); fields not given are kept, "" clears one."""
        ref = self.room(room)
        access.require_writer(self.db, ref.id, ref.name)
        current = next((d for d in list_documents(self.db, ref.id) if d.id == document_id), None)
        if current is None:
            raise DocumentNotFound(f"Room {ref.name!r} has no document {document_id}: see `workbench documents`.")
        changes = filing_changes(company=company, form=form, period=period, period_end=period_end)
        set_filing(self.db, ref.id, document_id, current.filing().model_copy(update=changes))
        return next(d for d in list_documents(self.db, ref.id) if d.id == document_id)

    def ingest(
        self, paths: Iterable[Path], room: str, *, embed: bool = True, progress: Progress = _quiet
    ) -> Iterator[IngestResult]:
        """Ingest files into a room (created if needed), one result per file, failures included."""
        ref = self.room(room, create=True)
        access.require_writer(self.db, ref.id, ref.name)
        embedder = self.embedder if embed else None
        for path in expand_paths(paths):
            yield ingest_path(self.db, ref, path, self.settings, embedder=embedder, progress=progress)

    def ingest_upload(
        self, data: bytes, filename: str, room: str, *, embed: bool = True, progress: Progress = _quiet
    ) -> IngestResult:
        """Ingest one uploaded file's bytes."""
        filename = checked_text(filename, "file name", max_chars=MAX_NAME_CHARS)
        ref = self.room(room, create=True)
        access.require_writer(self.db, ref.id, ref.name)
        embedder = self.embedder if embed else None
        return ingest_bytes(self.db, ref, data, filename, self.settings, embedder=embedder, progress=progress)

    # -- ingestion as jobs (core.ingest.jobs): queued here, run by `workbench worker`

    def enqueue_upload(self, data: bytes, filename: str, room: str, *, embed: bool = True) -> jobs.IngestJob:
        """Queue one uploaded file for a worker (the room is created if needed); the pending job for the same bytes
        when there is one."""
        filename = checked_text(filename, "file name", max_chars=MAX_NAME_CHARS)
        ref = self.room(room, create=True)
        return jobs.enqueue_file(self.db, ref, data, filename, embed=embed)

    def enqueue(
        self, paths: Iterable[Path], room: str, *, embed: bool = True
    ) -> Iterator[jobs.IngestJob | IngestResult]:
        """Queue files (folders walked) for the workers: a job per file, or a failed result for a file that cannot
        be read or is over the size limit."""
        ref = self.room(room, create=True)
        access.require_writer(self.db, ref.id, ref.name)
        for path in expand_paths(paths):
            try:
                data = read_file(path, self.settings)
            except IngestError as exc:
                yield IngestResult(document_id=None, title=path.name, kind=None, status="failed", error=str(exc))
                continue
            yield jobs.enqueue_file(self.db, ref, data, path.name, embed=embed)

    def enqueue_embedding(self, room: str) -> jobs.IngestJob:
        """Queue the embedding of whatever the room has not embedded yet."""
        return jobs.enqueue_embedding(self.db, self.room(room))

    def jobs(
        self, room: str, *, ids: list[int] | None = None, limit: int = 50, active: bool = False
    ) -> list[jobs.IngestJob]:
        """The room's latest ingestion jobs (only `ids` when given), newest first, with stage and progress; with
        `active`, every job still queued or running besides, however many."""
        return jobs.room_jobs(self.db, self.room(room).id, ids=ids, limit=limit, active=active)

    def clear_jobs(self, room: str, ids: list[int] | None = None) -> int:
        """Remove finished jobs (these `ids`, else all of this user's) from the room's list."""
        return jobs.clear_finished(self.db, self.room(room).id, ids)

    def run_worker(
        self, *, concurrency: int = 1, burst: bool = False, embed: bool = True, heartbeat: float = 10.0
    ) -> None:
        """Run queued ingestion jobs until stopped (or until the queue is empty when `burst`)."""
        jobs.run_worker(
            self.db,
            self.settings,
            self.embedder if embed else None,
            concurrency=concurrency,
            burst=burst,
            heartbeat=heartbeat,
        )

    def delete_document(self, room: str, document_id: int) -> str:
        """Delete a document of the room and everything made from it (owners only); returns its title."""
        return delete_document(self.db, self.room(room).id, document_id)

    def embed_pending(self, room: str, *, progress: Progress = _quiet) -> int:
        """Embed whatever the room has not embedded yet."""
        ref = self.room(room)
        access.require_writer(self.db, ref.id, ref.name)
        return embed_pending(self.db, ref, self.embedder, progress=progress)

    def search(
        self,
        query: str,
        room: str,
        *,
        k: int = 10,
        mmr: bool = False,
        documents: Sequence[int] = (),
        period: str | None = None,
    ) -> list[SearchHit]:
        """Hybrid search in a room; only in `documents` (ids) or in the filings of `period` ("FY2022",
        "Q3 FY2023": every document of the room with that stored period) when given."""
        query = checked_text(query, "search", max_chars=MAX_QUERY_CHARS)
        k = checked_int(k, "number of hits (k)", low=1, high=MAX_HITS)
        ref = self.room(room)
        documents = list(documents)
        if period is not None:
            documents += self._period_documents(ref, period)
            if not documents:
                return []
        # A room with no vectors yet is searched by keywords alone: no need to load a model for it.
        embedder = self.embedder if ref.embedding_model else None
        if embedder is not None and self.settings.embeddings == "openai" and self.settings.search_rate_limit_per_hour:
            # Each search is then a paid call to the embedding server: counted like questions.
            ratelimit.check_and_count(self.db, kind="search")
        hints = hints_for(self.db, ref.id, query) if self.settings.rerank != "off" else None
        return search(
            self.db,
            ref,
            query,
            k=k,
            embedder=embedder,
            mmr=mmr,
            documents=documents,
            rerank=hints,
            scorer=model_scorer(self.settings),
        )

    def _period_documents(self, ref: RoomRef, period: str) -> list[int]:
        """The room's documents whose stored period is `period` (BadInput when it is no period)."""
        read = parse_period(period)
        if read is None:
            raise BadInput(f"{period!r} is not a period: write it as FY2022, Q3 FY2023 or fiscal 2022.")
        return [d.id for d in list_documents(self.db, ref.id) if (d.fiscal_year, d.fiscal_quarter) == read]

    def ensure_demo(self, *, embed: bool = True) -> list[IngestResult]:
        """Load the bundled demo data room (a no-op for files already there)."""
        files = sorted(p for p in DEMO_DIR.iterdir() if p.suffix.lower() in SUPPORTED_SUFFIXES)
        return list(self.ingest(files, self.settings.demo_room, embed=embed))

    # -- asking, and what an analyst does with answers (core.qa)

    def ask(
        self,
        question: str,
        room: str,
        *,
        conversation_id: int | None = None,
        planner: Planner | None = None,
        synthesizer: Synthesizer | None = None,
        documents: Sequence[int] = (),
        period: str | None = None,
    ) -> Iterator[service.Event]:
        """Answer `question` from the room's documents alone, as a stream of events; the last is `done`. Passages
        come only from `documents` (ids), or from the filings of `period` ("FY2022"), when given."""
        return service.ask(
            self,
            question,
            room,
            conversation_id=conversation_id,
            planner=planner,
            synthesizer=synthesizer,
            documents=documents,
            period=period,
        )

    def conversation_history(self, room: str, conversation_id: int) -> list[feedback.Turn]:
        """The answered turns of one of the room's conversations, oldest first, with votes and stale cells."""
        return feedback.conversation_history(self.db, self.room(room).id, conversation_id)

    def recent_conversations(self, room: str | None) -> list[feedback.ConversationSummary]:
        """The room's conversations with an answer (every visible room's when `room` is None), latest first."""
        return feedback.recent_conversations(self.db, self.room(room).id if room is not None else None)

    def conversation_room(self, conversation_id: int) -> str | None:
        """The name of the room a conversation was asked in (a link may point into another room)."""
        return feedback.conversation_room(self.db, conversation_id)

    def record_wait(self, query_id: int, waited_ms: float) -> None:
        """Mark a logged question as asked on a page, with what its user waited (submit to last token drawn)."""
        feedback.record_wait(self.db, query_id, waited_ms)

    def record_feedback(self, query_id: int, helpful: bool, comment: str | None = None) -> int:
        """This user's vote (and comment) on an answer; a second vote replaces the first."""
        return feedback.record_feedback(self.db, query_id, helpful, comment)

    def analytics_span(self, room_ids: list[int]) -> analytics.Span:
        """How many questions the rooms logged, and on which first and last days."""
        return analytics.span(self.db, room_ids)

    def analytics_report(
        self, room_ids: list[int], start: date, end: date, *, sources: tuple[str, ...] = analytics.SOURCES
    ) -> analytics.Report:
        """Questions, abstentions, latency, citations and votes of the rooms, per UTC day from `start` to `end`,
        of the questions asked from `sources` ('page', 'cli')."""
        return analytics.report(self.db, room_ids, start, end, sources=sources)

    # -- PDFs (core.retrieval.viewer)

    def render_page(
        self,
        document_id: int,
        page: int | None = None,
        chunk_index: int | None = None,
        cell: tuple[int, str] | None = None,
        quoting: Sequence[str] = (),
    ) -> viewer.RenderedPage:
        """A PDF page as PNG (default: the cited page), the passage `chunk_index` (only the lines the answer's
        sentences `quoting` take from it, when any) or the table cell `cell` (row id, column name) highlighted."""
        return viewer.render_page(self.db, document_id, page, chunk_index, cell=cell, quoting=quoting)

    # -- people: accounts and room members (core.rooms.auth, core.rooms.access)

    def sign_in(self, email: str, password: str) -> auth.User:
        """The account with this e-mail and password (Supabase Auth when WORKBENCH_AUTH=supabase)."""
        if self.settings.auth_mode == "supabase":
            return auth.supabase_sign_in(self.db, self.settings, email, password)
        return auth.sign_in(self.db, email, password)

    def create_account(self, email: str, display_name: str, password: str) -> auth.User:
        """A new account (WORKBENCH_AUTH=accounts), its password hashed with argon2id."""
        return auth.create_account(self.db, email, display_name, password)

    def find_user(self, email: str, room: str | None = None) -> auth.User | None:
        """The account with this e-mail (to add to `room`, which this user must own), None when there is none.

        Only room owners may look accounts up (of any room they own when `room` is not named), 30 an hour."""
        return auth.find_user(self.db, email, self.room(room).id if room is not None else None)

    def members(self, room: str) -> list[access.Member]:
        """The room's members and their roles (none when this user is not one)."""
        return access.members(self.db, self.room(room).id)

    def my_role(self, room: str) -> access.Role | None:
        """This user's role in the room, None when not a member."""
        return access.my_role(self.db, self.room(room).id)

    def can_edit(self, room: str) -> bool:
        """May this user add files to and edit cells of the room (an owner or an editor; a viewer only reads)?"""
        return self.my_role(room) in ("owner", "editor")

    def set_member(self, room: str, user_id: str, role: access.Role) -> None:
        """Give a user a role in the room (owners only)."""
        access.set_member(self.db, self.room(room).id, user_id, role)

    def remove_member(self, room: str, user_id: str) -> bool:
        """Take a user out of the room (owners only); False when they were not in it."""
        return access.remove_member(self.db, self.room(room).id, user_id)

    # -- sheets: the grid, cell edits, stale answers (core.ingest.edits)

    def sheets(self, room: str) -> list[edits.SheetInfo]:
        """The room's sheets, for a picker (one entry per workbook tab)."""
        return edits.room_sheets(self.db, self.room(room).id)

    def grid(
        self,
        sheet_id: int,
        *,
        offset: int = 0,
        limit: int | None = None,
        find: str | None = None,
        rows: Collection[int] | None = None,
    ) -> edits.Grid:
        """A window of a sheet's rows (all when limit is None; only rows holding `find` when given; only the rows
        with these ids, fetched by id, when `rows` is given) for the grid."""
        return edits.load_grid(self.db, sheet_id, offset=offset, limit=limit, find=find, rows=rows)

    def row_position(self, sheet_id: int, row_id: int) -> int | None:
        """The 0-based position of a row in its sheet (None when it is not there)."""
        return edits.row_position(self.db, sheet_id, row_id)

    def document_room(self, document_id: int) -> str | None:
        """The name of the room holding a document (a link may point into another room)."""
        return edits.document_room(self.db, document_id)

    def edit_cell(
        self,
        sheet_id: int,
        row_id: int,
        column: str | int,
        value: str | None,
        *,
        user_id: str | None = None,
        embed: bool = True,
    ) -> edits.CellEdit:
        """Edit one cell; then embed its row again when the room has vectors (keyword search is current at once)."""
        with self.db.connection() as conn:
            found = conn.execute(q("sheet_room"), {"sheet_id": sheet_id}).fetchone()
        if found is not None:  # (an unknown sheet is edit_cell's to report)
            access.require_writer(self.db, found[0], found[1])  # a viewer is told so, before anything is tried
        # The edit is the current user's unless the caller says whose (the audit row names them).
        edit = edits.edit_cell(
            self.db, sheet_id, row_id, column, value, user_id if user_id is not None else self.db.user_id
        )
        if edit.changed and embed:
            room = next((r for r in self.rooms() if r.id == edit.room_id), None)
            if room is not None and room.embedding_model:
                ref = RoomRef(id=room.id, name=room.name, embedding_model=room.embedding_model)
                try:
                    embedded = edits.reembed_row(self.db, ref, self.embedder, row_id)
                except WorkbenchError as exc:  # the row stays keyword-searchable meanwhile
                    log.warning("re-embedding row %s: %s", row_id, exc)
                    embedded = False
                if not embedded:
                    # A room with vectors never keeps a row without one: a worker embeds it (an edit made while the
                    # room's embedding job ran could lose its vector after the job had passed that row).
                    jobs.enqueue_embedding(self.db, ref)
        return edit

    def correct_sheet(
        self,
        sheet_id: int,
        *,
        scale: str | None = None,
        fiscal_start: int | None = None,
        roles: dict[int, str] | None = None,
    ) -> edits.SheetInfo:
        """Correct how a sheet was read (its scale, fiscal year's first month, rows' roles): editors and owners."""
        with self.db.connection() as conn:
            found = conn.execute(q("sheet_room"), {"sheet_id": sheet_id}).fetchone()
        if found is not None:
            access.require_writer(self.db, found[0], found[1])
        return edits.correct_model(self.db, sheet_id, scale=scale, fiscal_start=fiscal_start, roles=roles)

    def sheet_facts(self, sheet_id: int) -> list[edits.Fact]:
        """Each figure cell of a sheet with what its model says it is (row path, column path, period, unit, role)."""
        return edits.sheet_facts(self.db, sheet_id)

    def stale_citations(self, conversation_id: int) -> dict[int, list[str]]:
        """Assistant message id -> refs of its cited cells edited since it was written."""
        return edits.stale_citations(self.db, conversation_id)
