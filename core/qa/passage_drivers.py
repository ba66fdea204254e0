"""Drivers and yes/no answers read from a filing's sentences (the passages of the period asked only).

- **Drivers**: "What drove the rise in freight costs?", "Why did inventories increase?", "What was the decline in
  margin primarily due to?" are answered by the sentence that states it ("Inventories increased 8%, primarily due
  to earlier receipts of holiday goods."), quoted whole. The sentence must name what the question asks about (its
  topic words, or the line's wording in core/lexicon/finance.py), hold a driver's words (core/lexicon/drivers.py)
  and state the line's own move before its reason, of the year asked (not the prior year's discussion); a sentence
  opening on "This"/"The increase" that gives the reason of the sentence before it is quoted with it.
  A sentence of the other direction ("decreased" asked "increase") states no driver of the change asked. None in
  the passages: the caller abstains saying so.
- **Yes/no**: "Did X increase or decrease?", "Is X improving?", "Did X rise in FY2023?" are answered from a
  sentence stating both figures of X ("X was 31.0% compared with 32.5% last year", "X rose to $5.2 million from
  $4.1 million"): the direction is read from the two figures, never from one, and "improving" is answered yes or
  no only for a line whose better direction is known (core/lexicon/drivers.py), else with its direction.

Pure: question and passages in, the chosen sentence out. Examples are invented.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from itertools import pairwise

from core.lexicon.drivers import (
    ADJUSTED_WORDS,
    CAUSE_PHRASES,
    CAUSE_QUALIFIERS,
    COMPONENT_WORDS,
    CURRENT_FIRST,
    FACTORS_THAT,
    OTHER_DRIVER_PHRASES,
    PART_WORDS,
    PRIOR_FIRST,
    WHOLE_COMPANY_HEADINGS,
)
from core.lexicon.finance import EXPENSE_METRICS, EXPENSE_NOUNS, FIGURE_WORDINGS, METRICS
from core.lexicon.periods import INTERIM
from core.lexicon.stop import QUESTION_GLUE
from core.qa.measures import metric_alone
from core.qa.passage_figures import MAX_WORDS, Figure, figures, topic_share
from core.qa.passage_spans import MIN_TOPIC, passage_span
from core.qa.planner.changes import (
    DOWN,
    DOWN_NOUNS,
    PERIOD_WORDS,
    UP,
    UP_NOUNS,
    direction_asked,
    phrases,
    topic,
    yes_no_asked,
)
from core.qa.planner.periods import names_quarter, read_period
from core.retrieval.retriever import Evidence
from core.text import STOP_WORDS

# A sentence ends at its stop before a capital, a figure, a quote, a bracket or a bullet ("… in 2027. • Interest
# expense decreased …": each bullet of a list is its own sentence).
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(•·▪●])|\s+(?=[•·▪●]\s)")
_BULLET = re.compile(r"^[•·▪●]\s*")
# A table's row read into the text: four or more figures in a row ("7 % 7 % 2.5 % (5.8)%"); prose after it is a
# sentence of its own ("… (4.2)% Notable comparable sales changes were as follows: …").
_FIGURE_RUN = re.compile(r"(?:(?<=\s)|^)(?:[($]*\d[\d,.]*\)?\s?%?\)?\s+){3}[($]*\d[\d,.]*\)?\s?%?\)?(?=\s+[A-Z])")
_DRIVER = re.compile(
    rf"\b(?:{phrases(CAUSE_PHRASES)}|{phrases(OTHER_DRIVER_PHRASES)}|{phrases(CAUSE_QUALIFIERS)}|"
    rf"{'|'.join(FACTORS_THAT)})\b",
    re.IGNORECASE,
)
_FACTORS_THAT = re.compile(rf"\b(?:{'|'.join(FACTORS_THAT)})\b", re.IGNORECASE)
# "This was due to …", "The increase was driven by …", "Increases were primarily due to …": the reason of the move the
# sentence before states.
_ANAPHORA = re.compile(
    rf"^\s*(?:this|these|that|it|(?:the|these)\s+(?:{phrases(UP_NOUNS + DOWN_NOUNS)}|changes?|improvements?|variances?)\b|"
    rf"(?:{phrases(UP_NOUNS + DOWN_NOUNS)})\s+(?:was|were)\b)",
    re.IGNORECASE,
)
# "The decrease in the ETR was …": what it names after "in"/"of", up to its verb.
_ANAPHORA_OF = re.compile(r"^\s*(?:in|of)\s+(?:the\s+|our\s+|its\s+)?(?P<what>.+?)\s+(?:was|were|is|are)\b", re.I)
# The first figure's period may stand between the figures: "8.1% in 2023 from 9.4%", "$12 million in fiscal 2022 to".
_ITS_PERIOD = r"(?:(?:in|for|at|during)\s+(?:the\s+)?(?:fiscal\s+|fy\s*)?(?:year\s+|quarter\s+)?[\w-]+\s*,?\s*)?"
_CURRENT_FIRST = re.compile(rf"^[\s,;]*{_ITS_PERIOD}(?:{phrases(CURRENT_FIRST)})\s+(?:the\s+)?$", re.IGNORECASE)
_PRIOR_FIRST = re.compile(rf"^[\s,;]*{_ITS_PERIOD}(?:{phrases(PRIOR_FIRST)})\s+$", re.IGNORECASE)
# How many years from the one asked a sentence's year is still read as the period of its move.
_NEAR_YEARS = 3
# How many sentences back a sentence naming no year takes its year from.
_LOOK_BACK = 3
# A reason's sentence is of the move stated up to this many sentences before it (a detail of the line between).
_REASON_BACK = 2
_ASIDE = re.compile(r"\((?!\s*net\s+of\b)[^)]*\)")
_FIGURE_WORD = re.compile(r"[$€£(]*\d[\d,.]*[)%]*[,;]?|(?:million|billion|thousand)[,;]?", re.IGNORECASE)
# Figures before a verb of change that make the text a table's lines, not a sentence stating a move.
_TABLE_FIGURES = 3
# How near a verb or noun of change the line's name must stand to be what moved: words beyond the name's own.
_NEAR = 4
_EXPENSES = frozenset(METRICS[name] for name in EXPENSE_METRICS)
# A line's share of revenue ("as a percentage of net sales"), which names another line than revenue.
_SHARE_OF = r"\b(?:as\s+a\s+)?(?:percent(?:age)?|%|share)\s+(?:of|to)\s+"  # "as a percent of", "% to"
_SHARE_OF_REVENUE = re.compile(
    _SHARE_OF + r"(?:" + "|".join(re.escape(w) for w in sorted(METRICS["revenue"], key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)
# What a line is net of, in brackets ("Interest expense (net of interest income) decreased"): a deduction from the
# line named before it, not a line of its own.
_NET_OF = re.compile(r"\(\s*net\s+of\b[^)]*\)", re.IGNORECASE)
# A line printed with its counterpart in brackets ("Interest (income) expense", "(Gain) loss on sale"): the net of
# the two, not the line of the word after the bracket.
_COUNTERPART = re.compile(r"\(\s*(?P<inside>income|expense|gains?|loss(?:es)?|benefit|charges?)\s*\)\s*[a-z]+", re.I)
# A line's rate, margin or ratio ("SG&A rate", "gross profit margin"): another quantity than the line itself.
_RATE_WORDS = r"(?:rates?|margins?|ratios?)"
_RATE_OF = re.compile(rf"\b[\w&-]+\s+{_RATE_WORDS}\b", re.IGNORECASE)
_OTHER = re.compile(r"\bother\b", re.IGNORECASE)
_TITLED = re.compile(r"\b[A-Z][a-z]+(?:\s+(?:and\s+|&\s+)?[A-Z][a-z]+)*")  # a name in title case ("Harbor Care")
_OTHER_LINE = re.compile(r"\bother[\s,]+(?:\(\s*\w+\s*\)\s*)?(\w+)", re.IGNORECASE)  # its word after "other"
_ADJUSTED = re.compile(rf"(?<![\w-])(?:{phrases(ADJUSTED_WORDS)})(?![\w-])", re.IGNORECASE)
_SHARE_WORD = re.compile(r"\b(?:percent(?:age)?|share)\b|%", re.IGNORECASE)
# Every wording of every line, lower-cased: the longer names another line's wording may sit in.
_ALL_WORDINGS = frozenset(w.lower() for ws in (*FIGURE_WORDINGS.values(), *METRICS.values()) for w in ws)
_PART = re.compile(rf"\b(?:{phrases(PART_WORDS)})\b", re.IGNORECASE)
_PART_WORDS = frozenset(w.lower() for w in PART_WORDS)
_FROM_BEFORE = re.compile(r"\bfrom\s+(?:approximately\s+|about\s+)?$", re.IGNORECASE)


# A table's row ending its line: two or more figures last ("Operating income as a % of revenue 4.6 % 6.2 %"), the
# next line opening on a capital (prose seldom ends a line on two figures).
_FIGURE = r"(?:\$[ \t\u00a0]?)?[($]*\d[\d,.]*\)?[ \t\u00a0]?%?\)?"
_ROW_END = re.compile(rf"(?:{_FIGURE}[ \t\u00a0]+)+{_FIGURE}[ \t\u00a0]*\n(?=\s*[A-Z•·▪●])")
# Or a short line (a label and one figure: "Comparable sales impact 0.2 %", "Non-comparable sales (1) (0.5)%") before
# a capital or a footnote's "(1)".
_SHORT_ROW_END = re.compile(
    rf"^[ \t\u00a0]*[A-Za-z](?:[^\n\d]|\(\d\)){{0,90}}[ \t\u00a0]{_FIGURE}[ \t\u00a0]*\n(?=\s*(?:[A-Z•·▪●]|\(\d\)))",
    re.MULTILINE,
)


def sentences(text: str) -> list[str]:
    """A passage's sentences, whitespace folded; a bullet, a segment's heading, or a table's row of figures (several
    in a run, or ending its line), ends the sentence before, except the bullets of a reason's list ("… driven by: • lower
    volumes • higher costs"), which are that sentence's, and the rows of a change's components ("The components of
    the 3.1% revenue increase were as follows: Comparable sales impact 2.6 % …", up to its total), which are that
    sentence's too."""
    out: list[str] = []
    listing = False  # the sentence before ends on a reason's colon: its bullets are its list
    rows = False  # the sentence before opens a list of rows ("… as follows:")
    # and a segment's heading on its line ends there ("Retail Business (34% of sales):" opens no sentence's words)
    cuts = sorted({m.end() for ends in (_ROW_END, _SHORT_ROW_END, _SEGMENT_HEADING) for m in ends.finditer(text)})
    for start, end in pairwise([0, *cuts, len(text)]):
        for said in _SENTENCE.split(" ".join(text[start:end].split())):
            for part in _FIGURE_RUN.split(said) if _FIGURE_RUN.search(said) else [said]:
                bullet = _BULLET.match(part.strip())
                if not (part := _BULLET.sub("", part.strip())):
                    continue
                if bullet and listing and out:
                    out[-1] = f"{out[-1]} • {part}"
                    continue
                if rows and out and not bullet and _TABLE_ROW.fullmatch(part):
                    out[-1] = f"{out[-1]} {part}"
                    rows = not _TOTAL_ROW.match(part)
                    continue
                if (heading := _CAPS_HEADING.match(part)) is not None:
                    part = part[heading.end() :]  # a heading in capitals before the sentence is no word of it
                listing = bool(_REASONS_LISTED.search(part) or _BASIS_LISTED.match(part)) or (listing and bool(bullet))
                # (the list's first row may end the sentence that opens it: "… were as follows: Comparable sales 2.6 %")
                follows = _FOLLOWS.search(part)
                after = part[follows.end() :].strip() if follows else ""
                rows = (
                    bool(follows) and (not after or bool(_TABLE_ROW.fullmatch(after))) and not _TOTAL_ROW.match(after)
                )
                out.append(part)
    return out


