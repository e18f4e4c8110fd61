CREATE TABLE "camp_files" (
	"file_id" integer PRIMARY KEY NOT NULL,
	"camp_id" integer NOT NULL,
	"team_id" integer NOT NULL,
	"created_by" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "camp_listening_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "camp_listening_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"camp_id" integer NOT NULL,
	"track_id" integer NOT NULL,
	"team_id" integer NOT NULL,
	"position" integer NOT NULL,
	"submitted_by" uuid,
	"played_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "camp_rsvps" (
	"camp_id" integer NOT NULL,
	"user_id" uuid NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "camp_rsvps_camp_id_user_id_pk" PRIMARY KEY("camp_id","user_id"),
	CONSTRAINT "camp_rsvps_status" CHECK ("camp_rsvps"."status" in ('accepted', 'declined', 'maybe'))
);
--> statement-breakpoint
ALTER TABLE "camp_files" ADD CONSTRAINT "camp_files_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camp_files" ADD CONSTRAINT "camp_files_camp_id_camps_id_fk" FOREIGN KEY ("camp_id") REFERENCES "public"."camps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camp_files" ADD CONSTRAINT "camp_files_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camp_files" ADD CONSTRAINT "camp_files_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camp_listening_items" ADD CONSTRAINT "camp_listening_items_camp_id_camps_id_fk" FOREIGN KEY ("camp_id") REFERENCES "public"."camps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camp_listening_items" ADD CONSTRAINT "camp_listening_items_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camp_listening_items" ADD CONSTRAINT "camp_listening_items_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camp_listening_items" ADD CONSTRAINT "camp_listening_items_submitted_by_users_id_fk" FOREIGN KEY ("submitted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camp_rsvps" ADD CONSTRAINT "camp_rsvps_camp_id_camps_id_fk" FOREIGN KEY ("camp_id") REFERENCES "public"."camps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "camp_rsvps" ADD CONSTRAINT "camp_rsvps_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "camp_files_camp_idx" ON "camp_files" USING btree ("camp_id","file_id");--> statement-breakpoint
CREATE UNIQUE INDEX "camp_listening_items_track_unique" ON "camp_listening_items" USING btree ("camp_id","track_id");--> statement-breakpoint
CREATE INDEX "camp_listening_items_queue_idx" ON "camp_listening_items" USING btree ("camp_id","position","id");--> statement-breakpoint
CREATE INDEX "camp_rsvps_user_idx" ON "camp_rsvps" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "organisation_members" ADD CONSTRAINT "organisation_members_role" CHECK ("organisation_members"."role" in ('owner', 'admin', 'member'));