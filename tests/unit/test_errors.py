"""core/errors.py's docstring draws the whole error tree: every WorkbenchError subclass, under its base."""

from __future__ import annotations

import re

import core.errors as errors


def test_the_docstring_tree_lists_every_error_under_its_base() -> None:
    doc = errors.__doc__ or ""
    drawn: dict[str, str] = {}
    parents: list[tuple[int, str]] = []
    for line in doc.splitlines():
        m = re.match(r"^( *)(?:[│ ]*[├└]── )?(\w+Error|\w+)\b", line)
        if not m or not line.strip() or not hasattr(errors, m.group(2)):
            continue
        depth = len(line) - len(line.lstrip(" │├└─"))
        while parents and parents[-1][0] >= depth:
            parents.pop()
        drawn[m.group(2)] = parents[-1][1] if parents else ""
        parents.append((depth, m.group(2)))
    classes = {
        name: cls
        for name, cls in vars(errors).items()
        if isinstance(cls, type) and issubclass(cls, errors.WorkbenchError)
    }
    assert set(drawn) == set(classes), f"drawn but missing, or defined but not drawn: {set(drawn) ^ set(classes)}"
    for name, cls in classes.items():
        if cls is not errors.WorkbenchError:
            assert drawn[name] == cls.__bases__[0].__name__, f"{name} is drawn under {drawn[name]}"
