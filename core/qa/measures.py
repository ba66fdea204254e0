"""Is a measure the question names by a compound, or asks of a name, in the room at all? "Occupancy rate".

core.qa.metrics links the metrics of its lexicon in any of their wordings; most measures analysts ask for are
not in it ("net promoter score", "load factor", "revenue per employee").  Their words are common ("net",
"interest", "margin"), so passages that hold them one by one look like answers: a 10-K that never prints "net
promoter score" still has "net" and "score" on most pages, and "revenue per employee" matched the net sales
line.  So a measure the question names as a compound must be found as that compound: its words in order, at
most two other words between each and within one clause of a passage ("effective income tax rate" holds
"effective tax rate"; "loyalty transactions. Fair value" holds no transaction value), or all of them in one table
row with its column names and title ("Tier 1" in a "Capital ratio" table), or in the label of a cell the plan
reads ("Net Income per Share: Basic", the row a table step picks by name).

The compounds read (each a class, whatever its words):
- a run of the question's content words ending in a measure noun ("ratio", "rate", "margin", "score" …) after
  at least one word that says which, or "X per Y";
- "X count", also printed "number of Xs"; "X value", held when the plan reads a line of X ("plant value": the
  Plant line), so "order value" needs a line of orders;
- a lexicon metric narrowed by words before it ("deferred revenue", "services revenue"), found in any wording of
  the metric, before it or after it with one word between ("revenue from services"); "total", "net", "annual"
  … narrow nothing;
- whatever noun phrase the question asks of a name: "Acme's gross bookings", "the gross bookings of Acme", "the
  gross bookings reported by Acme" (a possessive is followed by a noun phrase, so no verb is read as a measure;
  a noun of parts or kinds, "the components of X", asks what X holds).
Only the asking sentence is read (not "Give a response by relying on …"), names are left to core.qa.grounding
("EUR-CHF", "Swiss Franc" exchange rate), and a measure the lexicon knows ("operating margin", "current
ratio"), or a margin, ratio or rate of a metric it knows ("net profit margin": net income over revenue, both
held), is core.qa.metrics' to link.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from core.db import Database, q, returned
from core.lexicon.finance import EXPENSE_METRICS, EXPENSE_NOUNS
from core.qa.grounding import question_names
from core.qa.metrics import METRICS, anticipated_clauses, beginning, word_stems, written_pattern
from core.text import STOP_WORDS

# Nouns that end a measure's name: what is measured comes before them ("occupancy rate", "load factor").
MEASURE_HEADS = frozenset(
    "ratio ratios rate rates margin margins score scores yield yields spread spreads turnover cycle factor multiple "
    "multiples count counts value values".split()
)
_COUNTS = frozenset(("count", "counts"))
_RATIOS = frozenset("ratio ratios rate rates margin margins yield yields".split())
# A figure of a share or ratio as a table prints it: a percentage, or a number under 100 with decimals ("11.2"; not
# "1,234.5" or "$72"). A POSIX regular expression, for the row checks in core/sql/grounding.sql.
_RATIO_FIGURE = r"%|(^|[^0-9,.])[0-9]{1,2}\.[0-9]+"
_VALUES = frozenset(("value", "values"))
# A measure of a lexicon metric: the metric is what core.qa.metrics links ("net profit margin" of net income).
# (A yield is not among them: "free cash flow yield" is over the share price, which a filing rarely prints.)
_OF_A_METRIC = frozenset("ratio rate margin".split())
# Words that say what the question does with a measure, not which measure it is.
_GLUE = STOP_WORDS | frozenset(
    """
    can could would should will shall may might must me you your we our us they them he she his her
    much many any all some each every both either other than then also just only respective respectively
    change changes changed changing increase increased increases decrease decreased decreases difference
    differences average averages total totals sum
    reported report reports shown show stated state disclosed definition term
    year years fiscal period periods quarter quarters month months ended ending end beginning
    between compared compare versus vs against over during since until after before as
    higher highest lower lowest larger largest smaller smallest greater greatest bigger biggest more most less least
    give tell list name provide calculate compute find explain describe
    drove drive drives driven driving improve improves improving improved affect affects affected impact impacts
    impacted cause caused causes contribute contributed contributes decline declined declining grow grew growing
    rise rose fall fell increasing decreasing expect expected include included includes represent represents
    make made comprise comprised consist consists see saw derive derived calculated computed proposed
    """.split()
)
# Words naming "a quantity of" something when they start a run: "the ratio of A to B", "the share of revenue".
_QUANTITY = frozenset("ratio proportion portion share percentage percent number amount value figure level".split())
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9&'\-]*")
_PERIOD = re.compile(r"^(?:fy|q[1-4]|h[12])?'?\d[\d,.]*%?$|^\d+-?[kq]$", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[?.!])\s+")
_WORD = re.compile(r"[a-z0-9]+")
# Word-distance alternatives tried between consecutive words of a measure: adjacent, or one or two words between.
_GAPS = (1, 2, 3)
# In a phrasing: exactly one word of any kind here ("revenue from services").
_ONE = "_"
_MAX_WORDS = 5


def _asking(question: str) -> str:
    """The sentence that asks (ends in "?"), after any lead-in ending in a colon; else the first sentence."""
    sentences = [s for s in _SENTENCE.split(question.strip()) if s]
    asking = next((s for s in sentences if s.endswith("?")), sentences[0] if sentences else "")
    return asking.rsplit(":", 1)[-1]


@dataclass(frozen=True)
class _Run:
    """A run of content words and where it sits: the tokens of its sentence, its first and last token's index."""

    words: list[str]
    tokens: tuple[str, ...]
    first: int
    last: int


