"""The `workbench` command line: a thin layer over core.workbench."""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import shlex
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
import psycopg
from pydantic import BaseModel

from core.db import refusal
from core.errors import BadInput, WorkbenchError
from core.inputs import MAX_HITS, checked_int, checked_text
from core.models import IngestResult

if TYPE_CHECKING:
    from tqdm import tqdm

    from core.config import Settings
    from core.rooms.access import Role
    from core.rooms.store import DocumentInfo
    from core.workbench import Workbench


def _workbench() -> Workbench:
    # Imported here: `workbench --help` need not load the parsers, the planner and the models.
    from core.workbench import Workbench

    return Workbench()


def _dump(value: Any) -> str:
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json")
    elif isinstance(value, list):
        value = [v.model_dump(mode="json") if isinstance(v, BaseModel) else v for v in value]
    return json.dumps(value, ensure_ascii=False)


def _read_batch(path: Path) -> Iterator[tuple[int, dict[str, Any] | str]]:
    """Each non-blank line of a JSONL batch: (line number, its object), or (line number, what is wrong with it):
    a bad line is reported on its own and the lines after it still run."""
    with path.open(encoding="utf-8", errors="replace") as handle:
        for number, line in enumerate(handle, start=1):
            if line.strip():
                try:
                    item = json.loads(line)
                except json.JSONDecodeError as exc:
                    yield number, f"{path}:{number} is not JSON ({exc.msg}): fix that line and run it again."
                    continue
                if not isinstance(item, dict):
                    yield number, f"{path}:{number} must be a JSON object ({{...}}): fix that line and run it again."
                    continue
                yield number, item


def _line_error(number: int, message: str) -> str:
    """The output line of a batch line that failed: its error and its line number."""
    return json.dumps({"error": message, "line": number}, ensure_ascii=False)


def _field(item: dict[str, Any], name: str, *, required: bool = True) -> Any:
    """A field of a batch line; BadInput (reported on that line) when a required one is missing."""
    if name not in item or item[name] is None:
        if required:
            raise BadInput(f'The line has no "{name}": add it (see workbench --help).')
        return None
    return item[name]


