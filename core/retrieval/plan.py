"""The plan of one question: typed retrieval steps the retriever executes (see ARCHITECTURE.md)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from core.retrieval.cellmath import CellsStep
from core.retrieval.tables import Combine, RowMath, TableOp


class SearchStep(BaseModel):
    """Hybrid (semantic + keyword) search of the room, optionally limited to some documents."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["search"] = "search"
    query: str
    k: int = 8
    document_ids: list[int] = []
    reason: str = ""
    # the sheets' rows too; not when the planner found that no column reads what is asked (the rows would be
    # offered as an answer to a question they do not answer)
    rows: bool = True
    # the first this many PDF pages found are read whole: each page's other passages follow its best (a driver's
    # sentence may sit in the page's passage after a table); 0: each page by its best passage alone
    whole_pages: int = 0


class LookupStep(BaseModel):
    """Specific pages (by document and page number) fetched whole."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["lookup"] = "lookup"
    pages: list[tuple[int, int]] = []  # (document_id, 1-based page)
    reason: str = ""


class TableStep(BaseModel):
    """One exact operation on one stored sheet (filter, group, aggregate, sort, top-k, distinct)."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["table"] = "table"
    op: TableOp
    reason: str = ""


class AcrossStep(BaseModel):
    """One exact operation run on each of several sheets of one layout (a tab per site), their figures added up
    ("sum") or each given, named by its sheet ("each")."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["across"] = "across"
    op: TableOp  # as planned on the first sheet; run on each of `sheet_ids`
    sheet_ids: list[int] = Field(min_length=2)
    labels: list[str]  # each sheet's name, in the order of `sheet_ids`
    combine: Combine = "each"
    reason: str = ""


class ShareStep(BaseModel):
    """A share of a total on one sheet: `op` (a sum of one column over the rows its filters pick) as a percentage
    of the same column's total over every row, both figures cited."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["share"] = "share"
    op: TableOp
    reason: str = ""


class RowMathStep(BaseModel):
    """Two numeric columns of one sheet in each row its filters pick: multiplied ("product", their total over
    several rows) or compared ("below": the rows whose `first` is below their `second`, named by `op.select`)."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["rowmath"] = "rowmath"
    op: TableOp  # its filters pick the rows; select: the column naming them
    operation: RowMath
    first: str
    second: str
    reason: str = ""
    # The question's words the step reads as its operation besides the columns ("stock value": stock, value).
    reads: list[str] = []


class Choice(BaseModel):
    """One reading of a question that reads several ways: what it reads, and the question with that reading named
    (asked again when the reading is chosen)."""

    model_config = ConfigDict(frozen=True)

    label: str
    question: str


class ClarifyStep(BaseModel):
    """A question back instead of a guess: the question reads two or more ways, each complete; nothing is retrieved,
    the readings are offered to choose from."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["clarify"] = "clarify"
    options: list[Choice] = Field(min_length=2)
    reason: str = ""


Step = Annotated[
    SearchStep | LookupStep | TableStep | CellsStep | AcrossStep | ShareStep | RowMathStep | ClarifyStep,
    Field(discriminator="kind"),
]


class Plan(BaseModel):
    """What the planner decided: the question as understood, its steps and why."""

    model_config = ConfigDict(frozen=True)

    question: str  # as asked
    standalone_question: str  # rewritten with the conversation (follow-ups resolved)
    steps: list[Step]
    reasoning: str
    planner: str  # "offline" or the model's name
    # What decided the plan: the offline planner's intent that drafted the table step ("count", "superlative"...;
    # see core.qa.planner.intents), "cells" for statement-grid arithmetic, "search" when no table step was
    # drafted; "llm" for a model's plan. Empty in plans made before intents were named.
    intent: str = ""