def _spans(question: str) -> tuple[list[_Run], frozenset[str]]:
    """Runs of the asking sentence's content words, lower-cased (names, periods and glue words end a run), and the
    lower-cased words of the names it mentions."""
    sentence = _asking(question)
    for clause in anticipated_clauses(sentence):  # "if EBITDA is not a meaningful measure here …"
        sentence = sentence.replace(clause, " . ")
    named = frozenset(w.lower() for name in question_names(sentence) for w in name.split())
    matches = list(_TOKEN.finditer(sentence))
    tokens = tuple(m.group(0) for m in matches)
    runs: list[_Run] = []
    run: list[str] = []
    first = 0

    def close(last: int) -> None:
        nonlocal run
        if run:
            runs.append(_Run(run, tokens, first, last))
        run = []

    lowered = [_bare(t) for t in tokens]
    for i, match in enumerate(matches):
        raw = match.group(0)
        word = lowered[i]
        gap = sentence[matches[i - 1].end() : match.start()] if i else ""
        if run and gap.strip():  # punctuation between words ends a run ("Freight, handling")
            close(i - 1)
        if run and word.isdigit() and len(word) <= 2:  # "tier 1 capital ratio"
            run.append(word)
            continue
        if run and word == "and" and _joins_and(run, lowered[i + 1 :]):  # "research and development intensity"
            run.append(word)
            continue
        glue = word in _GLUE or _PERIOD.match(word) or len(word) < 2 or word in named
        if glue and word in named and not run and _leads_measure(matches, sentence, i, named):
            glue = False  # "Globex's EBITDAR margin", "the NAV per share of …": an acronym naming the measure
        if glue or (word in _QUANTITY and not run):
            close(i - 1)
            continue
        if not run:
            first = i
        run.append(word)
        if raw.lower() != word:  # a possessive ends a run: "Acme's"
            close(i)
    close(len(matches) - 1)
    return runs, named


# Lexicon wordings holding "and", as (words before it, words after it): "research and development".
_AND_WORDINGS = tuple(
    (words[: words.index("and")], words[words.index("and") + 1 :])
    for words in sorted({tuple(_WORD.findall(w.lower())) for ws in METRICS.values() for w in ws})
    if "and" in words[1:-1]
)
_ACRONYM = re.compile(r"[A-Z][A-Z0-9&\-]*[A-Z0-9]")


