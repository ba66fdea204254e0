-- A sheet's title (the title and note lines above its header) and the formula cells Excel never
-- calculated (their cells are stored empty; the Sheet page lists them so nobody reads a blank as zero).
ALTER TABLE sheets ADD COLUMN title text;
ALTER TABLE sheets ADD COLUMN uncalculated jsonb NOT NULL DEFAULT '[]'::jsonb;
