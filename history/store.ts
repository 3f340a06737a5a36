import { randomUUID } from "node:crypto";
import type { HistoryFormats } from "./codec.js";
import type { NewStage, RunStage, StageRow } from "./stage.js";
import { and, asc, desc, eq, gte, inArray, isNull, lt, or, type Column } from "drizzle-orm";
import type { NodePgDatabase } from "drizzle-orm/node-postgres";
import * as pgSchema from "./schema-pg.js";
import { ConversationDeletedError } from "../state/errors.js";
import { LOCAL_OWNER } from "../state/ownership.js";
import { DrizzleUsers, type UserStore } from "./users.js";
import { z } from "zod";
import { UsageReportSchema, type UsageReport } from "../state/usage.js";

export { stageData, type NewStage, type RunStage, type StageRow } from "./stage.js";

/** A row of `conversations`, as its Drizzle table has it. */
export type ConversationRow = typeof pgSchema.conversations.$inferSelect;

/** How a run's answer ended: still `streaming`, `complete`, `error` or `cancelled`. */
export type MessageStatus = "streaming" | "complete" | "error" | "cancelled";

/** A row of `messages`, with its role, status and usage read as what they are (see `messageRow`). */
export type MessageRow = Omit<typeof pgSchema.messages.$inferSelect, "role" | "status" | "usage"> & {
  role: "user" | "assistant";
  status: MessageStatus;
  /** What the run's model calls used and cost (answers only; null when not recorded). */
  usage: UsageReport | null;
};

const MESSAGE_STATUSES = ["streaming", "complete", "error", "cancelled"] as const satisfies readonly MessageStatus[];

/**
 * A stored message checked, not cast: its role and status must be known ones (else the row is
 * not ours: an error), and a usage that no longer reads as a usage report is left out (null).
 */
function messageRow(row: typeof pgSchema.messages.$inferSelect): MessageRow {
  const role = z.enum(["user", "assistant"]).parse(row.role);
  const status = z.enum(MESSAGE_STATUSES).parse(row.status);
  const usage = row.usage === null ? null : (UsageReportSchema.safeParse(row.usage).data ?? null);
  return { ...row, role, status, usage };
}

/** What a run writes when it starts. */
export interface RunStart {
  conversationId: string;
  /** The answer's id: the assistant message's id and the `messageId` of its stages (a first run's id too). */
  messageId: string;
  /** The run's id: the answer's for a first run, a new one for a resumed run (default: `messageId`). */
  runId?: string;
  /** The user who owns the conversation, written when the run starts it. */
  userId: string;
  /** The conversation's mode, written when the run starts the conversation. */
  mode: string;
  title: string | null;
  question: string;
  at: Date;
}

/** How a run ended, as `finishRun` writes it. */
export interface RunEnd {
  content: string;
  status: MessageStatus;
  error: string | null;
  /** The conversation's generated title, when the run made one. */
  title: string | null;
  at: Date;
  /** What the run's model calls used and cost; absent when not counted (it is then left as it was). */
  usage?: UsageReport;
}

/** A page of conversations, newest first, and the cursor of the next page (null at the end). */
export interface ConversationPage {
  conversations: ConversationRow[];
  nextCursor: string | null;
}