def _joins_and(run: Sequence[str], following: Sequence[str]) -> bool:
    """Whether an "and" after `run`, followed by `following` (lower-cased tokens), is inside a lexicon wording
    ("research and development intensity", "general and administrative expense ratio"): one name, not two."""
    return any(
        run[-1] == before[-1] and list(following[: len(after)]) == list(after) for before, after in _AND_WORDINGS
    )


def _leads_measure(matches: Sequence[re.Match[str]], sentence: str, i: int, named: frozenset[str]) -> bool:
    """Whether the name at token `i` is an acronym naming a measure with the content word after it, right after
    "the" or an owner's possessive ("Globex's EBITDAR margin", "the NAV per share of …", "the R&D intensity"):
    no company is named "the X" or "Acme's X"."""
    raw = matches[i].group(0)
    if i == 0 or i + 1 >= len(matches) or _bare(raw) != raw.lower() or not _ACRONYM.fullmatch(raw):
        return False
    before, following = matches[i - 1].group(0), matches[i + 1].group(0)
    owner = before.lower() == "the" or _bare(before) != before.lower()
    word = _bare(following)
    apart = not sentence[matches[i].end() : matches[i + 1].start()].strip()
    content = word not in _GLUE and word not in named and not _PERIOD.match(word) and len(word) > 1
    verb = word.endswith(("ed", "ing"))  # "the ARPU targeted by Norvik" asks what the ARPU is for
    return owner and apart and content and not verb


# Owners that are not names: "the Company's lease obligations" is whichever company the room is about.
_GENERIC_OWNERS = frozenset(
    "company companies group firm entity business corporation organisation organization segment division unit".split()
)
# Words between an owner and its figure that leave the figure as it is: "Acme's total gross bookings".
_OWNER_GAP = frozenset("total average annual overall reported".split())
# A figure named with "the" and bound to a name after it: "the gross bookings of Acme", "… reported by Acme".
_BY_NAME = frozenset(("of", "by"))
_PARTICIPLES = frozenset("reported disclosed recorded posted generated earned".split())
# Prepositions inside a name: "cost of risk", "assets under management", "funds from operations", and "to" in a
# ratio of two figures ("net debt to EBITDA"); the words around one are found exactly one word apart, with the
# preposition as written: see unlinked_measures.
_INNER = frozenset("of on under from to".split())
# Nouns of the parts or kinds of a thing.
_PARTITIVE = frozenset(
    "component components type types kind kinds item items element elements part parts category categories "
    "class classes member members constituent constituents breakdown composition".split()
)
# Nouns of an operation on a figure, not a figure: "Acme's revenue growth" is how revenue changed.
_OPERATIONS = frozenset("growth trend trends performance".split())


def _bare(token: str) -> str:
    """A token lower-cased without its possessive ending."""
    return re.sub(r"(?:'s|')$", "", token.lower())


def _run_on(run: _Run, tokens: list[str], at: dict[int, _Run], joined: set[int]) -> tuple[list[str], int, list[str]]:
    """A name run on through its prepositions ("cost of risk", "return on capital employed"): its words, the
    token where the phrase bound to a name ends, and a figure after "to" asked as well (none: []).  The runs
    taken in are added to `joined`."""
    words, last = list(run.words), run.last
    ends = last  # where the phrase bound to a name ends
    other: list[str] = []  # a figure after "to" that makes no name with the one before: asked as well
    # a name holding a preposition runs on through it: "cost of risk", "return on capital employed"
    while last + 2 < len(tokens) and tokens[last + 1] in _INNER:
        inner, following, gap = tokens[last + 1], at.get(last + 2), []
        if following is None and tokens[last + 2] in _OWNER_GAP and (following := at.get(last + 3)):
            gap = [tokens[last + 2]]  # "return on average equity", "debt to total capital"
        after = [*gap, *following.words] if following else [_bare(tokens[last + 2])]
        if inner == "to":  # "net debt to EBITDA" (a name, an acronym): two figures; "contribution to" is none
            if not (_holds_metric(words, end=True) and _holds_metric(after, start=True)) and after[-1] != "ratio":
                # "net charge-offs to average loans", "contribution to pension plans": each figure on its own
                if following is not None:
                    other, ends = after, following.last
                    joined.add(following.first)
                break
        elif following is None or (inner == "from" and _holds_metric(after)):
            break  # "net cash from operating activities": the lexicon's metric, linked in any of its wordings
        words += [inner, *after]
        if following is None:
            last += 2
            continue
        last = ends = following.last
        joined.add(following.first)
    return words, ends, other