def _batch_option(help_text: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The --batch option of the commands that read a JSONL file of jobs."""
    return click.option("--batch", type=click.Path(exists=True, dir_okay=False, path_type=Path), help=help_text)


def _echo_each(batch: Path, work: Callable[[dict[str, Any]], str]) -> int:
    """One output line per line of a JSONL batch: the work's JSON, or {"error": ..., "line": n} where the line is
    malformed or the workbench refused it; every good line runs. Exits 1 when any line failed."""
    failed = 0
    for number, item in _read_batch(batch):
        if isinstance(item, str):
            failed += 1
            click.echo(_line_error(number, item))
            continue
        try:
            click.echo(work(item))
        except WorkbenchError as exc:
            failed += 1
            click.echo(_line_error(number, str(exc)))
        except psycopg.Error as exc:  # one line the database refused: the others go on
            failed += 1
            click.echo(_line_error(number, refusal(exc)))
    return 1 if failed else 0


class _Bar:
    """A tqdm bar per stage of one file, on stderr, only when stderr is a terminal (and never under --json)."""

    def __init__(self, name: str, enabled: bool) -> None:
        self.name, self.enabled, self.stage = name, enabled, ""
        self.bar: tqdm | None = None

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.enabled:
            return
        from tqdm import tqdm

        bar = self.bar
        if stage != self.stage or bar is None:
            self.close()
            self.stage = stage
            bar = self.bar = tqdm(total=total, desc=f"{self.name}: {stage}", unit="", leave=False, file=sys.stderr)
        bar.total = total
        bar.n = done
        bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


class _Command(click.Command):
    """A command whose return value is its exit code and whose WorkbenchError is a one-line message (exit 1).

    The one error boundary of the CLI: core raises WorkbenchError with the fix in its message, and a
    statement the database refuses (psycopg.Error) is one line too, never a traceback; anything else is a
    bug and keeps its traceback.
    """

    def invoke(self, ctx: click.Context) -> None:
        try:
            code = super().invoke(ctx)
        except WorkbenchError as exc:
            raise click.ClickException(str(exc)) from exc
        except psycopg.Error as exc:
            raise click.ClickException(refusal(exc)) from exc
        ctx.exit(code or 0)


class _Group(click.Group):
    """A group whose commands (and subgroups) are _Command and _Group."""

    command_class = _Command
    group_class = type


@click.group(cls=_Group)
@click.option("-v", "--verbose", is_flag=True, help="Log what the workbench does to stderr.")
def cli(verbose: bool) -> None:
    """Analyst Workbench: ingest spreadsheets and PDFs into data rooms and search them with citations."""
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s"
    )


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--room", help="Data room to ingest into (created if needed).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per file.")
@click.option("--no-embed", is_flag=True, help="Store text only (keyword-searchable); embed later.")
@click.option(
    "--wait", is_flag=True, help="Ingest here and now, printing each file's result (no worker needed); for scripts."
)
@_batch_option('JSONL file of {"room": ..., "path": ...} lines; one JSON result per line.')
def ingest(
    paths: tuple[Path, ...], room: str | None, as_json: bool, no_embed: bool, wait: bool, batch: Path | None
) -> int:
    """Queue PDF, CSV and XLSX files (or folders of them) for the workers, or ingest them here with --wait.

    Without --wait each file becomes a job that `workbench worker` runs (see `workbench jobs --room NAME`).
    Exits 1 if any file failed (with --wait) or could not be queued.
    """
    wb = _workbench()
    jobs: list[tuple[str, Path] | tuple[int, str]] = []
    if batch:
        # A bad line is reported ({"error": ..., "line": n}) where it stands; the good ones are ingested.
        jobs = [_ingest_line(batch, number, item) for number, item in _read_batch(batch)]
        json_out = True
    else:
        if not room or not paths:
            raise click.UsageError("Give PATH... and --room NAME (or --batch FILE.jsonl).")
        jobs = [(room, p) for p in paths]
        json_out = as_json
    failed = 0
    for job in jobs:
        if isinstance(job[0], int):
            failed += 1
            click.echo(_line_error(job[0], str(job[1])))
            continue
        room_name, path = job[0], Path(job[1])
        if not wait:
            for queued in wb.enqueue([path], room_name, embed=not no_embed):
                if isinstance(queued, IngestResult):
                    failed += 1
                    click.echo(_dump(queued) if json_out else f"FAILED  {queued.title}: {queued.error}")
                elif json_out:
                    click.echo(_dump(queued))
                else:
                    click.echo(f"queued  {queued.filename} (job {queued.id}, {queued.status})")
            continue
        bar = _Bar(path.name, sys.stderr.isatty() and not json_out)  # --json: the JSON lines alone
        for result in wb.ingest([path], room_name, embed=not no_embed, progress=bar):
            bar.close()
            failed += result.status != "ready"
            if json_out:
                click.echo(_dump(result))
            elif result.status == "failed":
                click.echo(f"FAILED  {result.title}: {result.error}")
            else:
                note = " (already in the room)" if result.duplicate else ""
                note += f"\n        warning: {result.error}" if result.error else ""
                head = "ready  " if result.status == "ready" else "INCOMPLETE"
                click.echo(
                    f"{head} {result.title}: {result.size}, {result.chunks} chunks, {result.seconds:.1f} s{note}"
                )
    if not wait and not json_out:
        click.echo("Workers run the jobs (`workbench worker`); follow them with `workbench jobs --room NAME --follow`.")
    return 1 if failed else 0


@cli.command("setup")
@click.option("--app-password", help="Password for workbench_app (default: generated); an existing role's to take it.")
@click.option("--login-password", help="Password for workbench_login (default: generated).")
def setup_command(app_password: str | None, login_password: str | None) -> int:
    """Run once by the database's owner (DATABASE_URL) for a team: migrate, give workbench_app and workbench_login
    logins with passwords of their own, and print the three URLs to set (docs/deployment.md)."""
    from core.config import get_settings
    from core.workbench import Workbench

    done = Workbench.setup_database(get_settings(), app_password=app_password, login_password=login_password)
    click.echo("# The database is migrated and the two roles have logins of their own. Set, for every process:")
    click.echo(f"DATABASE_URL='{done.owner_url}'  # the owner: migrations and the ingestion queue")
    click.echo(f"WORKBENCH_APP_DATABASE_URL='{done.app_url}'")
    click.echo(f"WORKBENCH_LOGIN_DATABASE_URL='{done.login_url}'")
    if done.superuser_statements:
        click.echo(
            "# workbench_app can still read other sessions' metadata (pids, start times, wait events, client "
            "addresses, locks) and end its own role's sessions (this login is not a superuser). Have a superuser run, "
            "in this database:",
        )
        for statement in done.superuser_statements:
            click.echo(f"#   {statement};")
    return 0


@cli.command("limits")
@click.option("--questions", type=click.IntRange(min=0), help="Questions per user and window (0: no limit).")
@click.option("--searches", type=click.IntRange(min=0), help="Remote-embedding searches per user and window (0: none).")
@click.option("--lookups", type=click.IntRange(min=1), help="Account lookups by e-mail per room owner and window.")
@click.option("--minutes", type=click.IntRange(min=1), default=60, show_default=True, help="The window, for those set.")
def limits_command(questions: int | None, searches: int | None, lookups: int | None, minutes: int) -> int:
    """Show, or set as the database's owner (DATABASE_URL), the rate limits every app process is held to.

    The app's logins can neither change them nor reset a count (migration 027)."""
    from datetime import timedelta

    from core.config import get_settings
    from core.db import database_url, migrate
    from core.rooms.ratelimit import OWNER_ONLY, rules, set_rule

    owner_url = database_url(get_settings())
    try:
        migrate(owner_url)
        rules(owner_url)
    except psycopg.errors.InsufficientPrivilege as exc:
        raise WorkbenchError(OWNER_ONLY) from exc
    for kind, limit in (("question", questions), ("search", searches), ("lookup", lookups)):
        if limit is not None:
            set_rule(owner_url, kind, limit, timedelta(minutes=minutes))  # type: ignore[arg-type]
    for kind, (limit, window) in rules(owner_url).items():
        size = "no limit" if limit == 0 else f"{limit} per {int(window.total_seconds() // 60)} minutes"
        click.echo(f"{kind:<9} {size}")
    return 0


def follow_line(listed: list[Any]) -> str:
    """One refresh of `jobs --follow`: how many jobs are active, then each of them (all, oldest first)."""
    pending = sorted((job for job in listed if not job.finished), key=lambda job: job.id)
    return f"{len(pending)} active: " + " | ".join(f"{job.id} {job.label}" for job in pending)


def _ingest_line(batch: Path, number: int, item: dict[str, Any] | str) -> tuple[str, Path] | tuple[int, str]:
    """(room, path) of a line of an ingest batch, or (line number, what is wrong with it)."""
    if isinstance(item, str):
        return number, item
    try:
        return (
            checked_text(_field(item, "room"), f"room of {batch}:{number}", max_chars=1000),
            Path(checked_text(_field(item, "path"), f"path of {batch}:{number}", max_chars=4096)),
        )
    except BadInput as exc:
        return number, f"{batch}:{number}: {exc}"


@cli.command("jobs")
@click.option("--room", required=True, help="The room whose ingestion jobs to show.")
@click.option("--json", "as_json", is_flag=True, help="A JSON list of jobs.")
@click.option("--follow", is_flag=True, help="Refresh until every job of the room is done or failed (all shown).")
@click.option("--limit", default=20, show_default=True, help="How many of the latest jobs.")
def jobs_command(room: str, as_json: bool, follow: bool, limit: int) -> int:
    """Ingestion jobs of a room: stage (queued, parsing, storing, embedding, done, failed) and progress."""
    import time

    wb = _workbench()
    listed = wb.jobs(room, limit=limit, active=follow)
    while follow and not as_json and any(not job.finished for job in listed):
        click.echo(follow_line(listed), err=True)
        time.sleep(1)
        # Every active job of the room, those queued since included, and the latest finished ones.
        listed = wb.jobs(room, limit=limit, active=True)
    if as_json:
        click.echo(_dump(listed))
        return 0
    if not listed:
        click.echo(f"No ingestion jobs in {room}.")
    for job in listed:
        click.echo(f"{job.id:>6}  {job.label}" + (f"\n        {job.error}" if job.error else ""))
    return 1 if any(job.status == "failed" for job in listed) else 0


@cli.command()
@click.option("--concurrency", default=1, show_default=True, help="Jobs run at once in this process.")
@click.option("--burst", is_flag=True, help="Exit when the queue is empty (scripts, benchmarks).")
@click.option("--no-embed", is_flag=True, help="Do not load the embedding model (embedding jobs then fail).")
@click.option(
    "--heartbeat",
    default=10.0,
    show_default=True,
    help="Seconds between heartbeats; a worker silent "
    "for three of them (and at least 30 s) is taken for dead and its job goes back to the queue.",
)
def worker(concurrency: int, burst: bool, no_embed: bool, heartbeat: float) -> int:
    """Run queued ingestion jobs (parse, store, embed) until stopped; start more on any machine with the same
    DATABASE_URL to go faster."""
    wb = _workbench()
    from core.ingest.sandbox import start_forkserver

    start_forkserver()  # the parsers and the model load now, not in the first job
    if not no_embed:
        wb.embedder.embed(["warm up"])
    if not burst:
        click.echo(f"worker: running ingestion jobs (concurrency {concurrency}); Ctrl-C stops it", err=True)
    wb.run_worker(concurrency=concurrency, burst=burst, embed=not no_embed, heartbeat=heartbeat)
    return 0


@cli.command("search")
@click.argument("query", required=False)
@click.option("--room", help="Data room to search.")
@click.option("--k", default=10, show_default=True, help="Number of hits.")
@click.option("--mmr", is_flag=True, help="Diversify hits with maximal marginal relevance.")
@click.option("--json", "as_json", is_flag=True, help="A JSON list of hits.")
@click.option("--doc", "docs", type=int, multiple=True, help="Only this document (its id: workbench documents).")
@click.option("--period", help='Only the filings of this fiscal period: "FY2022", "Q3 FY2023".')
@_batch_option('JSONL file of {"room": ..., "query": ..., "k": ...} lines; one JSON list per line.')
def search_command(
    query: str | None,
    room: str | None,
    k: int,
    mmr: bool,
    as_json: bool,
    docs: tuple[int, ...],
    period: str | None,
    batch: Path | None,
) -> int:
    """Hybrid (semantic + keyword) search in a room; every hit cites a page or a cell."""
    wb = _workbench()
    if batch:
        return _echo_each(
            batch,
            lambda item: _dump(
                wb.search(
                    _field(item, "query"),
                    _field(item, "room"),
                    k=checked_int(item.get("k", k), "k", low=1, high=MAX_HITS),
                    mmr=mmr,
                )
            ),
        )
    if not query or not room:
        raise click.UsageError("Give QUERY and --room NAME (or --batch FILE.jsonl).")
    hits = wb.search(query, room, k=k, mmr=mmr, documents=docs, period=period)
    if as_json:
        click.echo(_dump(hits))
        return 0
    if not hits:
        click.echo("No hits.")
    for n, hit in enumerate(hits, start=1):
        where = hit.ref if hit.kind == "cell" else f"{hit.title} p. {hit.page}"
        click.echo(f"[{n}] {where}  (score {hit.score:.4f})\n    {hit.preview[:200].replace(chr(10), ' ')}")
    return 0


@cli.command("ask")
@click.argument("question", required=False)
@click.option("--room", help="Data room to ask.")
@click.option("--conversation", type=int, help="Continue this conversation (its id is in the --json output).")
@click.option("--json", "as_json", is_flag=True, help="One JSON object: answer, values, citations, steps, timings.")
@click.option("--doc", "docs", type=int, multiple=True, help="Passages only from this document (its id).")
@click.option("--period", help='Passages only from the filings of this fiscal period: "FY2022", "Q3 FY2023".')
@_batch_option('JSONL file of {"room": ..., "question": ..., "conversation": ...} lines; one JSON per line.')
def ask_command(
    question: str | None,
    room: str | None,
    conversation: int | None,
    as_json: bool,
    docs: tuple[int, ...],
    period: str | None,
    batch: Path | None,
) -> int:
    """Answer a question from the room's documents, citing cells and pages (or say it cannot)."""

    def answer(wb: Workbench, text: str, room_name: str, conversation_id: int | None) -> dict[str, Any]:
        done = None
        for event in wb.ask(text, room_name, conversation_id=conversation_id, documents=docs, period=period):
            if event.type == "done":
                done = event.result
        assert done is not None
        return done

    wb = _workbench()
    if batch:
        return _echo_each(
            batch,
            lambda item: json.dumps(
                answer(
                    wb,
                    _field(item, "question"),
                    _field(item, "room"),
                    None
                    if _field(item, "conversation", required=False) is None
                    else checked_int(item["conversation"], "conversation"),
                ),
                ensure_ascii=False,
            ),
        )
    if not question or not room:
        raise click.UsageError("Give QUESTION and --room NAME (or --batch FILE.jsonl).")
    result = answer(wb, question, room, conversation)
    if result["note"]:  # the model failed and the answer was written offline: say so, apart from the answer
        click.echo(f"Note: {result['note']}", err=True)
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False))
        return 0
    click.echo(result["answer"])
    for n, option in enumerate(result["clarify"], start=1):  # a question back: each reading, and how to ask it
        click.echo(
            f"  ({n}) {option['label']}: workbench ask --room {shlex.quote(room)} {shlex.quote(option['question'])}"
        )
    for n, citation in enumerate(result["citations"], start=1):
        where = citation["ref"] if citation["kind"] == "cell" else f"{citation['title']} p. {citation['page']}"
        click.echo(f"  [{n}] {where}")
    click.echo(f"(conversation {result['conversation_id']}; {result['timings']['total_ms']:.0f} ms)")
    return 0