# A row of a small table listed after such a colon ("Comparable sales impact 2.6 %", "Non-comparable sales (1)
# (0.8)%"), and the total row that ends the list.
_TABLE_ROW = re.compile(r"[A-Z][^.!?:•]{0,90}?\s\(?-?\$?\d[\d,.]*\s?%?\)?\s?%?(?:\s\d{1,3})?")
_TOTAL_ROW = re.compile(r"total\b", re.IGNORECASE)
# A heading printed in capitals before a sentence ("OPERATING EXPENSES AND OTHER COSTS Freight
# expense increased …", "REVENUES Subscription revenues increased …"): two words or more, or one of six letters or more.
_CAPS_HEADING = re.compile(r"^(?:(?:[A-Z][A-Z&'’,-]+\s+){2,12}|[A-Z][A-Z&'’-]{5,}\s+)(?=[A-Z][a-z])")
_FOLLOWS = re.compile(r"\bas\s+follows\s*:", re.IGNORECASE)
# A sentence ending on a reason's colon, its reasons in the bullets after it ("… increased, driven by:").
_REASONS_LISTED = re.compile(
    rf"\b(?:{phrases(CAUSE_PHRASES)}|{phrases(OTHER_DRIVER_PHRASES)}|following)\s*:$", re.IGNORECASE
)