def _widened(run: _Run, tokens: list[str]) -> tuple[int, bool]:
    """Where a phrase starts once the words before it that belong to it are taken in ("the total amount of"),
    and whether they make it a count ("number of")."""
    start, counted = run.first, False
    while start > 0:
        if tokens[start - 1] in _OWNER_GAP:
            start -= 1
        elif start > 1 and tokens[start - 1] == "of" and tokens[start - 2] in _QUANTITY:
            start -= 2  # "Acme's number of employees abroad", "the total amount of unfilled orders of Acme"
            counted = counted or tokens[start] == "number"
        else:
            break
    return start, counted


def _owned(runs: Sequence[_Run], named: frozenset[str]) -> list[list[str]]:
    """Noun phrases the question binds to a name, the figure it asks of that name: "Acme's gross bookings", "the
    fleet size of Delta", "the cost of risk reported by Acme" (operation nouns such as "growth" dropped).  The
    grammar makes them nouns, whatever their words: a verb never follows a possessive. `runs`, `named`: the
    question's, from _spans."""
    owners = named - _GENERIC_OWNERS
    owned = []
    at = {run.first: run for run in runs}
    joined: set[int] = set()
    for run in runs:
        if run.first in joined:
            continue
        tokens = [t.lower() for t in run.tokens]
        words, ends, other = _run_on(run, tokens, at, joined)
        start, counted = _widened(run, tokens)
        before = tokens[start - 1] if start else ""
        possessive = _bare(before) != before and _bare(before) in owners
        after = tokens[ends + 1 : ends + 4]
        if after and after[0] in _PARTICIPLES:
            after = after[1:]
        by_name = before == "the" and len(after) >= 2 and after[0] in _BY_NAME and _bare(after[1]) in owners
        while words and words[0] in _OWNER_GAP:
            words.pop(0)
        while words and words[-1] in _OPERATIONS:
            words.pop()
        # "the components of Corporate Overhead": a noun of parts or kinds asks what the name holds, not a figure
        if words and (possessive or (by_name and not (len(words) == 1 and words[0] in _PARTITIVE))):
            owned.append(["number", "of", *words] if counted else words)  # a count of the things: see _count
            if other and not (len(other) == 1 and other[0] in _PARTITIVE):
                owned.append(other)
    return owned


def _holds_metric(words: Sequence[str], start: bool = False, end: bool = False) -> bool:
    """Whether `words` hold a wording of a lexicon metric ("operating activities"), at their `start` or `end`."""
    n = len(words)
    return any(
        _plain(words[i : i + k]) in _LEXICON
        for k in range(1, n + 1)
        for i in range(n - k + 1)
        if (not start or i == 0) and (not end or i + k == n)
    )


def _measure(run: list[str]) -> list[str] | None:
    """The run up to its last measure noun that has a word before it, or all of it when it says "X per Y"; else
    None."""
    end = None
    for i, word in enumerate(run):
        if word in MEASURE_HEADS and i > 0:
            end = i
        if word == "per" and 0 < i < len(run) - 1:
            end = len(run) - 1  # "earnings per common share", "cost per employee"
    return run[: end + 1] if end is not None else None


def _plain(words: str | Sequence[str]) -> str:
    """Words as the lexicon is compared: lower-cased letters and digits, one space apart ("debt-to-equity" ->
    "debt to equity")."""
    return " ".join(_WORD.findall((words if isinstance(words, str) else " ".join(words)).lower()))


