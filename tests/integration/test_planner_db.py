"""The demo sheet in Postgres: load_schema, the offline planner and core.retrieval.tables agree with pandas."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pandas as pd
import pytest

from core.db import Database
from core.qa.planner import OfflinePlanner, RoomSchema, load_schema
from core.retrieval.plan import SearchStep, TableStep
from core.retrieval.tables import TableResult, load_sheet, run_table_op
from core.workbench import Workbench

DEMO = Path(__file__).resolve().parents[2] / "data" / "demo" / "funding_rounds.csv"
AMOUNT = "Amount Raised (USD)"


@pytest.fixture
def frame() -> pd.DataFrame:
    """The demo CSV as pandas reads it: the independent reference."""
    df = pd.read_csv(DEMO)
    df["Date"] = pd.to_datetime(df["Date"])
    return df


@pytest.fixture
def demo(workbench: Workbench, db: Database) -> RoomSchema:
    """The demo room holding funding_rounds.csv, and its schema."""
    result = workbench.ingest_upload(DEMO.read_bytes(), "funding_rounds.csv", "Demo", embed=False)
    assert result.status == "ready", result.error
    return load_schema(db, workbench.room("Demo").id)


def answer(
    db: Database, schema: RoomSchema, question: str, history: list[tuple[str, str]] | None = None
) -> TableResult:
    """Plan `question` offline and run its table step on the stored sheet."""
    plan = OfflinePlanner().plan(question, schema, history or [])
    steps = [step for step in plan.steps if isinstance(step, TableStep)]
    assert len(steps) == 1, plan
    return run_table_op(load_sheet(db, steps[0].op.sheet_id), steps[0].op)


def number(text: str) -> Decimal:
    return Decimal(text)


def test_schema_describes_the_sheet(demo: RoomSchema, frame: pd.DataFrame) -> None:
    assert len(demo.sheets) == 1 and demo.documents == ()
    sheet = demo.sheets[0]
    assert [c.name for c in sheet.columns] == list(frame.columns)
    assert sheet.n_rows == len(frame)
    by_name = {c.name: c for c in sheet.columns}
    assert by_name["Date"].dtype == "date"
    assert by_name[AMOUNT].dtype in ("number", "currency")
    # Distinct values come from SQL over the stored rows, in sheet order.
    assert list(by_name["Country"].values) == list(frame["Country"].drop_duplicates())
    assert by_name["Country"].n_distinct == frame["Country"].nunique()
    assert by_name["Country"].n_filled == len(frame)
    assert by_name["Company"].repeats and by_name["Country"].repeats
    # The rows are in date order: the date column follows the sheet order.
    assert by_name["Date"].trend == "up"


def test_schema_is_cached_until_the_documents_change(workbench: Workbench, db: Database, demo: RoomSchema) -> None:
    room_id = workbench.room("Demo").id
    assert load_schema(db, room_id) is demo
    extra = b"Name,Score\nAda,3\nBo,5\n"
    assert workbench.ingest_upload(extra, "scores.csv", "Demo", embed=False).status == "ready"
    fresh = load_schema(db, room_id)
    assert fresh is not demo
    assert [s.title for s in fresh.sheets] == ["funding_rounds.csv", "scores.csv"]


def test_canada_2021_total(db: Database, demo: RoomSchema, frame: pd.DataFrame) -> None:
    expected = frame[(frame["Country"] == "Canada") & (frame["Date"].dt.year == 2021)][AMOUNT].sum()
    result = answer(db, demo, "How much was raised in Canada in 2021?")
    assert number(result.values[0]) == Decimal(int(expected))


def test_follow_ups_change_the_country_then_the_year(db: Database, demo: RoomSchema, frame: pd.DataFrame) -> None:
    first = "How much was raised in Canada in 2021?"
    france = frame[frame["Country"] == "France"]
    result = answer(db, demo, "What about in France?", [(first, "…")])
    assert number(result.values[0]) == Decimal(int(france[france["Date"].dt.year == 2021][AMOUNT].sum()))
    result = answer(db, demo, "and the year before?", [(first, "…"), ("What about in France?", "…")])
    assert number(result.values[0]) == Decimal(int(france[france["Date"].dt.year == 2020][AMOUNT].sum()))


def test_seed_round_count(db: Database, demo: RoomSchema, frame: pd.DataFrame) -> None:
    result = answer(db, demo, "How many seed rounds were there?")
    assert int(result.values[0]) == int((frame["Round"] == "Seed").sum())


def test_largest_single_round_and_largest_total(db: Database, demo: RoomSchema, frame: pd.DataFrame) -> None:
    top = frame.loc[frame[AMOUNT] == frame[AMOUNT].max(), "Company"]
    assert answer(db, demo, "Which company raised the largest single round?").values == list(top)
    totals = frame.groupby("Company")[AMOUNT].sum()
    assert answer(db, demo, "Which company raised the most?").values == [totals.idxmax()]


def test_most_raised_in_total(db: Database, demo: RoomSchema, frame: pd.DataFrame) -> None:
    totals = frame.groupby("Company")[AMOUNT].sum()
    expected = sorted(totals[totals == totals.max()].index)
    assert sorted(answer(db, demo, "Which company has raised the most money in total?").values) == expected


def test_investor_who_led_the_most_rounds(db: Database, demo: RoomSchema, frame: pd.DataFrame) -> None:
    counts = frame["Lead Investor"].value_counts()
    expected = sorted(counts[counts == counts.max()].index)
    assert sorted(answer(db, demo, "Which investor led the most rounds?").values) == expected


def test_average_in_germany(db: Database, demo: RoomSchema, frame: pd.DataFrame) -> None:
    expected = frame[frame["Country"] == "Germany"][AMOUNT].mean()
    result = answer(db, demo, "What is the average amount raised in Germany?")
    assert float(result.values[0]) == pytest.approx(expected, rel=1e-9)


def test_distinct_countries(db: Database, demo: RoomSchema, frame: pd.DataFrame) -> None:
    result = answer(db, demo, "How many different countries are there?")
    assert int(result.values[0]) == frame["Country"].nunique()


def test_top_three_sectors(db: Database, demo: RoomSchema, frame: pd.DataFrame) -> None:
    expected = list(frame.groupby("Sector")[AMOUNT].sum().sort_values(ascending=False).index[:3])
    assert answer(db, demo, "Top 3 sectors by total amount raised").values == expected


def test_comparison_and_year_range(db: Database, demo: RoomSchema, frame: pd.DataFrame) -> None:
    result = answer(db, demo, "How many rounds were over 10 million?")
    assert int(result.values[0]) == int((frame[AMOUNT] > 10_000_000).sum())
    result = answer(db, demo, "How many rounds between 2020 and 2022?")
    assert int(result.values[0]) == int(frame["Date"].dt.year.between(2020, 2022).sum())


def test_ceo_question_is_searched(db: Database, demo: RoomSchema) -> None:
    plan = OfflinePlanner().plan("Who is the CEO of Harvestquay?", demo)
    assert any(isinstance(step, SearchStep) for step in plan.steps)