def _incomplete(room: Any) -> str:
    """'2 incomplete (`workbench embed --room R` finishes them), ' or '' when the room has none."""
    if not room.incomplete:
        return ""
    return f"{room.incomplete} incomplete (`workbench embed --room {shlex.quote(room.name)}` finishes them), "


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="A JSON list of rooms.")
def rooms(as_json: bool) -> int:
    """List data rooms with their document and chunk counts."""
    found = _workbench().rooms()
    if as_json:
        click.echo(_dump(found))
        return 0
    if not found:
        click.echo("No rooms yet: workbench ingest FILE --room NAME")
    for room in found:
        click.echo(
            f"{room.name}: {room.ready} documents ready, {_incomplete(room)}{room.failed} failed, "
            f"{room.chunks} chunks ({room.embedded_chunks} embedded, {room.embedding_model or 'no model yet'})"
        )
    return 0


@cli.command()
@click.option("--room", required=True, help="Room whose pending chunks to embed.")
def embed(room: str) -> int:
    """Embed the chunks that have no vector yet: stored with --no-embed, or of an incomplete document (a job cut
    off while embedding); only those are embedded, and incomplete documents become ready."""
    bar = _Bar(room, sys.stderr.isatty())
    count = _workbench().embed_pending(room, progress=bar)
    bar.close()
    click.echo(f"embedded {count} chunks")
    return 0


