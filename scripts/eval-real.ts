/**
 * `npm run -s eval:real -- [eval options]`: `npm run eval` on the two small real language models the
 * tests use (SmolLM2 135M Instruct and Gemma 3 270M, cached by scripts/fetch-models.sh), served on
 * loopback by the test llama server on the CPU. Nothing is downloaded; no key is needed.
 *
 * It starts the server, then runs `cli/eval.ts` against it with the three seats of `REAL_ROSTER`
 * (SmolLM2 also as the internal model: titles, moderators, chairmen) and the options below, which
 * any option given after `--` overrides (the last of a repeated option counts). It prints what
 * `npm run eval` prints, and stops the server when the evaluation ends or is interrupted.
 */
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { missingModelsReason, modelPaths, REAL_ROSTER, startLlamaServer } from "../tests/support/llama-server.js";

/**
 * The evaluation's fixed options. Every arm on every task, a fixed seed and n. The arithmetic is
 * made easy (two terms up to 9), since six terms up to 99 are beyond any model this small. Answers
 * are capped at 96 tokens: Gemma 3 270M is a base model that does not stop by itself. One question
 * at a time: the server generates one answer at a time anyway.
 */
export const EVAL_REAL_ARGS = ["--n", "5", "--seed", "1", "--terms", "2", "--max-number", "9", "--max-tokens", "96", "--concurrency", "1"];

async function main(args: string[]): Promise<number> {
  const paths = modelPaths();
  if (!paths) {
    process.stderr.write(`${missingModelsReason()}\n`);
    return 2;
  }
  // Every core by default; on a machine busy with other work one thread is faster (llama.cpp's threads wait on each other by spinning).
  const threads = Number(process.env.DEBATT_LLAMA_THREADS) || availableParallelism();
  const server = await startLlamaServer({ models: { smollm2: paths.smollm2, gemma3: paths.gemma3 }, contextSize: 4096, threads });
  process.stderr.write(`[debatt] SmolLM2 135M Instruct and Gemma 3 270M on ${server.url}/v1, CPU threads: ${threads}\n`);
  try {
    const child = spawn("node_modules/.bin/tsx", ["cli/eval.ts", ...EVAL_REAL_ARGS, ...args], {
      stdio: "inherit",
      env: {
        ...process.env,
        OPENAI_API_KEY: "sk-local",
        OPENAI_BASE_URL: `${server.url}/v1`,
        DEBATE_PARTICIPANTS: JSON.stringify(REAL_ROSTER),
        ONESEEK_MODEL: "smollm2",
        // One answer is generated at a time, so a call can wait for the others of its round.
        DEBATE_RESPONSE_TIMEOUT_MS: "600000",
        DEBATE_VOTE_TIMEOUT_MS: "600000",
      },
    });
    // Ctrl-C reaches the evaluation too (one process group): it says where its answers are kept, then this stops the server.
    process.on("SIGINT", () => {});
    return await new Promise<number>((resolve) => child.once("exit", (code, signal) => resolve(code ?? (signal ? 130 : 1))));
  } finally {
    await server.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
