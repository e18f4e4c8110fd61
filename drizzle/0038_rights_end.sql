CREATE TABLE "session_link_refusals" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "session_link_refusals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"team_id" integer NOT NULL,
	"session_id" integer,
	"user_id" uuid NOT NULL,
	"refused_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind";--> statement-breakpoint
ALTER TABLE "studio_sessions" ADD COLUMN "link_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "paused_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "paused_reason" text;--> statement-breakpoint
ALTER TABLE "session_link_refusals" ADD CONSTRAINT "session_link_refusals_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_link_refusals" ADD CONSTRAINT "session_link_refusals_session_id_studio_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."studio_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_link_refusals" ADD CONSTRAINT "session_link_refusals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "session_link_refusals_unique" ON "session_link_refusals" USING btree ("user_id","team_id",coalesce("session_id", 0));--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind" CHECK (kind in ('mention', 'comment', 'reply', 'review_requested', 'review_decided', 'team_invite', 'session_invitation', 'follow_up_due', 'camp_rsvp', 'webhook_paused'));--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_paused_reason" CHECK (paused_reason in ('registrant_left', 'registrant_removed', 'registrant_demoted', 'registrant_account_deleted', 'key_revoked'));