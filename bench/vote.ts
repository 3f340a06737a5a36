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
 * server ÷ each raw floor and the server ÷ the LangGraph floor.
 *
 * Each side is measured twice: over its first questions after the start, and over as many once it
 * has answered BENCH_WARM (60). V8 compiles a function once it is hot, on threads of its own whose
 * CPU /proc counts; the server has several times the floor's code to compile, so over its first
 * questions it pays mostly for that. The target is for the warm server, as a busy one runs; the
 * first questions' ratio is printed beside it. BENCH_WORDS sets the answers' length (290),
 * BENCH_QUESTIONS the questions in each measurement (20).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { createInterface } from "node:readline";
import { build, cpuMs, startCommand, startServer } from "./server-process.js";
import { startScriptedEndpoint, words, type RecordedRequest } from "./scripted-endpoint.js";

const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? 20);
/** Questions asked before the warm measurement (by then V8 has compiled the server's hot code). */
const WARM = Number(process.env.BENCH_WARM ?? 60);
/** Questions in each turn of the server and the floor measured in turns. */
const BATCH = 5;
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
  const floors: ChildProcess[] = [];
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
    // One question's calls, in the waves the product made them (the answers, the ballots, the rest).
    const before = endpoint.requests.length;
    await ask(-1);
    const calls = endpoint.requests.slice(before);
    const waves = [calls.slice(0, MODELS.length), calls.slice(MODELS.length, 2 * MODELS.length), calls.slice(2 * MODELS.length)].filter((w) => w.length > 0);
    let asked = 0;
    /** Asks the server `n` questions, each of which must make all its calls (nothing answered from a cache). */
    const serverQuestions = async (n: number) => {
      const calls0 = endpoint.requests.length;
      for (let i = 0; i < n; i++) await ask(asked++);
      if (endpoint.requests.length - calls0 !== n * calls.length) throw new Error(`expected ${calls.length} model calls per question`);
    };
    // The server and the ChatOpenAI floor in turns of BATCH questions, so that both see the machine
    // in the same state (its speed moves by a quarter over a minute): over the first questions after
    // the start, while V8 still compiles the hot code (on its own threads, which /proc counts), then
    // once each has answered WARM. Each side's turn is counted from its start to the start of its
    // next turn, so what a turn leaves running (a run's bookkeeping after its last event, V8's
    // background work) is counted in it, not lost while the other side has its turn.
    const bare = startFloor("bare", endpoint.url, waves, floors);
    await bare.run(1);
    const inTurns = async () => {
      const server: number[] = [];
      const floor: number[] = [];
      for (let done = 0; done < QUESTIONS; done += BATCH) {
        const n = Math.min(BATCH, QUESTIONS - done);
        server.push(cpuMs(child.pid!));
        await serverQuestions(n);
        floor.push((await bare.run(n)).startMs);
      }
      await sleep(200);
      server.push(cpuMs(child.pid!));
      floor.push((await bare.run(0)).startMs);
      const turns = (at: number[]) => at.slice(1).map((x, i) => x - at[i]);
      const floorTurns = turns(floor);
      return {
        server: (server.at(-1)! - server[0]) / QUESTIONS,
        floor: (floor.at(-1)! - floor[0]) / QUESTIONS,
        ratios: turns(server)
          .map((x, i) => x / floorTurns[i])
          .sort((x, y) => x - y),
      };
    };
    const cold = await inTurns();
    // Both have answered the recorded question and the first ones; each answers as many more.
    const rest = Math.max(0, WARM - 1 - asked);
    await serverQuestions(rest);
    await bare.run(rest);
    const warm = await inTurns();
    const { server, floor } = warm;
    const otherFloor = async (mode: FloorMode) => {
      const f = startFloor(mode, endpoint.url, waves, floors);
      await f.run(WARM);
      const { startMs, endMs } = await f.run(QUESTIONS);
      return (endMs - startMs) / QUESTIONS;
    };
    const graphFloor = await otherFloor("graph");
    const waveFloor = await otherFloor("wave");
    const alsFloor = await otherFloor("bare-als");
    const openaiFloor = await otherFloor("openai");
    const fetchFloor = await otherFloor("fetch");
    const chunks = waves.flat().length;
    console.log(
      `debatt /vote benchmark — ${MODELS.length} models and the chairman, ${WORDS}-word answers streamed one word per chunk, a scripted loopback endpoint, ${QUESTIONS} questions measured once each side has answered ${WARM}`,
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
    const range = (r: number[]) => `${r[0].toFixed(2)}–${r.at(-1)!.toFixed(2)}`;
    console.log(`  server ÷ floor: ${(server / floor).toFixed(2)} (target ≤ 1.0); turn by turn ${range(warm.ratios)}`);
    console.log(
      `  the first ${QUESTIONS} questions after the start, while V8 still compiles the hot code: server ${cold.server.toFixed(0)} ms, floor ${cold.floor.toFixed(0)} ms per question = ${(cold.server / cold.floor).toFixed(2)}; turn by turn ${range(cold.ratios)}`,
    );
    console.log(`  server ÷ the openai client's floor: ${(server / openaiFloor).toFixed(2)}; server ÷ the fetch floor: ${(server / fetchFloor).toFixed(2)}`);
    console.log(`  server ÷ LangGraph floor: ${(server / graphFloor).toFixed(2)} (what debatt adds over LangGraph running the same calls)`);
  } finally {
    for (const f of floors) f.kill("SIGKILL");
    stop(process.env.BENCH_CPU_PROF ? "SIGINT" : "SIGKILL");
    await endpoint.close();
  }
}

type FloorMode = "bare" | "bare-als" | "graph" | "wave" | "openai" | "fetch";

/** How long a floor may take to answer before the benchmark gives up on it. */
const FLOOR_TIMEOUT_MS = 10 * 60_000;

/**
 * One of bench/vote-floor.ts's floors, in a child process over `waves` (added to `children`, which
 * the caller kills at the end): `run(n)` asks n questions and gives the floor's CPU ms (every thread)
 * since its start, when it began them and when it had answered them.
 */
function startFloor(mode: FloorMode, baseUrl: string, waves: RecordedRequest[][], children: ChildProcess[]) {
  // Not spawnSync: the endpoint answering the floor's calls runs in this process.
  const child = spawn(process.execPath, ["--import", "tsx", "bench/vote-floor.ts", mode], { stdio: ["pipe", "pipe", "inherit"] });
  children.push(child);
  const exited = new Promise<string>((resolve) => child.once("exit", (code, signal) => resolve(`the ${mode} floor ended (${signal ?? `exit ${code}`})`)));
  child.stdin.on("error", () => {}); // a floor that died is reported by `run`
  const replies = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  child.stdin.write(`${JSON.stringify({ baseUrl, waves })}\n`);
  return {
    async run(n: number): Promise<{ startMs: number; endMs: number }> {
      child.stdin.write(`${n}\n`);
      const reply = await Promise.race([
        replies.next(),
        exited.then((why) => Promise.reject(new Error(why))),
        // Unreferenced: the timer must not keep the benchmark alive once it is done.
        sleep(FLOOR_TIMEOUT_MS, undefined, { ref: false }).then(() =>
          Promise.reject(new Error(`the ${mode} floor did not answer ${n} questions in ${FLOOR_TIMEOUT_MS / 60_000} minutes`)),
        ),
      ]);
      if (reply.done) throw new Error(await exited);
      return JSON.parse(reply.value) as { startMs: number; endMs: number };
    },
  };
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
