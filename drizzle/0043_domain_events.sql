CREATE TABLE "domain_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"position" bigint,
	"type" text NOT NULL,
	"schema_version" smallint DEFAULT 1 NOT NULL,
	"team_id" integer,
	"organisation_id" integer,
	"subject_type" text NOT NULL,
	"subject_id" text NOT NULL,
	"actor_user_id" uuid,
	"actor_key_id" integer,
	"payload" jsonb NOT NULL,
	"stream_type" text,
	"thread_id" uuid,
	"session_id" integer,
	"recipients" uuid[],
	"created_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_consumers" (
	"name" text PRIMARY KEY NOT NULL,
	"position" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "domain_events" ADD CONSTRAINT "domain_events_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domain_events" ADD CONSTRAINT "domain_events_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "domain_events_position_idx" ON "domain_events" USING btree ("position");--> statement-breakpoint
CREATE INDEX "domain_events_team_idx" ON "domain_events" USING btree ("team_id","position") WHERE "domain_events"."team_id" is not null;--> statement-breakpoint
CREATE INDEX "domain_events_organisation_idx" ON "domain_events" USING btree ("organisation_id","position") WHERE "domain_events"."organisation_id" is not null;--> statement-breakpoint
CREATE INDEX "domain_events_subject_idx" ON "domain_events" USING btree ("subject_type","subject_id");--> statement-breakpoint
CREATE INDEX "domain_events_thread_idx" ON "domain_events" USING btree ("thread_id","position") WHERE "domain_events"."thread_id" is not null;--> statement-breakpoint
CREATE INDEX "domain_events_session_idx" ON "domain_events" USING btree ("session_id","position") WHERE "domain_events"."session_id" is not null;--> statement-breakpoint
CREATE INDEX "domain_events_recipients_idx" ON "domain_events" USING gin ("recipients");--> statement-breakpoint
CREATE INDEX "domain_events_created_idx" ON "domain_events" USING btree ("created_at");--> statement-breakpoint
CREATE SEQUENCE "domain_events_position_seq";--> statement-breakpoint
-- Positions in commit order: given at commit (a deferred trigger) under a transaction lock that is released
-- only once the commit is visible, so the next transaction's positions come after every earlier one's.
CREATE FUNCTION "domain_events_position"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	given bigint;
BEGIN
	PERFORM pg_advisory_xact_lock(7315001);
	given := nextval('domain_events_position_seq');
	UPDATE "domain_events" SET "position" = given WHERE "id" = NEW."id";
	PERFORM pg_notify('domain_events', given::text);
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "domain_events_position" AFTER INSERT ON "domain_events"
	DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "domain_events_position"();
