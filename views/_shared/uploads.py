"""The sidebar's uploads and document list: files are queued as ingestion jobs that `workbench worker` runs;
each job's bar follows its stage (parsing, storing, embedding n of m chunks) and ends green, or red with
the reason one click away."""

from __future__ import annotations

import html
from datetime import UTC, datetime

import streamlit as st

from core.errors import WorkbenchError
from core.workbench import SUPPORTED_SUFFIXES, IngestJob, Workbench, escape_markdown, neutralise_bidi, neutralise_links

# While a job of the room is unfinished, the job list and the document list refresh this often (seconds).
REFRESH_SECONDS = 1.0
# A job queued this long without a worker taking it gets a hint to start one.
NO_WORKER_HINT_SECONDS = 10
_COLORS = {"done": "#21a366", "failed": "#d93025", "running": "#1a73e8", "queued": "#9aa0a6"}


def queue_uploads(wb: Workbench, room: str) -> None:
    """The upload box: picked files are queued as jobs on "Ingest", and the box is cleared for the next ones."""
    files = st.file_uploader(
        "Add files (PDF, CSV, XLSX)",
        type=[suffix.lstrip(".") for suffix in SUPPORTED_SUFFIXES],
        accept_multiple_files=True,
        key=f"sidebar_upload_{st.session_state.get('upload_round', 0)}",
    )
    if not files or not st.button("Ingest", key="sidebar_ingest", type="primary"):
        return
    queued: list[int] = st.session_state.setdefault("upload_jobs", {}).setdefault(room, [])
    for upload in files:
        try:
            job = wb.enqueue_upload(upload.getvalue(), upload.name, room)
        except WorkbenchError as exc:
            st.session_state.setdefault("upload_refused", []).append(f"{upload.name}: {exc}")
            continue
        if job.id not in queued:
            queued.append(job.id)
    # A new uploader key clears the picked files: they are in the queue now, and a rerun must not queue them again.
    st.session_state["upload_round"] = st.session_state.get("upload_round", 0) + 1
    st.rerun()


def room_status(wb: Workbench, room: str) -> None:
    """This session's jobs for the room and the room's documents, refreshed while one of those jobs runs."""
    busy = _busy(wb, room)
    st.session_state["sidebar_busy"] = busy
    st.fragment(_room_status, run_every=REFRESH_SECONDS if busy else None)(wb, room)


def _busy(wb: Workbench, room: str) -> bool:
    """Is one of this session's uploads to the room unfinished? (Only those: a page refreshing every second for
    another user's job, or the demo's embedding, would be busy for nothing; the document list shows their
    progress on the next rerun.)"""
    ids = st.session_state.get("upload_jobs", {}).get(room, [])
    try:
        return bool(ids) and any(not job.finished for job in wb.jobs(room, ids=ids))
    except WorkbenchError:
        return False


def _room_status(wb: Workbench, room: str) -> None:
    for message in st.session_state.pop("upload_refused", []):
        st.error(escape_markdown(message))
    ids = st.session_state.get("upload_jobs", {}).get(room, [])
    mine = sorted(wb.jobs(room, ids=ids), key=lambda job: job.id) if ids else []
    for job in mine:
        _job_line(job)
    if mine and all(job.finished for job in mine) and st.button("Clear", key="sidebar_clear_jobs"):
        wb.clear_jobs(room, [job.id for job in mine])
        st.session_state["upload_jobs"][room] = []
        st.rerun()
    documents(wb, room)
    if st.session_state.get("sidebar_busy") and not _busy(wb, room):
        # The last job just ended: one full rerun stops the refreshing and updates the pages (new sheets, pages).
        st.session_state["sidebar_busy"] = False
        st.rerun(scope="app")


def _bar(label: str, fraction: float, status: str) -> None:
    color = _COLORS[status]
    st.markdown(
        f'<div class="wb-job" data-status="{status}">'
        f'<div style="font-size:0.85rem">{html.escape(neutralise_links(neutralise_bidi(label)))}</div>'
        f'<div class="wb-track" style="background:rgba(128,128,128,0.2);border-radius:4px;height:6px">'
        f'<div class="wb-fill" style="width:{fraction * 100:.0f}%;background:{color};height:6px;border-radius:4px"></div></div></div>',
        unsafe_allow_html=True,
    )


