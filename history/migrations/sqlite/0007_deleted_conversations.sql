CREATE TABLE `deleted_conversations` (
	`id` text PRIMARY KEY NOT NULL,
	`deleted_at` integer NOT NULL
);
