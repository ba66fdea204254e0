"""Comparison words: superlatives, comparatives, words of order, and the phrases of a numeric condition.

SUPERLATIVES and COMPARATIVE_AS are the base lists; the narrower sets the planner reads with (the comparatives
of an amount, of a rank, ascending or descending) are derived from them by union and filter.
"""

from __future__ import annotations

# Superlatives: (descending?, column-name words the adjective implies).  Direction is for a
# quantity ("tallest": the most height); a rank column turns "highest" into rank 1 (see _sort_dir).
SUPERLATIVES: dict[str, tuple[bool, tuple[str, ...]]] = {
    "most": (True, ()), "highest": (True, ()), "largest": (True, ("area", "size", "population", "capacity")),
    "biggest": (True, ("size", "area", "capacity", "population")), "greatest": (True, ()),
    "maximum": (True, ()), "max": (True, ()), "top": (True, ()), "best": (True, ()), "more": (True, ()),
    "tallest": (True, ("height", "elevation", "altitude")), "longest": (True, ("length", "duration", "distance", "time", "km")),
    "heaviest": (True, ("weight",)), "deepest": (True, ("depth",)), "widest": (True, ("width",)),
    "fastest": (False, ("time",)), "slowest": (True, ("time",)), "latest": (True, ("date", "year", "season")),
    "newest": (True, ("date", "year", "season", "built", "opened")), "recent": (True, ("date", "year", "season")),
    "oldest": (False, ("date", "year", "born", "birth", "built", "founded", "established", "opened")),
    "earliest": (False, ("date", "year", "season")), "least": (False, ()), "lowest": (False, ()),
    "smallest": (False, ("area", "size", "population", "capacity")), "fewest": (False, ()), "minimum": (False, ()),
    "min": (False, ()), "shortest": (False, ("length", "duration", "distance", "time", "height")),
    "worst": (False, ()), "weakest": (False, ()), "strongest": (True, ()), "less": (False, ()), "fewer": (False, ()), "youngest": (True, ("born", "birth", "date", "year")),
    "lightest": (False, ("weight",)), "busiest": (True, ("passenger", "traffic")),
    "populous": (True, ("population",)), "richest": (True, ("wealth", "worth", "gdp")),
}  # fmt: skip

# "More or less", "older or younger": the comparative words a two-way question offers, each read as the superlative
# that orders a column the same way ("older" as "oldest": the earlier date, or the greater age).
COMPARATIVE_AS = {
    "more": "most", "less": "least", "fewer": "fewest", "higher": "highest", "lower": "lowest", "greater": "greatest",
    "larger": "largest", "bigger": "biggest", "smaller": "smallest", "longer": "longest", "shorter": "shortest",
    "taller": "tallest", "heavier": "heaviest", "lighter": "lightest", "older": "oldest", "younger": "youngest",
    "earlier": "earliest", "later": "latest", "faster": "fastest", "slower": "slowest", "better": "best",
    "worse": "worst",
}  # fmt: skip
# Comparatives of place in a list or in time ("listed above or below", "before or after"): the second is greater.
ORDER_PAIRS = {("above", "below"), ("before", "after"), ("earlier", "later")}
ORDER_WORDS = frozenset(w for p in ORDER_PAIRS for w in p)


def _with_superlatives(comparatives: str) -> frozenset[str]:
    """The comparatives named (space-separated) and the superlative each is read as: "more" -> more, most."""
    return frozenset(w for c in comparatives.split() for w in (c, COMPARATIVE_AS[c]))


# Comparatives of an amount ("more wins"), and the superlatives of an amount (not of a row's own attribute
# such as "tallest" or "oldest").
AMOUNT_COMPARATIVES = frozenset("more less fewer higher lower greater larger bigger smaller".split())
AMOUNT_SUPERLATIVES = frozenset(COMPARATIVE_AS[c] for c in AMOUNT_COMPARATIVES) | {"top"}
# Comparatives read on dates when nothing else is named.
IN_TIME = frozenset("older younger earlier later before after".split())
# Comparatives (and their superlatives) that put the greater value first, and those that put the smaller first.
COMPARATIVES_DESC = _with_superlatives("more higher larger greater bigger better longer taller") | {"heavier", "faster"}
COMPARATIVES_ASC = _with_superlatives("less lower smaller fewer worse shorter") | {"lighter", "slower"}
# Comparatives of a rank or position, where the smaller number is the higher one.
RANKED = _with_superlatives("higher lower better worse")
EARLIER = frozenset("earlier earliest first before sooner older oldest previous".split())
LATER = frozenset("later latest last after newer newest recent".split())

# The phrases of a numeric condition before its number ("more than 5", "at least 3"), longest first.
COMPARATORS: list[tuple[tuple[str, ...], str]] = sorted(
    [
        (("more", "than"), "gt"), (("greater", "than"), "gt"), (("over",), "gt"), (("above",), "gt"),
        (("higher", "than"), "gt"), (("larger", "than"), "gt"), (("bigger", "than"), "gt"),
        (("exceeding",), "gt"), (("exceeded",), "gt"), (("longer", "than"), "gt"), (("taller", "than"), "gt"),
        (("later", "than"), "gt"), (("after",), "gt"), (("in", "excess", "of"), "gt"), (("beyond",), "gt"),
        (("at", "least"), "ge"), (("no", "less", "than"), "ge"), (("not", "less", "than"), "ge"),
        (("no", "fewer", "than"), "ge"), (("minimum", "of"), "ge"), (("since",), "ge"),
        (("less", "than"), "lt"), (("fewer", "than"), "lt"), (("under",), "lt"), (("below",), "lt"),
        (("lower", "than"), "lt"), (("smaller", "than"), "lt"), (("shorter", "than"), "lt"),
        (("earlier", "than"), "lt"), (("before",), "lt"), (("prior", "to"), "lt"),
        (("at", "most"), "le"), (("no", "more", "than"), "le"), (("not", "more", "than"), "le"),
        (("maximum", "of"), "le"), (("up", "to"), "le"), (("no", "later", "than"), "le"),
        (("no", "higher", "than"), "le"), (("or", "less"), "le"), (("no", "earlier", "than"), "ge"),
    ],
    key=lambda c: -len(c[0]),
)  # fmt: skip
# The phrases of a numeric condition after its number ("10 or more", "5 plus").
POST_COMPARATORS = {("or", "more"): "ge", ("or", "greater"): "ge", ("or", "higher"): "ge", ("or", "above"): "ge",
                     ("or", "less"): "le", ("or", "fewer"): "le", ("or", "lower"): "le", ("or", "below"): "le",
                     ("plus",): "ge", ("or", "later"): "ge", ("or", "earlier"): "le"}  # fmt: skip
# Words a figure follows in a limit ("less than 15,000", "over 5%").
LIMIT_WORDS = frozenset("than over under above below exceed exceeds exceeded".split())

# Words asking what part of a total something is ("what percentage of shares", "as a share of total units").
SHARE_WORDS = ("percentage", "percent", "share", "proportion", "fraction")
