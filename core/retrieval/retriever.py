"""The retriever: runs a plan's steps and returns numbered evidence, each item with its citations."""

from __future__ import annotations

from psycopg.rows import dict_row
from pydantic import BaseModel, ConfigDict

from core.db import Database, q
from core.models import Citation, SearchHit
from core.providers.embeddings import Embedder
from core.retrieval.cellmath import CellsResult, CellsStep, run_cells
from core.retrieval.measures import run_measure
from core.retrieval.plan import AcrossStep, LookupStep, Plan, RowMathStep, SearchStep, ShareStep, TableStep
from core.retrieval.rerank import RerankHints, Scorer
from core.retrieval.search import page_passages, search
from core.retrieval.tables import TableResult, load_sheet, run_across, run_row_math, run_share, run_table_op
from core.retrieval.tables.plain import plain_lead
from core.rooms.store import RoomRef


class Evidence(BaseModel):
    """One piece of evidence shown to the synthesizer: marker `[n]` maps to its citations."""

    model_config = ConfigDict(frozen=True)

    n: int
    kind: str  # "table" | "passage" | "row" | "page"
    content: str
    citations: list[Citation]
    score: float = 0.0
    values: list[str] = []  # a table step's exact answer values
    description: str = ""  # a table step's one-line account of what was computed
    lead: str = ""  # a table step's result in plain words, which the answer opens with ("" : the description)
    period: str | None = None  # a passage's document's fiscal period ("FY2022", "Q3 FY2023"), when known
    section: str = ""  # the segment whose part of a filing's discussion a passage sits in ("Domestic Segment")
    # a statement line's change computed to check a driver question's premise ("What drove the increase …"): said
    # only when the filing gives no reason of the move asked (core.qa.synth), never the answer by itself
    premise: bool = False


def _computed(n: int, result: TableResult | CellsResult, body: str, lead: str = "") -> Evidence:
    """Evidence of an exact computation: its description and `body` (the rows, or the cells it read)."""
    return Evidence(
        n=n,
        kind="table",
        content=f"{result.description}\n{body}",
        citations=result.citations,
        score=1.0,
        values=result.values,
        description=result.description,
        lead=lead,
    )


def _table_evidence(n: int, result: TableResult, *, lead: bool = True) -> Evidence:
    """A table result as evidence; `lead`: open the answer with its plain-words lead (an across-sheets result's
    description is its plain words already, each figure named by its sheet, which the lead would drop)."""
    header = " | ".join(result.columns)
    body = "\n".join(" | ".join(row) for row in result.rows[:20])
    more = f"\n(cells: {result.cited_range})" if result.cited_range else ""
    return _computed(n, result, f"{header}\n{body}{more}", plain_lead(result) if lead else "")


def _passage(n: int, hit: SearchHit) -> Evidence:
    """A search hit as evidence: a PDF passage, or a sheet's row."""
    citation = Citation(**hit.model_dump(exclude={"preview", "period"}))
    return Evidence(
        n=n,
        kind="passage" if hit.kind == "page" else "row",
        content=hit.quote if hit.kind == "page" and hit.quote else hit.preview,
        citations=[citation],
        score=hit.score,
        period=hit.period,
    )


def retrieve(
    db: Database,
    room: RoomRef,
    plan: Plan,
    *,
    embedder: Embedder | None,
    within: str = "",
    rerank: RerankHints | None = None,
    scorer: Scorer | None = None,
) -> list[Evidence]:
    """Execute every step of `plan` in the room; evidence is numbered from 1 in step order. `within`: a tsquery's
    text every search step's passages and rows must match; `rerank` and `scorer`: the rerank stage of each search
    step (core.retrieval.search)."""
    evidence: list[Evidence] = []
    seen: set[tuple[int, int | None, int | None, int | None]] = set()
    for step in plan.steps:
        if isinstance(step, TableStep):
            evidence.append(_table_evidence(len(evidence) + 1, run_table_op(load_sheet(db, step.op.sheet_id), step.op)))
        elif isinstance(step, ShareStep):
            evidence.append(_table_evidence(len(evidence) + 1, run_share(load_sheet(db, step.op.sheet_id), step.op)))
        elif isinstance(step, RowMathStep):
            frame = load_sheet(db, step.op.sheet_id)
            worked = run_row_math(frame, step.op, step.operation, step.first, step.second)
            evidence.append(_table_evidence(len(evidence) + 1, worked))
        elif isinstance(step, AcrossStep):
            frames = [load_sheet(db, sheet_id) for sheet_id in step.sheet_ids]
            worked = run_across(frames, step.labels, step.op, step.combine)
            evidence.append(_table_evidence(len(evidence) + 1, worked, lead=False))
        elif isinstance(step, CellsStep):
            if step.operation == "measure":
                sheets = {i.sheet_id: load_sheet(db, i.sheet_id) for i in step.inputs}
                result = run_measure(sheets, step)
            else:
                other = load_sheet(db, step.other_sheet_id) if step.other_sheet_id is not None else None
                result = run_cells(load_sheet(db, step.sheet_id), step, other)
            cells = "\n".join(f"{c.ref}: {c.value}" for c in result.citations)
            evidence.append(_computed(len(evidence) + 1, result, cells))
        elif isinstance(step, SearchStep):
            hits = search(
                db,
                room,
                step.query,
                k=step.k,
                embedder=embedder,
                within=within,
                documents=step.document_ids,
                rerank=rerank,
                scorer=scorer,
            )
            pages = page_passages(db, room, [h for h in hits if h.kind == "page"][: step.whole_pages])
            for hit in hits:
                if (step.document_ids and hit.document_id not in step.document_ids) or (
                    not step.rows and hit.row_id is not None
                ):
                    continue
                # a page's other passages follow its best, in their order on the page (step.whole_pages)
                for found in [hit, *pages.get((hit.document_id, hit.page or 0), [])]:
                    key = (found.document_id, found.page, found.chunk_index, found.row_id)
                    if key in seen:
                        continue
                    seen.add(key)
                    evidence.append(_passage(len(evidence) + 1, found))
        elif isinstance(step, LookupStep):
            with db.connection() as conn, conn.cursor(row_factory=dict_row) as cur:
                rows = cur.execute(
                    q("lookup_pages"),
                    {
                        "room_id": room.id,
                        "docs": [d for d, _ in step.pages],
                        "pages": [p for _, p in step.pages],
                    },
                ).fetchall()
            for row in rows:
                citation = Citation(
                    kind="page",
                    document_id=row["id"],
                    title=row["title"],
                    page=row["page_number"],
                    start_char=0,
                    end_char=len(row["text"]),
                    quote=row["text"],
                )
                evidence.append(Evidence(n=len(evidence) + 1, kind="page", content=row["text"], citations=[citation]))
    return evidence
