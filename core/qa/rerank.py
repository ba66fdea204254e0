"""The rerank stage's inputs for a question: what it asks of a page (core.qa.planner.pages) and, with a chat
model configured, the model that scores the candidate pages (core.retrieval.rerank runs the stage).

The model (WORKBENCH_RERANK_MODEL, on the server OPENAI_BASE_URL names) gets one request: the question and each candidate page's first characters, numbered; it answers with
one score per page (0 to 10) as JSON. The request has its own timeout (WORKBENCH_RERANK_TIMEOUT) and no retries:
when it fails, times out or answers something else, the heuristic order stands (logged) and the answer is given.
Text sent to the model is redacted as the synthesizer's is (WORKBENCH_REDACT_PII).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from core.config import Settings
from core.db import Database, q
from core.providers import llm
from core.qa.pii import redact
from core.qa.planner.pages import rerank_hints
from core.qa.planner.periods import FilingPeriod
from core.retrieval.rerank import RerankHints, Scorer

SYSTEM = (
    "You rank pages of a company's documents for an analyst's question. For each numbered page, give a score "
    "from 0 (irrelevant) to 10 (holds the figures or the sentences that answer the question, for the period "
    'asked). Reply with JSON only: {"scores": [one number per page, in the order given]}.'
)
_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$")


def hints_for(db: Database, room_id: int, question: str) -> RerankHints:
    """What `question` asks of a page in the room (its filings' stored periods read)."""
    with db.connection() as conn:
        filings = [FilingPeriod(*row) for row in conn.execute(q("room_filing_periods"), {"room_id": room_id})]
    return rerank_hints(question, filings)


def parse_scores(text: str, n: int) -> list[float]:
    """The model's reply as `n` scores (ValueError when it is not that)."""
    body = json.loads(_FENCE.sub("", text.strip()))
    scores = body.get("scores") if isinstance(body, dict) else body
    if not isinstance(scores, list) or len(scores) != n:
        raise ValueError(f"the model's reply holds no list of {n} scores")
    return [float(s) for s in scores]


def model_scorer(settings: Settings) -> Scorer | None:
    """The configured chat model as the rerank stage's scorer; None when the settings use no model for it."""
    if settings.rerank != "on" or not settings.rerank_model or not settings.openai_api_key:
        return None
    model = settings.rerank_model
    quick = settings.model_copy(update={"openai_timeout": settings.rerank_timeout, "openai_max_retries": 0})

    def score(question: str, pages: Sequence[str]) -> list[float]:
        clean = redact if settings.redact_pii else str
        listed = "\n\n".join(f"[{n}] {clean(text)}" for n, text in enumerate(pages, start=1))
        try:
            reply = llm.create_chat(
                llm.client(quick),
                model=model,
                messages=[
                    {"role": "system", "content": SYSTEM},
                    {"role": "user", "content": f"Question: {clean(question)}\n\nPages:\n\n{listed}"},
                ],
            )
        except Exception as exc:  # the stage logs it and keeps the heuristic order
            raise RuntimeError(llm.failure(exc, quick, role="rerank model")) from exc
        return parse_scores(reply.choices[0].message.content or "", len(pages))

    return score
