CREATE TABLE "recording_markers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "recording_markers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"recording_id" integer NOT NULL,
	"label" text NOT NULL,
	"position_seconds" double precision NOT NULL,
	"color" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recording_markers_position_check" CHECK ("recording_markers"."position_seconds" >= 0)
);
--> statement-breakpoint
CREATE TABLE "session_calendar_feeds" (
	"team_id" integer NOT NULL,
	"user_id" uuid NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_calendar_feeds_team_id_user_id_pk" PRIMARY KEY("team_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "session_canvases" (
	"session_id" integer PRIMARY KEY NOT NULL,
	"version" integer NOT NULL,
	"content" jsonb NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_participants" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "session_participants_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"session_id" integer NOT NULL,
	"user_id" uuid,
	"email" text,
	"name" text,
	"status" text DEFAULT 'invited' NOT NULL,
	"invited_by" uuid,
	"responded_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_participants_someone" CHECK (num_nonnulls("session_participants"."user_id", "session_participants"."email") >= 1),
	CONSTRAINT "session_participants_status_check" CHECK ("session_participants"."status" in ('invited', 'accepted', 'declined'))
);
--> statement-breakpoint
CREATE TABLE "session_recordings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "session_recordings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"session_id" integer NOT NULL,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"file_id" integer,
	"started_at" timestamp (3) with time zone,
	"stopped_at" timestamp (3) with time zone,
	"created_by" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_recordings_status_check" CHECK ("session_recordings"."status" in ('live', 'stopped', 'ready'))
);
--> statement-breakpoint
CREATE TABLE "session_songs" (
	"session_id" integer NOT NULL,
	"track_id" integer NOT NULL,
	"added_by" uuid,
	"added_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_songs_session_id_track_id_pk" PRIMARY KEY("session_id","track_id")
);
--> statement-breakpoint
CREATE TABLE "studio_sessions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "studio_sessions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"team_id" integer NOT NULL,
	"title" text NOT NULL,
	"starts_at" timestamp (3) with time zone NOT NULL,
	"ends_at" timestamp (3) with time zone NOT NULL,
	"studio_id" integer,
	"camp_id" integer,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"notes" text,
	"created_by" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "studio_sessions_ends_after_start" CHECK ("studio_sessions"."ends_at" > "studio_sessions"."starts_at"),
	CONSTRAINT "studio_sessions_status_check" CHECK ("studio_sessions"."status" in ('scheduled', 'live', 'ended', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "recording_markers" ADD CONSTRAINT "recording_markers_recording_id_session_recordings_id_fk" FOREIGN KEY ("recording_id") REFERENCES "public"."session_recordings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recording_markers" ADD CONSTRAINT "recording_markers_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_calendar_feeds" ADD CONSTRAINT "session_calendar_feeds_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_calendar_feeds" ADD CONSTRAINT "session_calendar_feeds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_canvases" ADD CONSTRAINT "session_canvases_session_id_studio_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."studio_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_canvases" ADD CONSTRAINT "session_canvases_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_participants" ADD CONSTRAINT "session_participants_session_id_studio_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."studio_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_participants" ADD CONSTRAINT "session_participants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_participants" ADD CONSTRAINT "session_participants_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_recordings" ADD CONSTRAINT "session_recordings_session_id_studio_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."studio_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_recordings" ADD CONSTRAINT "session_recordings_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_recordings" ADD CONSTRAINT "session_recordings_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_songs" ADD CONSTRAINT "session_songs_session_id_studio_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."studio_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_songs" ADD CONSTRAINT "session_songs_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_songs" ADD CONSTRAINT "session_songs_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studio_sessions" ADD CONSTRAINT "studio_sessions_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studio_sessions" ADD CONSTRAINT "studio_sessions_studio_id_studios_id_fk" FOREIGN KEY ("studio_id") REFERENCES "public"."studios"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studio_sessions" ADD CONSTRAINT "studio_sessions_camp_id_camps_id_fk" FOREIGN KEY ("camp_id") REFERENCES "public"."camps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studio_sessions" ADD CONSTRAINT "studio_sessions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recording_markers_position_idx" ON "recording_markers" USING btree ("recording_id","position_seconds","id");--> statement-breakpoint
CREATE UNIQUE INDEX "session_participants_user_unique" ON "session_participants" USING btree ("session_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "session_participants_email_unique" ON "session_participants" USING btree ("session_id",lower("email"));--> statement-breakpoint
CREATE INDEX "session_participants_user_idx" ON "session_participants" USING btree ("user_id") WHERE "session_participants"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "session_participants_email_idx" ON "session_participants" USING btree (lower("email")) WHERE "session_participants"."email" is not null;--> statement-breakpoint
CREATE INDEX "session_recordings_session_idx" ON "session_recordings" USING btree ("session_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "session_recordings_one_live" ON "session_recordings" USING btree ("session_id") WHERE "session_recordings"."status" = 'live';--> statement-breakpoint
CREATE INDEX "session_songs_order_idx" ON "session_songs" USING btree ("session_id","added_at","track_id");--> statement-breakpoint
CREATE INDEX "session_songs_track_idx" ON "session_songs" USING btree ("track_id");--> statement-breakpoint
CREATE INDEX "studio_sessions_team_starts_idx" ON "studio_sessions" USING btree ("team_id","starts_at","id");--> statement-breakpoint
CREATE INDEX "studio_sessions_studio_idx" ON "studio_sessions" USING btree ("studio_id") WHERE "studio_sessions"."studio_id" is not null;--> statement-breakpoint
CREATE INDEX "studio_sessions_camp_idx" ON "studio_sessions" USING btree ("camp_id") WHERE "studio_sessions"."camp_id" is not null;