import { expectTypeOf } from "vitest";
import type { z } from "zod";
import type { compareHistory } from "../history/formats/compare.js";
import type { councilHistory } from "../history/formats/council.js";
import type { debattHistory } from "../history/formats/debatt.js";
import type { deepHistory } from "../history/formats/deep.js";
import type { moaHistory } from "../history/formats/moa.js";
import type { rankHistory } from "../history/formats/rank.js";
import type { reviseHistory } from "../history/formats/revise.js";
import type { voteHistory } from "../history/formats/vote.js";
import type { conversationView } from "../history/load.js";
import type { LeaderboardReportSchema, StoredConversation, StoredConversationSchema } from "../state/api.js";
import type { LeaderboardReport } from "../state/leaderboard/leaderboard.js";
import type { ClientEvent, ClientPayload, EventSchemas } from "../state/events.js";
import type { StoredConversation as PageConversation } from "../web/api-client.js";
import type { reduce } from "../web/arena-state.js";
import type { StoredCompare } from "../web/formats/compare.js";
import type { StoredCouncil } from "../web/formats/council.js";
import type { StoredDebate } from "../web/formats/debate.js";
import type { StoredDeep } from "../web/formats/deep.js";
import type { StoredMoa } from "../web/formats/moa.js";
import type { StoredRank } from "../web/formats/rank.js";
import type { StoredRevise } from "../web/formats/revise.js";
import type { StoredVote } from "../web/formats/vote.js";

/*
 * Type tests, as vercel/ai's ui-message-chunks.test-d.ts binds its chunk types to their schemas:
 * checked by the compiler (`npx tsc --noEmit -p .`, which CI runs before the tests), so a page
 * type or a server value that drifts from its schema fails CI. Vitest does not run this file.
 */

// The page's client reads the REST schema's type; the history builds a value of it.
expectTypeOf<PageConversation>().toEqualTypeOf<z.infer<typeof StoredConversationSchema>>();
expectTypeOf<Awaited<ReturnType<typeof conversationView>>>().toExtend<StoredConversation>();

// The leaderboard the route answers (and the page reads) is the REST schema's.
expectTypeOf<LeaderboardReport>().toEqualTypeOf<z.infer<typeof LeaderboardReportSchema>>();

// The page reduces exactly the events the schemas declare, each payload its schema's.
expectTypeOf<Parameters<typeof reduce>[1]>().toEqualTypeOf<ClientEvent>();
expectTypeOf<ClientPayload<"moa-final">>().toEqualTypeOf<z.infer<(typeof EventSchemas)["moa_final"]>>();
expectTypeOf<ClientPayload<"stage1-complete">>().toEqualTypeOf<z.infer<(typeof EventSchemas)["stage1_complete"]>>();
expectTypeOf<ClientPayload<"vote-round-complete">>().toEqualTypeOf<z.infer<(typeof EventSchemas)["vote_round_complete"]>>();

// Each format's page view reads a stored result as its history codec writes it: the codec's result is one of the view's.
expectTypeOf<ReturnType<typeof debattHistory.result>>().toExtend<StoredDebate>();
expectTypeOf<ReturnType<typeof compareHistory.result>>().toExtend<StoredCompare>();
expectTypeOf<ReturnType<typeof voteHistory.result>>().toExtend<StoredVote>();
expectTypeOf<ReturnType<typeof reviseHistory.result>>().toExtend<StoredRevise>();
expectTypeOf<ReturnType<typeof deepHistory.result>>().toExtend<StoredDeep>();
expectTypeOf<ReturnType<typeof councilHistory.result>>().toExtend<StoredCouncil>();
expectTypeOf<ReturnType<typeof rankHistory.result>>().toExtend<StoredRank>();
expectTypeOf<ReturnType<typeof moaHistory.result>>().toExtend<StoredMoa>();
