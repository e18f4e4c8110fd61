-- The activity entries become events of the log, after everything recorded so far; the readers of the log that
-- had read everything start after them too (they are history, not news), and a reader behind stays behind.
SELECT pg_advisory_xact_lock(7315001);--> statement-breakpoint
CREATE TEMP TABLE "log_end" AS SELECT coalesce(max("position"), 0) AS "position" FROM "domain_events";--> statement-breakpoint
ALTER TABLE "domain_events" DISABLE TRIGGER "domain_events_position";--> statement-breakpoint
INSERT INTO "domain_events" ("id", "position", "type", "team_id", "subject_type", "subject_id", "actor_user_id", "actor_key_id", "payload", "created_at")
SELECT gen_random_uuid(), nextval('domain_events_position_seq'), a."action", a."team_id", a."subject_type", a."subject_id",
	a."actor_user_id", a."actor_key_id", a."data", a."created_at"
FROM (SELECT * FROM "activity_entries" ORDER BY "id") a;--> statement-breakpoint
ALTER TABLE "domain_events" ENABLE TRIGGER "domain_events_position";--> statement-breakpoint
UPDATE "event_consumers" SET "position" = (SELECT coalesce(max("position"), 0) FROM "domain_events")
WHERE "position" >= (SELECT "position" FROM "log_end");--> statement-breakpoint
DROP TABLE "log_end";--> statement-breakpoint
DROP TABLE "activity_entries" CASCADE;
