CREATE TABLE `shares` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`conversation_id` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `shares_conversation_idx` ON `shares` (`conversation_id`);