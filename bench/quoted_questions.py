"""Find benchmark questions quoted in product code: `python -m bench.quoted_questions ../shared/eval`.

The product must describe each class of question with an invented example, never with a question of a benchmark
(issue 22). This reads every dev question of WTQ, TAT-QA and FinanceBench under the given folder and lists each
place in `core/` and `views/` whose text (comments and strings included) holds a whole question, or a run of
`--words` consecutive words of one (8 by default), compared on lower-case words only. Exit 1 when any is found.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import sys
from pathlib import Path

_WORD = re.compile(r"[a-z0-9]+")
ROOT = Path(__file__).resolve().parent.parent
SEARCHED = ("core", "views", "app.py")


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def questions(eval_dir: Path) -> list[str]:
    """Every dev question of the three benchmarks found under eval_dir."""
    found: list[str] = []
    wtq = eval_dir / "wtq-dev" / "questions.tsv"
    if wtq.exists():
        with wtq.open(newline="", encoding="utf-8") as f:
            found += [row["utterance"] for row in csv.DictReader(f, delimiter="\t")]
    tatqa = eval_dir / "tatqa-dev" / "tatqa_dataset_dev.json"
    if tatqa.exists():
        found += [q["question"] for ctx in json.loads(tatqa.read_text()) for q in ctx["questions"]]
    fb = eval_dir / "financebench-dev" / "questions.jsonl"
    if fb.exists():
        found += [json.loads(line)["question"] for line in fb.read_text().splitlines() if line.strip()]
    return found


def _files(root: Path) -> list[Path]:
    out: list[Path] = []
    for name in SEARCHED:
        path = root / name
        if not path.exists():
            continue
        out += [path] if path.is_file() else sorted(path.rglob("*.py")) + sorted(path.rglob("*.sql"))
    return out


def quoted(eval_dir: Path, run: int, root: Path = ROOT) -> list[tuple[str, int, str]]:
    """(file, line, question) for each question, or run of `run` of its words, found in the product."""
    grams: dict[tuple[str, ...], str] = {}
    for q in questions(eval_dir):
        words = tuple(_words(q))
        if len(words) < 4:
            continue
        if len(words) <= run:
            grams.setdefault(words, q)
        for i in range(len(words) - run + 1):
            grams.setdefault(words[i : i + run], q)
    sizes = sorted({len(g) for g in grams})
    hits: list[tuple[str, int, str]] = []
    for path in _files(root):
        text = path.read_text(encoding="utf-8", errors="replace")
        tokens = [(m.group(), text.count("\n", 0, m.start()) + 1) for m in _WORD.finditer(text.lower())]
        words = [t for t, _ in tokens]
        seen: set[tuple[int, str]] = set()
        for size in sizes:
            for i in range(len(words) - size + 1):
                q = grams.get(tuple(words[i : i + size]))
                if q is not None and (tokens[i][1], q) not in seen:
                    seen.add((tokens[i][1], q))
                    hits.append((str(path.relative_to(root)), tokens[i][1], q))
    return sorted(set(hits))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("eval_dir", type=Path)
    parser.add_argument("--words", type=int, default=8, help="consecutive words of a question that count as a quote")
    args = parser.parse_args()
    n = len(questions(args.eval_dir))
    if n == 0:
        print(f"no benchmark questions under {args.eval_dir}", file=sys.stderr)
        return 2
    hits = quoted(args.eval_dir, args.words)
    for path, line, q in hits:
        print(f"{path}:{line}: {q}")
    print(f"{len(hits)} quotes of {n} dev questions in {', '.join(SEARCHED)}")
    return 1 if hits else 0


if __name__ == "__main__":
    sys.exit(main())
