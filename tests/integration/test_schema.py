"""core/sql/schema.sql is the schema the migrations build (regenerate with `make schema`)."""

from __future__ import annotations

import difflib
import os

from core.db import SQL_DIR, dump_schema


def test_schema_sql_is_what_the_migrations_build(pg_server, template_db: str) -> None:
    built = dump_schema(pg_server.get_uri(database=template_db))
    path = SQL_DIR / "schema.sql"
    if os.environ.get("WORKBENCH_WRITE_SCHEMA"):
        path.write_text(built)
    committed = path.read_text() if path.exists() else ""
    diff = "".join(difflib.unified_diff(committed.splitlines(True), built.splitlines(True), "schema.sql", "migrations"))
    assert not diff, f"core/sql/schema.sql is out of date: run `make schema`.\n{diff[:4000]}"
    assert "CREATE POLICY" in built and "ENABLE ROW LEVEL SECURITY" in built
