/**
 * Benchmark: how much of each /debatt call a provider could serve from its prompt cache.
 *
 * 8-participant /debatts (sequential, then simultaneous; five fixed speaking orders each) run through the product's
 * OpenAI-compatible provider against a scripted loopback endpoint that records every request.
 * For each participant's turn and vote calls after its first, the share of the call's prompt that
 * is the same as its previous call's, from the start (the prefix a provider caches), summed over
 * all such calls; target ≥ 70 %. Then the same over every call of the debate, model by model (the
 * internal model's convergence analysis and synthesis included, which share the transcript), and
 * the share of input tokens the run's own usage figures report as cached (the endpoint reports
 * `prompt_tokens_details.cached_tokens` for the prefix a model's previous request left).
 */
import { depsFromEnv } from "../service/deps.js";
import { followRun } from "../service/follow-run.js";
import { createRunService } from "../service/run-service.js";
import type { ClientPayload } from "../state/events.js";
import { commonPrefix, promptText, startScriptedEndpoint, words, type RecordedRequest } from "./scripted-endpoint.js";

/** The scripted answers: turns as long as their round allows, a vote for the first candidate, the analyses. */
function reply(r: RecordedRequest) {
  const last = String(r.messages.at(-1)?.content ?? "");
  if (last.includes("Runda 4 — Röstning")) {
    const candidates = /Välj en av: ([^.]+)\./.exec(last)?.[1].split(", ") ?? [""];
    return { text: JSON.stringify({ voted_for: candidates[0], short_motivation: "clear", three_bullets: ["a", "b", "c"] }) };
  }
  if (last.includes("Du analyserar en avslutad debatt"))
    return { text: '{"merged_summary": "m", "overlap_score": 0.5, "agreements": [], "disagreements": [], "conflicts": [], "comparative_summary": ""}' };
  if (last.includes("slutanalysen")) return { text: `## Sammanfattning\n\n${words(120)}` };
  const limit = Number(/högst (\d+) ord/.exec(last)?.[1] ?? 100);
  return { text: words(Math.round(limit * 0.9), r.messages.length) };
}

/** A debate call (a turn or a vote), keyed by its participant: its model and its system prompt. */
const debateCall = (r: RecordedRequest) =>
  /Runda [1-4] — /.test(String(r.messages.at(-1)?.content ?? "")) || /Runda [1-4] — /.test(String(r.messages.at(-2)?.content ?? ""));

/** Requests grouped by a key, each group in the order they were made. */
function groupBy(requests: RecordedRequest[], key: (r: RecordedRequest) => string): Map<string, RecordedRequest[]> {
  const groups = new Map<string, RecordedRequest[]>();
  for (const r of requests) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  return groups;
}

/** Over every call after the first of each group: the characters that repeat the previous call from the start, ÷ all characters. */
function prefixShare(groups: Map<string, RecordedRequest[]>): number {
  let shared = 0;
  let total = 0;
  for (const calls of groups.values()) {
    for (let i = 1; i < calls.length; i++) {
      const now = promptText(calls[i]);
      shared += commonPrefix(promptText(calls[i - 1]), now);
      total += now.length;
    }
  }
  return shared / total;
}

/** The speaking orders' seeds measured: the figure depends on where each participant spoke, so several fixed ones. */
const SEEDS = [1, 2, 3, 4, 5];

async function measure(order: "sequential" | "simultaneous", seed: number) {
  const endpoint = await startScriptedEndpoint(reply);
  try {
    const deps = depsFromEnv({ OPENAI_API_KEY: "sk-bench", OPENAI_BASE_URL: endpoint.url, DEBATT_DATA_DIR: "/tmp/debatt-bench-cache" }, { log: () => {} });
    const service = createRunService(deps);
    const { runId } = await service.start({
      message: `/debatt ${order === "simultaneous" ? "--order simultaneous " : ""}Bör AI regleras?`,
      configurable: { seed },
    });
    let usage: ClientPayload<"usage"> | undefined;
    await followRun(service, runId, new AbortController().signal, (e) => void (e.event === "usage" && (usage = e.data)), "the benchmark stopped");
    // A participant's calls: its model and its system prompt (the internal model is OneSeek's too).
    const byParticipant = groupBy(
      endpoint.requests.filter(debateCall),
      (r) => `${r.model}|${promptText({ model: r.model, messages: r.messages.slice(0, 1) })}`,
    );
    return {
      participants: byParticipant.size,
      calls: [...byParticipant.values()].reduce((n, c) => n + c.length, 0),
      share: prefixShare(byParticipant),
      perModel: prefixShare(groupBy(endpoint.requests, (r) => r.model)),
      cached: usage ? usage.total.cached_tokens / usage.total.input_tokens : 0,
    };
  } finally {
    await endpoint.close();
  }
}

async function main() {
  console.log("debatt prompt-cache benchmark — 8-participant /debatts through the OpenAI-compatible provider, a scripted loopback endpoint");
  for (const order of ["sequential", "simultaneous"] as const) {
    const runs: Awaited<ReturnType<typeof measure>>[] = [];
    for (const seed of SEEDS) runs.push(await measure(order, seed));
    const pct = (pick: (m: (typeof runs)[number]) => number) => {
      const xs = runs.map(pick);
      const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
      return `${(100 * mean).toFixed(1)} % (${(100 * Math.min(...xs)).toFixed(1)}–${(100 * Math.max(...xs)).toFixed(1)})`;
    };
    console.log(
      `${order}: ${runs[0].participants} participants, ${runs[0].calls} turn and vote calls; the mean (lowest–highest) of ${SEEDS.length} debates with the speaking orders of seeds ${SEEDS.join(", ")}`,
    );
    console.log(`  a call's prompt that repeats the participant's previous call from the start: ${pct((m) => m.share)} (target ≥ 70 %)`);
    console.log(`  the same over every call of the debate, model by model (the analyses included): ${pct((m) => m.perModel)}`);
    console.log(`  input tokens the run's usage reports as cached (every call): ${pct((m) => m.cached)}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