/** The history: conversations, their messages and every deliberation stage, in a SQL database. */
export interface HistoryStore {
  /** Where it is, for the log: a file path or a redacted URL. */
  readonly where: string;
  /** How each format's runs are written and read back (its codec). */
  readonly formats: HistoryFormats;
  /** The people who may use the server (AUTH=tokens), in the same database. */
  readonly users: UserStore;
  /** Writes the conversation (if new), the user's question and the answer-to-be (status `streaming`). */
  startRun(run: RunStart): Promise<void>;
  /** Writes stage rows; a row already written (same id) is left as it is, so a resumed run may write again. */
  addStages(rows: NewStage[]): Promise<void>;
  /** Sets the answer's text and how the run ended, and the conversation's title and time. */
  finishRun(run: Pick<RunStart, "conversationId" | "messageId">, end: RunEnd): Promise<void>;
  /** What a run's model calls have used so far, written as they are counted (a run cut short keeps it). */
  setUsage(messageId: string, usage: UsageReport): Promise<void>;
  /**
   * The conversations of `owners`, newest first, `limit` at a time after `cursor` (rows without
   * an owner, from before users existed, count as `local`'s).
   */
  listConversations(owners: readonly string[], limit: number, cursor?: Cursor): Promise<ConversationPage>;
  conversation(id: string): Promise<ConversationRow | undefined>;
  /** A conversation's messages, oldest first. */
  messagesOf(conversationId: string): Promise<MessageRow[]>;
  message(id: string): Promise<MessageRow | undefined>;
  /** The answer a run writes, by the run's id: a first run's (its own id) or a resumed one's. */
  answerOfRun(runId: string): Promise<MessageRow | undefined>;
  /** The latest `limit` answers in the conversations of `owners`, newest first, with their conversation's mode. */
  recentAnswers(owners: readonly string[], limit: number): Promise<{ conversationId: string; mode: string; content: string }[]>;
  /**
   * The ids of every run of a conversation, first and resumed; with `latest`, only those of its
   * latest answer (the only one a run still going can be writing).
   */
  runsOf(conversationId: string, latest?: boolean): Promise<string[]>;
  /** The stages of one message, by stage order then position. */
  stagesOf(messageId: string): Promise<StageRow[]>;
  /**
   * The stages of `stageTypes` of every run in the conversations of `owners` (as `listConversations`
   * reads owners) that started at or after `since`, each with its run's start, by run then stage.
   */
  stagesOfRuns(owners: readonly string[], stageTypes: readonly string[], since?: Date): Promise<RunStage[]>;
  /** Deletes a conversation with its messages and stages (the foreign keys cascade); false if unknown. */
  deleteConversation(id: string): Promise<boolean>;
  /** Whether the conversation (a thread) was deleted: then it can never be resumed, reclaimed or written to again. */
  isDeleted(id: string): Promise<boolean>;
  /** Makes the conversation's read-only link the one whose token hashes to `tokenHash`, in place of any earlier one. */
  share(conversationId: string, tokenHash: string, at: Date): Promise<void>;
  /** Removes the conversation's read-only link; false when it had none. */
  unshare(conversationId: string): Promise<boolean>;
  /** When the conversation's read-only link was made, if it has one. */
  sharedSince(conversationId: string): Promise<Date | undefined>;
  /** The conversation a read-only link's token hash opens, if the link exists. */
  sharedConversation(tokenHash: string): Promise<ConversationRow | undefined>;
  /** Keeps an evaluation's report under its user (`local`: the local user, as conversations have it). */
  addEvaluation(userId: string, report: unknown, at: Date): Promise<void>;
  /** The newest evaluation of `owners` (as `listConversations` reads owners), if any. */
  latestEvaluation(owners: readonly string[]): Promise<EvaluationRow | undefined>;
  close(): Promise<void>;
}

/** A row of `evaluations`: one report of `npm run eval`, as its Drizzle table has it. */
export type EvaluationRow = typeof pgSchema.evaluations.$inferSelect;

/** A position in the newest-first list: the last conversation of the previous page. */
export interface Cursor {
  createdAt: number;
  id: string;
}

/** An opaque cursor for the next page. */
export function encodeCursor(c: ConversationRow): string {
  return Buffer.from(JSON.stringify([c.createdAt.getTime(), c.id])).toString("base64url");
}

/** Reads a cursor of `encodeCursor`; undefined when it is not one. */
export function decodeCursor(raw: string): Cursor | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, "base64url").toString("utf8"));
    // Only what a real cursor can hold: a time a Date can represent, and a conversation id.
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      Number.isSafeInteger(value[0]) &&
      Math.abs(value[0]) <= 8.64e15 &&
      typeof value[1] === "string" &&
      /^[A-Za-z0-9._:-]{1,128}$/.test(value[1])
    ) {
      return { createdAt: value[0], id: value[1] };
    }
  } catch {
    // not base64url JSON
  }
  return undefined;
}

/** Rows whose `user_id` is one of `owners` (rows without one, from before users existed, count as `local`'s). */
function ownedBy(userId: Column, owners: readonly string[]) {
  return owners.includes(LOCAL_OWNER) ? or(inArray(userId, [...owners]), isNull(userId)) : inArray(userId, [...owners]);
}

/** The tables, as both schema files define them (the same names and columns). */
type Tables = typeof pgSchema;

/**
 * The history on Drizzle. One implementation serves both databases: the SQLite and PostgreSQL
 * query builders have the same methods for everything used here (select, insert with
 * on-conflict, update, delete), and both schema files declare the same tables, so the SQLite
 * database is typed as the PostgreSQL one (see `openHistory`). No transactions are used: the
 * better-sqlite3 driver's are synchronous and PostgreSQL's are not.
 */
export class DrizzleHistory implements HistoryStore {
  readonly users: UserStore;

