"""The table operation a plan asks for (TableOp: filters, aggregate, groups, top-k, …) and its exact result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from core.models import Citation
from core.retrieval.tables.aggregates import AGGREGATES
from core.retrieval.tables.operators import OPERATORS
from core.retrieval.tables.values import _as_year

if TYPE_CHECKING:
    # The type checker cannot read a registry: to it a name is a string; pydantic checks it against the registry.
    Op = str
    Func = str
else:
    # What the models validate and their JSON schemas list: the registries' names, in their order.
    Op = Literal[tuple(OPERATORS)]
    Func = Literal[tuple(AGGREGATES)]


class Filter(BaseModel):
    """One row condition: `column` `op` `value` (empty cells never match)."""

    model_config = ConfigDict(frozen=True)

    column: str
    op: Op
    value: str | float | list[str | float]

    @model_validator(mode="after")
    def _check_value(self) -> Filter:
        """The value fits the operator's arity: a [low, high] pair, a non-empty list, a year, or one value."""
        arity = OPERATORS[self.op].arity
        if arity == "pair":
            if not isinstance(self.value, list) or len(self.value) != 2:
                raise ValueError(f"'{self.op}' takes a list of two values [low, high]")
        elif arity == "list":
            if not isinstance(self.value, list) or not self.value:
                raise ValueError(f"'{self.op}' takes a non-empty list of values")
        elif isinstance(self.value, list):
            raise ValueError(f"'{self.op}' takes one value, not a list (use 'in' for several)")
        elif arity == "year" and _as_year(self.value) is None:
            raise ValueError(f"'{self.op}' takes a year such as 2021, not {self.value!r}")
        return self


class Aggregate(BaseModel):
    """A function over one column's non-empty cells (column None: count the rows)."""

    model_config = ConfigDict(frozen=True)

    func: Func
    column: str | None = None

    @model_validator(mode="after")
    def _check_column(self) -> Aggregate:
        """Only count may omit the column."""
        if self.column is None and self.func != "count":
            raise ValueError(f"'{self.func}' needs a column (only 'count' counts rows without one)")
        return self


class SameAs(BaseModel):
    """Rows sharing `column`'s value with the rows `row` picks (a named row's peers: "who works in the same office as
    Dana Whitlock?").

    The rows `row` picks are the reference, not part of the answer: they are left out.
    """

    model_config = ConfigDict(frozen=True)

    column: str
    row: Filter


class TableOp(BaseModel):
    """One exact operation on one sheet."""

    model_config = ConfigDict(frozen=True)

    sheet_id: int
    filters: list[Filter] = []
    group_by: str | None = None
    aggregate: Aggregate | None = None
    sort_by: str | None = None  # a column, or "value" to sort groups by the aggregate
    descending: bool = True
    limit: int | None = Field(default=None, ge=1)  # top-k (ties at the boundary are kept)
    select: list[str] = []  # columns to return for row-listing ops (default: all)
    distinct: str | None = None  # list distinct values of a column
    # two named rows looked up, the gap between their values ("the difference in headcount between Oslo and Lyon")
    difference: bool = False
    same_as: SameAs | None = None  # rows with the same value of a column as a named row (that row left out)
    from_end: bool = False  # with a limit and no sort: the last rows in sheet order ("the last invoice they paid")
    # two named rows asked which is greater ("did A sell more or fewer units than B?"): the two items of the one
    # two-value "in" filter compared on the selected column (on their order in the sheet when none is selected);
    # the answer is [word if A's is greater, word if less].
    compare: list[str] | None = Field(default=None, min_length=2, max_length=2)
    # a neighbour of a named row ("the stop listed after Birchwood Lane"): the row this many rows after (before, when
    # negative) the rows the filters pick, in sheet order.
    offset: int = 0
    # groups by a number of rows ("which quarter had at least four launches?"): of the groups, those whose aggregate
    # value passes this condition (its column is ignored: the condition is on the value); the groups' names answer.
    having: Filter | None = None

    @model_validator(mode="after")
    def _check_shape(self) -> TableOp:
        """Distinct values are their own operation."""
        if self.distinct is not None and (self.aggregate is not None or self.group_by is not None):
            raise ValueError("'distinct' lists values; use aggregate count_distinct to count them per group")
        return self


@dataclass(frozen=True)
class TableResult:
    """The exact answer to a TableOp, with the cells it rests on."""

    op: TableOp
    columns: list[str]  # result header
    rows: list[list[str]]  # result values as display strings
    values: list[str]  # "the answer": aggregate value(s), or the top/looked-up value(s) of the key column
    citations: list[Citation]  # contributing cells, at most MAX_CITATIONS
    cited_range: str | None  # set when the computation read more than MAX_CITATIONS cells
    n_rows_used: int
    description: str