# A sentence opening the details of a move on one basis, its bullets after it ("On an organic local-currency sales
# basis: • Sales grew in marine and rail. • Sales declined in …"): the bullets are its list.
_BASIS_LISTED = re.compile(r"on\s+an?\s+[\w\s,-]{0,60}?\bbasis\s*:", re.IGNORECASE)


# A segment's heading alone on its line ("Domestic Segment"): the discussion under it is that segment's, up to a
# heading of the whole company's (`WHOLE_COMPANY_HEADINGS`).
# Or "Garden and Outdoor Business (27% of consolidated sales):", a business's heading with its share of sales.
_SEGMENT_HEADING = re.compile(
    r"^[ \t]*(?P<name>(?:(?:[A-Z][\w&'.-]*|and|&)[ \t]+){1,5}(?:Segment|Business))[ \t]*(?:\([^()\n]*\))?:?[ \t]*$",
    re.MULTILINE,
)
_WHOLE_HEADING = re.compile(
    rf"^[ \t]*(?:[A-Z][\w-]*[ \t]+){{0,2}}(?:{'|'.join(WHOLE_COMPANY_HEADINGS)})\b[^\n]{{0,80}}$", re.MULTILINE
)


def section(text: str) -> str:
    """The segment whose part of a filing's discussion `text` (the filing's text up to a passage) ends in: its last
    segment heading ("Domestic Segment"), unless a heading of the whole company's follows it; else ""."""
    last = next(reversed([*_SEGMENT_HEADING.finditer(text)]), None)
    if last is None or _WHOLE_HEADING.search(text, last.end()):
        return ""
    return " ".join(last.group("name").split())


def line_of(subject: str) -> str:
    """The line asked of a part of the company ("gross profit rate" of "Retail segment gross profit rate"), else
    the subject."""
    part = _PART.search(subject)
    return (subject[part.end() :].strip() if part else "") or subject


def names(subject: str, sentence: str) -> bool:
    """Whether `sentence` names `subject`: most of its words, or one of its line's other wordings."""
    if not subject:
        return False
    if (other := _OTHER_LINE.search(subject)) is not None:
        # "other income" is named only with its "other" (interest income is not it), and with its own next word:
        # "other corporate expense" or "other comprehensive income" is another residual line
        # (nor "salaries and other expenses", a line joined with another, when "other expenses" is asked alone)
        joined = "" if other.start() else r"(?<!and )(?<!& )"
        said = rf"{joined}\bother[\s,]+(?:\(\s*\w+\s*\)\s*)?{re.escape(other.group(1)[:5])}"
        if not re.search(said, sentence, re.IGNORECASE):
            return False
    elif _OTHER.search(subject) and not _OTHER.search(sentence):
        return False
    if not _SHARE_WORD.search(subject):  # "SG&A as a percentage of revenue" does not name revenue
        sentence = _SHARE_OF_REVENUE.sub(" ", sentence)
    if not re.search(r"\bnet\s+of\b", subject, re.IGNORECASE):
        sentence = _NET_OF.sub(" ", sentence)
    # "Interest (income) expense" is the net of both, no interest expense: the bracket and the word after it go
    sentence = _COUNTERPART.sub(lambda m: m.group(0) if m.group("inside").lower() in subject.lower() else " ", sentence)
    if not re.search(rf"\b{_RATE_WORDS}\b", subject, re.IGNORECASE):  # "SG&A" asked: "SG&A rate" is no SG&A
        sentence = _RATE_OF.sub(" ", sentence)
    part = _PART.search(subject)
    if part and (line := line_of(subject)) != subject and not names(line, sentence):
        return False  # "Consumer segment sales" asked: the segment's "income before tax" is named, not its sales
    if part and not all(re.search(rf"\b{re.escape(w)}\b", sentence, re.I) for w in subject[: part.start()].split()):
        return False  # "Retail segment" asked: the Wholesale segment's sales are not named
    # (its part's word is no word the sentence must repeat: "segment" asked, "Business" printed in the heading)
    if topic_share(_PART.sub(" ", subject) if part else subject, sentence) >= MIN_TOPIC:
        return True
    low, said = f" {subject.lower()} ", sentence.lower()
    for wordings in (*FIGURE_WORDINGS.values(), *METRICS.values()):
        asked = [w for w in wordings if f" {w.lower()} " in low]
        if not asked:
            continue
        rest = low.replace(f" {max(asked, key=len).lower()} ", " ")
        # "SG&A expenses" asked, "SG&A was impacted by …" written: the noun says what SG&A is, no other quantity
        of_kind = wordings in _EXPENSES and set(rest.split()) <= EXPENSE_NOUNS
        if any(re.search(rf"\b{re.escape(w.lower())}\b", _others_out(said, w, wordings)) for w in wordings):
            if not rest.strip() or of_kind or topic_share(rest, sentence) >= MIN_TOPIC:
                return True
    return False


def _others_out(said: str, wording: str, wordings: tuple[str, ...]) -> str:
    """`said` (lower-cased) less the names of other lines that hold `wording` ("cost of sales" holds "sales") and
    the shares of it ("measured as a percent of sales"): what is left names the line itself, if anything."""
    for pattern in _other_names(wording.lower(), wordings):
        said = pattern.sub(" ", said)
    return said


