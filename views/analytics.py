"""Analytics page: what was asked, how often the workbench abstained, how fast it answered, what users thought."""

from datetime import UTC, datetime, time, timedelta

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from core.errors import WorkbenchError
from core.workbench import Day, escape_markdown, neutralise_bidi
from views._shared.common import PAGES, page_room

wb, room = page_room("Analytics")

ids = {r.name: r.id for r in wb.rooms()}
filters = st.columns([2, 1, 1])
# Keyed by the sidebar's room, so picking another room there starts the filter from that room.
chosen = filters[0].multiselect(
    "Data rooms",
    list(ids),
    default=[room] if room in ids else [],
    key=f"analytics_rooms_{room}",
    placeholder="Pick one or more rooms",
    format_func=neutralise_bidi,
)
room_ids = [ids[name] for name in chosen]
logged = wb.analytics_span(room_ids)
if not room_ids:
    st.info("Pick at least one data room.")
    st.stop()
if logged.questions == 0 or logged.first_day is None or logged.last_day is None:
    st.info(
        f"No questions logged yet in {escape_markdown(', '.join(chosen))}. Ask questions on the Chat page; they appear here."
    )
    st.page_link(PAGES["chat"][0], label="Go to the Chat page")
    st.stop()

today = datetime.now(UTC).date()
end_default = max(today, logged.last_day)
# The last 30 days of activity, and at least two weeks so a day reads against the days around it.
start_default = min(max(logged.first_day, logged.last_day - timedelta(days=29)), end_default - timedelta(days=13))
picked = filters[1].date_input(
    "Dates (UTC days, both ends included)", value=(start_default, end_default), key=f"analytics_dates_{room}"
)
if not isinstance(picked, tuple) or len(picked) != 2:
    st.info("Pick the last day of the range too.")
    st.stop()
start, end = picked

SOURCE_NAMES = {"page": "the app's pages", "cli": "the command line"}
sources = filters[2].multiselect(
    "Asked from", list(SOURCE_NAMES), default=list(SOURCE_NAMES), format_func=SOURCE_NAMES.get,
    key="analytics_sources", placeholder="Pick the app, the command line or both",
)  # fmt: skip
if not sources:
    st.info("Pick where the questions were asked: the app's pages, the command line, or both.")
    st.stop()

try:
    result = wb.analytics_report(room_ids, start, end, sources=tuple(sources))
except WorkbenchError as exc:
    st.error(escape_markdown(str(exc)))
    st.stop()

totals = result.totals
if totals.questions == 0:
    st.info(
        f"No questions between {start} and {end}. These rooms logged {logged.questions} from "
        f"{logged.first_day} to {logged.last_day}: widen the dates."
    )
    st.stop()


def _ms(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:.0f} ms" if value < 1000 else f"{value / 1000:.2f} s"


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


cols = st.columns(5)
cols[0].metric("Questions", f"{totals.questions:,}")
cols[1].metric(
    "Abstention rate",
    _pct(totals.abstention_rate),
    help=f"{totals.abstained} of {totals.questions} questions answered with “not enough information”",
)
cols[2].metric(
    "Latency p50",
    _ms(totals.total_p50),
    help=f"Median time the user waited for a complete answer (on a page: from sending the question to the last "
    f"word drawn; from the command line: the service's time); first token after {_ms(totals.first_token_p50)}",
)
cols[3].metric(
    "Latency p95",
    _ms(totals.total_p95),
    help=f"95th percentile of the time the user waited for a complete answer; first token after "
    f"{_ms(totals.first_token_p95)}",
)
cols[4].metric(
    "Helpful",
    _pct(totals.helpful_rate),
    help=f"{totals.helpful} of {totals.votes} votes were thumbs up" if totals.votes else "No votes yet",
)
st.caption(
    "Latency is what the user waited: for questions asked on a page, from sending the question to the last word "
    "of the answer drawn on screen; for questions from the command line, the service's time from question to answer. "
    "First-token times are the service's."
)
if totals.errors:
    st.warning(f"{totals.errors} question(s) failed with an error: see the list at the bottom.")

days: list[Day] = result.days
x = [d.day for d in days]
LAYOUT = {
    "margin": {"l": 10, "r": 10, "t": 40, "b": 10},
    "height": 300,
    "hovermode": "x unified",
    "legend": {"orientation": "h", "y": -0.2},
}


