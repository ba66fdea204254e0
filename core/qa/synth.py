"""The synthesizer: an answer from the evidence alone, every claim marked [n], checked, or an abstention."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Protocol

from pydantic import BaseModel, ConfigDict

from core.ingest.filing import parse_period
from core.models import Citation
from core.qa.passage_drivers import Quote, driver_quote, sentences, yes_no
from core.qa.passage_figures import asked_periods, passage_figure, passage_figures, subject
from core.qa.passage_shares import prose_share
from core.qa.passage_spans import passage_span
from core.qa.planner.changes import asks_driver, direction_asked, topic, yes_no_asked
from core.qa.planner.periods import FilingPeriod, PeriodAsked, filings_for, read_period
from core.retrieval.retriever import Evidence
from core.text import MARKER, STOP_WORDS

ABSTAIN = "I don't have enough information in this data room to answer that."
# A passage answers only when it holds at least this share of the question's content words.
# Set with bench/eval_abstention.py on FinanceBench dev together with core.qa.grounding's name check
# (which is what turns away questions about another company): 0.3 -> 13.8% abstentions where the
# answer is, 100% where it is not (BENCHMARKS.md).
MIN_COVERAGE = 0.3
# Passages besides the best one that an offline answer quotes (one sentence each).
SUPPORTING = 2

_STOP = STOP_WORDS | frozenset(
    "whom will would you your about according give me tell please can could should much many any all".split()
)
_TOKEN = re.compile(r"[^\W_]+(?:[.,'][^\W_]+)*", re.UNICODE)
_NUMBER = re.compile(r"(?<![\w.])[-+]?\$?\d[\d,]*(?:\.\d+)?%?")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")


class Answer(BaseModel):
    """The final answer: text with [n] markers, its values, citations in marker order, or an abstention."""

    model_config = ConfigDict(frozen=True)

    text: str
    values: list[str] = []
    abstained: bool = False
    citations: list[Citation] = []
    markers: dict[int, list[int]] = {}  # evidence n -> positions in `citations`
    flagged: list[str] = []  # sentences dropped because the evidence did not support them


def content_words(text: str) -> set[str]:
    """Lower-cased words of `text` that carry meaning (no stop words, no 1-letter tokens)."""
    return {w.lower() for w in _TOKEN.findall(text) if len(w) > 1 and w.lower() not in _STOP}


def coverage(question: str, text: str) -> float:
    """Share of the question's content words found in `text`."""
    wanted = content_words(question)
    return len(wanted & content_words(text)) / len(wanted) if wanted else 0.0


def _numbers(text: str) -> set[str]:
    return {n.replace(",", "").replace("$", "").rstrip("%").lstrip("+") for n in _NUMBER.findall(text)}


def verify(text: str, evidence: Sequence[Evidence]) -> tuple[str, list[str]]:
    """Drop markers that point nowhere and sentences whose numbers the cited evidence lacks.

    Returns the cleaned text and the dropped sentences. A sentence with no valid marker is dropped too:
    every claim must cite.
    """
    by_n = {e.n: e for e in evidence}
    kept: list[str] = []
    dropped: list[str] = []
    for sentence in _SENTENCE.split(text.strip()):
        cited = [int(m) for m in MARKER.findall(sentence) if int(m) in by_n]
        clean = MARKER.sub(lambda m: m.group(0) if int(m.group(1)) in by_n else "", sentence).strip()
        clean = re.sub(r"\s+([.,;])", r"\1", clean)
        if not cited:
            if clean:
                dropped.append(clean)
            continue
        support = " ".join(by_n[n].content + " " + " ".join(c.value or "" for c in by_n[n].citations) for n in cited)
        claimed = _numbers(MARKER.sub("", clean)) - {str(n) for n in cited}
        if claimed - _numbers(support):
            dropped.append(clean)
            continue
        kept.append(clean)
    return " ".join(kept), dropped


def checked_answer(text: str, values: list[str], evidence: Sequence[Evidence]) -> Answer:
    """The Answer of a written text after verify(): its markers mapped to citations, or the abstention."""
    checked, dropped = verify(text, evidence)
    if not checked:
        return Answer(text=ABSTAIN, abstained=True, flagged=dropped)
    citations: list[Citation] = []
    markers: dict[int, list[int]] = {}
    by_n = {e.n: e for e in evidence}
    for n in dict.fromkeys(int(m) for m in MARKER.findall(checked)):
        markers[n] = list(range(len(citations), len(citations) + len(by_n[n].citations)))
        citations.extend(by_n[n].citations)
    return Answer(text=checked, values=values, citations=citations, markers=markers, flagged=dropped)


