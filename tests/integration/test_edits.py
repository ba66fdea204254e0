"""Cell edits on real Postgres: written back, re-indexed for search, seen by exact table math, audited,
and marking the answers that cited the cell as stale."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.db import Database
from core.errors import CellNotFound, InvalidValue
from core.ingest.edits import edit_cell, load_grid, room_sheets, stale_citations
from core.qa.service import ask
from core.retrieval import tables
from tests.factories import FUNDING_CSV

DEMO = Path(__file__).resolve().parents[2] / "data" / "demo"
QUESTION = "How much was raised in Canada in 2021?"


@pytest.fixture
def funding(workbench):
    """A room with the four-row funding CSV; returns (workbench, its sheet)."""
    workbench.ingest_upload(FUNDING_CSV, "funding.csv", "R", embed=False)
    [sheet] = room_sheets(workbench.db, workbench.room("R").id)
    return workbench, sheet


@pytest.fixture
def demo(workbench):
    workbench.ingest_upload((DEMO / "funding_rounds.csv").read_bytes(), "funding_rounds.csv", "Demo", embed=False)
    return workbench


def row_id_of(db: Database, sheet_id: int, company: str) -> int:
    frame = load_grid(db, sheet_id).frame
    return int(frame.loc[frame["c0"] == company, "row_id"].iloc[0])


def snapshot(db: Database) -> dict[str, object]:
    """Everything an edit may touch."""
    with db.connection() as conn:
        return {
            table: conn.execute(query).fetchall()
            for table, query in {
                "rows": "SELECT id, values::text FROM sheet_rows ORDER BY id",
                "chunks": "SELECT id, content, tsv::text FROM chunks ORDER BY id",
                "term_stats": "SELECT room_id, lexeme, df FROM term_stats ORDER BY 1, 2",
                "edits": "SELECT * FROM cell_edits",
                "version": "SELECT id, version FROM sheets ORDER BY id",
                "embeddings": "SELECT chunk_id FROM chunk_embeddings ORDER BY 1",
            }.items()
        }


def recounted_term_stats(db: Database) -> tuple[list, list]:
    """(term_stats as kept, term_stats recomputed from the chunks) and (n_chunks kept, recounted)."""
    with db.connection() as conn:
        kept = conn.execute("SELECT room_id, lexeme, df FROM term_stats ORDER BY 1, 2").fetchall()
        recount = conn.execute(
            "SELECT r.id, s.word, s.ndoc FROM rooms r,"
            " LATERAL ts_stat(format('SELECT tsv FROM chunks WHERE room_id = %s', r.id)) s ORDER BY 1, 2"
        ).fetchall()
        n_kept = conn.execute("SELECT id, n_chunks FROM rooms ORDER BY id").fetchall()
        n_recount = conn.execute(
            "SELECT r.id, (SELECT count(*) FROM chunks c WHERE c.room_id = r.id) FROM rooms r ORDER BY r.id"
        ).fetchall()
    return (kept, recount), (n_kept, n_recount)


def test_edit_persists_and_reindexes_the_row(funding) -> None:
    wb, sheet = funding
    row_id = row_id_of(wb.db, sheet.sheet_id, "Cobalt Pay")
    assert [h.row_id for h in wb.search("Cobalt", "R")] == [row_id]

    edit = edit_cell(wb.db, sheet.sheet_id, row_id, "Company", "Zephyrine Payments")

    assert edit.changed and edit.old == "Cobalt Pay" and edit.new == "Zephyrine Payments"
    assert edit.ref == "funding!A4" and edit.column == "Company" and edit.edited_at is not None
    frame = load_grid(wb.db, sheet.sheet_id).frame
    assert frame.loc[frame["row_id"] == row_id, "c0"].item() == "Zephyrine Payments"
    with wb.db.connection() as conn:
        content = conn.execute("SELECT content FROM chunks WHERE row_id = %s", (row_id,)).fetchone()[0]
        audit = conn.execute(
            "SELECT ref, column_name, column_position, old_value, new_value FROM cell_edits"
        ).fetchall()
    assert content == "Company: Zephyrine Payments; Country: Germany; Round: Series B; Amount Raised (USD): 42000000"
    assert audit == [("funding!A4", "Company", 0, "Cobalt Pay", "Zephyrine Payments")]
    # Keyword search finds the new text and no longer the old.
    hits = wb.search("Zephyrine", "R")
    assert [h.row_id for h in hits] == [row_id] and "Zephyrine Payments" in hits[0].preview
    assert wb.search("Cobalt", "R") == []
    kept_vs_recount, n_chunks = recounted_term_stats(wb.db)
    assert kept_vs_recount[0] == kept_vs_recount[1]
    assert n_chunks[0] == n_chunks[1]


def test_emptying_and_refilling_a_cell_keeps_term_stats_exact(funding) -> None:
    wb, sheet = funding
    row_id = row_id_of(wb.db, sheet.sheet_id, "Dune Analytics")
    for value in ("", "Spain", "France", "  Portugal  "):
        edit_cell(wb.db, sheet.sheet_id, row_id, "Country", value)
        kept_vs_recount, _ = recounted_term_stats(wb.db)
        assert kept_vs_recount[0] == kept_vs_recount[1], value
    frame = load_grid(wb.db, sheet.sheet_id).frame
    assert frame.loc[frame["row_id"] == row_id, "c1"].item() == "Portugal"  # trimmed


def test_exact_table_math_uses_the_new_value(demo) -> None:
    before = next(e for e in ask(demo, QUESTION, "Demo") if e.type == "done").result
    amount = next(c for c in before["citations"] if c["column"] == "Amount Raised (USD)")
    [sheet] = demo.sheets("Demo")
    assert tables.load_sheet(demo.db, sheet.sheet_id) is tables.load_sheet(demo.db, sheet.sheet_id)  # cached

    demo.edit_cell(sheet.sheet_id, amount["row_id"], "Amount Raised (USD)", str(int(amount["value"]) + 1_000_000))

    after = next(e for e in ask(demo, QUESTION, "Demo") if e.type == "done").result
    assert int(after["values"][0]) == int(before["values"][0]) + 1_000_000
    assert str(int(amount["value"]) + 1_000_000) in {c["value"] for c in after["citations"]}


def test_an_edit_made_by_another_process_reloads_the_cached_sheet(funding, settings) -> None:
    wb, sheet = funding
    before = tables.load_sheet(wb.db, sheet.sheet_id)
    row_id = row_id_of(wb.db, sheet.sheet_id, "Acme Robotics")
    # Another process: its own pool and cache key; this process's cached copy is not told.
    url = settings.database_url
    other = Database(url + ("&" if "?" in url else "?") + "application_name=other", max_size=1, run_migrations=False)
    try:
        edit_cell(other, sheet.sheet_id, row_id, "Amount Raised (USD)", "$2.5M")
    finally:
        other.close()
    after = tables.load_sheet(wb.db, sheet.sheet_id)
    assert after is not before
    op = tables.TableOp(sheet_id=sheet.sheet_id, aggregate=tables.Aggregate(func="sum", column="Amount Raised (USD)"))
    assert tables.run_table_op(after, op).values == [str(2_500_000 + 15_000_000 + 42_000_000 + 1_500_000)]


@pytest.mark.parametrize(
    ("column", "value", "message"),
    [
        ("Amount Raised (USD)", "12x", "D2 is a number column (Amount Raised (USD)): '12x' is not a number"),
        ("Amount Raised (USD)", "twelve million", "is not a number"),
        ("Company", "x" * 40_000, "over the 32,767"),
    ],
)
def test_an_invalid_value_is_refused_and_nothing_changes(funding, column: str, value: str, message: str) -> None:
    wb, sheet = funding
    row_id = row_id_of(wb.db, sheet.sheet_id, "Acme Robotics")
    before = snapshot(wb.db)
    with pytest.raises(InvalidValue) as refused:
        edit_cell(wb.db, sheet.sheet_id, row_id, column, value)
    assert message in str(refused.value)
    assert snapshot(wb.db) == before


def test_typed_columns_take_what_the_math_reads(workbench) -> None:
    data = b"Company,Raised,Share,Closed\nAcme,$1.2M,15%,2021-03-05\nBorealis,$3.0M,20%,2021-04-01\n"
    workbench.ingest_upload(data, "typed.csv", "T", embed=False)
    [sheet] = workbench.sheets("T")
    grid = workbench.grid(sheet.sheet_id)
    assert [c.dtype for c in grid.columns] == ["text", "currency", "percent", "date"]
    row_id = int(grid.frame["row_id"].iloc[0])
    for column, good, bad, said in [
        ("Raised", "(1,500)", "12x", "B2 is a currency column (Raised): '12x' is not an amount"),
        ("Share", "12.5%", "lots", "C2 is a percent column (Share): 'lots' is not a percentage"),
        ("Closed", "5 Mar 2022", "2021-02-30", "D2 is a date column (Closed): '2021-02-30' is not a date"),
    ]:
        assert workbench.edit_cell(sheet.sheet_id, row_id, column, good).new == good
        with pytest.raises(InvalidValue) as refused:
            workbench.edit_cell(sheet.sheet_id, row_id, column, bad)
        assert said in str(refused.value)
    assert workbench.edit_cell(sheet.sheet_id, row_id, "Raised", "").new is None  # clearing is allowed


def test_an_unchanged_value_writes_nothing(funding) -> None:
    wb, sheet = funding
    row_id = row_id_of(wb.db, sheet.sheet_id, "Acme Robotics")
    before = snapshot(wb.db)
    edit = edit_cell(wb.db, sheet.sheet_id, row_id, "Country", " Canada ")
    assert not edit.changed and edit.id is None
    assert snapshot(wb.db) == before


def test_unknown_rows_and_columns_are_clear_errors(funding, workbench) -> None:
    wb, sheet = funding
    row_id = row_id_of(wb.db, sheet.sheet_id, "Acme Robotics")
    with pytest.raises(CellNotFound, match=r"Row id 999999 is not in sheet 'funding'.*Reload the sheet"):
        edit_cell(wb.db, sheet.sheet_id, 999_999, "Country", "Peru")
    with pytest.raises(CellNotFound, match=r"No column 'Valuation' in sheet 'funding'.*A · Company"):
        edit_cell(wb.db, sheet.sheet_id, row_id, "Valuation", "1")
    with pytest.raises(CellNotFound, match="No sheet with id 424242"):
        edit_cell(wb.db, 424_242, row_id, "Country", "Peru")
    workbench.ingest_upload(FUNDING_CSV.replace(b"Acme", b"Apex"), "other.csv", "R", embed=False)
    other = next(s for s in wb.sheets("R") if s.sheet_id != sheet.sheet_id)
    with pytest.raises(CellNotFound, match="is not in sheet 'other'"):
        edit_cell(wb.db, other.sheet_id, row_id, "Country", "Peru")  # a row of another sheet


def test_stale_citations_mark_only_answers_citing_the_edited_cell(demo) -> None:
    first = next(e for e in ask(demo, QUESTION, "Demo") if e.type == "done").result
    conversation = first["conversation_id"]
    second = next(
        e
        for e in ask(demo, "How much was raised in France in 2020?", "Demo", conversation_id=conversation)
        if e.type == "done"
    ).result
    cited_first = {(c["row_id"], c["column"]) for c in first["citations"] if c["kind"] == "cell"}
    cited_second = {(c["row_id"], c["column"]) for c in second["citations"] if c["kind"] == "cell"}
    target = next(
        c
        for c in first["citations"]
        if c["column"] == "Amount Raised (USD)" and (c["row_id"], c["column"]) not in cited_second
    )
    assert demo.stale_citations(conversation) == {}
    [sheet] = demo.sheets("Demo")

    demo.edit_cell(sheet.sheet_id, target["row_id"], target["column"], "1")

    with demo.db.connection() as conn:
        messages = conn.execute(
            "SELECT id FROM messages WHERE conversation_id = %s AND role = 'assistant' ORDER BY id", (conversation,)
        ).fetchall()
    assert cited_first and cited_second
    assert stale_citations(demo.db, conversation) == {messages[0][0]: [target["ref"]]}
    # An edit undone leaves the answer right again.
    demo.edit_cell(sheet.sheet_id, target["row_id"], target["column"], target["value"])
    assert stale_citations(demo.db, conversation) == {}


def test_the_grid_shows_windows_of_rows_and_finds_text_in_any_cell(demo) -> None:
    [sheet] = demo.sheets("Demo")
    whole = load_grid(demo.db, sheet.sheet_id).frame
    assert len(whole) == sheet.n_rows == 307 and list(whole.columns[:3]) == ["row_id", "row_number", "c0"]
    assert list(whole["row_number"]) == list(range(2, 309))  # the CSV's own row numbers (header is row 1)
    window = load_grid(demo.db, sheet.sheet_id, offset=300, limit=100)
    assert list(window.frame["row_id"]) == list(whole["row_id"][300:]) and window.n_matching == 307
    canada = [i for i, row in whole.iterrows() if any("canada" in str(v).lower() for v in row[2:] if v is not None)]
    found = load_grid(demo.db, sheet.sheet_id, offset=0, limit=5, find="  CANADA ")
    assert found.find == "CANADA" and found.n_matching == len(canada) > 5
    assert list(found.frame["row_id"]) == list(whole.loc[canada[:5], "row_id"])
    assert load_grid(demo.db, sheet.sheet_id, find="no such text anywhere").n_matching == 0


def test_the_cited_rows_are_fetched_by_id_without_reading_the_sheet(workbench) -> None:
    """ "Show all N cited rows" on a 20,000-row sheet: those rows alone, in sheet order, found by id."""
    import json
    import time

    from tests.factories import csv_bytes

    n = 20_000
    rows = [["Company", "Country", "Year", "Amount"]] + [
        [f"Company {i}", ["Canada", "France", "Japan"][i % 3], 2000 + i % 25, i * 1000] for i in range(n)
    ]
    workbench.ingest_upload(csv_bytes(rows), "big.csv", "Big", embed=False)
    workbench.ingest_upload(FUNDING_CSV, "funding.csv", "Big", embed=False)
    big, other = sorted(workbench.sheets("Big"), key=lambda s: -s.n_rows)
    assert big.n_rows == n
    with workbench.db.connection() as conn:
        ids = [
            r[0]
            for r in conn.execute("SELECT id FROM sheet_rows WHERE sheet_id = %s ORDER BY row_index", (big.sheet_id,))
        ]
        foreign = conn.execute("SELECT id FROM sheet_rows WHERE sheet_id = %s LIMIT 1", (other.sheet_id,)).fetchone()[0]
    cited = ids[19_999:19_900:-3] + ids[5:47:3]  # 34 + 14 rows, out of order, from both ends of the sheet
    started = time.perf_counter()
    grid = workbench.grid(big.sheet_id, rows=[*cited, foreign, *cited[:5]])
    by_id_ms = (time.perf_counter() - started) * 1000
    frame = grid.frame
    assert sorted(frame["row_id"]) == sorted(cited) and list(frame["row_id"]) == sorted(cited)  # sheet order
    assert grid.n_matching == len(cited) and grid.n_rows == n
    last = frame[frame["row_id"] == ids[-1]].iloc[0]
    assert (last["row_number"], last["c0"], last["c1"], last["c3"]) == (
        n + 1,
        f"Company {n - 1}",
        "France",  # (n - 1) % 3 == 1
        f"{(n - 1) * 1000}",
    )
    assert workbench.grid(big.sheet_id, rows=[]).frame.empty

    # The query reads the cited rows through the primary key, not the 20,000 rows of the sheet.
    from core.db import q

    with workbench.db.connection() as conn:
        conn.execute("ANALYZE sheet_rows")
        [[plan]] = conn.execute(
            "EXPLAIN (ANALYZE, FORMAT JSON) " + q("grid_rows_by_id"), {"sheet_id": big.sheet_id, "row_ids": cited}
        ).fetchall()
    plan = plan if isinstance(plan, list) else json.loads(plan)

    def scans(node: dict) -> list[dict]:
        found = [node] if "Scan" in node["Node Type"] else []
        return found + [s for child in node.get("Plans", []) for s in scans(child)]

    scan = scans(plan[0]["Plan"])[0]  # the outermost (row-level security adds sub-plans of its own)
    assert scan["Node Type"] in ("Index Scan", "Bitmap Heap Scan") and scan["Actual Rows"] == len(cited)
    started = time.perf_counter()
    workbench.grid(big.sheet_id)
    whole_ms = (time.perf_counter() - started) * 1000
    print(f"\ncited rows by id: {by_id_ms:.0f} ms; the whole {n:,}-row sheet: {whole_ms:.0f} ms")


def test_stale_marks_read_the_cited_rows_by_id(demo) -> None:
    """Drawing a conversation looks up its cited rows through the primary key, not by scanning every sheet's rows
    (row-level security kept the index out of a join on the JSON expression: 320 ms a page run beside a
    100,000-row sheet)."""
    import json

    from core.db import q

    events = list(demo.ask(QUESTION, "Demo"))
    conversation = next(e for e in events if e.type == "done").result["conversation_id"]
    with demo.db.connection() as conn:
        conn.execute("ANALYZE sheet_rows")
        [[plan]] = conn.execute(
            "EXPLAIN (FORMAT JSON) " + q("stale_citations"), {"conversation_id": conversation}
        ).fetchall()
    plan = plan if isinstance(plan, list) else json.loads(plan)

    def scans(node: dict) -> list[str]:
        found = [node["Node Type"]] if node.get("Relation Name") == "sheet_rows" else []
        return found + [s for child in node.get("Plans", []) for s in scans(child)]

    assert scans(plan[0]["Plan"])[0] == "Index Scan"
