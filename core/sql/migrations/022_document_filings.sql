-- What a filing is (core/ingest/filing.py): its company, form and fiscal period, read from its cover and file
-- name at ingestion, corrected by editors. The period scopes questions ("FY2022", "Q4 2023") to its filings.
ALTER TABLE documents
    ADD COLUMN company text,
    ADD COLUMN form text CHECK (form IN ('10-K', '10-Q', '8-K', 'earnings release', 'annual report', 'other')),
    ADD COLUMN fiscal_year integer CHECK (fiscal_year BETWEEN 1900 AND 2099),
    ADD COLUMN fiscal_quarter smallint CHECK (fiscal_quarter BETWEEN 1 AND 4),
    ADD COLUMN period_end date,
    -- The cover's own words when it states how its fiscal years are named: "fiscal 2022 ended January 28, 2023".
    ADD COLUMN fiscal_convention text;