def _best_sentences(question: str, item: Evidence, limit: int = 2) -> list[str]:
    sentences = [s.strip() for s in _SENTENCE.split(" ".join(item.content.split())) if s.strip()]
    wanted = content_words(question)
    scored = sorted(((len(wanted & content_words(s)), -i, s) for i, s in enumerate(sentences)), reverse=True)
    return [s for overlap, _, s in scored[:limit] if overlap > 0]


def synthesize_offline(question: str, evidence: Sequence[Evidence], period: PeriodAsked | None = None) -> Answer:
    """A deterministic answer: the exact table result when it fits the question, else the best sentences.

    A table result is used unless a passage covers more of the question's words (a plan may pair a
    weak table guess with a search); a passage must cover at least MIN_COVERAGE of them, else abstain.
    The passage covering the question best gives up to two sentences; up to SUPPORTING more passages
    (in retrieval order, other pages, each covering at least MIN_COVERAGE) give one sentence each, so
    the reader sees every place the room discusses it. `period`: the period asked beside the question (`ask
    --period FY2022`), when its words name none.
    """
    passages, labels = one_period(question, [e for e in evidence if e.kind != "table"], period)
    best = max(passages, key=lambda e: coverage(question, e.content), default=None)
    passage_coverage = coverage(question, best.content) if best else 0.0
    # A result whose cells are all empty (blank cells, formulas Excel never calculated) holds no figure
    # to give: it is no answer, however well its description matches.
    tables = [
        e
        for e in evidence
        if e.kind == "table"
        and not e.premise  # a driver question's premise checked: said only with the reason's absence (_read_out)
        and coverage(question, e.description) >= passage_coverage
        and (not e.values or any(v.strip() for v in e.values))
    ]
    parts, values = _table_parts(tables)
    if not tables:
        if best is None:
            return Answer(text=ABSTAIN, abstained=True)
        # a quarter's share of its year reads the quarter's filing and the year's: every period's passages
        everything = [e for e in evidence if e.kind != "table"]
        shared = _share_read(question, everything, {e.n: e.period for e in everything if e.period}, evidence)
        if shared is not None:
            return shared
        if passage_coverage < MIN_COVERAGE:
            # What drove a change, or whether it rose, is read from a sentence naming the line and stating it
            # (the reason's words, "drove", "improve", are the question's, not the passage's): that strict read,
            # or nothing
            read = _read_out(question, best, passages, labels, evidence) if _reads_out(question) else None
            return read if read is not None else Answer(text=ABSTAIN, abstained=True)
        read = _read_out(question, best, passages, labels, evidence)
        return read if read is not None else _passages_answer(question, best, passages, labels, evidence)
    if not parts:
        return Answer(text=ABSTAIN, abstained=True)
    return checked_answer(" ".join(parts), values, evidence)


def _passages_answer(
    question: str, best: Evidence, passages: Sequence[Evidence], labels: dict[int, str], evidence: Sequence[Evidence]
) -> Answer:
    """The passages' answer: the lead the best passage states beyond doubt, then the best passage's best sentences
    and one of each further passage answering, labelled with their period."""
    parts: list[str] = []
    values: list[str] = []
    lead = _figure_of(question, best)
    said: list[str | None] = [None]  # the period label last written: a run of one period's sentences says it once

    def labelled(n: int, text: str) -> str:
        label = labels.get(n)
        if label is None or label == said[0]:
            return text
        said[0] = label
        return f"{label}: {text}"

    if lead is not None:
        parts.append(labelled(best.n, lead[0]))
        values.extend(lead[1])
    used: set[str] = set()
    places = {_place(best)}
    chosen = [(best, 2)]
    for item in passages:
        if len(chosen) > SUPPORTING:
            break
        if _place(item) not in places and coverage(question, item.content) >= MIN_COVERAGE:
            places.add(_place(item))
            chosen.append((item, 1))
    for item, limit in chosen:
        for sentence in _best_sentences(question, item, limit):
            if sentence in used:
                continue
            used.add(sentence)
            body, end = (sentence[:-1], sentence[-1]) if sentence[-1:] in ".!?" else (sentence, ".")
            parts.append(labelled(item.n, f"{body} [{item.n}]{end}"))
    if not parts:
        return Answer(text=ABSTAIN, abstained=True)
    answer = checked_answer(" ".join(parts), values, evidence)
    if values and not all(v in answer.text for v in values):
        # The figure's sentence did not survive the check: no value without the claim that gives it.
        return answer.model_copy(update={"values": []})
    return answer


def _table_parts(tables: Sequence[Evidence]) -> tuple[list[str], list[str]]:
    """The answer's sentences of computed results, each cited, in plain words first (core.retrieval.tables.plain),
    and their values."""
    parts: list[str] = []
    values: list[str] = []
    for table in tables:
        support = _numbers(table.content + " " + " ".join(c.value or "" for c in table.citations))
        # the plain words when every figure they give is the result's (else the description, as computed)
        text = table.lead if table.lead and not _numbers(table.lead) - support else table.description
        sentence = text[:1].upper() + text[1:]
        parts.append(f"{sentence.rstrip('.')} [{table.n}].")
        values.extend(table.values)
    return parts, values


