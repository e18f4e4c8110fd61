-- Webhook deliveries become a reader of the one log. The events of the outbox move to domain_events, given
-- their positions here (in the order they were made, under the lock commits take for theirs), and the reader
-- `webhooks` starts after them: they were fanned out already, or are just below, and none is sent twice.
SELECT pg_advisory_xact_lock(7315001);--> statement-breakpoint
ALTER TABLE "domain_events" DISABLE TRIGGER "domain_events_position";--> statement-breakpoint
INSERT INTO "domain_events" ("id", "position", "type", "team_id", "organisation_id", "subject_type", "subject_id", "payload", "created_at")
SELECT e."id", nextval('domain_events_position_seq'), e."type", e."team_id", e."organisation_id",
	CASE WHEN e."type" = 'webhook.test' THEN 'webhook_endpoint' ELSE 'webhook_event' END,
	CASE WHEN e."type" = 'webhook.test' THEN coalesce(e."payload" -> 'data' ->> 'endpointId', e."id"::text) ELSE e."id"::text END,
	coalesce(e."payload" -> 'data', '{}'::jsonb),
	e."created_at"
FROM (SELECT * FROM "webhook_events" ORDER BY "created_at", "id") e;--> statement-breakpoint
ALTER TABLE "domain_events" ENABLE TRIGGER "domain_events_position";--> statement-breakpoint
INSERT INTO "event_consumers" ("name", "position")
SELECT 'webhooks', coalesce(max("position"), 0) FROM "domain_events"
ON CONFLICT ("name") DO NOTHING;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "due_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "sending_until" timestamp (3) with time zone;--> statement-breakpoint
WITH "fanouts" AS (
	SELECT ("payload" ->> 'eventId')::uuid AS "event_id", ("payload" ->> 'endpointId')::integer AS "endpoint_id"
	FROM "jobs" WHERE "type" = 'webhooks.fanout' AND "status" IN ('queued', 'running'))
INSERT INTO "webhook_deliveries" ("endpoint_id", "event_id", "event_type", "attempt", "status", "due_at", "created_at", "updated_at")
SELECT ep."id", e."id", e."type", 1, 'pending', now(), now(), now()
FROM "fanouts" f
JOIN "webhook_events" e ON e."id" = f."event_id"
JOIN "webhook_endpoints" ep ON ep."enabled"
	AND (ep."team_id" = e."team_id" OR ep."organisation_id" = e."organisation_id")
	AND CASE WHEN f."endpoint_id" IS NULL THEN cardinality(ep."event_types") = 0 OR e."type" = ANY (ep."event_types")
		ELSE ep."id" = f."endpoint_id" END
ON CONFLICT ("endpoint_id", "event_id", "attempt") DO NOTHING;--> statement-breakpoint
UPDATE "webhook_deliveries" d SET "due_at" = coalesce(
	(SELECT p."next_attempt_at" FROM "webhook_deliveries" p
	 WHERE p."endpoint_id" = d."endpoint_id" AND p."event_id" = d."event_id" AND p."attempt" = d."attempt" - 1),
	d."created_at")
WHERE d."status" = 'pending';--> statement-breakpoint
DELETE FROM "jobs" WHERE "type" IN ('webhooks.fanout', 'webhooks.deliver');--> statement-breakpoint
INSERT INTO "jobs" ("type", "payload", "dedupe_key", "run_at", "created_at", "updated_at")
SELECT 'webhooks.deliver', jsonb_build_object('endpointId', "endpoint_id"), "endpoint_id"::text, min("due_at"), now(), now()
FROM "webhook_deliveries" WHERE "status" = 'pending' GROUP BY "endpoint_id";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_event_id_webhook_events_id_fk";--> statement-breakpoint
DROP TABLE "webhook_events" CASCADE;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_domain_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."domain_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("endpoint_id","due_at","id") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_created_idx" ON "webhook_deliveries" USING btree ("created_at");--> statement-breakpoint
-- A job inserted wakes the queues of every process at its commit: the notice names its type.
CREATE FUNCTION "jobs_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('jobs', t."type") FROM (SELECT DISTINCT "type" FROM "added") t;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "jobs_notify" AFTER INSERT ON "jobs" REFERENCING NEW TABLE AS "added"
	FOR EACH STATEMENT EXECUTE FUNCTION "jobs_notify"();
