CREATE TABLE "chat_event_streams" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chat_event_streams_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" uuid NOT NULL,
	"opened_at" timestamp (3) with time zone NOT NULL,
	"seen_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "bot_reply_id" uuid;--> statement-breakpoint
ALTER TABLE "chat_event_streams" ADD CONSTRAINT "chat_event_streams_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_event_streams_user_idx" ON "chat_event_streams" USING btree ("user_id","id");