@cli.command()
@click.option("--no-embed", is_flag=True, help="Store text only and queue its embedding for a worker.")
@click.option("--quiet", is_flag=True, help="Print nothing when all is well.")
@click.option("--force", is_flag=True, help="Check the database even when the demo room was loaded unchanged.")
def demo(no_embed: bool, quiet: bool, force: bool) -> int:
    """Load the bundled demo data room (files already there are left alone)."""
    from core import demo_stamp

    if demo_stamp.loaded() and not force:
        # The demo files and the database are those already loaded (the app's first page still loads the room
        # again should it have been deleted meanwhile).
        if not quiet:
            click.echo(f"the demo room was loaded from these files already ({demo_stamp.stamp_path()}); "
                       "--force checks the database")  # fmt: skip
        return 0
    wb = _workbench()
    results = wb.ensure_demo(embed=not no_embed)
    if no_embed and any(r.status == "ready" and not r.embedded for r in results):
        wb.enqueue_embedding(wb.settings.demo_room)
    for result in results:
        if not quiet or result.status == "failed":
            click.echo(_dump(result))
    if any(r.status == "failed" for r in results):
        return 1
    demo_stamp.write()
    return 0


APP = Path(__file__).resolve().parent.parent / "app.py"
# `streamlit run`, with what the first page imports (the workbench, the question path, pandas) imported in a thread
# once the server is up (core/preload.py): Streamlit runs app.py only when a browser connects, so these 2-4 s were
# otherwise paid by the first visitor's page; made before the server started, they held back its start.
STREAMLIT_PRELOADED = (
    "import sys; import core.preload; core.preload.start(); "
    "from streamlit.web.cli import main; sys.argv[0] = 'streamlit'; main(prog_name='streamlit')"
)


