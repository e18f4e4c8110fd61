CREATE TABLE "interview_questions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "interview_questions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"interview_id" integer NOT NULL,
	"team_id" integer NOT NULL,
	"question" text NOT NULL,
	"question_key" text NOT NULL,
	"answer" text,
	"position" integer NOT NULL,
	"asked_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "interviews" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "interviews_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"team_id" integer NOT NULL,
	"title" text NOT NULL,
	"slug" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"published_at" timestamp (3) with time zone,
	"intro" text,
	"articles" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"videos" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by" uuid,
	"created_by_key_id" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "interviews_status" CHECK ("interviews"."status" in ('draft', 'published')),
	CONSTRAINT "interviews_published_at" CHECK (("interviews"."status" = 'published') = ("interviews"."published_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "interview_questions" ADD CONSTRAINT "interview_questions_interview_id_interviews_id_fk" FOREIGN KEY ("interview_id") REFERENCES "public"."interviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interview_questions" ADD CONSTRAINT "interview_questions_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interviews" ADD CONSTRAINT "interviews_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interviews" ADD CONSTRAINT "interviews_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "interview_questions_interview_idx" ON "interview_questions" USING btree ("interview_id","position","id");--> statement-breakpoint
CREATE INDEX "interview_questions_bank_idx" ON "interview_questions" USING btree ("team_id","question_key");--> statement-breakpoint
CREATE UNIQUE INDEX "interviews_team_slug_unique" ON "interviews" USING btree ("team_id","slug");--> statement-breakpoint
CREATE INDEX "interviews_team_idx" ON "interviews" USING btree ("team_id","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "interviews_team_status_idx" ON "interviews" USING btree ("team_id","status","id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "interviews_team_published_idx" ON "interviews" USING btree ("team_id","published_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "interviews"."status" = 'published';