ALTER TABLE "chat_messages" ADD COLUMN "voice_file_id" integer;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "transcript_status" text;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "transcript" text;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "transcript_error" text;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "transcript_job_id" uuid;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "transcript_requested_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_voice_file_id_files_id_fk" FOREIGN KEY ("voice_file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;