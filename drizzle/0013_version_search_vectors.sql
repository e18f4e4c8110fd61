-- One stored vector per comment, to-do, stem and link, as tracks have since 0010: a search matches and
-- ranks what hangs off a team's tracks without re-parsing its text, and the GIN indexes move onto them.
ALTER TABLE version_comments ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (tmw_search_vector(body)) STORED;
--> statement-breakpoint
ALTER TABLE version_todos ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (tmw_search_vector(text)) STORED;
--> statement-breakpoint
ALTER TABLE version_stems ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
  tmw_search_vector(coalesce(name, '') || ' ' || coalesce(instrument, ''))
) STORED;
--> statement-breakpoint
-- URLs are split into their words: the text parser would otherwise keep a URL as one token.
ALTER TABLE track_links ADD COLUMN search_vector tsvector GENERATED ALWAYS AS (
  tmw_search_vector(regexp_replace(url, '[^[:alnum:]]+', ' ', 'g') || ' ' || coalesce(platform, ''))
) STORED;
--> statement-breakpoint
DROP INDEX version_comments_search_idx;
--> statement-breakpoint
DROP INDEX version_todos_search_idx;
--> statement-breakpoint
DROP INDEX version_stems_search_idx;
--> statement-breakpoint
DROP INDEX track_links_search_idx;
--> statement-breakpoint
CREATE INDEX version_comments_search_idx ON version_comments USING gin (search_vector);
--> statement-breakpoint
CREATE INDEX version_todos_search_idx ON version_todos USING gin (search_vector);
--> statement-breakpoint
CREATE INDEX version_stems_search_idx ON version_stems USING gin (search_vector);
--> statement-breakpoint
CREATE INDEX track_links_search_idx ON track_links USING gin (search_vector);
