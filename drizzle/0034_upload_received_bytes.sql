ALTER TABLE "pending_uploads" ADD COLUMN "received_bytes" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pending_uploads" ADD COLUMN "receiving_bytes" bigint DEFAULT 0 NOT NULL;