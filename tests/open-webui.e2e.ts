import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFailed, vi } from "vitest";
import type { SpawnedServer } from "../scripts/spawn-server.js";
import { debater, roster } from "./support/debater.js";
import { startFakeOpenAI, type Reply } from "./support/fake-servers.js";
import { descendantsOf } from "./support/reap.js";
import { startServerProcess } from "./support/server-process.js";

/**
 * The real Open WebUI (0.12.4, from PyPI) in front of a real debatt server, driven through Open
 * WebUI's own HTTP and socket.io API the way its web page drives it: a file uploaded and attached
 * to a chat with `debatt-vote`, then a follow-up in the same chat. debatt's participants are a
 * scripted OpenAI-compatible endpoint that records what each was asked.
 *
 * Not part of `npm test` (it needs Python and a 1.2 GB environment): make the environment with
 * `bash scripts/open-webui-venv.sh`, run with `npx vitest run --config vitest.open-webui.config.ts`.
 */

const VENV = process.env.OPEN_WEBUI_VENV ?? join(homedir(), ".cache", "debatt", "open-webui-0.12.4");
/** Written by scripts/open-webui-venv.sh once its install completed. */
const installed = existsSync(join(VENV, "bin", "open-webui")) && existsSync(join(VENV, ".debatt-open-webui-ready"));
if (!installed)
  console.warn(
    `open-webui.e2e.ts: SKIPPED — no Open WebUI environment at ${VENV}. Make it with \`bash scripts/open-webui-venv.sh\` ` +
      "(Python 3.11 or 3.12, PyPI, about 1.2 GB and 2–3 minutes; OPEN_WEBUI_VENV chooses the place), then run " +
      "`npx vitest run --config vitest.open-webui.config.ts` again.",
  );

/** The model Open WebUI's chat is with: /vote, a format that takes follow-ups. */
const MODEL = "debatt-vote";
/** The line of the attached file that only the file has (no scripted answer repeats it). */
const CODE_LINE = "The secret code word is PELICAN-42.";
const DOCUMENT = `Debatt test document.\n${CODE_LINE}\nMotion: This house believes that offline tests are better than online tests.\n`;
const QUESTION = "What is the secret code word in the document?";
const FOLLOW_UP = "And what is the motion of the document?";

/** The internal model (chores, the title), apart from the participants' models. */
const INTERNAL_MODEL = "internal/tasks";
const PARTICIPANTS = (JSON.parse(roster) as { display: string; model: string }[]).map(({ display, model }) => ({ display, model }));

/**
 * Open WebUI offline, with no torch: any embedding engine but the local one (the slim install has
 * no sentence-transformers), whole files in the prompt instead of embeddings, and no Ollama.
 */
const OPEN_WEBUI_ENV = {
  OFFLINE_MODE: "true",
  HF_HUB_OFFLINE: "1",
  RAG_EMBEDDING_ENGINE: "openai",
  BYPASS_EMBEDDING_AND_RETRIEVAL: "true",
  ENABLE_OLLAMA_API: "false",
  WEBUI_AUTH: "false",
};

/** The text of every message of a chat completion request, one after the other. */
const textOf = (body: { messages?: { content: unknown }[] }): string =>
  (body.messages ?? [])
    .map(({ content }) => (typeof content === "string" ? content : Array.isArray(content) ? content.map((p: { text?: string }) => p.text ?? "").join("") : ""))
    .join("\n");

/** What the scripted endpoint answers: Open WebUI's chores, the ballots, the title, each participant's answer. */
function scripted(body: { model: string; messages: { content: unknown }[] }): Reply {
  const usage = { prompt_tokens: 120, completion_tokens: 30, cost: 0.0004 };
  const text = textOf(body);
  // Open WebUI's task prompts, which debatt passes to the internal model alone.
  const chore = /### Task:[\s\S]*?\{\s*"(title|tags|follow_ups|queries)"\s*:/.exec(text)?.[1];
  if (chore) {
    const answers: Record<string, unknown> = {
      title: "Secret Code Word",
      tags: ["Testing"],
      follow_ups: ["What else does the document say?"],
      queries: ["secret code word"],
    };
    return { text: JSON.stringify({ [chore]: answers[chore] }), usage };
  }
  if (text.includes("You are voting for the single best response") || text.includes("There is a tie in the voting"))
    return { text: "Response A reads the document most closely.\n\nVOTE: Response A", usage };
  if (text.includes("Generate a brief title")) return { text: "The Secret Code Word", usage };
  const participant = PARTICIPANTS.find((p) => p.model === body.model);
  if (participant) return { text: `${participant.display} has read the attached document and answers from it.`, usage };
  return { ...debater(body), usage };
}