@lru_cache(maxsize=1024)
def _other_names(wording: str, wordings: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
    """The patterns _others_out removes for `wording` of the line worded `wordings`, the longest first."""
    w = re.escape(wording)
    own = {x.lower() for x in wordings}
    longer = sorted((o for o in _ALL_WORDINGS if o not in own and re.search(rf"\b{w}\b", o)), key=len, reverse=True)
    share = re.compile(rf"{_SHARE_OF}{w}\b")
    return (share, *(re.compile(rf"\b{re.escape(o)}\b") for o in longer))


@dataclass(frozen=True)
class Quote:
    """The sentence(s) a driver or yes/no answer quotes, from passage `n`, and what it reads of them."""

    n: int
    text: str
    span: str | None = None  # the reason, in the source's words ("primarily due to higher freight costs")
    # the span is the answer's value: read from the best passage's best sentence for the question as asked (a span
    # read elsewhere leads the answer's words, but a reason's value is given only as surely as before)
    valued: bool = False
    # the line moved the other way than the question says ("What drove the increase" of a line that fell): the
    # sentence stating that move, and the answer says the question's premise is not what the filing states
    contrary: bool = False
    part: str = ""  # the segment whose discussion the sentence sits in ("Domestic Segment"), when it names none
    others: tuple[Quote, ...] = ()  # the company's move asked, stated only per segment: the other segments' quotes
    named: str = ""  # the part the sentence names by its own words before the line ("consumer health"), as a key
    more: tuple[Quote, ...] = ()  # the rest of its last sentence, from the passage after it when the chunk cut it


def _section_at(item: Evidence, sentence: str) -> str:
    """The segment whose discussion a sentence of `item` sits in: a heading in the passage before it, else the
    passage's own section (`Evidence.section`)."""
    # up to the sentence's end: a heading printed before its prose runs into it ("Consolidated Results Income tax
    # expense decreased …")
    at = re.search(r"\s+".join(map(re.escape, sentence.split()[-6:])), item.content)
    head = item.content[: at.end()] if at else ""
    if _SEGMENT_HEADING.search(head) or _WHOLE_HEADING.search(head):
        return section(head)
    return item.section


def _anaphora(sentence: str, before: str) -> bool:
    """Whether `sentence` gives the reason of the move the sentence before states: "This was due to …", "The
    decrease in the ETR was …" after the ETR's move; not "The decrease in revenue was …" after another line's."""
    opening = _ANAPHORA.match(sentence)
    if opening is None:
        return False
    named = _ANAPHORA_OF.match(sentence[opening.end() :])
    return named is None or named.group("what").lower() in before.lower()


def _as_part(subject: str, passages: Sequence[Evidence]) -> str:
    """A segment asked by its name alone ("Retail revenue" of a filing whose discussion has a "Retail Segment"
    heading): the part's line, as if asked "Retail segment revenue" (the heading's own word: "Retail business"), so
    that only that segment's sentences answer."""
    if _PART.search(subject):
        return subject
    headings = (
        h for e in passages for h in (e.section, *(m.group("name") for m in _SEGMENT_HEADING.finditer(e.content)))
    )
    for heading in dict.fromkeys(h for h in headings if h):
        # without its "Segment", and its "and" optional (a question's topic drops it: "Home Goods" of "Home and Goods")
        name = r"\s+(?:(?:and|&)\s+)?".join(re.escape(w) for w in heading.split()[:-1] if w.lower() not in ("and", "&"))
        named = re.match(rf"({name})(?:'s)?\s+", subject, re.IGNORECASE)
        if named and subject[named.end() :].strip():
            return f"{named.group(1)} {heading.split()[-1].lower()} {subject[named.end() :]}"
    return subject


# A move restated without one of its components: "Excluding the impact of foreign currency exchange rate
# fluctuations, the decrease in SG&A was $12 million" (the rest of the move stated before was the currency's).
_EXCLUDING = re.compile(r"\s*excluding\s+(?:the\s+)?(?:impacts?|effects?)\s+of\s+([^,]{3,80}),", re.IGNORECASE)


def _decomposes(sentence: str) -> bool:
    """Whether the sentence splits a move into its components by percentages ("Organic local-currency sales
    increased 2.6 percent, and foreign currency translation increased sales by 0.3 percent"): two of the words of a
    change's components (`COMPONENT_WORDS`), the first opening it, and two percentages; or restates the move without
    one of them (`_EXCLUDING`). It states why the line moved, after the sentence stating the move."""
    if (excluding := _EXCLUDING.match(sentence)) is not None:  # "Excluding the impact of currency, the decrease was $9"
        return bool(set(re.findall(r"[a-z]+", excluding.group(1).lower())) & COMPONENT_WORDS) and bool(
            figures(sentence[excluding.end() :])
        )
    said = re.findall(r"[a-z]+", sentence.lower())
    opens = next((w for w in said if w not in ("the", "our", "its")), "")  # "Organic …", not "Electronics-related …"
    words = {w for w in said if w in COMPONENT_WORDS}
    percents = [f for f in figures(sentence) if f.kind == "percent"]
    return opens in COMPONENT_WORDS and len(words) >= 2 and len(percents) >= 2


def _moved_before(subject: str, part: str, said: Sequence[str], i: int) -> str:
    """The sentence just before sentence `i` that states the line's move, or the one before it when the sentence
    between is a detail of the same line ("Sales in Harbor were down 3.9 percent. On an organic basis: • Sales
    increased in marine and decreased in rail. • Growth was held back by …"); "" when none, or when the sentence
    between moves another line ("Revenue fell 3%. Operating income rose 5%. The increase was due to …")."""
    line = line_of(subject)
    for j in range(i - 1, max(i - _REASON_BACK, 0) - 1, -1):
        # (the part's name may stand between: "Sales in Harbor and Rail were down 2.6 percent")
        if names(subject, _in_part(part, said[j])) and (_moves(line, said[j]) or _moves(subject, said[j])):
            return said[j]
        metric = line.split()[-1] if line.split() else line  # "sales" of "Harbor sales"
        if (UP.search(said[j]) or DOWN.search(said[j])) and not re.search(rf"\b{re.escape(metric)}\b", said[j], re.I):
            return ""
    return ""


def _in_part(part: str, sentence: str) -> str:
    """A sentence as read under its segment's heading: "Domestic Segment: Our revenue decreased …"."""
    return f"{part}: {sentence}" if part else sentence


def _years_asked(question: str) -> tuple[int, ...]:
    """The year(s) of the one period a question asks about (none when it names none, or compares periods)."""
    asked = read_period(question)
    return asked.years if asked is not None and not asked.compares else ()


def _of_another_year(asked: tuple[int, ...], said: Sequence[str], i: int) -> bool:
    """Whether sentence `i` of `said` states a move of another year than those asked: it names a year near them (a
    10-K discusses the prior year's change too: "SG&A increased in fiscal 2018 due to …" in the fiscal 2019 filing)
    and none of them; a sentence naming none is of the year the nearest sentence before it names ("… decreased to
    20.6% in fiscal 2018 from 21.9% in fiscal 2017. The increase in SG&A was driven by …"). Years far off (a
    founding year, a note's maturity) say nothing of the move's period."""
    for j in range(i, max(i - _LOOK_BACK, 0) - 1, -1):
        # the year of what the move is compared with is not the move's ("… $4,900 million compared with $4,700
        # million in fiscal 2026")
        read = read_period(_COMPARED_TO.split(said[j])[0])
        near = [y for y in (read.years if read else ()) if any(abs(y - a) <= _NEAR_YEARS for a in asked)]
        if near:
            return not set(near) & set(asked)
    return False


def _against(question: str, sentence: str) -> bool:
    """The sentence states a change only of the other direction than the one asked."""
    asked = direction_asked(question)
    up, down = bool(UP.search(sentence)), bool(DOWN.search(sentence))
    return (asked == "up" and down and not up) or (asked == "down" and up and not down)


def driver_quote(question: str, passages: Sequence[Evidence], first: Sequence[str] = ()) -> Quote | None:
    """The sentence of `passages` that states what drove the change asked (see the module); `first`: the best
    passage's best sentences, preferred when one gives the reason in so many words."""
    best = passages[0] if passages else None
    years = _years_asked(question)
    subject = _as_part(topic(question), passages)
    # the company's move asked: a sentence of one part of it only if none else
    whole = not _PART.search(f"{question} {subject}")
    for sentence in first:
        span = passage_span(question, sentence)
        if best is None or span is None or (years and _of_another_year(years, [sentence], 0)):
            continue
        if whole and _PART.search(sentence):
            continue  # a part's move ("Business segment operating income margins decreased …"): judged below
        if _moves(subject, sentence) and not _against(question, sentence):  # its own move, as the others below
            return Quote(best.n, sentence, span, valued=True)
    undated = PERIOD_WORDS.sub(" ", question)  # the period is the scope's: no word the reason must repeat
    asked_way = direction_asked(question)
    # (states the line's move, (as printed, the company's, share of the question's words, -order), the quote)
    found: list[_Found] = []
    contrary: list[_Found] = []
    for order, item in enumerate(passages):
        said = sentences(item.content)
        for i, sentence in enumerate(said):
            # a sentence splitting a move into its components states why only after the sentence stating the move
            causes = bool(_DRIVER.search(sentence) or _made_move(line_of(subject), sentence))
            if not (causes or _decomposes(sentence)) or len(sentence.split()) > MAX_WORDS:
                continue
            # under a segment's heading, a sentence naming no part is that segment's ("Our revenue decreased …")
            part = "" if _named_part(sentence) else _section_at(item, sentence)
            if not whole and _sub_part(sentence) and not _BASIS_LISTED.match(sentence):
                continue  # under the segment's heading, a part of it ("sales rose in the marine-related businesses"),
                # but for the bullets detailing the segment's move, quoted with it
            if part and (titled := _TITLED.search(subject)) and subject[titled.end() :].strip():
                if titled.group(0) not in f"{part} {sentence}":  # a name before the line, not the line ("Net Sales")
                    continue  # "Harbor Care sales" asked: a sentence under the Consumer heading that says "harbor"
            quoted = _with_its_move(subject, part, said, i, causes=causes, whole=whole)
            if quoted is None:
                continue
            if years and _of_another_year(years, said, i):
                continue
            labelled = _LABEL.match(quoted)
            if labelled and not _label_words(labelled.group(1)) & _label_words(subject):
                continue  # a category's bullet ("Services: The 11.6% comparable sales decline was …"), not the line's
            read = _in_part(part, quoted)
            # the move the sentence states of the line, else its words of change, against the one asked
            went = _move(subject, quoted)  # the part's name first: "Sales in Harbor and Rail were down …"
            went = _move(line_of(subject), quoted) if went is None else went
            against = (
                _against(question, quoted) if went is None else asked_way is not None and went != (asked_way == "up")
            )
            share = topic_share(subject, read)
            cause = _DRIVER.search(read)
            head = read[: cause.start()] if cause else read
            by_name = _named_before(line_of(subject), head, question) if whole else ""
            of_whole = not (whole and (_PART.search(head) or by_name))
            # a non-GAAP or adjusted measure's move ("Our non-GAAP operating income rate decreased") only when no
            # sentence states the line's as printed
            printed = not _ADJUSTED.search(head) or bool(_ADJUSTED.search(subject))
            quote = Quote(item.n, quoted, passage_span(undated, sentence), contrary=against, part=part, named=by_name)
            # under its heading, the part's sentence states the line's own move ("The decrease in revenue …")
            # (its move read above, or its two figures compared: "Sales in Harbor and Rail rose", "… $214 million as
            # compared to $130 million")
            states = went is not None or _compared(line_of(subject), quoted) or _compared(subject, quoted)
            (contrary if against else found).append((states, (printed, of_whole, share, -order), quote))
    chosen = _chosen(found, contrary, whole)
    return chosen if chosen is None else _completed(chosen, passages)


# A heading run into the text after a list (no full stop between): "… in the marine business Warranty
# Reserve Accounting (WRA): In the fiscal year …"; the list ends before it.
_HEADING_IN = re.compile(r"\s(?:[A-Z][\w&'-]*\s+(?:(?:and|of|the|for)\s+)?){1,6}(?:\([^)]{1,12}\)\s*)?:\s")


def _completed(quote: Quote, passages: Sequence[Evidence]) -> Quote:
    """The quote with the rest of its last sentence when the passage's chunk cut it (a lead-in's bullets, a list's
    rows up to its total): read from the passage that continues it on the same page (chunks overlap), cited there."""
    item = next((p for p in passages if p.n == quote.n), None)
    said = sentences(item.content) if item is not None and item.citations else []
    if item is None or not said or not quote.text.endswith(said[-1]):
        return quote
    at = item.citations[0]
    for other in passages:
        to = other.citations[0] if other.citations else None
        if to is None or (to.document_id, to.page) != (at.document_id, at.page):
            continue
        if None in (to.start_char, to.end_char, at.start_char, at.end_char):
            continue
        if not (at.start_char or 0) < (to.start_char or 0) <= (at.end_char or 0) < (to.end_char or 0):
            continue  # not the chunk after it
        whole = next((s for s in sentences(other.content) if s.startswith(said[-1]) and s != said[-1]), None)
        if whole is not None:
            rest = whole[len(said[-1]) :]
            rest = (rest[: heading.start()] if (heading := _HEADING_IN.search(rest)) else rest).strip(" •")
            return replace(quote, more=(*quote.more, Quote(other.n, rest))) if rest else quote
    return quote


def _with_its_move(subject: str, part: str, said: Sequence[str], i: int, *, causes: bool, whole: bool) -> str | None:
    """Sentence `i` of `said` as quoted for the line's move (under `part`'s heading): with the sentence before that
    states the move when it reads the reason of that move ("The decrease in the ETR was primarily due to …"), whether
    or not it names the line again among its reasons, or splits the move into its components (not `causes`), or
    lists where it came from ("On an organic basis: • Sales grew in …"); None when it names the line nowhere, or
    when the company's move is asked (`whole`) and the components are of a part's ("Our Retail segment's SG&A …")."""
    sentence = said[i]
    if not causes:  # the components of the move the sentence just before states (whatever this one names)
        before = _moved_before(subject, part, said, i)
        if not (i and before == said[i - 1]) or (whole and (_PART.search(before) or _named_part(before))):
            return None
        after = said[i + 1] if i + 1 < len(said) and _BASIS_LISTED.match(said[i + 1]) else ""
        return " ".join(filter(None, (before, sentence, after)))  # then where the organic move came from
    if _BASIS_LISTED.match(sentence):  # its bullets' moves are its parts' ("• Sales grew in marine, fell in rail")
        before = _moved_before(subject, part, said, i)
        return " ".join(said[max(j for j in range(i) if said[j] == before) : i + 1]) if before else None
    named = names(subject, _in_part(part, sentence))
    if named and _moves(line_of(subject), sentence):
        return sentence
    before = _moved_before(subject, part, said, i)
    if before and _anaphora(sentence, before):
        return f"{before} {sentence}"
    return sentence if named else None


_Found = tuple[bool, tuple[bool, bool, float, int], Quote]


def _chosen(found: Sequence[_Found], contrary: Sequence[_Found], whole: bool) -> Quote | None:
    """The quote answering, of the sentences read: only a sentence stating the line's own move answers (one naming it
    among the reasons of another's, or in a glossary, does not); the line as printed before an adjusted measure's,
    the company's before a part's, then the most of the question's words, then the first. None of the move asked:
    the company's own move the other way says the question's premise is not the filing's."""
    moved = [f for f in found if f[0]] or [f for f in contrary if f[0] and f[1][1]]
    if not moved:
        return None
    ranked = sorted(moved, key=lambda f: f[1], reverse=True)
    chosen, of_whole = ranked[0][2], ranked[0][1][1]
    if not whole or of_whole:
        return chosen
    if not _part_of(chosen):
        return None  # only a part named by no segment's name states it ("the energy-related businesses")
    # the company's move asked, and only its segments' discussions state it: each segment's sentence (labelled with
    # its heading when it names none), so that no one segment stands for the company
    seen = {_part_of(chosen)}
    others = []
    for *_, quote in ranked[1:]:
        if (key := _part_of(quote)) and key not in seen:
            seen.add(key)
            others.append(quote)
    return replace(chosen, others=tuple(others))


# A sentence led by a label and a colon (a bullet of a list by category: "Computing and Mobile Phones: The …").
_LABEL = re.compile(r"^\s*((?:[A-Z][\w&'-]*,?\s+(?:and\s+)?){0,4}[A-Z][\w&'-]*):\s")
_PART_NAMED = re.compile(rf"((?:[A-Z][\w&'-]*\s+){{1,3}})(?:{phrases(PART_WORDS)})\b")


def _label_words(text: str) -> set[str]:
    return set(re.findall(r"[a-z&]+", text.lower())) - STOP_WORDS


def _part_of(quote: Quote) -> str:
    """The segment a quote is of: its heading's, else the one it names ("Our Retail segment's SG&A …"); "" if none."""
    return _key(quote.part) if quote.part else _named_part(quote.text) or quote.named


def _named_before(line: str, head: str, question: str) -> str:
    """The part whose move `head` states, named by words just before the line's name that the question does not
    hold, as a key: capitalised ("Home Goods worldwide adjusted operational sales increased …", "North Region
    total sales grew …"; two such words, or one that does not open the sentence: "Reported sales" is the line) or
    "other" ("Other provisions for credit losses increased …", the rest of the line); "" when none."""
    words = head.split()
    last = line.split()[-1].lower() if line.split() else ""
    at = next((i for i, w in enumerate(words) if w.lower().strip(",;:") == last), None)
    if at is None:
        return ""
    asked = {w.lower() for w in re.findall(r"[\w&'-]+", question)}
    # the words just before the line's name, back to a small word ("… Consolidated Results The decrease in revenue"
    # names no part: "in" ends them)
    before: list[tuple[int, str]] = []
    for i in range(at - len(line.split()), max(at - len(line.split()) - _NEAR, -1), -1):
        word = words[i].strip(",;:")
        if word.lower() in STOP_WORDS or word.endswith("."):
            break
        before.insert(0, (i, word))
    if "other" not in asked and any(w.lower() == "other" for _, w in before):
        return "other"
    capitals = [
        (i, w)
        for i, w in before
        if w[:1].isupper() and w.lower() not in _WHOLE_WORDS | STOP_WORDS | asked and not _ADJUSTED.fullmatch(w)
    ]
    if len(capitals) >= 2 or any(i > 0 for i, _ in capitals):
        return " ".join(w.lower() for _, w in capitals)
    return ""


def _named_part(text: str) -> str:
    """The segment `text` names by its name ("Our Retail segment's SG&A …"), as a key; "" when it names none
    ("Business segment operating income margins decreased …" names a part by no name)."""
    return next((key for named in _PART_NAMED.finditer(text) if (key := _key(named.group(1)))), "")


_SUB_PART = re.compile(rf"(?<![\w-])([a-z][\w-]*)\s+(?:{phrases(PART_WORDS)})\b")


def _sub_part(sentence: str) -> bool:
    """Whether `sentence` names a part by a word of its own ("the marine-related businesses", "our wireless
    division"), not by a determiner ("our business", "the segment"), nor as the segment itself ("Business segment
    operating income")."""
    return any(m.group(1) not in STOP_WORDS | QUESTION_GLUE | _PART_WORDS for m in _SUB_PART.finditer(sentence))


def _key(name: str) -> str:
    """A segment's name as a key: "Our Domestic" and "Domestic Segment" alike."""
    return " ".join(w for w in name.lower().split() if w not in QUESTION_GLUE and w not in _PART_WORDS)


def _moves(subject: str, sentence: str) -> bool:
    """Whether the sentence says the line itself moved: its name just before a verb of change ("cash flows provided
    by operating activities decreased $1.9 billion, primarily due to …") or just after a noun of change ("The
    decrease in revenue was driven by …"), not a line named among the reasons of another's move ("The decrease in
    cash primarily resulted from cash flow from operations …", "the excess decreased, due to lower forecasted
    revenue growth and higher estimates …"): the move is stated before the sentence's reason begins. Or its two
    figures set against each other before the reason ("Interest income was $214 million as compared to $130 million
    in 2026, primarily due to …")."""
    return _move(subject, sentence) is not None or _compared(subject, sentence)


_COMPARED_TO = re.compile(r"\b(?:as\s+)?compared\s+(?:to|with)\b|\bversus\b|\bvs\.?(?=\s)", re.IGNORECASE)


def _compared(subject: str, sentence: str) -> bool:
    """Whether the line is named, then a figure, then a comparison with another figure, before the reason."""
    cause = _DRIVER.search(sentence)
    head = sentence[: cause.start()] if cause else sentence
    against = _COMPARED_TO.search(head)
    if against is None or not names(subject, head[: against.start()]):
        return False
    kinds = ("money", "percent", "count")
    return any(f.kind in kinds for f in figures(head[: against.start()])) and any(
        f.kind in kinds for f in figures(head[against.end() :])
    )


def _move(subject: str, sentence: str) -> bool | None:
    """The line's own move as `_moves` reads it: True when it rose, False when it fell, None when not stated."""
    near = len(subject.split()) + _NEAR  # a line's name printed longer than asked ("as a percentage of net sales")
    cause = _DRIVER.search(sentence)
    # "The factors that decreased the rate were …": the move is the factors' verb, its reason after it
    reason_at = cause.start() if cause and not _FACTORS_THAT.fullmatch(cause.group(0)) else len(sentence)
    changes = sorted((*UP.finditer(sentence), *DOWN.finditer(sentence)), key=lambda m: m.start())
    listed = _FOLLOWS.search(sentence)
    for change in changes:
        if change.start() > reason_at or (listed and change.start() > listed.end()):
            continue  # a move among the reasons (or the rows of a list of them) is another line's
        if len(figures(sentence[: change.start()])) >= _TABLE_FIGURES:
            continue  # a table's lines read into the text ("Comparable sales 0.3 % … Total revenue decrease")
        if _IN_A_PART.match(sentence, change.end()):
            continue  # a region's or a business's move ("Total sales increased 6 percent in Latin America")
        # an aside in brackets and the figures between the name and the move are no words of the name's distance
        # ("Freight costs (before fuel surcharges) for 2027 came to $640 million, a rise of …")
        before = [w for w in _ASIDE.sub(" ", sentence[: change.start()]).split() if not _FIGURE_WORD.fullmatch(w)]
        before = before[-near:]
        after = sentence[change.end() :].split()[:near]
        said_before, said_after = " ".join(before), " ".join(after[1:])
        # "The decrease in revenue …", or the line as the verb's object: "Tax reform lowered the effective tax rate"
        object_of = bool(after) and after[0].lower() in ("in", "of", "the", "our", "its", "their")
        if (names(subject, said_before) and not _narrower(subject, said_before) and not _of_it(subject, before)) or (
            object_of and names(subject, said_after) and not _narrower(subject, said_after)
        ):
            return bool(UP.fullmatch(change.group(0)))
    return None


# After a verb of change, its figure, then "in" and a name that is no period's: the move of a part so named ("… rose
# 6 percent in Latin America", "… increased 3 percent in Quillon's marine businesses"), not of the whole line.
_IN_A_PART = re.compile(
    r"\s+(?:by\s+)?\$?\d[\d.,]*\s*(?:%|percent|million|billion)?\s+in\s+"
    r"(?!(?i:fiscal|the|fy\d*|q[1-4]|h[12]|first|second|third|fourth|january|february|march|april|may|june|july|"
    r"august|september|october|november|december|u\.s|us|local|constant|dollars?)\b)(?:[A-Z]|\d+[A-Z])[\w&'’-]*"
)


_MADE_BY = re.compile(r"\b(?:\w+ed|rose|fell|grew|cut)\s+(?:the|our|its|their)\s", re.IGNORECASE)


def _made_move(subject: str, sentence: str) -> bool:
    """Whether the sentence names what moved the line as the subject of a verb of change whose object is the line
    ("… incremental tax costs, which increased the 2027 effective tax rate by approximately 1.4%"): a driver stated
    without a word of cause."""
    for made in _MADE_BY.finditer(sentence):
        verb = made.group(0).split()[0]
        if made.start() and (UP.fullmatch(verb) or DOWN.fullmatch(verb) or verb.lower() in _CAUSED_VERBS):
            after = sentence[made.end() :].split()[: len(subject.split()) + _NEAR]
            said = " ".join(after)
            if names(subject, said) and not _narrower(subject, said) and not _of_it(subject, after):
                return True  # not a quantity kept against the line ("the sales tax rate" of sales)
    return False


# Verbs of change a driver's sentence makes the line the object of, beside those of `UP` and `DOWN`.
_CAUSED_VERBS = frozenset({"lowered", "raised", "reduced", "boosted", "cut", "lifted"})


# Nouns of a quantity kept against a line ("the receivables reserve", "loans provision", "its margin"): the line's
# name followed by one names that quantity, not the line.
_OF_A_LINE = frozenset(
    "reserve reserves provision provisions allowance allowances margin margins rate rates ratio ratios write-offs "
    "charge-offs".split()
)


def _of_it(subject: str, words: Sequence[str]) -> bool:
    """Whether, in `words` before a verb of change, the line's name is followed by a noun of a quantity kept against
    it that the question does not ask ("Card Member receivables reserve for credit losses increased": the reserve
    moved, not the receivables)."""
    # (what a line is net of is no word of it: "loans net of reserves" asked, "loans reserve … increased" is the reserve)
    asked = {w[:5] for w in re.findall(r"[a-z&]+", re.split(r"\bnet\s+of\b", subject.lower())[0])}
    at = [i for i, w in enumerate(words) if re.sub(r"[^a-z&]", "", w.lower())[:5] in asked]
    if not at:
        return False
    tail = (re.sub(r"[^a-z-]", "", w.lower()) for w in words[at[-1] + 1 :])
    return any(w in _OF_A_LINE and w[:5] not in asked for w in tail)


# Words before a line's name that leave it the whole line: determiners, words of the whole ("total", "enterprise",
# "worldwide"), of the period, of how it went ("strong", "higher"). Any other lower-case word before it narrows it
# to a part or another line ("profit-share revenue", "services revenue"); a capitalised one names a segment or the
# company, and "segment" or "business" ("Business segment operating income margins") a part: the company's own
# move first (`PART_WORDS`) judges those.
_WHOLE_WORDS = frozenset(
    "the our its their this that these a an total net gross annual quarterly consolidated reported overall group "
    "enterprise worldwide global company companywide company-wide operating fiscal year full-year quarter quarterly "
    "strong weak higher lower record solid organic".split()
)


@lru_cache(maxsize=256)
def _metric_named(subject: str) -> re.Pattern[str] | None:
    """Any wording of the lexicon metric `subject` is alone (the metric with the longest wording it holds); None
    when it is no metric alone."""
    if not metric_alone(subject):
        return None
    wordings = max(
        (ws for ws in METRICS.values() if any(re.search(rf"\b{re.escape(w)}\b", subject, re.IGNORECASE) for w in ws)),
        key=lambda ws: max(len(w) for w in ws),
        default=(),
    )
    pattern = "|".join(re.escape(w) for w in sorted(wordings, key=len, reverse=True))
    return re.compile(rf"\b(?:{pattern})\b", re.IGNORECASE) if pattern else None


def _narrower(subject: str, said: str) -> bool:
    """Whether `said` names the line asked (a lexicon metric alone: "revenue") only narrowed by the word before its
    name ("The fiscal 2026 profit-share revenue decrease …"): a part of it, not the line."""
    named = _metric_named(subject)
    found = list(named.finditer(said)) if named is not None else []
    if not found:
        return False
    before = said[: found[-1].start()].split()
    word = before[-1].strip("\"'“”(") if before else ""
    # a word ending a label or a clause before it ("Year 2027 results: Sales …", "However, sales …") is no modifier
    if not word or word[0].isupper() or word[-1] in ",;:•" or re.search(r"\d|['’]s$", word):
        return False
    return word.lower() not in _WHOLE_WORDS | STOP_WORDS | _PART_WORDS


# -- yes/no ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class YesNo:
    """A yes/no answer's lead word ("Yes", "No", "Increased", "Decreased") and the quote stating both figures."""

    word: str
    quote: Quote
    current: Figure | None  # None (both): the sentence states the move in words only ("Our gross margin rose in …")
    prior: Figure | None
    rose: bool


def _number(figure: Figure) -> Decimal | None:
    digits = re.sub(r"[^\d.]", "", figure.value)
    try:
        value = Decimal(digits)
    except InvalidOperation:
        return None
    return -value if "(" in figure.text or figure.value.startswith("-") else value


def _pair(sentence: str) -> tuple[Figure, Figure] | None:
    """The sentence's current and prior figure of one kind, as its wording sets them against each other."""
    # "from A to B" reads as a range to figures(): here it is the change itself
    found = [f for f in figures(sentence) if f.kind in ("money", "percent", "count")]
    pairs = [(a, b) for a, b in pairwise(found) if a.kind == b.kind]
    read: list[tuple[Figure, Figure]] = []
    for a, b in pairs:
        between = sentence[a.start + len(a.text) : b.start]
        if _CURRENT_FIRST.match(between):
            # "from A to B" is prior first: the word before A says so
            read.append((b, a) if _FROM_BEFORE.search(sentence[: a.start]) else (a, b))
        elif _PRIOR_FIRST.match(between) and _FROM_BEFORE.search(sentence[: a.start]):
            read.append((b, a))  # "from B to A"
    return read[0] if len(read) == 1 else None


def yes_no(question: str, passages: Sequence[Evidence]) -> YesNo | None:
    """The yes/no answer from the first passage sentence naming the line and stating both of its figures."""
    asked = yes_no_asked(question)
    if asked is None:
        return None
    subject = topic(question)
    years = _years_asked(question)
    for item in passages:
        said = sentences(item.content)
        for i, sentence in enumerate(said):
            if len(sentence.split()) > MAX_WORDS or not names(subject, sentence):
                continue
            if years and _of_another_year(years, said, i):
                continue
            pair = _pair(sentence)
            if pair is None:
                continue
            current, prior = (_number(f) for f in pair)
            if current is None or prior is None or current == prior:
                continue
            word = asked.if_up if current > prior else asked.if_down
            return YesNo(word, Quote(item.n, sentence), *pair, rose=current > prior)
    return _stated(question, subject, passages)


def _stated(question: str, subject: str, passages: Sequence[Evidence]) -> YesNo | None:
    """The yes/no from the first sentence stating the line's own move in words, of the period asked ("Our gross
    margin rate increased in the second quarter of fiscal 2027, primarily due to …"): its quarter when one is
    asked, no part of the year when a whole year is; None when the passages state none of one direction."""
    asked = yes_no_asked(question)
    period = read_period(question)
    if asked is None or period is None or period.compares:
        return None  # a move is stated of a period: one must be asked
    for item in passages:
        said = sentences(item.content)
        for i, sentence in enumerate(said):
            if len(sentence.split()) > MAX_WORDS or _of_another_year(period.years, said, i):
                continue
            cause = _DRIVER.search(sentence)
            read = read_period(sentence[: cause.start()] if cause else sentence)
            if read is None or not set(read.years) & set(period.years):
                continue  # the move's period is stated in the sentence itself, not among its reasons ("… were not
                # repeated in 2027" is no year of a move "down 2.0 points" stated of no period)
            if (
                period.quarter is not None
                and read.quarter != period.quarter
                and not names_quarter(sentence, period.quarter)
            ):
                continue
            if period.quarter is None and INTERIM.search(sentence):
                continue  # "in the first six months of fiscal 2027" is no whole year's move
            if _PART.search(sentence) and not _PART.search(question):
                continue  # a segment's move is not the company's
            rose = _move(subject, sentence)
            if rose is not None:
                return YesNo(asked.if_up if rose else asked.if_down, Quote(item.n, sentence), None, None, rose=rose)
    return None
