-- The one search over everything a team holds ranks every kind by one rule: a row's words weigh A in its
-- title or name, B in its catalogue fields, D in its body. Tracks, comments and to-dos have stored vectors
-- (0010, 0013); the other kinds are matched through GIN indexes over these expressions, which the search
-- repeats word for word so the planner finds them. tmw_search_vector is named in the expressions
-- themselves, never inside another function: index builds resolve function bodies with a restricted
-- search_path, where only built-in functions are found.
-- array_to_string is only stable (it prints any element type); over text it always answers the same.
CREATE FUNCTION tmw_search_words(words text[]) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_to_string(words, ' ')
$$;
--> statement-breakpoint
CREATE INDEX albums_search_idx ON albums USING gin ((setweight(tmw_search_vector(title), 'A') || setweight(tmw_search_vector(tmw_search_words(tags || ARRAY[artist, genre, label])), 'B') || setweight(tmw_search_vector(notes), 'D')));
--> statement-breakpoint
CREATE INDEX contacts_search_idx ON contacts USING gin ((setweight(tmw_search_vector(name), 'A') || setweight(tmw_search_vector(tmw_search_words(tags || ARRAY[company, role, email])), 'B') || setweight(tmw_search_vector(notes), 'D')));
--> statement-breakpoint
CREATE INDEX studio_sessions_search_idx ON studio_sessions USING gin ((setweight(tmw_search_vector(title), 'A') || setweight(tmw_search_vector(notes), 'D')));
--> statement-breakpoint
CREATE INDEX interviews_search_idx ON interviews USING gin ((setweight(tmw_search_vector(title), 'A') || setweight(tmw_search_vector(intro), 'D')));
--> statement-breakpoint
CREATE INDEX chat_messages_search_idx ON chat_messages USING gin (tmw_search_vector(content));
--> statement-breakpoint
CREATE INDEX chat_messages_transcript_search_idx ON chat_messages USING gin (tmw_search_vector(transcript));
