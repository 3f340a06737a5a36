import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EventSchemas, onTheWire, strictEventSchema } from "../state/events.js";
import { z } from "zod";
import { ALIASED_FIELDS, withoutAliases } from "../state/events/aliases.js";
import { aliaserOf, snakeCase, wireSchemaOf } from "../state/events/wire.js";
import { runEvents, testDeps } from "./support/harness.js";

const THREE = ["call_grok", "call_claude", "call_gpt"];

describe("event payloads on the wire: snake_case names, camelCase aliases for one release", () => {
  it("names a camelCase field in snake_case, and leaves any other name as it is", () => {
    expect(["modelKey", "responseTimeMs", "labelToModel", "isTie", "model_key", "model", "PASS", "Response A"].map(snakeCase)).toEqual([
      "model_key",
      "response_time_ms",
      "label_to_model",
      "is_tie",
      "model_key",
      "model",
      "PASS",
      "Response A",
    ]);
  });

  it("sends every camelCase field of a run's events under its snake_case name too, nested fields alike, record keys untouched", async () => {
    const { deps } = testDeps();
    const events = await runEvents(deps, "/vote Which database for a small shop?", { participants: THREE });
    const start = events.find((e) => e.event === "vote-start")!.data as Record<string, unknown>;
    expect(start.conversation_id).toBe(start.conversationId);
    expect(start.message_id).toBe(start.messageId);
    const chairman = start.chairman as Record<string, unknown>;
    expect(chairman.model_key).toBe(chairman.modelKey);

    const stage1 = events.find((e) => e.event === "stage1-complete")!.data as { data: Record<string, unknown>[] };
    for (const a of stage1.data) {
      expect(a.model_key).toBe(a.modelKey);
      expect(a.response_time_ms).toBe(a.responseTimeMs);
    }
    const round = (events.find((e) => e.event === "vote-round-complete")!.data as { data: Record<string, unknown> }).data;
    expect(round.label_to_model).toEqual(round.labelToModel);
    // A record's keys are labels, not field names.
    expect(Object.keys(round.label_to_model as object).every((k) => /^Response [A-Z]$/.test(k))).toBe(true);
    expect(round.valid_vote_count).toBe(round.validVoteCount);
    for (const v of round.votes as Record<string, unknown>[]) expect(v.voted_for).toBe(v.votedFor);

    // What a client receives is what the contract (the wire schema) says, strictly.
    for (const e of events) expect(strictEventSchema(e.event)!.safeParse(e.data).success, e.event).toBe(true);
  });

  it("holds a payload to both names: one without its snake_case field, or with an undeclared field, is refused", () => {
    const payload = onTheWire("answer_delta", { mode: "vote", stage: "collect", model: "m", display: "M", modelKey: "k", delta: "x", timestamp: "t" });
    expect(payload).toMatchObject({ modelKey: "k", model_key: "k" });
    expect(strictEventSchema("answer-delta")!.safeParse(payload).success).toBe(true);
    const { model_key: _gone, ...camelOnly } = payload as typeof payload & { model_key: string };
    expect(strictEventSchema("answer-delta")!.safeParse(camelOnly).success).toBe(false);
    expect(strictEventSchema("answer-delta")!.safeParse({ ...payload, modelkey: "k" }).success).toBe(false);
  });

  it("renames a record's fields but never its keys, which are data (a participant key may look like camelCase)", () => {
    const schema = z.object({ byKey: z.record(z.string(), z.object({ modelKey: z.string() })) });
    const wire = aliaserOf(schema)!({ byKey: { fooBar: { modelKey: "x" }, gpt_4o: { modelKey: "y" } } }) as Record<
      string,
      Record<string, Record<string, unknown>>
    >;
    expect(Object.keys(wire.by_key)).toEqual(["fooBar", "gpt_4o"]);
    expect(wire.by_key.fooBar).toEqual({ modelKey: "x", model_key: "x" });
    expect(wireSchemaOf(schema).safeParse(wire).success).toBe(true);
    // Read back as the page does: the aliases go, a record key that only looks like one stays.
    expect(withoutAliases({ gpt4o: 1, gpt_4o: 2, modelKey: "k", model_key: "k" })).toEqual({ gpt4o: 1, gpt_4o: 2, modelKey: "k" });
  });

  it("tells the page exactly the fields that have aliases (ALIASED_FIELDS, checked against the schemas)", () => {
    type Json = {
      properties?: Record<string, Json & { deprecated?: boolean }>;
      items?: Json;
      anyOf?: Json[];
      oneOf?: Json[];
      additionalProperties?: Json | boolean;
    };
    const found = new Set<string>();
    const walk = (j: Json | boolean | undefined): void => {
      if (!j || typeof j !== "object") return;
      for (const [name, p] of Object.entries(j.properties ?? {})) {
        if (p.deprecated) found.add(name);
        walk(p);
      }
      walk(j.items);
      walk(j.additionalProperties);
      for (const o of [...(j.anyOf ?? []), ...(j.oneOf ?? [])]) walk(o);
    };
    for (const schema of Object.values(EventSchemas)) walk(z.toJSONSchema(wireSchemaOf(schema), { io: "output", unrepresentable: "any" }) as Json);
    expect([...ALIASED_FIELDS].sort()).toEqual([...found].sort());
    // A record's keys that look like an alias and its twin, with equal values, are both data.
    expect(withoutAliases({ counts: { gpt4o: 1, gpt_4o: 1 } })).toEqual({ counts: { gpt4o: 1, gpt_4o: 1 } });
  });

  it("leaves the events already in snake_case as they are, at no cost (no aliaser)", () => {
    expect(aliaserOf(EventSchemas.debate_participant_start)).toBeUndefined();
    expect(aliaserOf(EventSchemas.text_delta)).toBeUndefined();
    const data = { model: "m", model_key: "k", round: 1, position: 0, timestamp: "t" };
    expect(onTheWire("debate_participant_start", data)).toBe(data);
  });

  it("documents the snake_case names and lists the deprecated aliases (docs/events.md)", () => {
    const doc = readFileSync(new URL("../docs/events.md", import.meta.url), "utf8");
    const aliases = /Deprecated camelCase aliases[^:]*: (.*)\./.exec(doc)?.[1] ?? "";
    for (const name of ["modelKey", "conversationId", "responseTimeMs", "labelToModel", "parsedRanking"]) {
      expect(aliases).toContain(`\`${name}\``);
      expect(doc).toContain(snakeCase(name));
    }
  });
});