def _same_metric() -> dict[str, frozenset[str]]:
    """Each lexicon wording -> every wording of the metrics it names: "services revenue" is found as "services net
    sales"."""
    same: dict[str, set[str]] = {}
    for wordings in METRICS.values():
        for wording in wordings:
            same.setdefault(_plain(wording), set()).update(_plain(w) for w in wordings)
    return {k: frozenset(v) for k, v in same.items()}


_SAME_METRIC = _same_metric()
_LEXICON = frozenset(_SAME_METRIC)
_NET_OF_TAIL = re.compile(r"\bnet\s+of\b.*$", re.IGNORECASE)  # "… net of interest expense": what it is net of
_LEXICON_WORDS = frozenset(w for wording in _LEXICON for w in wording.split())
# Words before a metric that do not make it another quantity: "total revenue" is revenue, "deferred revenue" is not.
_SAME_QUANTITY = frozenset("total net gross annual quarterly consolidated reported overall group".split())


@dataclass(frozen=True)
class Measure:
    """A measure the question names, and the word sequences that would show the room holds it."""

    name: str
    phrasings: tuple[tuple[str, ...], ...]  # each: words in this order, a few words apart
    rows: tuple[str, ...]  # words one table row would hold (none: no table row shows it)
    # words a cell the plan reads must hold to be this measure: its narrowing words for a lexicon metric
    # ("Work in process" is the work-in-process inventory line), else all of them
    cell: tuple[str, ...]
    # a share or a ratio ("tier 1 capital ratio", "occupancy rate"): a table row shows it with such figures (a
    # percentage, or a number under 100 with decimals), not a row of amounts under a title that says "Ratios"
    ratio: bool = False
    # regular expressions a clause must also match as written: a name's preposition ("funds from operations")
    written: tuple[str, ...] = ()
    # a regular expression a table row (with its head) must match: "per unit" for a cost per unit, not a row of
    # costs in a table of units
    row_text: str = ""
    # a count: a regular expression a passage may match instead, a figure before the things counted ("1,100 stores")
    counted: str = ""


def _of_a_metric(run: list[str]) -> Measure | None:
    """A lexicon metric the question narrows by words before it ("deferred revenue", "services revenue"): the
    narrowed compound, found in any wording of the metric and either order ("revenue from services")."""
    for k in (3, 2, 1):
        tail = _plain(run[-k:])
        if len(run) <= k or tail not in _LEXICON:
            continue
        head = [w for w in run[:-k] if w not in _SAME_QUANTITY]
        if not head or _plain(run) in _LEXICON:
            return None
        modifiers = tuple(_plain(head).split())
        # before the metric a few words apart ("deferred net revenue"), or after it with one word between, a
        # preposition ("revenue from services"): "sales, such as advertising" is no advertising revenue
        phrasings = {
            p for w in sorted(_SAME_METRIC[tail]) for p in ((*modifiers, *w.split()), (*w.split(), _ONE, *modifiers))
        }
        words = (*modifiers, *tail.split())
        return Measure(" ".join(words), tuple(sorted(phrasings)), words, modifiers)
    return None


def measures_asked(question: str) -> list[Measure]:
    """The measures `question` names by a compound the metric lexicon does not know, in question order."""
    found: dict[str, Measure] = {}
    runs, named = _spans(question)
    ending = {r.last: r for r in runs}
    for at in runs:
        _read_run(at, ending, found)
    for phrase in _owned(runs, named):  # a figure the question asks of a name: held as a compound, or not at all
        _read_owned(phrase, found)
    return list(found.values())


def narrowing_words(question: str) -> list[tuple[str, ...]]:
    """For each measure `question` names by narrowing a lexicon metric ("discount revenue", "services net sales"),
    the words that narrow it ("discount"; words of the lexicon's wordings and words that make no other quantity,
    "net", "total", "consolidated", left out): a line answering it must hold them, the whole company's revenue line
    is no discount revenue."""
    narrowing = (
        tuple(w for w in m.cell if w not in _SAME_QUANTITY and w not in _LEXICON_WORDS)
        for m in measures_asked(question)
    )
    return [words for words in narrowing if words]


