/**
 * The floor under bench/scale.ts, run as a process of its own: `n` model streams at the same
 * pacing (a first token after 1 s, then 40 a second, one per chunk), each one call after another
 * as a debate's speakers are, through `@langchain/core` alone (a chat model's `invoke` with a
 * streaming callback, as any LangChain app streams) on the same simulated model: no graph, no
 * events, no HTTP. Starts them at `arrivals` a second, then reports over IPC the share of a core
 * used over the next `windowMs`.
 */
import { simulatedModels } from "../service/formats.js";
import { setMaxListeners } from "node:events";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { HumanMessage } from "@langchain/core/messages";
import { defaultRoster } from "../state/participants.js";

const [n, arrivals, windowMs] = process.argv.slice(2).map(Number);
const models = simulatedModels({ latencyMs: 1000, chunkDelayMs: 25, chunkTokens: 1, roundWords: [300, 500, 500] });
const [speaker] = defaultRoster();

/** Hears every token, as a streaming app does. */
class Tokens extends BaseCallbackHandler {
  name = "tokens";
  readonly lc_prefer_streaming = true;
  count = 0;
  override handleLLMNewToken(): void {
    this.count++;
  }
}

async function speak(stop: AbortSignal): Promise<void> {
  for (let round = 1; !stop.aborted; round = (round % 3) + 1) {
    const model = models.create({ phase: "turn", participant: speaker, round, topic: "Bör AI regleras?" });
    await model.invoke([new HumanMessage(`Bör AI regleras? Runda ${round}.`)], { signal: stop, callbacks: [new Tokens()] }).catch(() => {});
  }
}

const stop = new AbortController();
// Every stream listens to the one signal.
setMaxListeners(Infinity, stop.signal);
for (let i = 0; i < n; i++) {
  setTimeout(() => void speak(stop.signal), (i * 1000) / arrivals);
}
setTimeout(
  () => {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    setTimeout(() => {
      const cpu = process.cpuUsage(cpu0);
      process.send!({ share: (cpu.user + cpu.system) / 1000 / (performance.now() - t0) });
      stop.abort();
      process.exit(0);
    }, windowMs);
  },
  (n * 1000) / arrivals,
);
