CREATE TABLE "album_tracks" (
	"album_id" integer NOT NULL,
	"track_id" integer NOT NULL,
	"position" integer NOT NULL,
	"added_by" uuid,
	"added_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "album_tracks_album_id_track_id_pk" PRIMARY KEY("album_id","track_id")
);
--> statement-breakpoint
CREATE TABLE "albums" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "albums_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"team_id" integer NOT NULL,
	"status_id" text NOT NULL,
	"position" integer NOT NULL,
	"title" text NOT NULL,
	"artist" text,
	"type" text DEFAULT 'album' NOT NULL,
	"release_date" date,
	"label" text,
	"upc" text,
	"genre" text,
	"language" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"cover_file_id" integer,
	"notes" text,
	"created_by" uuid,
	"created_by_key_id" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "version_plays" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "version_plays_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"version_id" integer NOT NULL,
	"user_id" uuid,
	"key_id" integer,
	"played_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "version_stems" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "version_stems_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"version_id" integer NOT NULL,
	"name" text NOT NULL,
	"instrument" text,
	"notes" text,
	"position" integer NOT NULL,
	"file_id" integer,
	"created_by" uuid,
	"created_by_key_id" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tracks" ADD COLUMN "cover_file_id" integer;--> statement-breakpoint
ALTER TABLE "album_tracks" ADD CONSTRAINT "album_tracks_album_id_albums_id_fk" FOREIGN KEY ("album_id") REFERENCES "public"."albums"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "album_tracks" ADD CONSTRAINT "album_tracks_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "album_tracks" ADD CONSTRAINT "album_tracks_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "albums" ADD CONSTRAINT "albums_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "albums" ADD CONSTRAINT "albums_cover_file_id_files_id_fk" FOREIGN KEY ("cover_file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "albums" ADD CONSTRAINT "albums_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_plays" ADD CONSTRAINT "version_plays_version_id_track_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."track_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_plays" ADD CONSTRAINT "version_plays_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_stems" ADD CONSTRAINT "version_stems_version_id_track_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."track_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_stems" ADD CONSTRAINT "version_stems_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_stems" ADD CONSTRAINT "version_stems_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "album_tracks_order_idx" ON "album_tracks" USING btree ("album_id","position");--> statement-breakpoint
CREATE INDEX "album_tracks_track_idx" ON "album_tracks" USING btree ("track_id");--> statement-breakpoint
CREATE INDEX "albums_team_status_idx" ON "albums" USING btree ("team_id","status_id","position");--> statement-breakpoint
CREATE INDEX "albums_team_updated_idx" ON "albums" USING btree ("team_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "version_plays_version_idx" ON "version_plays" USING btree ("version_id","played_at","id");--> statement-breakpoint
CREATE INDEX "version_stems_version_idx" ON "version_stems" USING btree ("version_id","position","id");--> statement-breakpoint
CREATE INDEX "version_stems_file_idx" ON "version_stems" USING btree ("file_id");--> statement-breakpoint
ALTER TABLE "tracks" ADD CONSTRAINT "tracks_cover_file_id_files_id_fk" FOREIGN KEY ("cover_file_id") REFERENCES "public"."files"("id") ON DELETE set null ON UPDATE no action;