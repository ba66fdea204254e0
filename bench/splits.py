"""The per-class table the generated benches print (bench.analyst_workbooks, bench.filing_rooms): right / wrong /
abstained of each class in its DESIGN part and its UNSEEN part."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

Tally = dict[tuple[str, str], Counter]


def count(tally: Tally, klass: str, split: str, counts: Counter) -> None:
    """Add one question's counts to its class and to "all", in its split and in both."""
    for key in ((klass, split), ("all", split), (klass, "both"), ("all", "both")):
        tally[key].update(counts)


def shown(verbose: bool, seed: int, default_seed: int, split: str, outcome: str) -> bool:
    """Whether a question's miss is printed: with --verbose, of the default seed's DESIGN part only (the unseen
    part and other seeds are read as totals)."""
    return verbose and seed == default_seed and split == "design" and outcome != "right"


def print_classes(
    title: str, tally: Tally, asked: Iterable[str], width: int
) -> tuple[dict[str, dict[str, int]], list[str]]:
    """Print the title, then one line per class asked (in order, then "all"): design and unseen
    right/wrong/abstained; return them by "class|split" for the JSON line, and the classes."""
    classes = [*dict.fromkeys(asked), "all"]
    print(title)
    print(f"  {'class':<{width}} {'design r/w/a':>{width // 2 + 1}} {'unseen r/w/a':>{width // 2 + 1}}")
    summary = {}
    for klass in classes:
        cells = []
        for split in ("design", "unseen"):
            counts = tally[(klass, split)]
            cells.append(f"{counts['right']}/{counts['wrong']}/{counts['abstained']}")
            summary[f"{klass}|{split}"] = dict(counts)
        print(f"  {klass:<{width}} {cells[0]:>{width // 2 + 1}} {cells[1]:>{width // 2 + 1}}")
    return summary, classes
