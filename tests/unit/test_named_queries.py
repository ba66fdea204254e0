"""SQL lives in core/sql/*.sql as named blocks: every block is used by core/, and every q("…") in core/ exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core.db import SQL_DIR, load_all_queries, load_queries
from core.errors import ConfigError

CORE = Path(__file__).resolve().parents[2] / "core"
_CALL = re.compile(r"""\bq\(\s*["'](\w+)["']\s*\)""")


def _called() -> dict[str, list[str]]:
    """Query name -> the core modules that call q() with it."""
    found: dict[str, list[str]] = {}
    for path in sorted(CORE.rglob("*.py")):
        for name in _CALL.findall(path.read_text()):
            found.setdefault(name, []).append(str(path.relative_to(CORE.parent)))
    return found


def test_every_named_query_is_used_and_every_call_names_one() -> None:
    defined = set(load_all_queries())
    called = _called()
    assert called, "no q(...) call found: the scan is broken"
    missing = {name: where for name, where in called.items() if name not in defined}
    assert not missing, f"q() names queries that no core/sql/*.sql file defines: {missing}"
    unused = sorted(defined - set(called))
    assert not unused, f"named queries nothing in core/ uses (delete them or call them): {unused}"


def test_no_sql_text_outside_core_sql() -> None:
    """Statements are written in .sql files; Python only names them (psycopg.sql composes identifiers)."""
    statement = re.compile(
        r"""(?<!["'])["'](?:SELECT|INSERT INTO|UPDATE|DELETE FROM|CREATE|ALTER|DROP|SET|COPY|TRUNCATE)\s"""
    )
    offenders = [
        f"{path.relative_to(CORE.parent)}:{i}"
        for path in sorted(CORE.rglob("*.py"))
        for i, line in enumerate(path.read_text().splitlines(), start=1)
        if statement.search(line)
    ]
    assert not offenders, f"SQL text in Python (move it to a named block in core/sql/): {offenders}"


def test_a_name_defined_twice_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a.sql").write_text("-- name: one\nSELECT 1;\n\n-- name: one\nSELECT 2;\n")
    with pytest.raises(ConfigError, match="defined twice"):
        load_queries(tmp_path / "a.sql")
    (tmp_path / "a.sql").write_text("-- name: one\nSELECT 1;\n")
    (tmp_path / "b.sql").write_text("-- name: one\nSELECT 2;\n")
    with pytest.raises(ConfigError, match="defined twice"):
        load_all_queries(tmp_path)
    assert SQL_DIR.is_dir()
