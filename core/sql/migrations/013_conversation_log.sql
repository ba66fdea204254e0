-- The query log says what the user waited and where the question came from, and keeps the steps shown while
-- answering, so a reopened conversation shows its plan again (issue 11).
--   source     'page' (asked on the Chat or Sheet page) or 'cli' (the command line, and any other caller of
--              core.qa.service.ask: the page marks its own questions after the answer is drawn)
--   waited_ms  submit to last token as the page drew it (NULL for 'cli': total_ms is then the wait)
--   steps      the plan's lines as shown while answering (JSON list of strings)
ALTER TABLE qa_queries
    ADD COLUMN source text NOT NULL DEFAULT 'cli' CHECK (source IN ('page', 'cli')),
    ADD COLUMN waited_ms real,
    ADD COLUMN steps jsonb NOT NULL DEFAULT '[]'::jsonb;