/** A free TCP port on loopback (for a server that cannot be told to take port 0 and say which it took). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The last `lines` lines of a log. */
const tail = (log: string, lines = 40) => log.trimEnd().split("\n").slice(-lines).join("\n");

interface OpenWebUIProcess {
  url: string;
  child: ChildProcess;
  log: () => string;
  /** Resolves once it has exited. */
  exited: Promise<void>;
}

/**
 * Starts `open-webui serve` from the venv on a free loopback port, in a process group of its own
 * (`kill` stops it whole), with a fresh data directory under `root`, its one OpenAI connection
 * being `openaiBaseUrl`; resolves once `GET /health` answers 200. `track` is given the process at
 * once, so that it is stopped even if it never becomes ready.
 */
async function startOpenWebUI(root: string, openaiBaseUrl: string, track: (p: OpenWebUIProcess) => void): Promise<OpenWebUIProcess> {
  const port = await freePort();
  const home = join(root, "home");
  const data = join(root, "open-webui-data");
  mkdirSync(home, { recursive: true });
  mkdirSync(data, { recursive: true });
  const child = spawn(join(VENV, "bin", "open-webui"), ["serve", "--host", "127.0.0.1", "--port", String(port)], {
    // It writes nothing outside its data directory, its HOME and its working directory: all under `root`.
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      LANG: "C.UTF-8",
      PYTHONUNBUFFERED: "1",
      ...OPEN_WEBUI_ENV,
      DATA_DIR: data,
      WEBUI_SECRET_KEY: randomUUID(),
      OPENAI_API_BASE_URL: openaiBaseUrl,
      OPENAI_API_KEY: "x",
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let log = "";
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-200_000);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once("exit", (code) => {
      exitCode = code;
      resolve();
    }),
  );
  const started: OpenWebUIProcess = { url: `http://127.0.0.1:${port}`, child, log: () => log, exited };
  track(started);
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`Open WebUI exited with ${exitCode} before it was ready:\n${tail(log)}`);
    if (
      await fetch(`${started.url}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return started;
    if (Date.now() > deadline) throw new Error(`Open WebUI did not answer /health in 240 s:\n${tail(log)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Kills a process group (Open WebUI's), and whatever else descends from its leader. */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  for (const pid of [...descendantsOf(child.pid), child.pid]) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** One of Open WebUI's socket `events`: `{chat_id, message_id, data: {type, data}}`. */
interface SocketEvent {
  chat_id?: string;
  message_id?: string;
  data?: { type?: string; data?: unknown };
}

/**
 * A socket.io client (Engine.IO 4 over a WebSocket) as far as Open WebUI's page uses one: it
 * connects with the user's token, joins (`user-join`, acknowledged) and hands on every `events`
 * message. Its socket id is the `session_id` a chat completion of the page carries: with it, Open
 * WebUI runs the chat as the page's (stored, with its background tasks), not as a plain proxy.
 */
async function openSocket(url: string, token: string, onEvent: (event: SocketEvent) => void): Promise<{ sid: string; close: () => void }> {
  const ws = new WebSocket(`${url.replace(/^http/, "ws")}/ws/socket.io/?EIO=4&transport=websocket`);
  return new Promise((resolve, reject) => {
    let sid = "";
    const timer = setTimeout(() => reject(new Error("socket.io: not joined in 30 s")), 30_000);
    const fail = (why: string) => {
      clearTimeout(timer);
      reject(new Error(`socket.io: ${why}`));
      ws.close();
    };
    ws.onerror = () => fail("the WebSocket failed");
    ws.onmessage = (message) => {
      const packet = String(message.data);
      if (packet.startsWith("0"))
        ws.send(`40${JSON.stringify({ token })}`); // Engine.IO open: connect the namespace
      else if (packet === "2")
        ws.send("3"); // ping: pong
      else if (packet.startsWith("40")) {
        sid = (JSON.parse(packet.slice(2)) as { sid: string }).sid;
        ws.send(`421${JSON.stringify(["user-join", { auth: { token } }])}`); // emit with ack id 1
      } else if (packet.startsWith("431")) {
        clearTimeout(timer);
        resolve({ sid, close: () => ws.close() });
      } else if (packet.startsWith("44")) fail(`connection refused: ${packet.slice(2)}`);
      else if (packet.startsWith("42")) {
        const [name, data] = JSON.parse(packet.slice(2).replace(/^\d+/, "")) as [string, SocketEvent];
        if (name === "events") onEvent(data);
      }
    };
  });
}

/** A message of a chat as Open WebUI stores it. */
interface StoredMessage {
  role: string;
  /** The answer (Open WebUI 0.12.4 keeps the reasoning apart, in `output`). */
  content: string;
  done?: boolean;
  error?: unknown;
  /** The Responses-style items it was made of: a `reasoning` item (the folded "Thought" section), then the `message`. */
  output?: { type: string; content?: { text?: string }[] }[];
}

/** What Open WebUI stored for an assistant message, for the log: its content, and the reasoning it shows folded. */
function describeStored(turn: string, stored: StoredMessage): string {
  const reasoning = (stored.output ?? [])
    .filter((item) => item.type === "reasoning")
    .map((item) => (item.content ?? []).map((part) => part.text ?? "").join(""))
    .join("\n");
  const costIn = (text: string) => text.split("\n").find((line) => line.includes("Cost:")) ?? "none";
  return [
    `Open WebUI stored for the assistant message (${turn}):`,
    `- the "Cost:" line in the content: ${costIn(stored.content)}`,
    `- the "Cost:" line in the reasoning: ${costIn(reasoning)}`,
    `----- content (${stored.content.length} characters) -----`,
    stored.content,
    `----- reasoning, the output items of type "reasoning" (${reasoning.length} characters) -----`,
    reasoning,
    "----- end -----",
  ].join("\n");
}

/** A conversation of debatt's history, and one of its messages. */
interface Conversation {
  id: string;
  title: string;
  format: string;
  messages: { role: string; content: string; status?: string }[];
}

describe.skipIf(!installed)("Open WebUI 0.12.4 in front of debatt, driven as its web page drives it", () => {
  let root = "";
  let endpoint: Awaited<ReturnType<typeof startFakeOpenAI>>;
  let debatt: SpawnedServer | undefined;
  let owui: OpenWebUIProcess | undefined;
  const killOnExit = () => owui && killGroup(owui.child);

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "debatt-open-webui-"));
    // (a) The participants' endpoint, scripted, recording every request; it lists the models configured at it.
    endpoint = await startFakeOpenAI(scripted, { models: [...PARTICIPANTS.map((p) => p.model), INTERNAL_MODEL] });
    // (b) debatt, as `npm start`'s server runs, on a free port and a fresh data directory.
    debatt = await startServerProcess({
      OPENAI_BASE_URL: endpoint.baseURL,
      OPENAI_API_KEY: "sk-test",
      DEBATE_PARTICIPANTS: roster,
      ONESEEK_MODEL: INTERNAL_MODEL,
      DEBATT_DATA_DIR: join(root, "debatt-data"),
    });
    // (c) Open WebUI, whose one connection is debatt's /v1.
    process.once("exit", killOnExit);
    await startOpenWebUI(root, `${debatt.url}/v1`, (p) => (owui = p));
  });

  afterAll(async () => {
    if (owui) {
      killGroup(owui.child);
      await owui.exited;
      process.off("exit", killOnExit);
    }
    if (debatt) {
      for (const pid of descendantsOf(debatt.child.pid!)) process.kill(pid, "SIGKILL");
      debatt.child.kill("SIGKILL");
      await debatt.exited;
    }
    await endpoint?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it("reads the typed question and gives the attached file to every participant; Open WebUI stores the answer, and a follow-up", async () => {
    onTestFailed(() => {
      console.log(`--- Open WebUI's log (last lines):\n${tail(owui?.log() ?? "", 60)}`);
      console.log(`--- debatt's log (last lines):\n${tail(debatt?.log() ?? "", 60)}`);
    });
    const web = owui!.url;
    const server = debatt!.url;

    // Signed in as the page is with WEBUI_AUTH=false: the first sign-in makes the admin.
    const signin = await fetch(`${web}/api/v1/auths/signin`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "", password: "" }),
    });
    expect(signin.status).toBe(200);
    const user = (await signin.json()) as { token: string; id: string; name: string; email: string };
    const headers = { authorization: `Bearer ${user.token}` };
    const api = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
      const res = await fetch(`${web}${path}`, { ...init, headers: { ...headers, ...init.headers } });
      if (!res.ok) throw new Error(`Open WebUI ${init.method ?? "GET"} ${path}: ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    };
    const { version } = await api<{ version: string }>("/api/version");
    console.log(`Open WebUI ${version} at ${web}, debatt at ${server}`);

    // The model menu lists debatt's models, read from its /v1/models.
    const models = (await api<{ data: { id: string }[] }>("/api/models")).data;
    expect(models.map((m) => m.id)).toContain(MODEL);
    const modelItem = models.find((m) => m.id === MODEL)!;

    // The page's socket: its id makes a chat completion the page's.
    const events: SocketEvent[] = [];
    const socket = await openSocket(web, user.token, (e) => events.push(e));

    try {
      // The file, uploaded and processed as the page does (the status stream ends when it is done).
      const form = new FormData();
      form.append("file", new Blob([DOCUMENT], { type: "text/plain" }), "testdoc.txt");
      const uploaded = await api<{ id: string; meta?: { collection_name?: string } }>("/api/v1/files/?process=true", {
        method: "POST",
        headers: { accept: "application/json" },
        body: form,
      });
      const status = await (await fetch(`${web}/api/v1/files/${uploaded.id}/process/status?stream=true`, { headers })).text();
      expect(status).toContain('"completed"');
      const file = await api<Record<string, unknown>>(`/api/v1/files/${uploaded.id}`);
      const fileItem = {
        type: "file",
        file,
        id: uploaded.id,
        url: uploaded.id,
        name: "testdoc.txt",
        collection_name: uploaded.meta?.collection_name ?? "",
        status: "uploaded",
        size: DOCUMENT.length,
        error: "",
        itemId: randomUUID(),
        content_type: "text/plain",
      };

      /**
       * One message typed in the page's chat, with the file attached, as `Chat.svelte` sends it
       * (no `messages`: Open WebUI reads the chat from its database); resolves with the chat and
       * the assistant message once Open WebUI has stored that message as done.
       */
      const send = async (prompt: string, chatId?: string, parentId: string | null = null) => {
        const messageId = randomUUID();
        const now = new Date();
        const res = await api<{ status: boolean; chat_id?: string }>("/api/chat/completions", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            stream: true,
            model: MODEL,
            params: { model_controls: {} },
            files: [fileItem],
            tool_ids: [],
            tool_servers: [],
            features: { voice: false, image_generation: false, code_interpreter: false, web_search: false, memory: false },
            variables: {
              "{{USER_NAME}}": user.name,
              "{{USER_EMAIL}}": user.email,
              "{{USER_LANGUAGE}}": "en-US",
              "{{CURRENT_DATETIME}}": now.toISOString().slice(0, 19).replace("T", " "),
              "{{CURRENT_DATE}}": now.toISOString().slice(0, 10),
              "{{CURRENT_TIME}}": now.toISOString().slice(11, 19),
              "{{CURRENT_WEEKDAY}}": now.toLocaleDateString("en-US", { weekday: "long", timeZone: "UTC" }),
              "{{CURRENT_TIMEZONE}}": "UTC",
            },
            model_item: modelItem,
            session_id: socket.sid,
            ...(chatId ? { chat_id: chatId } : {}),
            id: messageId,
            message_ids: [{ model_id: MODEL, message_id: messageId, modelIdx: 0 }],
            parent_id: parentId,
            user_message: {
              id: randomUUID(),
              parentId,
              childrenIds: [],
              role: "user",
              user: { id: user.id, name: user.name },
              user_id: user.id,
              content: prompt,
              timestamp: Math.floor(now.getTime() / 1000),
              models: [MODEL],
              files: [fileItem],
            },
            background_tasks: chatId ? { follow_up_generation: true } : { title_generation: true, tags_generation: true, follow_up_generation: true },
          }),
        });
        expect(res.status).toBe(true);
        const chat = res.chat_id ?? chatId!;
        let stored: StoredMessage | undefined;
        await vi.waitFor(
          async () => {
            const got = await api<{ chat: { history: { messages: Record<string, StoredMessage> } } }>(`/api/v1/chats/${chat}`);
            stored = got.chat.history.messages[messageId];
            expect(stored?.done ?? stored?.error).toBeTruthy();
          },
          { timeout: 300_000, interval: 500 },
        );
        return { chatId: chat, messageId, stored: stored! };
      };
      const conversations = async () =>
        ((await (await fetch(`${server}/api/v1/conversations?limit=100`)).json()) as { conversations: Omit<Conversation, "messages">[] }).conversations;

      // Turn 1: the question, with the file attached, in a new chat.
      const first = await send(QUESTION);
      const firstCalls = endpoint.seen.slice();

      // The run debatt recorded has the question the person typed, not Open WebUI's retrieval template;
      // Open WebUI's chores (title, tags, follow-ups, search queries) started no run.
      const afterFirst = await conversations();
      expect(afterFirst.map((c) => c.format)).toEqual(["vote"]);
      const conversation = (await (await fetch(`${server}/api/v1/conversations/${afterFirst[0].id}`)).json()) as Conversation;
      const asked = conversation.messages.filter((m) => m.role === "user").map((m) => m.content);
      console.log(`debatt's history: the conversation "${conversation.title}" holds the question ${JSON.stringify(asked)}`);
      expect(asked).toHaveLength(1);
      expect(asked[0].replace(/^\/vote /, "")).toBe(QUESTION);
      expect(asked[0]).not.toMatch(/### Task:|<source|<context>|attached_files|PELICAN/);

      // Each participant was asked the question with the file's text as material; none read the template.
      const participantCalls = firstCalls.filter((c) => PARTICIPANTS.some((p) => p.model === c.body.model));
      for (const { model } of PARTICIPANTS) {
        const own = participantCalls.filter((c) => c.body.model === model).map((c) => textOf(c.body));
        expect(own.length, model).toBeGreaterThan(0);
        // Its first call is its answer.
        expect(own[0], model).toContain(CODE_LINE);
        expect(own[0], model).toContain(QUESTION);
      }
      for (const call of participantCalls) {
        const given = textOf(call.body);
        expect(given, call.body.model).toContain(QUESTION);
        expect(given, call.body.model).not.toContain("### Task:");
        expect(given, call.body.model).not.toContain("<source");
      }

      // Open WebUI stored the answer.
      expect(first.stored.error, JSON.stringify(first.stored.error)).toBeFalsy();
      expect(first.stored.content.trim().length).toBeGreaterThan(0);
      console.log(describeStored("turn 1", first.stored));

      // Turn 2: a follow-up in the same chat.
      const second = await send(FOLLOW_UP, first.chatId, first.messageId);
      expect(second.chatId).toBe(first.chatId);
      expect(second.stored.error, JSON.stringify(second.stored.error)).toBeFalsy();
      expect(second.stored.content.trim().length).toBeGreaterThan(0);
      const afterSecond = await conversations();
      console.log(describeStored("turn 2", second.stored));
      // One Open WebUI chat is one conversation in debatt's history, with both questions.
      expect(afterSecond).toHaveLength(1);
      const whole = (await (await fetch(`${server}/api/v1/conversations/${afterSecond[0].id}`)).json()) as Conversation;
      expect(whole.messages.filter((m) => m.role === "user")).toHaveLength(2);
      // The cost reached Open WebUI: in the reasoning it stored with the answer.
      expect(JSON.stringify(second.stored)).toMatch(/Cost: \d+ model calls/);
      console.log(
        `debatt's history after the follow-up in the same Open WebUI chat: ${afterSecond.length} conversation(s): ` +
          JSON.stringify(afterSecond.map(({ id, title, format }) => ({ id, title, format }))),
      );
      console.log(
        `the scripted endpoint saw ${endpoint.seen.length} requests: ` +
          JSON.stringify(
            Object.entries(endpoint.seen.reduce<Record<string, number>>((n, c) => ({ ...n, [String(c.body.model)]: (n[String(c.body.model)] ?? 0) + 1 }), {})),
          ),
      );
      console.log(
        `socket events: ${JSON.stringify(
          Object.entries(events.reduce<Record<string, number>>((n, e) => ({ ...n, [String(e.data?.type)]: (n[String(e.data?.type)] ?? 0) + 1 }), {})),
        )}`,
      );
    } finally {
      socket.close();
    }
  });
});
