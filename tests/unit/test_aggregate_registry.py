"""One edit per aggregate: an entry added to AGGREGATES appears everywhere an aggregate is named.

The operation's model, the model planner's JSON schema and prompt, a plan's description, the offline planner's
words and the computation all read the registry.  The models' allowed values are built when their module is first
imported, so the new entry is registered in a fresh interpreter (a subprocess) before the models are rebuilt and
before anything of the planner is imported; nothing else is changed there.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.qa import llm_planner
from core.qa.planner import describe_op
from core.qa.planner.lexicon import AGGREGATE_WORDS
from core.retrieval.tables import AGGREGATES, OPERATORS, Aggregate, TableOp
from tests.unit.test_planner import demo_sheet

ROOT = Path(__file__).resolve().parents[2]

# Registers "midrange" (computed as a max would be: this shows the wiring, not the arithmetic), then reports what
# each consumer of the registry makes of it.
SCRIPT = r"""
import dataclasses, importlib, json
from core.retrieval.tables import aggregates, model
import core.retrieval.tables as tables

aggregates.AGGREGATES["midrange"] = dataclasses.replace(
    aggregates.AGGREGATES["max"], name="midrange", reads="midrange", plan="Midrange of {col}", words=("midrange",)
)
importlib.reload(model)  # the models' Literals are built from the registry when the module runs
importlib.reload(tables)

from core.cells import Column
from core.qa import llm_planner
from core.qa.planner import OfflinePlanner, RoomSchema, describe_op
from core.qa.planner.lexicon import AGGREGATE_WORDS
from core.retrieval.plan import TableStep
from tests.unit.test_planner import demo_sheet

agg = tables.Aggregate(func="midrange", column="Amount Raised (USD)")
out = llm_planner.AggregateOut(func="midrange", column="Amount Raised (USD)")
schema = json.dumps(llm_planner.RESPONSE_FORMAT)
sheet = demo_sheet()
op = tables.TableOp(sheet_id=7, aggregate=agg)
plan = OfflinePlanner().plan("What is the midrange amount raised?", RoomSchema(room_id=1, sheets=(sheet,), documents=()))
planned = [s.op.aggregate.func for s in plan.steps if isinstance(s, TableStep) and s.op.aggregate is not None]
frame = tables.SheetFrame.from_rows(
    [Column(position=0, name="Company", letter="A", dtype="text"),
     Column(position=1, name="Amount Raised (USD)", letter="B", dtype="number")],
    [["Hollis", "120"], ["Marrow", "80"], ["Penfold", "95"], ["Quillon", None]],
)
result = tables.run_table_op(frame, op)
print(json.dumps({
    "model": agg.func,
    "llm_model": out.func,
    "in_json_schema": '"count_distinct", "midrange"]' in schema,
    "in_prompt": "count, count_distinct or midrange;" in llm_planner.SYSTEM,
    "described": describe_op(op, sheet),
    "word": "midrange" in AGGREGATE_WORDS,
    "planned": planned,
    "result": [result.description, result.values],
}))
"""


def test_a_new_aggregate_appears_everywhere() -> None:
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["model"] == "midrange" and seen["llm_model"] == "midrange"  # allowed by both models
    assert seen["in_json_schema"]  # listed in the enum the model planner's JSON schema sends
    assert seen["in_prompt"]  # and in its prompt, after the others
    assert seen["described"] == "Midrange of Amount Raised (USD) (funding_rounds.csv)."
    assert seen["word"]  # an aggregate word of the offline planner's lexicon
    assert seen["planned"] == ["midrange"]  # the offline planner's aggregate intent asks for it by its word
    assert seen["result"] == ["midrange of Amount Raised (USD) = 120 over 3 rows", ["120"]]  # computed by its entry


def test_the_registries_are_what_the_planners_list_today() -> None:
    """The derived lists, as written before they were derived: the prompt, the schema's enums and the descriptions."""
    assert "op is eq, ne, gt, ge, lt, le, contains, in, between or year;" in llm_planner.SYSTEM
    assert "with func sum, avg, median, min, max, count or count_distinct; column null" in llm_planner.SYSTEM
    defs = llm_planner.RESPONSE_FORMAT["json_schema"]["schema"]["$defs"]  # type: ignore[index]
    assert defs["AggregateOut"]["properties"]["func"]["enum"] == list(AGGREGATES)
    assert defs["FilterOut"]["properties"]["op"]["enum"] == list(OPERATORS)
    assert AGGREGATE_WORDS == frozenset("median average mean avg sum total count number".split())
    sheet = demo_sheet()
    described = {
        func: describe_op(TableOp(sheet_id=7, aggregate=Aggregate(func=func, column="Country")), sheet)
        for func in AGGREGATES
    }
    assert described == {
        "sum": "Sum of Country (funding_rounds.csv).",
        "avg": "Average of Country (funding_rounds.csv).",
        "median": "Median of Country (funding_rounds.csv).",
        "min": "Minimum of Country (funding_rounds.csv).",
        "max": "Maximum of Country (funding_rounds.csv).",
        "count": "Count of Country (funding_rounds.csv).",
        "count_distinct": "Number of distinct Country (funding_rounds.csv).",
    }


@pytest.mark.parametrize(
    ("question", "func"),
    [
        ("What is the average amount raised?", "avg"),
        ("What is the mean amount raised?", "avg"),
        ("What is the median amount raised?", "median"),
        ("What is the average and median amount raised?", "avg"),  # registry order: the first entry wins
    ],
)
def test_the_offline_planner_reads_the_registry_words(question: str, func: str) -> None:
    from core.qa.planner import OfflinePlanner, RoomSchema
    from core.retrieval.plan import TableStep

    plan = OfflinePlanner().plan(question, RoomSchema(room_id=1, sheets=(demo_sheet(),), documents=()))
    step = plan.steps[0]
    assert isinstance(step, TableStep) and step.op.aggregate is not None
    assert step.op.aggregate.func == func
