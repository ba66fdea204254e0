-- A workbook tab holding several tables (one under another, or side by side) is stored as several sheets: each
-- named apart ("Dashboard", "Dashboard › Channel mix"), each with the tab its cells stand on, which their
-- addresses name ("Dashboard!H7"). NULL: the sheet is its tab's only table, and its name is the tab's.
ALTER TABLE sheets ADD COLUMN tab text;
