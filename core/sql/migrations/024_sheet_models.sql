-- A model of each sheet's table, read from its structure at ingestion (core/sheetmodel.py): title lines, header
-- rows and each column's header path and period, each row's path, role (data, heading, subtotal, total, note) and
-- unit, the table's scale and fiscal year. Re-derived after a cell edit; an editor's corrections (a row's role,
-- the scale, the fiscal year's first month) are kept apart and laid over it, so a re-derivation never loses them.
ALTER TABLE sheets
    ADD COLUMN model jsonb,
    ADD COLUMN model_corrections jsonb NOT NULL DEFAULT '{}'::jsonb;