def metric_alone(label: str) -> bool:
    """Whether a line's label is a lexicon metric and nothing narrower: its words, less what it is net of and words
    that make no other quantity, are one of the metric's wordings ("Total revenues net of interest expense" is
    revenues; "Work in process", "Discount revenue" are narrower)."""
    words = [w for w in _plain(_NET_OF_TAIL.sub(" ", label)).split() if w not in _SAME_QUANTITY]
    return bool(words) and " ".join(words) in _LEXICON


def _read_run(at: _Run, ending: dict[int, _Run], found: dict[str, Measure]) -> None:
    """The measure one run of the question names, added to `found` (first wording kept); `ending`: the
    question's runs by their last token."""
    run = at.words
    measure = _measure(run)
    gap = [at.tokens[at.first - 1].lower()] if at.first and at.tokens[at.first - 1].lower() in _OWNER_GAP else []
    k = at.first - len(gap)  # "debt to total capital ratio"
    a = ending.get(k - 2) if k > 1 and at.tokens[k - 1].lower() == "to" else None
    if a is not None and measure is not None and measure[-1] == "ratio":
        # "debt to capital ratio" is no capital ratio; "debt to equity ratio" is the lexicon's
        if _plain([*a.words, "to", *measure[:-1]]) not in _LEXICON:
            text, exact = _exact([*a.words, "to", *gap, *measure])
            # or a table row of such ratios that says "A to B" ("Net debt to EBITDA 2.1" under "Ratio")
            pair = r"\m" + written_pattern(text.split()[:-1])
            found.setdefault(text, replace(exact, rows=exact.cell, ratio=True, row_text=pair))
        return
    if measure is None:
        narrowed = _of_a_metric(run)
        if narrowed is not None:
            found.setdefault(narrowed.name, narrowed)
        return
    words = tuple(_plain(measure).split())
    text = " ".join(words)
    if text in _LEXICON:
        return
    if measure[-1].rstrip("s") in _OF_A_METRIC and _plain(measure[:-1]) in _LEXICON:
        return  # "net profit margin", "debt-to-equity ratio": the lexicon's metric is what is linked
    if _an_expense(measure):
        return
    rows = tuple(w for w in words if w not in ("per", "and"))
    # "X per Y": a row holding costs and units is no cost per unit, one that says "per unit" (or under a
    # "Per unit" column) is
    row_text = r"\mper\W+" + written_pattern(words[words.index("per") + 1 :]) if "per" in words else ""
    if measure[-1] in _COUNTS:  # "store count" is printed "number of stores"; a row of stores counts them
        found.setdefault(text, _count(text, words[:-1]))
        return
    if measure[-1] in _VALUES:
        # "land value" is the figure of the Land line the plan reads: a row merely holding "transaction"
        # ("Transaction costs") is no line of transactions, so no room-wide row check
        found.setdefault(text, Measure(text, (words,), (), words[:-1]))
        return
    found.setdefault(text, Measure(text, (words,), rows, rows, ratio=measure[-1] in _RATIOS, row_text=row_text))


def _read_owned(phrase: list[str], found: dict[str, Measure]) -> None:
    """The measure a phrase bound to a name names (see _owned), added to `found` (first wording kept)."""
    text = _plain(phrase)
    plain = tuple(text.split())
    if plain[:2] == ("number", "of"):  # "Acme's number of patents": a count of them, however the room prints it
        found.setdefault(text, _count(text, plain[2:]))
        return
    if "from" in plain and _plain(plain[: plain.index("from")]) in _LEXICON:
        # "revenue from services" is the services revenue, printed either way round
        narrowed = _of_a_metric([*plain[plain.index("from") + 1 :], *plain[: plain.index("from")]])
        if narrowed is not None:
            found.setdefault(narrowed.name, narrowed)
        return
    # (a name through a preposition is no narrowed metric: "cost of debt" is not a kind of debt; "return on
    # average equity" is found as such, the lexicon's check reads "return on equity" only)
    compound = _measure(phrase) is not None or _of_a_metric(phrase) is not None  # the runs' loop reads it
    if text in _LEXICON:
        return
    if compound and not _INNER.intersection(plain):
        return
    if (plain[-1] in _OF_A_METRIC and _plain(plain[:-1]) in _LEXICON) or _an_expense(plain):
        return
    # No room-wide row check: a line that prints the phrase is in its page's passages (a sheet's in its row's),
    # and words spread over a row and its table's head are no noun phrase ("Market price per share" in a
    # table of share prices is no market share; "cost" and "funds" in one pension row no cost of funds).
    # "assets under management": one word between, "assets to manage" is another.
    found.setdefault(*_exact(plain))


