CREATE TABLE "activity_entries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "activity_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"team_id" integer NOT NULL,
	"actor_user_id" uuid,
	"actor_key_id" integer,
	"action" text NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "comment_reactions" (
	"comment_id" integer NOT NULL,
	"actor" text NOT NULL,
	"emoji" text NOT NULL,
	"user_id" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "comment_reactions_comment_id_actor_emoji_pk" PRIMARY KEY("comment_id","actor","emoji")
);
--> statement-breakpoint
CREATE TABLE "review_reviewers" (
	"review_id" integer NOT NULL,
	"user_id" uuid NOT NULL,
	"listened_at" timestamp (3) with time zone,
	"decision" text,
	"decided_at" timestamp (3) with time zone,
	CONSTRAINT "review_reviewers_review_id_user_id_pk" PRIMARY KEY("review_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "track_collaborators" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "track_collaborators_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"track_id" integer NOT NULL,
	"name" text NOT NULL,
	"user_id" uuid,
	"email" text,
	"roles" text[] NOT NULL,
	"created_by" uuid,
	"created_by_key_id" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "track_links" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "track_links_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"track_id" integer NOT NULL,
	"kind" text NOT NULL,
	"url" text NOT NULL,
	"platform" text,
	"created_by" uuid,
	"created_by_key_id" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "track_teams" (
	"track_id" integer NOT NULL,
	"team_id" integer NOT NULL,
	"added_by" uuid,
	"added_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "track_teams_track_id_team_id_pk" PRIMARY KEY("track_id","team_id")
);
--> statement-breakpoint
CREATE TABLE "track_versions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "track_versions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"track_id" integer NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"notes" text,
	"is_final" boolean DEFAULT false NOT NULL,
	"audio_file_name" text NOT NULL,
	"audio_file_key" text,
	"duration_seconds" double precision,
	"created_by" uuid,
	"created_by_key_id" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tracks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "tracks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"team_id" integer NOT NULL,
	"status_id" text NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL,
	"artist" text,
	"genre" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"bpm" numeric(6, 2),
	"musical_key" text,
	"language" text,
	"isrc" text,
	"label" text,
	"distributor" text,
	"explicit" boolean,
	"lyrics" text,
	"notes" text,
	"release_date" date,
	"deleted_at" timestamp (3) with time zone,
	"created_by" uuid,
	"created_by_key_id" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "version_comments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "version_comments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"version_id" integer NOT NULL,
	"parent_id" integer,
	"at_seconds" double precision,
	"body" text NOT NULL,
	"edited_at" timestamp (3) with time zone,
	"created_by" uuid,
	"created_by_key_id" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "version_reviews" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "version_reviews_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"version_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"requested_by" uuid,
	"closed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "version_todos" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "version_todos_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"version_id" integer NOT NULL,
	"text" text NOT NULL,
	"done" boolean DEFAULT false NOT NULL,
	"assignee_id" uuid,
	"due_date" date,
	"created_by" uuid,
	"created_by_key_id" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activity_entries" ADD CONSTRAINT "activity_entries_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_reactions" ADD CONSTRAINT "comment_reactions_comment_id_version_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."version_comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_reactions" ADD CONSTRAINT "comment_reactions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_reviewers" ADD CONSTRAINT "review_reviewers_review_id_version_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."version_reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_reviewers" ADD CONSTRAINT "review_reviewers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_collaborators" ADD CONSTRAINT "track_collaborators_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_collaborators" ADD CONSTRAINT "track_collaborators_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_collaborators" ADD CONSTRAINT "track_collaborators_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_links" ADD CONSTRAINT "track_links_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_links" ADD CONSTRAINT "track_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_teams" ADD CONSTRAINT "track_teams_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_teams" ADD CONSTRAINT "track_teams_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_teams" ADD CONSTRAINT "track_teams_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_versions" ADD CONSTRAINT "track_versions_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_versions" ADD CONSTRAINT "track_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracks" ADD CONSTRAINT "tracks_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracks" ADD CONSTRAINT "tracks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_comments" ADD CONSTRAINT "version_comments_version_id_track_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."track_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_comments" ADD CONSTRAINT "version_comments_parent_id_version_comments_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."version_comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_comments" ADD CONSTRAINT "version_comments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_reviews" ADD CONSTRAINT "version_reviews_version_id_track_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."track_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_reviews" ADD CONSTRAINT "version_reviews_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_todos" ADD CONSTRAINT "version_todos_version_id_track_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."track_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_todos" ADD CONSTRAINT "version_todos_assignee_id_users_id_fk" FOREIGN KEY ("assignee_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_todos" ADD CONSTRAINT "version_todos_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_entries_team_idx" ON "activity_entries" USING btree ("team_id","id");--> statement-breakpoint
CREATE INDEX "activity_entries_subject_idx" ON "activity_entries" USING btree ("subject_type","subject_id");--> statement-breakpoint
CREATE INDEX "review_reviewers_user_idx" ON "review_reviewers" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "track_collaborators_track_idx" ON "track_collaborators" USING btree ("track_id","id");--> statement-breakpoint
CREATE INDEX "track_links_track_idx" ON "track_links" USING btree ("track_id","kind","id");--> statement-breakpoint
CREATE INDEX "track_teams_team_idx" ON "track_teams" USING btree ("team_id","track_id");--> statement-breakpoint
CREATE INDEX "track_versions_track_idx" ON "track_versions" USING btree ("track_id","position","id");--> statement-breakpoint
CREATE UNIQUE INDEX "track_versions_one_final" ON "track_versions" USING btree ("track_id") WHERE "track_versions"."is_final";--> statement-breakpoint
CREATE INDEX "tracks_team_status_idx" ON "tracks" USING btree ("team_id","status_id","position");--> statement-breakpoint
CREATE INDEX "tracks_updated_idx" ON "tracks" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "tracks_title_idx" ON "tracks" USING btree (lower("title"),"id");--> statement-breakpoint
CREATE INDEX "tracks_deleted_idx" ON "tracks" USING btree ("deleted_at") WHERE "tracks"."deleted_at" is not null;--> statement-breakpoint
CREATE INDEX "version_comments_order_idx" ON "version_comments" USING btree ("version_id",coalesce("at_seconds", -1),"id");--> statement-breakpoint
CREATE INDEX "version_comments_parent_idx" ON "version_comments" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "version_reviews_version_idx" ON "version_reviews" USING btree ("version_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "version_reviews_one_open" ON "version_reviews" USING btree ("version_id") WHERE "version_reviews"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "version_todos_version_idx" ON "version_todos" USING btree ("version_id","id");