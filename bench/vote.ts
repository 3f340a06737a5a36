/**
 * Benchmark: the server's CPU per /vote question on the real HTTP path, against the stack's floor.
 *
 * A scripted OpenAI-compatible endpoint on loopback answers every call; each of the 4 models'
 * answers is 290 words streamed one word per chunk, as real providers stream. The server runs as
 * `npm start` runs it (compiled, its start script's command line) and is asked over HTTP, each
 * question's SSE stream read to its end; its CPU comes from /proc. The floor is the same model
 * calls (recorded from one question) made again through `ChatOpenAI` in a bare script
 * (bench/vote-floor.ts), in the same waves; beside it, the same calls as the tasks of a bare
 * LangGraph graph, the same again with one node per wave instead of a task per call, and the bare
 * calls inside one `AsyncLocalStorage.run` (as LangGraph runs its nodes), and the raw floors: the
 * same calls through the official `openai` client's stream, and through `fetch` and
 * `eventsource-parser`. Prints CPU per question for each, the server ÷ floor (target ≤ 1.0), the
 * server ÷ each raw floor and the server ÷ the LangGraph floor. BENCH_WORDS sets the answers' length (290), BENCH_QUESTIONS the
 * questions measured (10).
 */
import { spawn } from "node:child_process";
import { build, cpuMs, startCommand, startServer } from "./server-process.js";
import { startScriptedEndpoint, words, type RecordedRequest } from "./scripted-endpoint.js";

const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? 10);
const MODELS = ["call_grok", "call_claude", "call_gpt", "call_gemini"];
/** Words in each model's answer. */
const WORDS = Number(process.env.BENCH_WORDS ?? 290);

/** The scripted answers: WORDS words for an answer, a vote line for a ballot, a few words for the rest. */
function reply(r: RecordedRequest) {
  const all = r.messages.map((m) => String(m.content)).join("\n");
  if (all.includes("You are voting for the single best response")) return { text: "The first answer is the clearest.\nVOTE: Response A" };
  if (all.includes("There is a tie in the voting")) return { text: "VOTE: Response A" };
  if (all.includes("Generate a brief title")) return { text: "Languages for services" };
  return { text: words(WORDS) };
}

async function main() {
  build();
  const endpoint = await startScriptedEndpoint(reply);
  const start = startCommand();
  // BENCH_CPU_PROF=dir: the server writes a CPU profile there when it exits (for finding where the time goes).
  if (process.env.BENCH_CPU_PROF) start.splice(1, 0, "--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`);
  const { child, url, stop } = await startServer(start, { OPENAI_API_KEY: "sk-bench", OPENAI_BASE_URL: endpoint.url });
  try {
    const ask = async (i: number) => {
      const res = await fetch(`${url}/api/v1/chat/stream`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ message: `/vote Which language suits service ${i} best?`, participants: MODELS }),
      });
      const text = await res.text();
      if (!text.includes("event: vote-complete") && !text.includes("event: complete")) throw new Error(`the /vote did not finish: ${text.slice(-400)}`);
    };
    await ask(-1);
    await ask(-2);
    // One question's calls, in the waves the product made them (the answers, the ballots, the rest).
    const before = endpoint.requests.length;
    await ask(-3);
    const calls = endpoint.requests.slice(before);
    const waves = [calls.slice(0, MODELS.length), calls.slice(MODELS.length, 2 * MODELS.length), calls.slice(2 * MODELS.length)].filter((w) => w.length > 0);
    const cpu0 = cpuMs(child.pid!);
    for (let i = 0; i < QUESTIONS; i++) await ask(i);
    const server = (cpuMs(child.pid!) - cpu0) / QUESTIONS;
    const floor = await floorCpu("bare", endpoint.url, waves);
    const graphFloor = await floorCpu("graph", endpoint.url, waves);
    const waveFloor = await floorCpu("wave", endpoint.url, waves);
    const alsFloor = await floorCpu("bare-als", endpoint.url, waves);
    const openaiFloor = await floorCpu("openai", endpoint.url, waves);
    const fetchFloor = await floorCpu("fetch", endpoint.url, waves);
    const chunks = waves.flat().length;
    console.log(
      `debatt /vote benchmark — ${MODELS.length} models and the chairman, ${WORDS}-word answers streamed one word per chunk, a scripted loopback endpoint, ${QUESTIONS} questions after warming up`,
    );
    console.log(`${chunks} model calls per question`);
    console.log(`server (${start.join(" ")}): CPU ${server.toFixed(0)} ms per question, the SSE stream read to its end`);
    console.log(`floor (the same calls through ChatOpenAI in a bare script): CPU ${floor.toFixed(0)} ms per question`);
    console.log(
      `LangGraph floor (the same calls as the tasks of a bare LangGraph graph, checkpointed in SQLite): CPU ${graphFloor.toFixed(0)} ms per question = ${(graphFloor / floor).toFixed(2)} × the floor`,
    );
    console.log(
      `  the same with one LangGraph node per wave making its calls at once (no task or checkpoint per call): CPU ${waveFloor.toFixed(0)} ms per question = ${(waveFloor / floor).toFixed(2)} × the floor`,
    );
    console.log(
      `  the floor inside one AsyncLocalStorage.run, as LangGraph runs its nodes (Node 20 then hooks every promise): CPU ${alsFloor.toFixed(0)} ms per question = ${(alsFloor / floor).toFixed(2)} × the floor`,
    );
    console.log(`raw floor: the same calls through the openai client's stream: CPU ${openaiFloor.toFixed(0)} ms per question`);
    console.log(`raw floor: the same calls through fetch and eventsource-parser: CPU ${fetchFloor.toFixed(0)} ms per question`);
    console.log(`  server ÷ floor: ${(server / floor).toFixed(2)} (target ≤ 1.0)`);
    console.log(`  server ÷ the openai client's floor: ${(server / openaiFloor).toFixed(2)}; server ÷ the fetch floor: ${(server / fetchFloor).toFixed(2)}`);
    console.log(`  server ÷ LangGraph floor: ${(server / graphFloor).toFixed(2)} (what debatt adds over LangGraph running the same calls)`);
  } finally {
    stop(process.env.BENCH_CPU_PROF ? "SIGINT" : "SIGKILL");
    await endpoint.close();
  }
}

/** CPU per question of one of bench/vote-floor.ts's floors, run in a child process over `waves`. */
async function floorCpu(mode: "bare" | "bare-als" | "graph" | "wave" | "openai" | "fetch", baseUrl: string, waves: RecordedRequest[][]): Promise<number> {
  // Not spawnSync: the endpoint answering the floor's calls runs in this process.
  const run = spawn(process.execPath, ["--import", "tsx", "bench/vote-floor.ts", mode], { stdio: ["pipe", "pipe", "inherit"] });
  run.stdin.end(JSON.stringify({ baseUrl, waves, questions: QUESTIONS }));
  let out = "";
  run.stdout.on("data", (d: Buffer) => (out += d));
  const code = await new Promise<number | null>((resolve) => run.once("exit", resolve));
  if (code !== 0) throw new Error(`the ${mode} floor failed (exit ${code})`);
  return (JSON.parse(out) as { cpuMs: number }).cpuMs / QUESTIONS;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
