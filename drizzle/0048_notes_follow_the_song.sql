ALTER TABLE "notifications" DROP CONSTRAINT "notifications_kind";--> statement-breakpoint
ALTER TABLE "track_versions" ADD COLUMN "notes_carried" jsonb;--> statement-breakpoint
ALTER TABLE "version_comments" ADD COLUMN "resolved_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "version_comments" ADD COLUMN "resolved_by" uuid;--> statement-breakpoint
ALTER TABLE "version_comments" ADD COLUMN "carried_from" jsonb;--> statement-breakpoint
ALTER TABLE "version_todos" ADD COLUMN "comment_id" integer;--> statement-breakpoint
ALTER TABLE "version_todos" ADD COLUMN "carried_from" jsonb;--> statement-breakpoint
ALTER TABLE "version_comments" ADD CONSTRAINT "version_comments_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_todos" ADD CONSTRAINT "version_todos_comment_id_version_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."version_comments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "version_todos_comment_unique" ON "version_todos" USING btree ("comment_id") WHERE "version_todos"."comment_id" is not null;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_kind" CHECK (kind in ('mention', 'comment', 'reply', 'comment_resolved', 'review_requested', 'review_decided', 'team_invite', 'session_invitation', 'follow_up_due', 'camp_rsvp', 'webhook_paused'));