CREATE SEQUENCE "public"."file_ids" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "blob_deletions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "blob_deletions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"key" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" integer PRIMARY KEY DEFAULT nextval('file_ids') NOT NULL,
	"team_id" integer NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"size" bigint NOT NULL,
	"content_type" text NOT NULL,
	"original_name" text NOT NULL,
	"owner_type" text NOT NULL,
	"owner_id" text NOT NULL,
	"audio" jsonb,
	"audio_failure_reason" text,
	"peaks_status" text NOT NULL,
	"peaks" jsonb,
	"peaks_failure_reason" text,
	"peaks_failure_message" text,
	"delete_after" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "files_kind_check" CHECK ("files"."kind" in ('audio', 'image', 'document')),
	CONSTRAINT "files_peaks_status_check" CHECK ("files"."peaks_status" in ('none', 'pending', 'ready', 'failed')),
	CONSTRAINT "files_size_check" CHECK ("files"."size" >= 0)
);
--> statement-breakpoint
CREATE TABLE "pending_uploads" (
	"id" integer PRIMARY KEY DEFAULT nextval('file_ids') NOT NULL,
	"team_id" integer NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"final_key" text NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"declared_size" bigint,
	"max_bytes" bigint NOT NULL,
	"owner_type" text NOT NULL,
	"owner_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "team_storage" (
	"team_id" integer PRIMARY KEY NOT NULL,
	"used_bytes" bigint DEFAULT 0 NOT NULL,
	"file_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "team_storage_used_bytes_check" CHECK ("team_storage"."used_bytes" >= 0),
	CONSTRAINT "team_storage_file_count_check" CHECK ("team_storage"."file_count" >= 0)
);
--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_uploads" ADD CONSTRAINT "pending_uploads_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_uploads" ADD CONSTRAINT "pending_uploads_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_storage" ADD CONSTRAINT "team_storage_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "files_key_unique" ON "files" USING btree ("key");--> statement-breakpoint
CREATE INDEX "files_team_owner_idx" ON "files" USING btree ("team_id","owner_type","owner_id","id");--> statement-breakpoint
CREATE INDEX "files_team_kind_idx" ON "files" USING btree ("team_id","kind");--> statement-breakpoint
CREATE INDEX "files_delete_after_idx" ON "files" USING btree ("delete_after") WHERE "files"."delete_after" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "pending_uploads_key_unique" ON "pending_uploads" USING btree ("key");--> statement-breakpoint
CREATE UNIQUE INDEX "pending_uploads_final_key_unique" ON "pending_uploads" USING btree ("final_key");--> statement-breakpoint
CREATE INDEX "pending_uploads_team_owner_idx" ON "pending_uploads" USING btree ("team_id","owner_type","owner_id");--> statement-breakpoint
CREATE INDEX "pending_uploads_expires_at_idx" ON "pending_uploads" USING btree ("expires_at");