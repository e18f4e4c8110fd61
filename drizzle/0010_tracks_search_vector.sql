-- One stored, weighted vector per track (title A, catalogue fields B, lyrics C, notes D): a search ranks
-- a team's tracks from it without re-reading and re-parsing their text, and the GIN index over it
-- answers rare words across the whole table.
ALTER TABLE tracks ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
  setweight(tmw_search_vector(title), 'A')
  || setweight(tmw_search_vector(tmw_track_metadata(artist, genre, tags, musical_key, language, isrc, label, distributor)), 'B')
  || setweight(tmw_search_vector(lyrics), 'C')
  || setweight(tmw_search_vector(notes), 'D')
) STORED;
--> statement-breakpoint
DROP INDEX tracks_search_title_idx;
--> statement-breakpoint
DROP INDEX tracks_search_metadata_idx;
--> statement-breakpoint
DROP INDEX tracks_search_lyrics_idx;
--> statement-breakpoint
DROP INDEX tracks_search_notes_idx;
--> statement-breakpoint
CREATE INDEX tracks_search_vector_idx ON tracks USING gin (search_vector);
--> statement-breakpoint
CREATE INDEX version_stems_search_idx ON version_stems USING gin (tmw_search_vector(coalesce(name, '') || ' ' || coalesce(instrument, '')));
