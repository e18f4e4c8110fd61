DROP TABLE "chat_events" CASCADE;--> statement-breakpoint
CREATE INDEX "domain_events_stream_idx" ON "domain_events" USING btree ("position") WHERE "domain_events"."stream_type" is not null;