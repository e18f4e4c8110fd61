ALTER TABLE "track_teams" ADD COLUMN "owner" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "track_teams" SET "owner" = true FROM "tracks" WHERE "tracks"."id" = "track_teams"."track_id" AND "tracks"."team_id" = "track_teams"."team_id";--> statement-breakpoint
CREATE INDEX "track_teams_shared_idx" ON "track_teams" USING btree ("team_id","track_id") WHERE not "track_teams"."owner";--> statement-breakpoint
CREATE INDEX "tracks_team_updated_idx" ON "tracks" USING btree ("team_id","updated_at","id") WHERE "tracks"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "tracks_team_title_idx" ON "tracks" USING btree ("team_id",lower("title"),"id") WHERE "tracks"."deleted_at" is null;