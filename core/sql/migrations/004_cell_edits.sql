-- Cells edited on the sheet page: the audit trail, and what marks answers that cited a cell stale.
CREATE TABLE cell_edits (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    room_id bigint NOT NULL REFERENCES rooms ON DELETE CASCADE,
    document_id bigint NOT NULL REFERENCES documents ON DELETE CASCADE,
    sheet_id bigint NOT NULL REFERENCES sheets ON DELETE CASCADE,
    row_id bigint NOT NULL REFERENCES sheet_rows ON DELETE CASCADE,
    column_position integer NOT NULL,
    column_name text NOT NULL,
    ref text NOT NULL,                   -- A1 address as in the original file, e.g. Funding!E12
    old_value text,                      -- cell texts as stored, null for an empty cell
    new_value text,
    user_id uuid REFERENCES users ON DELETE SET NULL,
    -- clock_timestamp, not now(): an edit must compare as later than a message written earlier
    -- in a transaction that started before it.
    edited_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
-- "Was this cited cell edited after the answer?" (stale citations) and a cell's history.
CREATE INDEX cell_edits_cell ON cell_edits (row_id, column_name, edited_at);
CREATE INDEX cell_edits_sheet ON cell_edits (sheet_id, edited_at);

-- Bumped by every edit: part of the per-process sheet cache key (core.tables.load_sheet), so every
-- process reloads an edited sheet instead of computing on the old values.
ALTER TABLE sheets ADD COLUMN version integer NOT NULL DEFAULT 0;