def server_argv(settings: Settings, extra: tuple[str, ...] = ()) -> list[str]:
    """The command that starts the app: `streamlit run app.py`, on 127.0.0.1 alone in local mode."""
    argv = [sys.executable, "-c", STREAMLIT_PRELOADED, "run", str(APP)]
    if settings.server_address is None:
        return [*argv, *extra]
    for n, arg in enumerate(extra):
        asked = arg.split("=", 1)[1] if arg.startswith("--server.address=") else None
        if arg == "--server.address" and n + 1 < len(extra):
            asked = extra[n + 1]
        if asked is not None and asked not in (settings.server_address, "localhost"):
            raise WorkbenchError(
                f"Local mode (WORKBENCH_AUTH=none: no sign-in, you own every room) serves this computer only, on "
                f"{settings.server_address}; to open the app to others, set WORKBENCH_AUTH=accounts and add "
                "their accounts (README, 'Users, rooms and access')."
            )
    return [*argv, "--server.address", settings.server_address, *extra]


@cli.command(context_settings={"ignore_unknown_options": True})
@click.argument("streamlit_options", nargs=-1, type=click.UNPROCESSED)
def serve(streamlit_options: tuple[str, ...]) -> int:
    """Start the app (`make run` does): local mode listens on 127.0.0.1 only; options go to `streamlit run`."""
    from core.config import get_settings

    if not APP.is_file():
        raise WorkbenchError(f"{APP} is missing: `workbench serve` runs from a checkout of the repository.")
    argv = server_argv(get_settings(), streamlit_options)
    sys.stdout.flush()
    os.execv(argv[0], argv)  # the server takes this process's place (and pid): signals reach it directly
    return 0  # not reached