def _an_expense(words: Sequence[str]) -> bool:
    """Whether `words` name a lexicon metric that is an expense, and a noun that says so ("SG&A expenses", "R&D
    spending"): the lexicon's metric is what is linked, however the room words it ("Selling, general and
    administrative")."""
    return (
        len(words) > 1
        and words[-1].lower() in EXPENSE_NOUNS
        and any(_plain(words[:-1]) in {_plain(w) for w in METRICS[name]} for name in EXPENSE_METRICS)
    )


def _count(text: str, whose: Sequence[str]) -> Measure:
    """A count of the things `whose` words name ("store count", "the number of patents"): printed "number of
    stores" or "store count", or as a figure before them ("1,100 stores", "92,000 full-time employees"), or a
    sheet's rows of them."""
    whose = tuple(whose)
    # the row's column or a cell begins with the things counted ("Store: Downtown", "Number of stores"), not one
    # that mentions them ("Revenue from contracts with customers")
    starts = r"(^|[;:\[\"]\s*)(number\W+of\W+)?" + written_pattern(whose)
    figure = r"\m(?!(19|20)[0-9]{2}\M)[0-9][0-9,.]*\s+([a-z-]+\s+){0,2}" + written_pattern(whose)  # no year
    phrasings = ((*whose, "count"), ("number", "of", *whose))
    return Measure(text, phrasings, whose, whose, row_text=starts, counted=figure)


def _exact(words: Sequence[str]) -> tuple[str, Measure]:
    """A measure found as a noun phrase only, with any preposition of _INNER as written (its name first)."""
    plain = tuple(_plain(words).split())
    text = " ".join(plain)
    joins = _INNER | {"and"}  # "and" inside a lexicon wording: "research and development intensity"
    phrasing = tuple(_ONE if w in joins else w for w in plain)
    content = tuple(w for w in plain if w not in joins)
    written = (written_pattern(plain),) if len(content) < len(plain) else ()
    if len(plain) == 1 and beginning(plain[0]) != plain[0]:
        # a figure of things asked by one plural noun ("Acme's impressions", "bookings") is printed as that plural:
        # the noun in the singular before another ("impression materials", "booking fees") is no such figure
        written = (re.escape(plain[0]) + r"\M",)
    return text, Measure(text, (phrasing,), (), content, written=written)


def asked_measures(question: str) -> list[str]:
    """The names of the measures `question` names by a compound (measures_asked)."""
    return [m.name for m in measures_asked(question)]


def _near(phrasings: Sequence[Sequence[str]]) -> str:
    """A tsquery (to_tsquery text) matching any of `phrasings`, each's words in order with at most two other
    words between each; a phrasing holding _ONE is matched exactly: adjacent words, _ONE one word of any kind."""
    alternatives = []
    for phrasing in phrasings:
        if _ONE in phrasing:
            parts: list[str] = []
            gap = 1
            for word in phrasing:
                if word == _ONE:
                    gap += 1
                    continue
                parts += [f"<{gap}>", word] if parts else [word]
                gap = 1
            alternatives.append(" ".join(parts))
            continue
        words = list(phrasing[:_MAX_WORDS])
        for gaps in itertools.product(_GAPS, repeat=len(words) - 1):
            parts = [words[0]]
            for gap, word in zip(gaps, words[1:], strict=True):
                parts += [f"<{gap}>", word]
            alternatives.append(" ".join(parts))
    return " | ".join(f"({a})" for a in alternatives)