def _share_read(
    question: str, passages: Sequence[Evidence], labels: dict[int, str], evidence: Sequence[Evidence]
) -> Answer | None:
    """The share of a year's amount made in a quarter, from the two sentences stating them
    (core.qa.passage_shares); None when the question asks none or no two sentences state them."""
    found = prose_share(question, passages, labels)
    if found is None:
        return None
    (part_n, part_text), (whole_n, whole_text) = found.part_quote, found.whole_quote
    quotes = f"“{part_text.rstrip('.')}” [{part_n}]. “{whole_text.rstrip('.')}” [{whole_n}]."
    checked = checked_answer(quotes, [], evidence)
    if checked.abstained or checked.flagged:
        return None  # a quote did not survive the check: no figure computed from it
    # the share is computed from the two cited figures (as a measure is from its cells), so it leads unverified
    lead = f"{found.share}% = {found.part.value} / {found.whole.value} (the quarter's over the year's): "
    return checked.model_copy(update={"text": lead + checked.text, "values": [f"{found.share}"]})


def _reads_out(question: str) -> bool:
    """Whether the question asks what drove a change or whether a line rose (answered by `_read_out`)."""
    return asks_driver(question) or yes_no_asked(question) is not None


def _quoted(quote: Quote) -> str:
    """A quote's sentences as the answer writes them, each cited: “Inventories rose 8%” [2]."""
    return " ".join(f"“{s.rstrip('.')}” [{quote.n}]." for s in sentences(quote.text))


def _read_out(
    question: str, best: Evidence, passages: Sequence[Evidence], labels: dict[int, str], evidence: Sequence[Evidence]
) -> Answer | None:
    """A yes/no on a line's change, or what drove it, read from the one sentence of the period's passages that
    states it (core.qa.passage_drivers); a driver question no sentence answers abstains saying so; None for other
    questions, and for a yes/no no sentence states both figures of (the passages are quoted as usual)."""
    ordered = [best, *(p for p in passages if p is not best)]
    found = yes_no(question, ordered)
    if found is not None:
        label = labels.get(found.quote.n)
        moved = "increased" if found.rose else "decreased"
        word = found.word if found.word.lower() == moved else f"{found.word}, it {moved}"
        if found.current is not None and found.prior is not None:
            text = f"{word} — {found.current.text} against {found.prior.text} before: {_quoted(found.quote)}"
        else:  # the move stated in words: the sentence is what the answer stands on
            text = f"{word}, as the filing states: {_quoted(found.quote)}"
        text = f"{label + ': ' if label else ''}{text}"
        return checked_answer(text, [found.word], evidence)
    if not asks_driver(question):
        return None
    quote = driver_quote(question, ordered, _best_sentences(question, best, 2))
    what = topic(question) or "it"
    went, asked_word = ("rose", "fell") if direction_asked(question) == "down" else ("fell", "rose")
    # the line's statement change, when it went the other way than the question says (service._premise)
    premise = next((e for e in evidence if e.premise and e.values[:1] == ["No"] and " — " in e.description), None)
    against = f"{what[:1].upper()}{what[1:]} {went}, not {asked_word}"
    if premise is not None:
        against += f": {premise.description.split(' — ', 1)[1]} [{premise.n}]"
    if quote is not None and quote.contrary and any(e.premise and e.values[:1] == ["Yes"] for e in evidence):
        quote = None  # the sentence says the line went the other way, its statement lines the way asked: no answer
    if quote is None:
        asked = read_period(question)
        where = f" of the {asked.label} filings" if asked is not None and not asked.compares else ""
        if premise is not None:  # the premise is not the filing's: say so, with the line's two cells
            return checked_answer(f"{against}. No passage{where} states what drove it.", [], evidence)
        return Answer(text=f"{ABSTAIN} No passage{where} states what drove {what}.", abstained=True)
    label = ", ".join(filter(None, (labels.get(quote.n), quote.part)))  # "FY2027, Retail Segment"
    lead = f"{quote.span[:1].upper()}{quote.span[1:]}: " if quote.span else ""
    if quote.contrary:  # "What drove the increase" of a line that fell: say so before the filing's reason
        lead = f"{against}. {lead}"
    text = f"{label + ': ' if label else ''}{lead}{_quoted(quote)}"
    text += "".join(f" {_quoted(rest)}" for rest in quote.more)  # a list the passage's chunk cut, read on
    text += "".join(
        f" {other.part + ': ' if other.part else ''}{_quoted(other)}" for other in quote.others
    )  # other parts
    # the reason is the answer's value exactly when the passages' answer gives it as one (no new value from a quote)
    valued = quote.valued and quote.span in _passages_answer(question, best, passages, labels, evidence).values
    answer = checked_answer(text, [quote.span] if valued and quote.span else [], evidence)
    if not all(v in answer.text for v in answer.values):  # the quote did not survive the check whole
        return answer.model_copy(update={"values": []})
    return answer


