/**
 * The floor of the /vote benchmark, run as a child process: the model calls one /vote question
 * made (recorded by the scripted endpoint, passed in as JSON on stdin), made again through
 * `ChatOpenAI` in a bare script, streamed as the product streams them and in the same waves (the
 * answers at once, then the ballots at once, then the rest). It prints the CPU milliseconds of
 * `QUESTIONS` repetitions after two for warming up.
 */
import { ChatOpenAI } from "@langchain/openai";
import type { RecordedRequest } from "./scripted-endpoint.js";

const input = JSON.parse(await new Response(process.stdin as unknown as ReadableStream).text()) as { baseUrl: string; waves: RecordedRequest[][]; questions: number };

const clients = new Map<string, ChatOpenAI>();
const client = (model: string) => {
  let c = clients.get(model);
  if (!c) clients.set(model, (c = new ChatOpenAI({ model, apiKey: "sk-bench", configuration: { baseURL: input.baseUrl }, maxRetries: 0, streamUsage: true })));
  return c;
};

/** One question's calls: each wave's calls at once, every chunk read. */
async function question(): Promise<void> {
  for (const wave of input.waves) {
    await Promise.all(
      wave.map(async (r) => {
        const messages = r.messages.map((m) => [m.role === "assistant" ? "ai" : m.role === "user" ? "human" : m.role, String(m.content)] as [string, string]);
        for await (const _ of await client(r.model).stream(messages)) {
          /* every chunk is read, as the product reads them */
        }
      }),
    );
  }
}

for (let i = 0; i < 2; i++) await question();
const cpu0 = process.cpuUsage();
for (let i = 0; i < input.questions; i++) await question();
const cpu = process.cpuUsage(cpu0);
process.stdout.write(`${JSON.stringify({ cpuMs: (cpu.user + cpu.system) / 1000 })}\n`);