def _as_written(phrasings: Sequence[Sequence[str]]) -> list[str]:
    """The beginnings of the words every phrasing holds, as a clause must show them ("management" for
    "assets under management": "manage" is the same stem but not the word); a plural's "s" is left off."""
    common = set.intersection(*(set(p) - {_ONE} for p in phrasings)) if phrasings else set()
    return [beginning(word) for word in sorted(common - STOP_WORDS)]


def _checks(measure: Measure, room: bool) -> list[tuple[str, dict[str, Any], bool]]:
    """The queries (SQL text) that show `measure` held, with their parameters and whether they test rows: in a
    room (`room`), or in the evidence retrieved (the "texts_holding_" queries, on the passages or the rows the
    caller gives)."""
    row_words = _as_written(measure.phrasings)
    params: dict[str, Any] = {"row_words": row_words, "text": measure.row_text}
    params |= {"words": [*row_words, *measure.written], "figure": _RATIO_FIGURE if measure.ratio else ""}
    clause = {**params, "query": _near(measure.phrasings)}
    checks = [(q("room_has_clause") if room else q("texts_holding_clause"), clause, False)]
    if measure.rows:
        every = {**params, "query": " & ".join(measure.rows)}  # a row says "per segment" by its layout
        if room:
            checks += [(q("room_row_chunk_has_words"), every, True), (q("room_table_row_has_words"), every, True)]
        else:
            checks.append((q("texts_holding_row_words"), every, True))
    if measure.counted:
        phrase = " ".join(measure.rows)
        if room:
            checks.append((q("room_has_written"), {"phrase": phrase, "pattern": measure.counted}, False))
        else:
            checks.append((q("texts_holding_phrases"), {"phrases": [phrase], "patterns": [measure.counted]}, False))
    return checks


def unlinked_measures(db: Database, room_id: int, question: str, cells: Sequence[str] = ()) -> list[str]:
    """The measures `question` names (asked_measures) that the room holds neither as words in order nor in one
    table row (empty: all linked). `cells`: labels of the cells the plan reads ("Net Income per Share: Basic",
    a line with its section's heading); a measure all of whose words one of them holds is linked to it."""
    asked = [
        m for m in measures_asked(question) if not any(word_stems(" ".join(m.cell)) <= word_stems(c) for c in cells)
    ]
    if not asked:
        return []
    with db.connection() as conn:
        return [
            measure.name
            for measure in asked
            if not any(
                returned(conn.execute(sql, {"room_id": room_id, **params}))[0]
                for sql, params, _ in _checks(measure, room=True)
            )
        ]


def measures_held(
    db: Database, question: str, passages: Sequence[str | None], rows: Sequence[str | None]
) -> dict[str, set[int]]:
    """Each measure `question` names -> the positions (from 0) of the evidence that holds it, by the tests of
    unlinked_measures: in a clause of a passage, or as a sheet row with its column names.  `passages` and `rows`
    are the evidence's texts in order, None where a piece is of the other kind.  A room that prints "cost of
    funding" in a risk factor links "cost of funds", and the pension passages retrieved for "Acme's average cost of
    funds" are no answer to it."""
    held: dict[str, set[int]] = {}
    with db.connection() as conn:
        for measure in measures_asked(question):
            found: set[int] = set()
            for sql, params, of_rows in _checks(measure, room=False):
                texts = list(rows if of_rows else passages)
                found |= {i - 1 for i in returned(conn.execute(sql, {**params, "texts": texts}))[0]}
            held[measure.name] = found
    return held


def measure_queries(db: Database, question: str) -> dict[str, str]:
    """Each measure `question` names -> a tsquery's text matching its words in order (as a clause must show them),
    or all of its row words (a sheet row, a count's "1,250 patents"): what a search for passages naming it must
    match."""
    queries: dict[str, str] = {}
    with db.connection() as conn:
        for m in measures_asked(question):
            query = _near(m.phrasings) + (" | (" + " & ".join(m.rows) + ")" if m.rows else "")
            queries[m.name] = returned(conn.execute(q("query_text"), {"query": query}))[0] or ""
    return queries
