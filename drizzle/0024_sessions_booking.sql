-- Two sessions that are not cancelled never book one studio for overlapping [starts_at, ends_at) ranges.
-- A one-value int4range stands in for studio equality, so no btree_gist extension is needed.
ALTER TABLE "studio_sessions" ADD CONSTRAINT "studio_sessions_no_double_booking" EXCLUDE USING gist (
	int4range("studio_id", "studio_id", '[]') WITH &&,
	tstzrange("starts_at", "ends_at") WITH &&
) WHERE ("studio_id" IS NOT NULL AND "status" <> 'cancelled');
