-- Tables found in PDF pages are stored as sheets of their PDF document (core/ingest/pdf_tables.py): the page
-- a table was read from, and each cell's rectangle on it (one [x0, y0, x1, y1] in PDF points per column, null
-- for an empty cell), so a cell citation opens the page with that line's cells highlighted.
ALTER TABLE sheets ADD COLUMN page_number integer CHECK (page_number >= 1);
ALTER TABLE sheet_rows ADD COLUMN boxes jsonb;
