import { Router, type Request, type Response } from "express";
import { loadLeaderboard } from "../history/ballots.js";
import { conversationSummary, conversationView, messageView } from "../history/load.js";
import { leaderboardFilters } from "../state/leaderboard/leaderboard.js";
import type { AudioArchive } from "../providers/audio-archive.js";
import { decodeCursor, type ConversationRow, type HistoryStore } from "../history/store.js";
import type { ChatRouteDeps } from "./chat.js";
import { ownersVisibleTo } from "../state/ownership.js";
import { userOf } from "./auth.js";
import { HttpError } from "./errors.js";
import { ConversationDeletedError } from "../state/errors.js";
import { CONVERSATION_ID, ID_RULE } from "./follow-up.js";

/** Page size of the conversation list: `?limit=` from 1 to 100, 20 by default. */
const LIMIT = { default: 20, max: 100 };

function limitOf(req: Request): number {
  const raw = req.query.limit;
  if (raw === undefined) return LIMIT.default;
  if (typeof raw !== "string" || !/^\d{1,3}$/.test(raw) || Number(raw) < 1 || Number(raw) > LIMIT.max) {
    throw new HttpError(400, "invalid_limit", `limit must be a whole number from 1 to ${LIMIT.max}`);
  }
  return Number(raw);
}

/** The history, or 501 `no_history` on a server that keeps none. */
export function historyOf(deps: Pick<ChatRouteDeps, "history">): HistoryStore {
  if (!deps.history) throw new HttpError(501, "no_history", "this server keeps no history");
  return deps.history;
}

/** The user's conversation `:id`; another user's is answered 404, as one that does not exist. */
export async function ownedConversation(deps: Pick<ChatRouteDeps, "history" | "service">, req: Request, res: Response): Promise<ConversationRow> {
  const id = idOf(req, "conversation");
  const c = await historyOf(deps).conversation(id);
  if (!c || !(await deps.service.mayUseThread(userOf(res), id)))
    throw new HttpError(404, "conversation_not_found", `conversation "${id}" not found (never started here, or deleted)`);
  return c;
}

function idOf(req: Request, what: "conversation" | "debate"): string {
  const id = String(req.params.id);
  if (!CONVERSATION_ID.test(id)) throw new HttpError(400, `invalid_${what}_id`, `the ${what} id must be ${ID_RULE}`);
  return id;
}

/**
 * The history API:
 * - `GET /api/v1/conversations?limit=&cursor=`: conversations, newest first, with `nextCursor`;
 * - `GET /api/v1/conversations/:id`: one, with its messages and each answer's full result;
 * - `DELETE /api/v1/conversations/:id`: removes it, its messages and stages, its checkpoints, and
 *   its runs' replay logs and /dvoice audio;
 * - `GET /api/v1/debates/:id`: the full result of one run (`:id` is the `debate_id` / run id);
 * - `GET /api/v1/evaluations/latest`: the user's newest `npm run eval` report (`evaluation: null`
 *   when there is none);
 * - `GET /api/v1/leaderboard?format=&since=`: the models' ratings from every vote in the user's
 *   history (of one voting format, since a date), with the biases in the votes.
 * Each user sees only their own: another user's conversation or run is answered 404, as one that
 * does not exist. 501 when the server keeps no history.
 */
export function historyRouter(deps: ChatRouteDeps, audio: AudioArchive | undefined): Router {
  const router = Router();
  const history = () => historyOf(deps);

  router.get("/api/v1/conversations", async (req, res) => {
    const store = history();
    const limit = limitOf(req);
    const raw = req.query.cursor;
    let cursor;
    if (raw !== undefined) {
      cursor = typeof raw === "string" ? decodeCursor(raw) : undefined;
      if (!cursor) throw new HttpError(400, "invalid_cursor", "cursor must be the nextCursor of a previous page");
    }
    const page = await store.listConversations(ownersVisibleTo(userOf(res)), limit, cursor);
    res.json({
      conversations: page.conversations.map(conversationSummary),
      nextCursor: page.nextCursor,
    });
  });

  router.get("/api/v1/conversations/:id", async (req, res) => {
    res.json(await conversationView(history(), await ownedConversation(deps, req, res)));
  });

  router.delete("/api/v1/conversations/:id", async (req, res) => {
    const store = history();
    const id = idOf(req, "conversation");
    if (!(await deps.service.mayUseThread(userOf(res), id)))
      throw new HttpError(404, "conversation_not_found", `conversation "${id}" not found (never started here, or already deleted)`);
    const runs = await store.runsOf(id);
    if (!(await store.deleteConversation(id)))
      throw new HttpError(404, "conversation_not_found", `conversation "${id}" not found (never started here, or already deleted)`);
    // A run still going, here or on another instance, stops: it pays for nothing more, and what it
    // saves after this is removed when it ends (see RunProducer.forgetIfDeleted).
    const { hub } = deps.service;
    const deleted = new ConversationDeletedError(id);
    hub.abortThread(id, deleted);
    const stopped = await Promise.all(
      runs.map(async (run) => (await hub.has(run)) && !(await hub.finished(run)) && (await hub.stop(run, deleted).catch(() => false))),
    );
    // The checkpoints, the replay logs and the audio hold the same texts: they go too (a stopped
    // run's log once its readers have heard how it ended: see RunProducer.forgetIfDeleted).
    const saver = deps.service.graph.checkpointer;
    if (typeof saver === "object") await saver.deleteThread(id);
    await Promise.all(runs.filter((_, i) => !stopped[i]).map((run) => hub.forget(run)));
    for (const run of runs) audio?.remove(run);
    res.status(204).end();
  });

  router.get("/api/v1/debates/:id", async (req, res) => {
    const store = history();
    const id = idOf(req, "debate");
    const answer = await store.message(id);
    if (!answer || answer.role !== "assistant" || !(await deps.service.mayReadRun(userOf(res), id)))
      throw new HttpError(
        404,
        "debate_not_found",
        `no run "${id}" in the history (the id is the debate_id of debate-init, or the run_id of the stream's metadata)`,
      );
    const question = await store.message(`${id}:question`);
    res.json({ conversationId: answer.conversationId, question: question?.content ?? null, ...(await messageView(store, answer)) });
  });

  router.get("/api/v1/evaluations/latest", async (_req, res) => {
    const row = await history().latestEvaluation(ownersVisibleTo(userOf(res)));
    res.json({ evaluation: row ? { id: row.id, createdAt: row.createdAt.toISOString(), report: row.report } : null });
  });

  router.get("/api/v1/leaderboard", async (req, res) => {
    const filters = leaderboardFilters(req.query.format, req.query.since);
    res.json(await loadLeaderboard(history(), ownersVisibleTo(userOf(res)), filters));
  });

  return router;
}
