CREATE TABLE "evaluations" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text,
	"report" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "evaluations_user_created_idx" ON "evaluations" USING btree ("user_id","created_at");