def _job_line(job: IngestJob) -> None:
    """One job: a bar while it runs; a green bar with what was stored, or a red bar and the reason on expand."""
    if job.status == "failed":
        _bar(job.label, 1.0, "failed")
        # A file that failed to store: the document list below holds the failure and its reason. One stored but not
        # fully embedded (incomplete) shows here what is missing and the command that finishes it.
        if job.document_id is None or (job.result or {}).get("status") == "incomplete":
            with st.expander(f"✗ {escape_markdown(job.filename or job.room)} — failed"):
                st.markdown(escape_markdown(job.error or "The job failed."))
        return
    if job.status == "done":
        result = job.result or {}
        if result.get("duplicate"):
            label = f"{job.filename}: already in this room"
        elif job.kind == "file":
            size = f"{result.get('pages')} pages" if result.get("kind") == "pdf" else f"{result.get('rows')} rows"
            label = f"{job.filename}: ready ({size}, {result.get('chunks')} chunks)"
        else:
            label = job.label
        _bar(label, 1.0, "done")
        if job.error:  # stored, but with a warning (not embedded: the model failed)
            st.caption(escape_markdown(job.error))
        return
    _bar(job.label + time_left(job), job.fraction, job.status)
    waited = (datetime.now(UTC) - job.created_at).total_seconds()
    if job.status == "queued" and waited > NO_WORKER_HINT_SECONDS:
        st.caption("Waiting for a worker: start one with `workbench worker` (`make run` starts one).")


def time_left(job: IngestJob) -> str:
    """ " · about 1 min 20 s left" while a job embeds, from the rate measured since this page first saw it
    embedding (its progress times are the worker's, written with each step); "" until there is a rate."""
    seen: dict[int, tuple[datetime, int]] = st.session_state.setdefault("job_rates", {})
    if job.stage != "embedding" or job.status != "running" or not job.total:
        seen.pop(job.id, None)
        return ""
    first = seen.setdefault(job.id, (job.updated_at, job.done))
    seconds = (job.updated_at - first[0]).total_seconds()
    if job.done <= first[1] or seconds <= 0:
        return ""
    left = round(max(job.total - job.done, 0) / ((job.done - first[1]) / seconds))
    return f" · about {left // 60} min {left % 60} s left" if left >= 60 else f" · about {left} s left"


def documents(wb: Workbench, room: str) -> None:
    """The room's documents: ready ones with their size (and embedding progress), failed ones collapsed."""
    docs = wb.documents(room)
    failed = sum(doc.status == "failed" for doc in docs)  # files that never became documents: counted apart
    st.markdown(f"**Documents** ({len(docs) - failed})" + (f" · {failed} failed" if failed else ""))
    for doc in docs:
        if doc.status == "failed":
            with st.expander(f"✗ {escape_markdown(doc.title)} — failed"):
                st.markdown(escape_markdown(doc.error or "It could not be ingested."))
            continue
        size = f"{doc.page_count} p." if doc.kind == "pdf" else f"{doc.n_rows} row{'' if doc.n_rows == 1 else 's'}"
        state = "" if doc.embedded else f" · embedding {doc.embedded_chunks} of {doc.n_chunks} chunks"
        # a filing's form and period ("10-K · FY2022"); a PDF that is no filing says nothing more
        what = " · ".join(escape_markdown(v) for v in (doc.form, doc.period) if v and v != "other")
        mark = "⚠" if doc.status == "incomplete" else "✓"
        state += " · incomplete" if doc.status == "incomplete" else ""
        st.caption(f"{mark} {escape_markdown(doc.title)} — {size}{f' · {what}' if what else ''}{state}")
    resume_button(wb, room, [doc for doc in docs if doc.status == "incomplete"])


def resume_button(wb: Workbench, room: str, incomplete: list) -> None:
    """For writers, when documents were stored but their embedding was cut off: queue the embedding of only the
    missing chunks (`workbench embed --room` from the command line), which makes them ready."""
    if not incomplete or wb.my_role(room) not in ("owner", "editor"):
        return
    noun = "document is" if len(incomplete) == 1 else "documents are"
    st.caption(f"{len(incomplete)} {noun} incomplete: stored and keyword-searchable, some chunks not embedded.")
    if st.button("Embed the missing chunks", key="sidebar_resume_embedding"):
        job = wb.enqueue_embedding(room)
        st.session_state.setdefault("upload_jobs", {}).setdefault(room, []).append(job.id)
        st.rerun(scope="app")


def embed_demo_when_needed(wb: Workbench) -> None:
    """Queue the embedding of the demo room when it has chunks without vectors (a worker makes them)."""
    room = next((r for r in wb.rooms() if r.name == wb.settings.demo_room), None)
    if room is not None and room.embedded_chunks < room.chunks:
        wb.enqueue_embedding(room.name)