  constructor(
    private readonly db: NodePgDatabase,
    private readonly t: Tables,
    readonly where: string,
    private readonly onClose: () => Promise<void>,
    readonly formats: HistoryFormats,
  ) {
    this.users = new DrizzleUsers(db, t);
  }

  async startRun(run: RunStart): Promise<void> {
    const { conversations, messages } = this.t;
    // A deleted conversation stays deleted: a run that began before its deletion does not bring it back.
    if (await this.isDeleted(run.conversationId)) throw new ConversationDeletedError(run.conversationId);
    await this.db
      .insert(conversations)
      .values({ id: run.conversationId, userId: run.userId, title: run.title, mode: run.mode, createdAt: run.at, updatedAt: run.at })
      .onConflictDoUpdate({ target: conversations.id, set: { updatedAt: run.at } });
    // The question is written before anything is asked, so it is kept even if the run fails.
    await this.db
      .insert(messages)
      .values([
        {
          id: `${run.messageId}:question`,
          conversationId: run.conversationId,
          role: "user",
          content: run.question,
          status: "complete",
          error: null,
          createdAt: run.at,
        },
        {
          id: run.messageId,
          conversationId: run.conversationId,
          role: "assistant",
          content: "",
          status: "streaming",
          error: null,
          createdAt: new Date(run.at.getTime() + 1),
        },
      ])
      .onConflictDoNothing();
    // Which answer the run writes, so that any instance can tell whose the run is.
    await this.db
      .insert(this.t.runs)
      .values({ id: run.runId ?? run.messageId, messageId: run.messageId, createdAt: run.at })
      .onConflictDoNothing();
  }

  async answerOfRun(runId: string): Promise<MessageRow | undefined> {
    const own = await this.message(runId);
    if (own) return own;
    const [row] = await this.db.select({ messageId: this.t.runs.messageId }).from(this.t.runs).where(eq(this.t.runs.id, runId));
    return row && this.message(row.messageId);
  }

  async recentAnswers(owners: readonly string[], limit: number): Promise<{ conversationId: string; mode: string; content: string }[]> {
    const { conversations: c, messages: m } = this.t;
    return await this.db
      .select({ conversationId: m.conversationId, mode: c.mode, content: m.content })
      .from(m)
      .innerJoin(c, eq(c.id, m.conversationId))
      .where(and(ownedBy(c.userId, owners), eq(m.role, "assistant")))
      .orderBy(desc(m.createdAt), desc(m.id))
      .limit(limit);
  }

  async runsOf(conversationId: string, latest = false): Promise<string[]> {
    const { messages: m, runs: r } = this.t;
    const query = this.db
      .select({ id: m.id })
      .from(m)
      .where(and(eq(m.conversationId, conversationId), eq(m.role, "assistant")))
      .orderBy(desc(m.createdAt), desc(m.id));
    const answers = (await (latest ? query.limit(1) : query)).map((a) => a.id);
    const resumed = answers.length ? (await this.db.select({ id: r.id }).from(r).where(inArray(r.messageId, answers))).map((a) => a.id) : [];
    return [...new Set([...answers, ...resumed])];
  }

  async addStages(rows: NewStage[]): Promise<void> {
    if (rows.length === 0) return;
    const at = new Date();
    await this.db
      .insert(this.t.deliberationStages)
      .values(rows.map((r) => ({ ...r, createdAt: at })))
      .onConflictDoNothing();
  }

  async setUsage(messageId: string, usage: UsageReport): Promise<void> {
    await this.db.update(this.t.messages).set({ usage }).where(eq(this.t.messages.id, messageId));
  }

  async finishRun(run: Pick<RunStart, "conversationId" | "messageId">, end: RunEnd): Promise<void> {
    const { conversations, messages } = this.t;
    await this.db
      .update(messages)
      .set({ content: end.content, status: end.status, error: end.error, ...(end.usage ? { usage: end.usage } : {}) })
      .where(eq(messages.id, run.messageId));
    await this.db
      .update(conversations)
      .set(end.title ? { title: end.title, updatedAt: end.at } : { updatedAt: end.at })
      .where(eq(conversations.id, run.conversationId));
  }

