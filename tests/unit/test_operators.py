"""The filter operators' registry is the one list: the Filter model, the LLM planner and the masks agree with it."""

from __future__ import annotations

import typing

import numpy as np
import pytest

from core.qa import llm_planner
from core.retrieval.tables import OPERATORS, Filter
from core.retrieval.tables.operators import describe


def test_every_operator_the_models_accept_is_registered_and_described() -> None:
    ops = set(typing.get_args(Filter.model_fields["op"].annotation))
    assert ops == set(OPERATORS)
    assert set(typing.get_args(llm_planner.FilterOut.model_fields["op"].annotation)) == ops
    for name in OPERATORS:
        assert f" {name}" in llm_planner.SYSTEM or f"{name}," in llm_planner.SYSTEM, name


@pytest.mark.parametrize("name", list(OPERATORS))
def test_each_operator_reads_and_compares(name: str) -> None:
    op = OPERATORS[name]
    values = ["2020", "2022"] if op.arity == "pair" else ["2021"]
    for style in ("result", "plan"):
        text = describe(name, "Year", values, style=style)
        assert text.startswith("Year ") and all(v in text for v in values), text
    key = np.array([2020.0, 2021.0, 2022.0, np.nan])
    if op.keys is not None:
        mask = op.keys(key, [float(v) for v in values])
        assert mask.dtype == bool and not mask[3]  # an empty cell never matches
    if op.texts is not None:
        norm = np.array(["2020", "2021", "2022", None], dtype=object)
        filled = np.array([True, True, True, False])
        assert not op.texts(norm, filled, values)[3]


def test_arity_is_checked_by_the_filter_model() -> None:
    with pytest.raises(ValueError, match="two values"):
        Filter(column="Year", op="between", value=[2020])
    with pytest.raises(ValueError, match="non-empty list"):
        Filter(column="Year", op="in", value=[])
    with pytest.raises(ValueError, match="a year"):
        Filter(column="Year", op="year", value="soon")
    with pytest.raises(ValueError, match="one value"):
        Filter(column="Year", op="eq", value=[1, 2])


def test_every_aggregate_function_is_registered() -> None:
    from core.retrieval.tables import AGGREGATES, Aggregate

    assert set(typing.get_args(Aggregate.model_fields["func"].annotation)) == set(AGGREGATES)
    assert set(typing.get_args(llm_planner.AggregateOut.model_fields["func"].annotation)) == set(AGGREGATES)
