CREATE TABLE "share_link_activity" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "share_link_activity_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"link_id" integer NOT NULL,
	"recipient_id" integer NOT NULL,
	"kind" text NOT NULL,
	"version_id" integer,
	"stem_id" integer,
	"file_id" integer,
	"play_id" uuid,
	"seconds" double precision,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "share_link_comments" (
	"comment_id" integer PRIMARY KEY NOT NULL,
	"link_id" integer NOT NULL,
	"recipient_id" integer,
	"name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "share_link_recipients" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "share_link_recipients_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"link_id" integer NOT NULL,
	"email" text,
	"public_id" text NOT NULL,
	"revoked_at" timestamp (3) with time zone,
	"opens" integer DEFAULT 0 NOT NULL,
	"plays" integer DEFAULT 0 NOT NULL,
	"seconds_listened" double precision DEFAULT 0 NOT NULL,
	"downloads" integer DEFAULT 0 NOT NULL,
	"comments" integer DEFAULT 0 NOT NULL,
	"first_seen_at" timestamp (3) with time zone,
	"last_seen_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "share_links" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "share_links_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"team_id" integer NOT NULL,
	"target_type" text NOT NULL,
	"track_id" integer,
	"version_id" integer,
	"album_id" integer,
	"track_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"title" text,
	"message" text,
	"expires_at" timestamp (3) with time zone,
	"password_hash" text,
	"password_version" integer DEFAULT 0 NOT NULL,
	"allow_download" text DEFAULT 'none' NOT NULL,
	"allow_stems" integer[] DEFAULT '{}'::int[] NOT NULL,
	"allow_comments" boolean DEFAULT false NOT NULL,
	"revoked_at" timestamp (3) with time zone,
	"created_by" uuid,
	"created_by_key_id" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "share_links_target" CHECK (("share_links"."target_type" = 'track' and "share_links"."track_id" is not null)
        or ("share_links"."target_type" = 'version' and "share_links"."version_id" is not null and "share_links"."track_id" is not null)
        or ("share_links"."target_type" = 'album' and "share_links"."album_id" is not null)
        or ("share_links"."target_type" = 'playlist' and cardinality("share_links"."track_ids") > 0))
);
--> statement-breakpoint
ALTER TABLE "version_stems" ADD COLUMN "restricted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "version_stems" ADD COLUMN "downloadable_by" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "share_link_activity" ADD CONSTRAINT "share_link_activity_link_id_share_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."share_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_link_activity" ADD CONSTRAINT "share_link_activity_recipient_id_share_link_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."share_link_recipients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_link_activity" ADD CONSTRAINT "share_link_activity_version_id_track_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."track_versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_link_activity" ADD CONSTRAINT "share_link_activity_stem_id_version_stems_id_fk" FOREIGN KEY ("stem_id") REFERENCES "public"."version_stems"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_link_activity" ADD CONSTRAINT "share_link_activity_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_link_comments" ADD CONSTRAINT "share_link_comments_comment_id_version_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."version_comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_link_comments" ADD CONSTRAINT "share_link_comments_link_id_share_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."share_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_link_comments" ADD CONSTRAINT "share_link_comments_recipient_id_share_link_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."share_link_recipients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_link_recipients" ADD CONSTRAINT "share_link_recipients_link_id_share_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."share_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_version_id_track_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."track_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_album_id_albums_id_fk" FOREIGN KEY ("album_id") REFERENCES "public"."albums"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "share_links" ADD CONSTRAINT "share_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "share_link_activity_link_idx" ON "share_link_activity" USING btree ("link_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "share_link_activity_play" ON "share_link_activity" USING btree ("recipient_id","play_id") WHERE "share_link_activity"."play_id" is not null;--> statement-breakpoint
CREATE INDEX "share_link_comments_link_idx" ON "share_link_comments" USING btree ("link_id","comment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "share_link_recipients_public_id" ON "share_link_recipients" USING btree ("public_id");--> statement-breakpoint
CREATE UNIQUE INDEX "share_link_recipients_general" ON "share_link_recipients" USING btree ("link_id") WHERE "share_link_recipients"."email" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "share_link_recipients_email" ON "share_link_recipients" USING btree ("link_id",lower("email"));--> statement-breakpoint
CREATE INDEX "share_links_team_idx" ON "share_links" USING btree ("team_id","created_at","id");--> statement-breakpoint
CREATE INDEX "share_links_track_idx" ON "share_links" USING btree ("track_id");--> statement-breakpoint
CREATE INDEX "share_links_version_idx" ON "share_links" USING btree ("version_id");--> statement-breakpoint
CREATE INDEX "share_links_album_idx" ON "share_links" USING btree ("album_id");--> statement-breakpoint
CREATE INDEX "share_links_creator_idx" ON "share_links" USING btree ("team_id","created_by");