CREATE TABLE `runs` (
	`id` text PRIMARY KEY NOT NULL,
	`message_id` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `runs_message_idx` ON `runs` (`message_id`);