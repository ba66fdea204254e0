"""Table operations on a sheet stored in Postgres: load, compute exactly, cite cells that match the stored text."""

from __future__ import annotations

import csv
import io
import random
import re
from decimal import Decimal

import pytest

from core.retrieval.tables import (
    Aggregate,
    Filter,
    SheetNotFound,
    TableOp,
    TableResult,
    load_sheet,
    run_table_op,
    sheet_cache_info,
)

COUNTRIES = ["Canada", "Germany", "France", "United States", "Japan"]


def make_funding(n: int, seed: int = 11) -> tuple[bytes, list[dict[str, object]]]:
    """A funding CSV with blanks, currency and percent text and dates, and the values it holds."""
    rng = random.Random(seed)
    records: list[dict[str, object]] = []
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["Company", "Country", "Amount Raised (USD)", "Date", "Stake"])
    for i in range(n):
        cents = None if i % 17 == 5 else rng.randint(1, 5_000_000) * 100 + rng.choice([0, 0, 50])
        record = {
            "company": f"Company {i:04d}",
            "country": rng.choice(COUNTRIES),
            "amount": None if cents is None else Decimal(cents).scaleb(-2),
            "year": rng.randint(2018, 2023),
            "stake": rng.randint(1, 40),
        }
        records.append(record)
        amount = "" if record["amount"] is None else f"${record['amount']:,}"
        writer.writerow(
            [
                record["company"],
                record["country"],
                amount,
                f"{record['year']}-0{rng.randint(1, 9)}-15",
                f"{record['stake']}%",
            ]
        )
    return buffer.getvalue().encode(), records


def stored_values(db, result: TableResult) -> dict[tuple[int, int], str | None]:
    """(row_id, column position) -> values->>position as stored, for every cited cell."""
    wanted = [(c.row_id, c.column) for c in result.citations]
    out = {}
    with db.connection() as conn:
        for row_id, column in wanted:
            row = conn.execute(
                "SELECT c.position, r.values->>c.position FROM sheet_rows r"
                " JOIN sheet_columns c ON c.sheet_id = r.sheet_id"
                " WHERE r.id = %s AND c.name = %s",
                (row_id, column),
            ).fetchone()
            out[(row_id, column)] = row[1]
    return out


def check_against_db(db, result: TableResult) -> None:
    stored = stored_values(db, result)
    assert result.citations
    for c in result.citations:
        assert c.value == stored[(c.row_id, c.column)]


@pytest.fixture
def funding_sheet(workbench, db):
    data, records = make_funding(400)
    result = workbench.ingest_upload(data, "funding.csv", "R", embed=False)
    assert result.status == "ready" and result.rows == 400
    with db.connection() as conn:
        sheet_id = conn.execute("SELECT id FROM sheets WHERE document_id = %s", (result.document_id,)).fetchone()[0]
    return sheet_id, result.document_id, records


def test_load_and_compute_over_the_stored_sheet(db, funding_sheet) -> None:
    sheet_id, document_id, records = funding_sheet
    sheet = load_sheet(db, sheet_id)
    assert (sheet.sheet_id, sheet.document_id, sheet.title, sheet.sheet) == (
        sheet_id,
        document_id,
        "funding.csv",
        "funding",
    )
    assert sheet.n_rows == 400 and [c.dtype for c in sheet.columns] == ["text", "text", "currency", "date", "percent"]

    op = TableOp(
        sheet_id=sheet_id,
        filters=[Filter(column="Country", op="eq", value="canada"), Filter(column="Date", op="year", value=2021)],
        aggregate=Aggregate(func="sum", column="Amount Raised (USD)"),
    )
    result = run_table_op(sheet, op)
    picked = [r for r in records if r["country"] == "Canada" and r["year"] == 2021 and r["amount"] is not None]
    assert result.values == [format(sum(r["amount"] for r in picked).normalize(), "f")]
    assert result.n_rows_used == len(picked)
    assert f"over {len(picked)} rows" in result.description
    check_against_db(db, result)

    top = run_table_op(
        sheet,
        TableOp(
            sheet_id=sheet_id, group_by="Country", aggregate=Aggregate(func="sum", column="C"), sort_by="value", limit=1
        ),
    )
    totals = {c: sum(r["amount"] for r in records if r["country"] == c and r["amount"] is not None) for c in COUNTRIES}
    best = max(totals, key=totals.__getitem__)
    assert top.values == [best] and top.rows == [[best, format(totals[best].normalize(), "f")]]
    n_best = sum(1 for r in records if r["country"] == best and r["amount"] is not None)
    assert top.n_rows_used == n_best
    assert re.fullmatch(rf"funding!C\d+:C\d+ \({n_best} cells where Country = {best}\)", top.cited_range or "")
    check_against_db(db, top)

    biggest = run_table_op(sheet, TableOp(sheet_id=sheet_id, sort_by="Amount Raised (USD)", limit=1))
    most = max(r["amount"] for r in records if r["amount"] is not None)
    assert biggest.values == [r["company"] for r in records if r["amount"] == most]
    check_against_db(db, biggest)

    stake = run_table_op(sheet, TableOp(sheet_id=sheet_id, aggregate=Aggregate(func="median", column="Stake")))
    stakes = sorted(r["stake"] for r in records)
    assert Decimal(stake.values[0].rstrip("%")) == (Decimal(stakes[199]) + Decimal(stakes[200])) / 2
    check_against_db(db, stake)

    distinct = run_table_op(sheet, TableOp(sheet_id=sheet_id, distinct="Country"))
    assert distinct.values == list(dict.fromkeys(r["country"] for r in records))
    check_against_db(db, distinct)


def test_second_load_hits_the_cache(db, funding_sheet) -> None:
    sheet_id, _, _ = funding_sheet
    first = load_sheet(db, sheet_id)
    before = sheet_cache_info()
    second = load_sheet(db, sheet_id)
    after = sheet_cache_info()
    assert second is first
    assert after["hits"] == before["hits"] + 1 and after["misses"] == before["misses"]


def test_a_deleted_sheet_is_not_served(db, funding_sheet) -> None:
    sheet_id, document_id, _ = funding_sheet
    load_sheet(db, sheet_id)
    with db.connection() as conn:
        conn.execute("DELETE FROM documents WHERE id = %s", (document_id,))
    with pytest.raises(SheetNotFound):
        load_sheet(db, sheet_id)
