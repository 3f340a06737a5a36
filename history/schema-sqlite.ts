import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * The history tables on SQLite (the default: one file in the data directory). The same tables as
 * `schema-pg.ts`, column for column: conversations, messages and the shared `deliberation_stages`
 * with its `(message_id, stage_order)` index.
 */

/** One conversation: a thread of runs. `mode` is the mode of its first run. */
export const conversations = sqliteTable(
  "conversations",
  {
    id: text("id").primaryKey(),
    userId: text("user_id"),
    title: text("title"),
    mode: text("mode").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
  },
  // A user's listing reads by owner, newest first: without the second index it read every user's rows.
  (t) => [index("conversations_created_idx").on(t.createdAt, t.id), index("conversations_user_created_idx").on(t.userId, t.createdAt, t.id)],
);

/** The user's question and the assistant's answer of each run; the answer's id is the run's id. */
export const messages = sqliteTable(
  "messages",
  {
    id: text("id").primaryKey(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    role: text("role").notNull(),
    content: text("content").notNull(),
    status: text("status").notNull(),
    error: text("error"),
    /** What the run's model calls used and cost (a UsageReport); null for a question, or a run from before it was recorded. */
    usage: text("usage", { mode: "json" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("messages_conversation_idx").on(t.conversationId, t.createdAt)],
);

/** Every stage of a run's deliberation, one row per model and stage. */
export const deliberationStages = sqliteTable(
  "deliberation_stages",
  {
    id: text("id").primaryKey(),
    messageId: text("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    stageType: text("stage_type").notNull(),
    stageOrder: integer("stage_order").notNull(),
    /** Position within the stage (participant order), so rows of one stage read back in order. */
    seq: integer("seq").notNull(),
    model: text("model"),
    role: text("role"),
    content: text("content").notNull(),
    parsedData: text("parsed_data", { mode: "json" }),
    responseTimeMs: integer("response_time_ms"),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("deliberation_stages_message_order_idx").on(t.messageId, t.stageOrder)],
);

/**
 * The people who may use the server when AUTH=tokens: a name and the SHA-256 of their token (the
 * token itself is shown once, when the user is added, and never stored).
 */
export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  tokenHash: text("token_hash").notNull().unique(),
  createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
});

/** The reports of `npm run eval`, each under the user it was run for (null: the local user); the page shows a user's latest. */
export const evaluations = sqliteTable(
  "evaluations",
  {
    id: text("id").primaryKey(),
    userId: text("user_id"),
    report: text("report", { mode: "json" }).notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("evaluations_user_created_idx").on(t.userId, t.createdAt)],
);

/**
 * Read-only links to conversations: the SHA-256 of each link's token (the token itself is shown
 * once, when the link is made, and never stored), the conversation and when it was made. Deleting
 * the conversation deletes its links.
 */
export const shares = sqliteTable(
  "shares",
  {
    tokenHash: text("token_hash").primaryKey(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  // One link per conversation: making one again replaces it.
  (t) => [uniqueIndex("shares_conversation_idx").on(t.conversationId)],
);

/**
 * Signed-in sessions of the page: the SHA-256 of each session id (the id itself lives only in the
 * browser's cookie), whose it is (a user's id, or the admin's), the SHA-256 of the token signed in
 * with, and when it expires. A session holds only while that token does: removing the user or
 * changing ADMIN_TOKEN ends it; signing out deletes it.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: text("user_id").notNull(),
    credentialHash: text("credential_hash").notNull(),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/**
 * The conversations that were deleted, by id: a deleted thread can never be resumed, reclaimed or
 * written to again (a run still going elsewhere when it was deleted included).
 */
export const deletedConversations = sqliteTable("deleted_conversations", {
  id: text("id").primaryKey(),
  deletedAt: integer("deleted_at", { mode: "timestamp_ms" }).notNull(),
});

/**
 * Every run's id and the answer it writes: a first run's id is its answer's, a resumed run's is
 * new. Any instance can so tell whose a run is (to follow, stop or delete it), whichever ran it.
 */
export const runs = sqliteTable(
  "runs",
  {
    id: text("id").primaryKey(),
    messageId: text("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    createdAt: integer("created_at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [index("runs_message_idx").on(t.messageId)],
);