def _figure(title: str, traces: list, **layout: object) -> go.Figure:
    figure = go.Figure(traces)
    figure.update_layout(title=title, **{**LAYOUT, **layout})
    # Whole days, each bar or point in the middle of its own slot, one label every day or every few days.
    step = max(1, -(-len(days) // 8))
    figure.update_xaxes(
        type="date",
        tickformat="%b %d",
        dtick=86_400_000 * step,
        tickangle=0,
        range=[
            datetime.combine(start, time()) - timedelta(hours=12),
            datetime.combine(end, time()) + timedelta(hours=12),
        ],
    )
    return figure


def _line(name: str, values: list, **style: object) -> go.Scatter:
    return go.Scatter(x=x, y=values, name=name, mode="lines+markers", connectgaps=False, **style)


def _rate_figure(title: str, name: str, rates: list, parts: list[list[int]], of: str) -> go.Figure:
    """A share per day (0-100%), its hover saying "n of m"."""
    hover = "%{y:.0%} (%{customdata[0]} of %{customdata[1]}" + of + ")"
    return _figure(title, [_line(name, rates, customdata=parts, hovertemplate=hover)],
                   yaxis={"tickformat": ".0%", "range": [0, 1.05]}, showlegend=False)  # fmt: skip


most = max((d.questions for d in days), default=0)
asked = _figure(
    "Questions per day",
    [
        go.Bar(x=x, y=[d.questions - d.abstained - d.errors for d in days], name="Answered", marker_color="#2e6fd8"),
        go.Bar(x=x, y=[d.abstained for d in days], name="Abstained", marker_color="#f2a33a"),
        go.Bar(x=x, y=[d.errors for d in days], name="Failed", marker_color="#d64545"),
    ],
    barmode="stack",
    yaxis={"dtick": 1 if most <= 8 else None},
)


abstention = _rate_figure(
    "Abstention rate per day", "Abstention rate", [d.abstention_rate for d in days],
    [[d.abstained, d.questions] for d in days], "",
)  # fmt: skip
latency = _figure(
    "Latency per day (ms)",
    [
        _line("Total p50", [d.total_p50 for d in days]),
        _line("Total p95", [d.total_p95 for d in days], line={"dash": "dash"}),
        _line("First token p50", [d.first_token_p50 for d in days]),
        _line("First token p95", [d.first_token_p95 for d in days], line={"dash": "dash"}),
    ],
    yaxis={"rangemode": "tozero"},
)
counts = result.citation_counts
# One bar per citation count seen (a category axis: counts are often sparse, e.g. 1, 2 and 60).
citations = go.Figure(
    [
        go.Bar(
            x=[str(n) for n in counts],
            y=list(counts.values()),
            name="Answers",
            hovertemplate="%{y} answer(s) with %{x} citation(s)<extra></extra>",
        )
    ]
)
citations.update_layout(
    title=f"Citations per answer (mean {totals.citations_mean or 0:.1f})",
    xaxis={"title": "citations in the answer", "type": "category"},
    yaxis={"title": "answers", "dtick": 1 if max(counts.values(), default=0) <= 8 else None},
    **{**LAYOUT, "hovermode": "closest"},
)
helpful = _rate_figure(
    "Helpful votes per day", "Helpful rate", [d.helpful_rate for d in days],
    [[d.helpful, d.votes] for d in days], " votes",
)  # fmt: skip

left, right = st.columns(2)
left.plotly_chart(asked, key="analytics_questions", alt="Questions per day")
right.plotly_chart(abstention, key="analytics_abstention", alt="Abstention rate per day")
left.plotly_chart(latency, key="analytics_latency", alt="Latency p50 and p95 per day")
right.plotly_chart(citations, key="analytics_citations", alt="Citations per answer")
if totals.votes:
    left.plotly_chart(helpful, key="analytics_helpful", alt="Helpful-vote rate per day")
else:
    left.info("No thumbs up or down yet: vote on answers on the Chat page to see the helpful rate here.")

st.subheader("Needs attention")
st.caption("Recent questions that abstained, failed, or got a thumbs down — newest first.")
if not result.attention:
    st.success("Nothing to act on in this range: no abstentions, errors or thumbs down.")
else:
    st.dataframe(
        pd.DataFrame(
            [
                {
                    "When": a.asked_at,
                    "Room": neutralise_bidi(a.room),
                    "From": SOURCE_NAMES.get(a.source, a.source),
                    "Question": a.question,
                    "Why": a.reasons,
                    "Comment": a.comment or "",
                    "Answer": a.error or a.answer or "",
                }
                for a in result.attention
            ]
        ),
        hide_index=True,
        width="stretch",
        column_config={
            "When": st.column_config.DatetimeColumn("When (UTC)", format="YYYY-MM-DD HH:mm", width="medium"),
            "Question": st.column_config.TextColumn(width="large"),
            "Answer": st.column_config.TextColumn(width="large"),
        },
    )
