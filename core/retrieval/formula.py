"""A measure's formula: parsed once into a small tree, evaluated exactly (Decimal) over its inputs' figures.

Grammar (core.lexicon.measures): names of inputs ("operating cash flow"), numbers ("365"), `+ - * /` (a minus
written between spaces, so "debt-to-equity" stays one name), brackets, and `prior(x)` / `avg(x)` of a name: the
same line's figure in the period before, and the average of the opening (prior) and closing balance.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal

# A reference to one input in one period: its name and whether it is the prior period's figure.
Ref = tuple[str, bool]


class FormulaError(ValueError):
    """A formula that does not parse."""


@dataclass(frozen=True)
class Node:
    """A number (`number`), an input (`name`, `prior`), or an operation (`op` over `left`, `right`)."""

    op: str = ""
    left: Node | None = None
    right: Node | None = None
    name: str = ""
    prior: bool = False
    number: Decimal | None = None


_TOKEN = re.compile(r"\s*(?:(?P<num>\d+(?:\.\d+)?)(?![\w])|(?P<fn>prior|avg)\s*\(|(?P<op>[+*/()]|(?<=\s)-(?=\s)|^-)|"
                    r"(?P<name>[^+*/()]+?)(?=\s+-\s|[+*/()]|$))")  # fmt: skip


def _tokens(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    at = 0
    text = text.strip()
    while at < len(text):
        m = _TOKEN.match(text, at)
        if m is None or m.end() == at:
            raise FormulaError(f"cannot read the formula {text!r} at {text[at:]!r}")
        at = m.end()
        kind = m.lastgroup or ""
        value = m.group(kind).strip()
        if kind == "name" and not value:
            continue
        out.append((kind, value))
    return out


def parse(text: str) -> Node:
    """The tree of a formula; FormulaError when it does not parse."""
    tokens = _tokens(text)
    node, rest = _sum(tokens)
    if rest:
        raise FormulaError(f"cannot read the formula {text!r}: {' '.join(v for _, v in rest)!r} is left over")
    return node


def _sum(tokens: list[tuple[str, str]]) -> tuple[Node, list[tuple[str, str]]]:
    node, rest = _product(tokens)
    while rest and rest[0] in (("op", "+"), ("op", "-")):
        right, after = _product(rest[1:])
        node, rest = Node(op=rest[0][1], left=node, right=right), after
    return node, rest


def _product(tokens: list[tuple[str, str]]) -> tuple[Node, list[tuple[str, str]]]:
    node, rest = _atom(tokens)
    while rest and rest[0] in (("op", "*"), ("op", "/")):
        right, after = _atom(rest[1:])
        node, rest = Node(op=rest[0][1], left=node, right=right), after
    return node, rest


def _atom(tokens: list[tuple[str, str]]) -> tuple[Node, list[tuple[str, str]]]:
    if not tokens:
        raise FormulaError("the formula ends where a figure is expected")
    (kind, value), rest = tokens[0], tokens[1:]
    if kind == "num":
        return Node(number=Decimal(value)), rest
    if kind == "name":
        return Node(name=value.lower()), rest
    if kind == "fn":
        if len(rest) < 2 or rest[0][0] != "name" or rest[1] != ("op", ")"):
            raise FormulaError(f"{value}( takes one input's name")
        name = rest[0][1].lower()
        if value == "prior":
            return Node(name=name, prior=True), rest[2:]
        closing, opening = Node(name=name), Node(name=name, prior=True)
        return Node(op="/", left=Node(op="+", left=closing, right=opening), right=Node(number=Decimal(2))), rest[2:]
    if (kind, value) == ("op", "("):
        node, after = _sum(rest)
        if not after or after[0] != ("op", ")"):
            raise FormulaError("a bracket is not closed")
        return node, after[1:]
    raise FormulaError(f"{value!r} where a figure is expected")


def refs(node: Node) -> list[Ref]:
    """The inputs the formula reads, each once, in order: (name, prior)."""
    if node.op:
        assert node.left is not None and node.right is not None
        return list(dict.fromkeys([*refs(node.left), *refs(node.right)]))
    return [(node.name, node.prior)] if node.name else []


_OPS: dict[str, Callable[[Decimal, Decimal], Decimal]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: a / b,
}


def evaluate(node: Node, values: Mapping[Ref, Decimal]) -> Decimal:
    """The formula's value over the inputs' figures; ZeroDivisionError when a divisor is 0."""
    if node.number is not None:
        return node.number
    if not node.op:
        return values[(node.name, node.prior)]
    assert node.left is not None and node.right is not None
    right = evaluate(node.right, values)
    if node.op == "/" and right == 0:
        raise ZeroDivisionError("a divisor of the formula is 0")
    return _OPS[node.op](evaluate(node.left, values), right)


_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}


def render(node: Node, shown: Mapping[Ref, str]) -> str:
    """The formula written with each input's figure ("2,913 / 3,527"), bracketed where its order needs it."""
    if node.number is not None:
        return format(node.number.normalize(), "f")
    if not node.op:
        return shown[(node.name, node.prior)]
    assert node.left is not None and node.right is not None
    rank = _PRECEDENCE[node.op]
    left, right = render(node.left, shown), render(node.right, shown)
    if node.left.op and _PRECEDENCE[node.left.op] < rank:
        left = f"({left})"
    if node.right.op and (
        _PRECEDENCE[node.right.op] < rank or (_PRECEDENCE[node.right.op] == rank and node.op in "-/")
    ):
        right = f"({right})"
    return f"{left} {node.op} {right}"
