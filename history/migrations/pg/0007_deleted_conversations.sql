CREATE TABLE "deleted_conversations" (
	"id" text PRIMARY KEY NOT NULL,
	"deleted_at" timestamp with time zone NOT NULL
);
