-- Invitation tokens are kept as their SHA-256 (hex, as src/shared/hash.ts computes it): existing tokens keep working.
ALTER TABLE "team_invites" ADD COLUMN "token_hash" text;--> statement-breakpoint
UPDATE "team_invites" SET "token_hash" = encode(sha256(convert_to("token", 'UTF8')), 'hex');--> statement-breakpoint
ALTER TABLE "team_invites" ALTER COLUMN "token_hash" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "organisation_invitations" ADD COLUMN "token_hash" text;--> statement-breakpoint
UPDATE "organisation_invitations" SET "token_hash" = encode(sha256(convert_to("token", 'UTF8')), 'hex');--> statement-breakpoint
ALTER TABLE "organisation_invitations" ALTER COLUMN "token_hash" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "session_participants" ADD COLUMN "token_hash" text;--> statement-breakpoint
DROP INDEX "organisation_invitations_token_unique";--> statement-breakpoint
DROP INDEX "team_invites_token_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "organisation_invitations_token_hash_unique" ON "organisation_invitations" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "session_participants_token_hash_unique" ON "session_participants" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "team_invites_token_hash_unique" ON "team_invites" USING btree ("token_hash");--> statement-breakpoint
ALTER TABLE "organisation_invitations" DROP COLUMN "token";--> statement-breakpoint
ALTER TABLE "team_invites" DROP COLUMN "token";
