CREATE TABLE `evaluations` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`report` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `evaluations_user_created_idx` ON `evaluations` (`user_id`,`created_at`);