  async listConversations(owners: readonly string[], limit: number, cursor?: Cursor): Promise<ConversationPage> {
    const c = this.t.conversations;
    const after = cursor ? or(lt(c.createdAt, new Date(cursor.createdAt)), and(eq(c.createdAt, new Date(cursor.createdAt)), lt(c.id, cursor.id))) : undefined;
    const rows = await this.db
      .select()
      .from(c)
      .where(and(ownedBy(c.userId, owners), after))
      .orderBy(desc(c.createdAt), desc(c.id))
      .limit(limit + 1);
    const page = rows.slice(0, limit);
    return { conversations: page, nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1]) : null };
  }

  async conversation(id: string): Promise<ConversationRow | undefined> {
    const [row] = await this.db.select().from(this.t.conversations).where(eq(this.t.conversations.id, id));
    return row;
  }

  async messagesOf(conversationId: string): Promise<MessageRow[]> {
    const m = this.t.messages;
    return (await this.db.select().from(m).where(eq(m.conversationId, conversationId)).orderBy(asc(m.createdAt), asc(m.id))).map(messageRow);
  }

  async message(id: string): Promise<MessageRow | undefined> {
    const [row] = await this.db.select().from(this.t.messages).where(eq(this.t.messages.id, id));
    return row && messageRow(row);
  }

  async stagesOf(messageId: string): Promise<StageRow[]> {
    const s = this.t.deliberationStages;
    return await this.db.select().from(s).where(eq(s.messageId, messageId)).orderBy(s.stageOrder, s.seq);
  }

  async stagesOfRuns(owners: readonly string[], stageTypes: readonly string[], since?: Date): Promise<RunStage[]> {
    const { conversations: c, messages: m, deliberationStages: s } = this.t;
    const rows = await this.db
      .select({ stage: s, runAt: m.createdAt })
      .from(s)
      .innerJoin(m, eq(m.id, s.messageId))
      .innerJoin(c, eq(c.id, m.conversationId))
      .where(and(ownedBy(c.userId, owners), inArray(s.stageType, [...stageTypes]), since ? gte(m.createdAt, since) : undefined))
      .orderBy(asc(m.createdAt), asc(s.messageId), asc(s.stageOrder), asc(s.seq));
    return rows.map((r) => ({ ...r.stage, runAt: r.runAt }));
  }

  async deleteConversation(id: string): Promise<boolean> {
    if (!(await this.conversation(id))) return false;
    // Marked first: from now on no run may write the thread again, nor anyone resume it.
    await this.db.insert(this.t.deletedConversations).values({ id, deletedAt: new Date() }).onConflictDoNothing();
    await this.db.delete(this.t.conversations).where(eq(this.t.conversations.id, id));
    return true;
  }

  async isDeleted(id: string): Promise<boolean> {
    const [row] = await this.db.select({ id: this.t.deletedConversations.id }).from(this.t.deletedConversations).where(eq(this.t.deletedConversations.id, id));
    return row !== undefined;
  }

  async share(conversationId: string, tokenHash: string, at: Date): Promise<void> {
    const { shares } = this.t;
    // One statement, so that links made at once leave one: the conversation's is replaced.
    await this.db
      .insert(shares)
      .values({ tokenHash, conversationId, createdAt: at })
      .onConflictDoUpdate({ target: shares.conversationId, set: { tokenHash, createdAt: at } });
  }

  async unshare(conversationId: string): Promise<boolean> {
    const { shares } = this.t;
    const removed = await this.db.delete(shares).where(eq(shares.conversationId, conversationId)).returning({ tokenHash: shares.tokenHash });
    return removed.length > 0;
  }

  async sharedSince(conversationId: string): Promise<Date | undefined> {
    const { shares } = this.t;
    const [row] = await this.db.select({ at: shares.createdAt }).from(shares).where(eq(shares.conversationId, conversationId));
    return row?.at;
  }

  async sharedConversation(tokenHash: string): Promise<ConversationRow | undefined> {
    const { shares, conversations } = this.t;
    const [row] = await this.db
      .select({ c: conversations })
      .from(shares)
      .innerJoin(conversations, eq(conversations.id, shares.conversationId))
      .where(eq(shares.tokenHash, tokenHash));
    return row?.c;
  }

  async addEvaluation(userId: string, report: unknown, at: Date): Promise<void> {
    await this.db.insert(this.t.evaluations).values({ id: randomUUID(), userId: userId === LOCAL_OWNER ? null : userId, report, createdAt: at });
  }

  async latestEvaluation(owners: readonly string[]): Promise<EvaluationRow | undefined> {
    const e = this.t.evaluations;
    const [row] = await this.db.select().from(e).where(ownedBy(e.userId, owners)).orderBy(desc(e.createdAt), desc(e.id)).limit(1);
    return row;
  }

  close(): Promise<void> {
    return this.onClose();
  }
}
