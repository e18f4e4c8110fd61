ALTER TABLE "chat_events" ALTER COLUMN "thread_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_events" ADD COLUMN "session_id" integer;--> statement-breakpoint
CREATE INDEX "chat_events_session_idx" ON "chat_events" USING btree ("session_id","id") WHERE "chat_events"."session_id" is not null;--> statement-breakpoint
ALTER TABLE "chat_events" ADD CONSTRAINT "chat_events_subject" CHECK (num_nonnulls("chat_events"."thread_id", "chat_events"."session_id") = 1);