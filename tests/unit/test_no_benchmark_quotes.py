"""No benchmark question is quoted in the product (core/, views/, app.py): each class of question is described
with an invented example. Needs the shared eval folder beside the checkout (`../shared/eval`), as CI has it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.quoted_questions import questions, quoted

EVAL = Path(__file__).resolve().parents[2].parent / "shared" / "eval"


@pytest.fixture(scope="module")
def eval_dir() -> Path:
    if not (EVAL / "wtq-dev").is_dir():
        pytest.skip(f"no benchmark data at {EVAL}")
    return EVAL


def test_no_dev_question_is_quoted_in_the_product(eval_dir: Path) -> None:
    assert len(questions(eval_dir)) > 2000
    hits = quoted(eval_dir, 8)
    assert not hits, "benchmark questions quoted in the product:\n" + "\n".join(f"{p}:{n}: {q}" for p, n, q in hits)


def test_the_search_finds_a_quote(tmp_path: Path) -> None:
    """A question written into a product file is found (so the test above cannot pass by reading nothing)."""
    (tmp_path / "wtq-dev").mkdir()
    (tmp_path / "wtq-dev" / "questions.tsv").write_text(
        "id\tutterance\tcontext\ttargetValue\nx-1\twhich town hosted the regatta?\tcsv/1.csv\tA\n"
    )
    assert questions(tmp_path) == ["which town hosted the regatta?"]
    assert not quoted(tmp_path, 8, root=tmp_path)
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "probe.py").write_text('"""Which town hosted the Regatta?"""\n')
    assert [(p, q) for p, _, q in quoted(tmp_path, 8, root=tmp_path)] == [
        ("core/probe.py", "which town hosted the regatta?")
    ]
