CREATE TABLE `conversations` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text,
	`title` text,
	`mode` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `conversations_created_idx` ON `conversations` (`created_at`,`id`);--> statement-breakpoint
CREATE TABLE `deliberation_stages` (
	`id` text PRIMARY KEY NOT NULL,
	`message_id` text NOT NULL,
	`stage_type` text NOT NULL,
	`stage_order` integer NOT NULL,
	`seq` integer NOT NULL,
	`model` text,
	`role` text,
	`content` text NOT NULL,
	`parsed_data` text,
	`response_time_ms` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `deliberation_stages_message_order_idx` ON `deliberation_stages` (`message_id`,`stage_order`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` text PRIMARY KEY NOT NULL,
	`conversation_id` text NOT NULL,
	`role` text NOT NULL,
	`content` text NOT NULL,
	`status` text NOT NULL,
	`error` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `messages_conversation_idx` ON `messages` (`conversation_id`,`created_at`);