@cli.command("documents")
@click.option("--room", required=True, help="The room whose documents to list.")
@click.option("--json", "as_json", is_flag=True, help="A JSON list of documents, with company, form and period.")
@click.option(
    "--edit", "edit_id", type=int, help="Correct this document (editors and owners) with the --set-* options."
)
@click.option("--set-company", help="The company the document is of (with --edit).")
@click.option("--set-form", help="10-K, 10-Q, 8-K, earnings release, annual report or other (with --edit).")
@click.option("--set-period", help='The fiscal period: "FY2022", "Q3 FY2023" (with --edit).')
@click.option("--set-period-end", help="The period's last day, YYYY-MM-DD (with --edit).")
def documents_command(
    room: str,
    as_json: bool,
    edit_id: int | None,
    set_company: str | None,
    set_form: str | None,
    set_period: str | None,
    set_period_end: str | None,
) -> int:
    """A room's documents with what each is (company, form, fiscal period read from a PDF's cover); --edit ID
    corrects one ("" clears a field)."""
    wb = _workbench()
    changes = (set_company, set_form, set_period, set_period_end)
    if edit_id is None and any(c is not None for c in changes):
        raise click.UsageError("Give --edit DOCUMENT_ID with the --set-* options.")
    if edit_id is not None:
        edited = wb.edit_document(
            room, edit_id, company=set_company, form=set_form, period=set_period, period_end=set_period_end
        )
        click.echo(_dump(edited) if as_json else f"{edited.id:>6}  {_document_line(edited)}")
        return 0
    listed = wb.documents(room)
    if as_json:
        click.echo(_dump(listed))
        return 0
    if not listed:
        click.echo(f"No documents in {room}.")
    for doc in listed:
        click.echo(f"{doc.id:>6}  {_document_line(doc)}")
    return 0


@cli.command("sheets")
@click.option("--room", required=True, help="The room whose sheets to show.")
@click.option(
    "--json", "as_json", is_flag=True, help="Each sheet with its whole model (columns, rows, periods, units)."
)
@click.option("--sheet", "sheet_id", type=int, help="Correct this sheet (editors and owners) with the --set-* options.")
@click.option(
    "--facts", "show_facts", is_flag=True, help="With --sheet: each figure cell as a fact, one JSON line each."
)
@click.option("--set-scale", help="The figures' scale: units, thousands, millions or billions ('' takes it back).")
@click.option("--set-fiscal-start", type=int, help="The fiscal year's first month, 1-12 (0 takes it back).")
@click.option("--set-role", "set_roles", multiple=True, metavar="ROW=ROLE",
              help="A row's role: data, heading, subtotal, total or note (ROW= takes it back); repeatable.")  # fmt: skip
