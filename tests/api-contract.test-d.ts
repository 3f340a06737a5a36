import { expectTypeOf } from "vitest";
import type { z } from "zod";
import type { conversationView } from "../history/load.js";
import type { StoredConversation, StoredConversationSchema } from "../state/api.js";
import type { ClientEvent, ClientPayload, EventSchemas } from "../state/events.js";
import type { StoredConversation as PageConversation } from "../web/api-client.js";
import type { reduce } from "../web/arena-state.js";

/*
 * Type tests, as vercel/ai's ui-message-chunks.test-d.ts binds its chunk types to their schemas:
 * checked by the compiler (`npx tsc --noEmit -p .`, which CI runs before the tests), so a page
 * type or a server value that drifts from its schema fails CI. Vitest does not run this file.
 */

// The page's client reads the REST schema's type; the history builds a value of it.
expectTypeOf<PageConversation>().toEqualTypeOf<z.infer<typeof StoredConversationSchema>>();
expectTypeOf<Awaited<ReturnType<typeof conversationView>>>().toExtend<StoredConversation>();

// The page reduces exactly the events the schemas declare, each payload its schema's.
expectTypeOf<Parameters<typeof reduce>[1]>().toEqualTypeOf<ClientEvent>();
expectTypeOf<ClientPayload<"moa-final">>().toEqualTypeOf<z.infer<(typeof EventSchemas)["moa_final"]>>();
expectTypeOf<ClientPayload<"stage1-complete">>().toEqualTypeOf<z.infer<(typeof EventSchemas)["stage1_complete"]>>();
expectTypeOf<ClientPayload<"vote-round-complete">>().toEqualTypeOf<z.infer<(typeof EventSchemas)["vote_round_complete"]>>();
