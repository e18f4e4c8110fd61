CREATE TABLE "music_tool_runs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"track_id" integer NOT NULL,
	"version_id" integer NOT NULL,
	"operation" text NOT NULL,
	"parameters" jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"result" jsonb,
	"error" jsonb,
	"created_by" uuid,
	"created_by_key_id" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp (3) with time zone,
	"finished_at" timestamp (3) with time zone,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "version_analyses" (
	"version_id" integer PRIMARY KEY NOT NULL,
	"run_id" uuid NOT NULL,
	"analysis" jsonb NOT NULL,
	"analysed_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "music_tool_runs" ADD CONSTRAINT "music_tool_runs_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "music_tool_runs" ADD CONSTRAINT "music_tool_runs_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "music_tool_runs" ADD CONSTRAINT "music_tool_runs_version_id_track_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."track_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "music_tool_runs" ADD CONSTRAINT "music_tool_runs_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_analyses" ADD CONSTRAINT "version_analyses_version_id_track_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."track_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "music_tool_runs_version_idx" ON "music_tool_runs" USING btree ("version_id","created_at");