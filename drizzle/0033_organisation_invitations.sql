CREATE TABLE "organisation_invitations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "organisation_invitations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"organisation_id" integer NOT NULL,
	"email" text,
	"user_id" uuid,
	"role" text NOT NULL,
	"token" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"accepted_at" timestamp (3) with time zone,
	"accepted_by" uuid,
	"declined_at" timestamp (3) with time zone,
	"created_by" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "organisation_invitations_role" CHECK ("organisation_invitations"."role" in ('owner', 'admin', 'member')),
	CONSTRAINT "organisation_invitations_invitee" CHECK (("organisation_invitations"."email" is null) <> ("organisation_invitations"."user_id" is null))
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "organisation_invitations" ADD CONSTRAINT "organisation_invitations_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_invitations" ADD CONSTRAINT "organisation_invitations_accepted_by_users_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_invitations" ADD CONSTRAINT "organisation_invitations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "organisation_invitations_token_unique" ON "organisation_invitations" USING btree ("token");--> statement-breakpoint
CREATE INDEX "organisation_invitations_organisation_idx" ON "organisation_invitations" USING btree ("organisation_id","id");--> statement-breakpoint
CREATE INDEX "organisation_invitations_user_idx" ON "organisation_invitations" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "organisation_invitations_email_idx" ON "organisation_invitations" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "organisation_invitations_open_email_unique" ON "organisation_invitations" USING btree ("organisation_id",lower("email")) WHERE "organisation_invitations"."accepted_at" is null and "organisation_invitations"."declined_at" is null and "organisation_invitations"."email" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "organisation_invitations_open_user_unique" ON "organisation_invitations" USING btree ("organisation_id","user_id") WHERE "organisation_invitations"."accepted_at" is null and "organisation_invitations"."declined_at" is null and "organisation_invitations"."user_id" is not null;--> statement-breakpoint
-- Accounts of an external identity provider were only ever provisioned or linked on a verified address.
-- Every other existing account stays unverified: password sign-ups and operator-made accounts look alike.
UPDATE "users" SET "email_verified_at" = "created_at" WHERE "external_subject" IS NOT NULL;