def sheets_command(
    room: str,
    as_json: bool,
    sheet_id: int | None,
    show_facts: bool,
    set_scale: str | None,
    set_fiscal_start: int | None,
    set_roles: tuple[str, ...],
) -> int:
    """How each sheet of a room was read: header rows and paths, sections, subtotals and totals, units, periods;
    --sheet ID with --set-* corrects it, and every later answer uses the correction."""
    wb = _workbench()
    correcting = set_scale is not None or set_fiscal_start is not None or bool(set_roles)
    if sheet_id is None and (correcting or show_facts):
        raise click.UsageError("Give --sheet SHEET_ID with --facts and the --set-* options.")
    if sheet_id is not None and show_facts:
        for fact in wb.sheet_facts(sheet_id):
            click.echo(json.dumps(dataclasses.asdict(fact), ensure_ascii=False))
        return 0
    listed = wb.sheets(room)
    if sheet_id is not None and correcting:
        roles = {}
        for item in set_roles:
            number, sep, role = item.partition("=")
            if not sep or not number.strip().isdigit():
                raise click.UsageError(f"--set-role takes ROW=ROLE (e.g. 12=subtotal), not {item!r}.")
            roles[int(number)] = role.strip()
        edited = wb.correct_sheet(sheet_id, scale=set_scale, fiscal_start=set_fiscal_start, roles=roles or None)
        listed = [edited]
    elif sheet_id is not None:
        listed = [s for s in listed if s.sheet_id == sheet_id]
    if as_json:
        click.echo(_dump([{"sheet_id": s.sheet_id, "document": s.title, "sheet": s.name, "label": s.label,
                           "reading": s.model.describe() if s.model else [],
                           "model": s.model.to_json() if s.model else None} for s in listed]))  # fmt: skip
        return 0
    if not listed:
        click.echo(f"No sheets in {room}.")
    for sheet in listed:
        click.echo(f"{sheet.sheet_id:>6}  {sheet.label} ({sheet.n_rows:,} rows)")
        for line in sheet.model.describe() if sheet.model else ["(stored before sheets were modelled: upload again)"]:
            click.echo(f"        {line}")
    return 0


def _document_line(doc: DocumentInfo) -> str:
    what = " · ".join(str(v) for v in (doc.company, doc.form, doc.period) if v)
    ended = f" (ended {doc.period_end.isoformat()})" if doc.period_end else ""
    return f"{doc.title} [{doc.status}]" + (f" — {what}{ended}" if what else "")


@cli.command()
@click.argument("document_id", type=int)
@click.option("--room", required=True, help="The room holding the document.")
def delete(document_id: int, room: str) -> int:
    """Delete a document and everything made from it (room owners only)."""
    title = _workbench().delete_document(room, document_id)
    click.echo(f"deleted {title}")
    return 0


@cli.group()
def user() -> None:
    """Accounts for WORKBENCH_AUTH=accounts."""


@user.command("add")
@click.argument("email")
@click.option("--name", default="", help="Display name (default: the part of the e-mail before @).")
@click.option(
    "--password",
    help="At least 10 characters (asked for when neither this nor --password-stdin is given; "
    "a password on the command line shows in the process list).",
)
@click.option(
    "--password-stdin", is_flag=True, help="Read the password from the first line of standard input (scripts)."
)
def user_add(email: str, name: str, password: str | None, password_stdin: bool) -> int:
    """Create an account (password hashed with argon2id)."""
    if password_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
        if not password:
            raise WorkbenchError("--password-stdin read no password: give it as the first line of standard input.")
    elif password is None:
        password = click.prompt("Password", hide_input=True, confirmation_prompt=True)
    account = _workbench().create_account(email, name, password)
    click.echo(f"created {account.email} ({account.display_name}), id {account.id}")
    return 0


@cli.group()
def member() -> None:
    """Room memberships (run as the local user, who owns the rooms it made)."""


@member.command("add")
@click.argument("room")
@click.argument("email")
@click.option("--role", type=click.Choice(["owner", "editor", "viewer"]), default="viewer", show_default=True)
def member_add(room: str, email: str, role: Role) -> int:
    """Give the account EMAIL a role in ROOM."""
    wb = _workbench()
    account = wb.find_user(email, room)
    if account is None:
        raise WorkbenchError(f"No account for {email}: create it with `workbench user add {email}`.")
    wb.set_member(room, account.id, role)
    click.echo(f"{email} is now {role} of {room}")
    return 0


@member.command("list")
@click.argument("room")
def member_list(room: str) -> int:
    """The members of ROOM and their roles."""
    for m in _workbench().members(room):
        click.echo(f"{m.role:<7} {m.display_name} {m.email or ''}".rstrip())
    return 0


def main() -> None:
    """Entry point of the `workbench` console script."""
    cli(prog_name="workbench")
