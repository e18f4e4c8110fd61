-- Accent folding that runs on every PostgreSQL (no unaccent extension needed): Latin letters with
-- diacritics become their base letter, then everything is lower-cased. IMMUTABLE so indexes can use it.
CREATE FUNCTION tmw_fold(input text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE RETURNS NULL ON NULL INPUT AS $$
  SELECT lower(translate(input, 'ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞßàáâãäåæçèéêëìíîïðñòóôõöøùúûüýþÿĀāĂăĄąĆćĈĉĊċČčĎďĐđĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĦħĨĩĪīĬĭĮįİıĴĵĶķĹĺĻļĽľŁłŃńŅņŇňŌōŎŏŐőŒœŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŦŧŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžƠơƯưǍǎǏǐǑǒǓǔǕǖǗǘǙǚǛǜǞǟǠǡǦǧǨǩǪǫǬǭǰǴǵǸǹǺǻȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐȑȒȓȔȕȖȗȘșȚțȞȟȦȧȨȩȪȫȬȭȮȯȰȱȲȳ', 'aaaaaaaceeeeiiiidnoooooouuuuytsaaaaaaaceeeeiiiidnoooooouuuuytyaaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiiijjkkllllllllnnnnnnoooooooorrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzzoouuaaiioouuuuuuuuuuaaaaggkkoooojggnnaaaaaaeeeeiiiioooorrrruuuusstthhaaeeooooooooyy'))
$$;
--> statement-breakpoint
-- Repeats the folding of tmw_fold instead of calling it: index builds resolve names with a restricted
-- search_path, where only built-in functions are found.
CREATE FUNCTION tmw_search_vector(input text) RETURNS tsvector LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT to_tsvector('simple'::regconfig, coalesce(lower(translate(input, 'ÀÁÂÃÄÅÆÇÈÉÊËÌÍÎÏÐÑÒÓÔÕÖØÙÚÛÜÝÞßàáâãäåæçèéêëìíîïðñòóôõöøùúûüýþÿĀāĂăĄąĆćĈĉĊċČčĎďĐđĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĦħĨĩĪīĬĭĮįİıĴĵĶķĹĺĻļĽľŁłŃńŅņŇňŌōŎŏŐőŒœŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŦŧŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžƠơƯưǍǎǏǐǑǒǓǔǕǖǗǘǙǚǛǜǞǟǠǡǦǧǨǩǪǫǬǭǰǴǵǸǹǺǻȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐȑȒȓȔȕȖȗȘșȚțȞȟȦȧȨȩȪȫȬȭȮȯȰȱȲȳ', 'aaaaaaaceeeeiiiidnoooooouuuuytsaaaaaaaceeeeiiiidnoooooouuuuytyaaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiiijjkkllllllllnnnnnnoooooooorrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzzoouuaaiioouuuuuuuuuuaaaaggkkoooojggnnaaaaaaeeeeiiiioooorrrruuuusstthhaaeeooooooooyy')), ''))
$$;
--> statement-breakpoint
-- The catalogue fields of a track as one text (array_to_string alone is only STABLE).
CREATE FUNCTION tmw_track_metadata(artist text, genre text, tags text[], musical_key text, language text, isrc text, label text, distributor text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(artist, '') || ' ' || coalesce(genre, '') || ' ' || coalesce(array_to_string(tags, ' '), '') || ' ' || coalesce(musical_key, '') || ' ' || coalesce(language, '') || ' ' || coalesce(isrc, '') || ' ' || coalesce(label, '') || ' ' || coalesce(distributor, '')
$$;
--> statement-breakpoint
CREATE INDEX tracks_search_title_idx ON tracks USING gin (tmw_search_vector(title));
--> statement-breakpoint
CREATE INDEX tracks_search_metadata_idx ON tracks USING gin (tmw_search_vector(tmw_track_metadata(artist, genre, tags, musical_key, language, isrc, label, distributor)));
--> statement-breakpoint
CREATE INDEX tracks_search_lyrics_idx ON tracks USING gin (tmw_search_vector(lyrics));
--> statement-breakpoint
CREATE INDEX tracks_search_notes_idx ON tracks USING gin (tmw_search_vector(notes));
--> statement-breakpoint
CREATE INDEX version_comments_search_idx ON version_comments USING gin (tmw_search_vector(body));
--> statement-breakpoint
CREATE INDEX version_todos_search_idx ON version_todos USING gin (tmw_search_vector(text));
--> statement-breakpoint
-- URLs are split into their words: the text parser would otherwise keep a URL as one token.
CREATE INDEX track_links_search_idx ON track_links USING gin (tmw_search_vector(regexp_replace(url, '[^[:alnum:]]+', ' ', 'g') || ' ' || coalesce(platform, '')));