def _period_key(label: str) -> tuple[int, int]:
    read = parse_period(label) or (0, None)
    return read[0], read[1] or 5  # a whole year after its quarters


def one_period(
    question: str, passages: Sequence[Evidence], beside: PeriodAsked | None = None
) -> tuple[list[Evidence], dict[int, str]]:
    """Passages of one period, never stitched: when they come from filings of several periods, those of the
    period the question asks (core/qa/planner/periods.py), else of the latest period that answers, with the
    label each quoted sentence carries ("FY2022", "Q4 FY2023 (latest)"); a question comparing periods keeps
    them all, each sentence labelled with its period. Passages of documents of no known period stay. `beside`:
    the period asked beside the question (`--period`), read when the question's words name none."""
    dated = {e.period for e in passages if e.period}
    if len(dated) < 2:
        return list(passages), {}
    asked = read_period(question) or beside
    if asked is not None and asked.compares:
        return list(passages), {e.n: e.period for e in passages if e.period}
    kept = list(passages)
    if asked is not None:
        periods = [FilingPeriod(e.n, *(parse_period(e.period) or (None, None))) for e in passages if e.period]
        scope = filings_for(asked, periods)
        if scope is not None and scope.documents:
            kept = [e for e in passages if e.n in scope.documents or not e.period]
    answering = [e for e in kept if e.period and coverage(question, e.content) >= MIN_COVERAGE]
    if not answering:
        return kept, {}
    if asked is not None:  # the best passage of the period asked decides which of its filings speaks; the filing of
        # that very period first (the year's 10-K for "in 2022", before the fourth quarter's release, which reports
        # the year too)
        period = max(answering, key=lambda e: (e.period == asked.label, coverage(question, e.content))).period or ""
        label = period
    else:
        period = max((e.period for e in answering if e.period), key=_period_key)
        label = f"{period} (latest)"
    return [e for e in kept if e.period in (period, None)], {e.n: label for e in kept if e.period == period}


def _figure_of(question: str, best: Evidence) -> tuple[str, list[str]] | None:
    """The answer's lead sentence and its figure when the best passage states the asked figure beyond doubt
    ("The depreciation in 2018: $2.6 million [3].", "$2.6 million"), or the words that answer a reason, date,
    make-up or method question ("Primarily due to interest on investments [2].", core.qa.passage_spans), else
    None (core.qa.passage_figures says when)."""
    for sentence in _best_sentences(question, best, 2):
        several = passage_figures(question, sentence)
        if several is not None:  # one figure per period asked, in the order asked
            periods = asked_periods(question)
            shown = "; ".join(f"{p}: {f.text}" for p, f in zip(periods, several, strict=True))
            return (f"{shown} [{best.n}].", [f.value for f in several])
        figure = passage_figure(question, sentence)
        if figure is None:
            span = passage_span(question, sentence)
            if span is not None:  # a reason, a date, a make-up or a method, in the source's words
                return (f"{span[:1].upper()}{span[1:]} [{best.n}].", [span])
            continue
        lead = subject(question)
        if lead and _numbers(lead) - _numbers(sentence):
            lead = ""
        return (f"{lead}: {figure.text} [{best.n}]." if lead else f"{figure.text} [{best.n}].", [figure.value])
    return None


def _place(item: Evidence) -> tuple[int, int | None, int | None]:
    """Where a passage sits: (document, page, row); passages of one page count once."""
    c = item.citations[0]
    return (c.document_id, c.page, c.row_id)


class Synthesizer(Protocol):
    """Writes the answer from the evidence: yields its text as tokens, then the checked Answer."""

    name: str

    def stream(
        self,
        question: str,
        evidence: Sequence[Evidence],
        *,
        asked: str | None = None,
        period: PeriodAsked | None = None,
    ) -> Iterator[str | Answer]:
        """Tokens (str) as they are written, then one Answer (`asked`: the user's own words, when the
        planner rewrote the question; `period`: the period asked beside the question, `ask --period`)."""
        ...


class OfflineSynthesizer:
    """synthesize_offline behind the Synthesizer interface: the whole answer as one token."""

    name = "offline"

    def stream(
        self,
        question: str,
        evidence: Sequence[Evidence],
        *,
        asked: str | None = None,
        period: PeriodAsked | None = None,
    ) -> Iterator[str | Answer]:
        """The deterministic answer's text as one token, then the Answer."""
        answer = synthesize_offline(question, evidence, period)
        yield answer.text
        yield answer
