import { simulatedModels } from "../service/formats.js";
import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import wavefile from "wavefile";
import { describe, expect, it } from "vitest";
import type { LeaderboardReport } from "../state/leaderboard/leaderboard.js";
import { strictEventSchema } from "../state/events.js";
import { detectLanguage } from "../state/language.js";
import { installed } from "../providers/installed.js";
import { keywordsOf } from "../providers/simulated.js";
import { HumanMessage } from "@langchain/core/messages";
import { defaultRoster } from "../state/participants.js";
import { named, runEvents, testDeps } from "./support/harness.js";
import { startFakeOpenAI } from "./support/fake-servers.js";

/** Runs the CLI with the simulated provider (and `input` on its stdin) and returns its exit code, stdout and stderr. */
function cli(args: string[], env: Record<string, string> = {}, input?: string): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "cli/debate.ts", ...args], {
      env: { PATH: process.env.PATH!, SIMULATED_LATENCY_MS: "0", SIMULATED_CHUNK_DELAY_MS: "0", ...env },
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) => resolve({ code: code ?? -1, out, err }));
    if (input !== undefined) child.stdin.end(input);
  });
}

/**
 * Runs the CLI with its stdout and stderr in one file, in the order written, and Ctrl-C (SIGINT)
 * once the output contains `interruptAt`, twice 10 ms apart (as tsx passes a Ctrl-C on to the
 * process it runs once more when that process is slow to say it arrived).
 */
function interruptedCli(args: string[], interruptAt: string, env: Record<string, string>): Promise<{ code: number; output: string }> {
  const file = join(mkdtempSync(join(tmpdir(), "debatt-")), "output.txt");
  const fd = openSync(file, "w");
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "cli/debate.ts", ...args], {
      env: { PATH: process.env.PATH!, SIMULATED_LATENCY_MS: "0", ...env },
      stdio: ["ignore", fd, fd],
    });
    const poll = setInterval(() => {
      if (readFileSync(file, "utf8").includes(interruptAt)) {
        clearInterval(poll);
        child.kill("SIGINT");
        setTimeout(() => child.kill("SIGINT"), 10);
      }
    }, 20);
    child.on("close", (code) => {
      clearInterval(poll);
      closeSync(fd);
      resolve({ code: code ?? -1, output: readFileSync(file, "utf8") });
    });
  });
}

// Each test runs the terminal several times, each starting Node and tsx: minutes on a busy machine.
describe("the CLI", { timeout: 300_000 }, () => {
  it("--leaderboard rates the models from the runs it recorded, by format, in the reader's language; --export prints a conversation; a bad option exits 2", async () => {
    const dir = mkdtempSync(join(tmpdir(), "debatt-leaderboard-"));
    const env = { DEBATT_DATA_DIR: dir };
    expect((await cli(["--leaderboard"], env)).out).toContain("No votes yet.");
    expect((await cli(["--seed", "3", "--participants", "grok,claude,gemini,oneseek", "/debatt Bör AI regleras?"], env)).code).toBe(0);
    const json = await cli(["--leaderboard", "--json"], env);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.out) as LeaderboardReport;
    expect(report).toMatchObject({ runs: 1, ballots: 4, simulated_ballots: 4, filters: { format: null, since: null } });
    expect(report.models).toHaveLength(4);
    const text = await cli(["--leaderboard", "--lang", "sv", "--format", "debatt"], env);
    expect(text.code).toBe(0);
    expect(text.out).toContain("4 röster i 1 körning · debatt · all tid");
    // Each model by its participant's name, as the page names it; every bias says which way it goes, or that there is no sign of one.
    expect(report.models.map((m) => m.display).sort()).toEqual(["Claude", "Gemini", "Grok", "OneSeek"]);
    expect(text.out).toContain(`1  ${report.models[0].display}`);
    expect(text.out).not.toContain(report.models[0].model);
    expect(text.out).toMatch(/Det längsta svaret: valt i \d+ av \d+ röster, där slumpen ger \d+,\d, korrelation mellan att väljas och längden /);
    expect((await cli(["--leaderboard", "--format", "vote"], env)).out).toContain("0 votes in 0 runs · vote");
    const bad = await cli(["--leaderboard", "--since", "last week"], env);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("The start date must be a date such as 2026-11-01.");

    // --export prints the same conversation as Markdown and as the JSON the API gives.
    const exported = await cli(["--export", "nope", "--format", "json"], env);
    expect([exported.code, exported.err.trim()]).toEqual([2, "That conversation does not exist (it may have been deleted)."]);
    const ran = await cli(["--seed", "4", "--participants", "grok,claude", "/debatt Ska skolor förbjuda mobiler?"], env);
    expect(ran.code).toBe(0);
    // The run says where it is kept, and how to export it.
    const thread = /kept as conversation (\S+): npm run -s debate -- --export \1/.exec(ran.err)![1];
    const db = new Database(join(dir, "history.sqlite"), { readonly: true });
    expect((db.prepare("SELECT id FROM conversations ORDER BY created_at DESC LIMIT 1").get() as { id: string }).id).toBe(thread);
    db.close();
    const asJson = await cli(["--export", thread, "--format", "json"], env);
    expect(asJson.code).toBe(0);
    const conversation = (JSON.parse(asJson.out) as { conversation: { id: string; messages: { role: string; content: string }[] } }).conversation;
    expect(conversation.id).toBe(thread);
    const md = await cli(["--export", thread, "--lang", "sv"], env);
    expect(md.out).toContain("# Ska skolor förbjuda mobiler?");
    expect(md.out).toContain("## Fråga 1\n\n> /debatt Ska skolor förbjuda mobiler?");
    expect(md.out).toContain("#### Runda 3");
    expect(md.out).toContain(conversation.messages[1].content.split("\n").find((l) => l.startsWith("## "))!);
    expect((await cli(["--export", thread, "--format", "pdf"], env)).code).toBe(2);
    for (const conflicting of [
      ["--export", thread, "--leaderboard"],
      ["--export", thread, "--json"],
      ["--leaderboard", "/vote x"],
    ]) {
      const refused = await cli(conflicting, env);
      expect([refused.code, refused.err], conflicting.join(" ")).toEqual([
        2,
        expect.stringContaining("--leaderboard and --export read the history and run nothing"),
      ]);
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it("seats the person with /debatt --with-me: asks for each turn and the vote on stderr, reads them from stdin, a line each", async () => {
    const dir = mkdtempSync(join(tmpdir(), "debatt-with-me-"));
    const env = { DEBATT_DATA_DIR: dir };
    // Round 1 written; round 2 passed; round 3 over the word limit, then written; the vote by its number.
    const run = await cli(
      ["--lang", "en", "--participants", "grok,claude", "--name", "Ada", "/debatt --with-me Should cities ban cars?"],
      env,
      `My first turn.\n\n${"word ".repeat(501)}\nThird round words.\n2\n`,
    );
    expect(run.code).toBe(0);
    expect(run.err).toContain("Your turn, Ada — round 1, at most 300 words");
    expect(run.err).toMatch(/Your vote, Ada, \d+ s: 1\. Grok  2\. Claude/);
    expect(run.err).toContain("round 3 takes at most 500 words; yours has 501");
    expect(run.out).toContain("▶ Ada");
    expect(run.out).toContain("My first turn.");
    expect(run.out).toContain("Third round words.");
    expect(run.out).toContain("✗ Ada: passed");
    expect(run.out).toMatch(/Ada → Claude/);
    // --name belongs to --with-me; --with-me to /debatt.
    expect((await cli(["--name", "Ada", "/debatt Topic"], env)).code).toBe(2);
    // A name a participant has is refused before the debate starts.
    const taken = await cli(["--lang", "en", "--participants", "grok,claude", "--name", "grok", "/debatt --with-me Topic"], env);
    expect(taken.code).toBe(2);
    expect(taken.err).toContain("That name is taken in this debate");
    expect(taken.err).not.toContain("kept as conversation");
    const spoken = await cli(["--lang", "en", "/dvoice --with-me Topic"], env);
    expect(spoken.code).toBe(2);
    expect(spoken.out).toContain("--with-me");
    rmSync(dir, { recursive: true, force: true });
  });

  it("--json prints one contract event per line and ends with done", async () => {
    const { code, out, err } = await cli(["--json", "--seed", "1", "/debatt Bör AI regleras?"]);
    expect(code).toBe(0);
    const lines = out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    for (const { event, data } of lines.slice(0, -1)) {
      expect(strictEventSchema(event)!.safeParse(data).success, event).toBe(true);
    }
    expect(lines[0]).toMatchObject({ event: "debate-init", data: { simulated: true, topic: "Bör AI regleras?" } });
    expect(lines.at(-1).event).toBe("done");
    expect(lines.filter((l) => l.event === "debate-participant-end")).toHaveLength(24);
    expect(err).toContain("no OPENAI_API_KEY: participants are simulated offline");
  });

  it("shows the debate to people: rounds, speakers, votes, winner and synthesis", async () => {
    const { code, out } = await cli(["--participants", "grok,claude,oneseek", "/debatt Should cities ban cars?"]);
    expect(code).toBe(0);
    for (const text of [
      "Debate: Should cities ban cars?",
      "━━ Round 1: Introduction ━━",
      "━━ Round 4: Voting ━━",
      "▶ Claude",
      "Votes",
      "👑 Winner:",
      "\nSummary\n",
    ]) {
      expect(out).toContain(text);
    }
    // The synthesis's markdown is rendered, not printed raw.
    expect(out).not.toMatch(/^#{1,6} /m);
    expect(out).not.toContain("debate-arena-data");
  });

  it.skipIf(!installed("espeak-ng"))("--voice writes a /dvoice debate's audio as a 24 kHz WAV (skipped without espeak-ng)", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "debatt-")), "debatt.wav");
    const { code, err } = await cli(["--participants", "grok,claude", "--voice", file, "/dvoice Bör AI regleras?"]);
    const wav = new wavefile.WaveFile(readFileSync(file));
    const seconds = (wav.getSamples(false, Int16Array) as unknown as Int16Array).length / 24_000;

    expect(code).toBe(0);
    expect(wav.fmt).toMatchObject({ sampleRate: 24_000, bitsPerSample: 16, numChannels: 1 });
    expect(seconds).toBeGreaterThan(30);
    expect(err).toContain(`s of audio to ${file}`);
  });

  it.skipIf(!installed("espeak-ng"))("--play feeds the audio player exactly what --voice writes (skipped without espeak-ng)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "debatt-"));
    // Not paced (played, the local voice's openings would hold the text to the audio): the bytes are what is checked.
    const { code } = await cli(["--participants", "grok,claude", "--play", "--voice", join(dir, "d.wav"), "/dvoice --paced off Bör AI regleras?"], {
      DEBATT_AUDIO_PLAYER: `cat > ${join(dir, "played.pcm")}`,
    });
    const played = readFileSync(join(dir, "played.pcm"));
    expect(code).toBe(0);
    expect(played.length).toBeGreaterThan(24_000 * 2 * 30);
    expect(played.equals(readFileSync(join(dir, "d.wav")).subarray(44))).toBe(true);
  });

  it("--attach puts files on the table: every participant reads their text, a PDF's too; a file it cannot read stops it before any run", async () => {
    const endpoint = await startFakeOpenAI(() => ({ text: "An answer." }));
    try {
      const dir = mkdtempSync(join(tmpdir(), "debatt-attach-"));
      const policy = join(dir, "policy.txt");
      writeFileSync(policy, "Returns are accepted within 14 days of delivery.\n");
      const env = { OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: endpoint.baseURL, DEBATT_DATA_DIR: dir };
      const { code } = await cli(
        [
          "--participants",
          "grok,claude,chatgpt",
          "--attach",
          policy,
          "--attach",
          "tests/fixtures/files/returpolicy.pdf",
          "/compare What is the return window?",
        ],
        env,
      );
      expect(code).toBe(0);
      const asked = endpoint.seen.map((r) => JSON.stringify(r.body));
      expect(asked.length).toBe(3);
      // Each participant read both files, each named: the text file's words and the PDF's text.
      for (const body of asked) expect(body).toMatch(/policy\.txt[\s\S]*within 14 days[\s\S]*returpolicy\.pdf/);
      expect(asked.every((b) => b.includes("PELIKAN-42"))).toBe(true);
      // Refused before any run, with the file named and why: no such file, a kind that is not text, an empty one.
      const image = join(dir, "photo.png");
      writeFileSync(image, Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      const empty = join(dir, "notes.md");
      writeFileSync(empty, "  \n");
      for (const [file, said] of [
        [join(dir, "missing.txt"), "no such file"],
        [image, "photo.png: not a file whose text can be read"],
        [empty, "notes.md: its text cannot be read"],
      ]) {
        const refused = await cli(["--attach", file, "/vote What is the return window?"], env);
        expect(refused.code, file).toBe(2);
        expect(refused.err, file).toContain(said);
      }
      expect(await cli(["--attach", policy, "--resume", "t"], env)).toMatchObject({ code: 2, err: expect.stringContaining("not with --resume") });
      expect(endpoint.seen.length).toBe(3);
    } finally {
      await endpoint.close();
    }
  });

  it("explains bad usage and configuration", async () => {
    expect(await cli(["--play", "/debatt a"])).toMatchObject({ code: 2, err: expect.stringContaining("--play needs a /dvoice debate") });
    expect(await cli(["--voice", "out.mp3", "/dvoice a"])).toMatchObject({ code: 2, err: expect.stringContaining("--voice takes a .wav file name") });
    expect(await cli(["--voice", "out.wav", "/debatt a"])).toMatchObject({ code: 2, err: expect.stringContaining("--voice needs a /dvoice debate") });
    expect(await cli([])).toMatchObject({ code: 2, err: expect.stringContaining("usage: npm run -s debate") });
    expect(await cli(["--lang", "de", "/debatt a"])).toMatchObject({ code: 2, err: expect.stringContaining('--lang takes en or sv, got "de"') });
    expect(await cli(["--seed", "x", "/debatt a"])).toMatchObject({ code: 2, err: expect.stringContaining("--seed must be a whole number") });
    expect(await cli(["/debatt a"], { DEBATE_PARTICIPANTS: "[" })).toMatchObject({
      code: 2,
      err: expect.stringContaining("DEBATE_PARTICIPANTS is not valid JSON"),
    });
    const missing = await cli(["--json", "/debatt"]);
    expect(missing.code).toBe(2);
    expect(missing.out).toContain('"code":"missing_topic"');
    // A command without its topic is explained, with examples; an unknown option is named, in the
    // reader's words, with examples too, and without the error's code.
    expect(await cli(["--lang", "en", "/debatt"])).toMatchObject({
      code: 2,
      out: expect.stringContaining("/debatt needs a topic.\nFor example:\n  /debatt Should AI be regulated?"),
    });
    expect(await cli(["--lang", "sv", "/council"])).toMatchObject({ code: 2, out: expect.stringContaining("/council behöver ett påstående att pröva.") });
    const option = await cli(["--lang", "sv", "/vote --foo Bästa språket?"]);
    expect(option).toMatchObject({
      code: 2,
      out: expect.stringMatching(/^Okänt alternativ: --foo — \/vote tar inga alternativ\nTill exempel:\n {2}\/vote \S/),
    });
    expect(option.out).not.toContain("has no option");
    const english = await cli(["--lang", "en", "/debatt --foo Cats?"]);
    expect(english).toMatchObject({
      code: 2,
      out: expect.stringMatching(
        /^Unknown option: --foo — \/debatt takes --order simultaneous, --order sequential, --with-me\nFor example:\n {2}\/debatt Should AI be regulated\?\n$/,
      ),
    });
    expect(english.out).not.toContain("unknown_option");
  });
});

describe("the CLI cancelled and resumed", () => {
  it("says how to go on after the run's last text on Ctrl-C (exit 130), and --resume begins by saying what it resumes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "debatt-"));
    const message = "/debatt Should AI be regulated?";
    const { code, output } = await interruptedCli(["--participants", "grok,claude,oneseek", message], "▶ ", {
      DEBATT_DATA_DIR: dir,
      SIMULATED_CHUNK_DELAY_MS: "20",
    });
    expect(code).toBe(130);
    const lines = output.trimEnd().split("\n");
    // The notice is the last line: after the interrupted turn's text, the cost and the run's log line.
    expect(lines.at(-1)).toMatch(/^cancelled; go on with: npm run -s debate -- --resume [0-9a-f-]{36}$/);
    expect(lines.filter((l) => l.startsWith("cancelled;"))).toHaveLength(1);
    expect(output.indexOf("[debatt] run ")).toBeLessThan(output.indexOf("cancelled; go on with"));
    const thread = lines.at(-1)!.split(" ").at(-1)!;

    const resumed = await cli(["--lang", "sv", "--resume", thread], { DEBATT_DATA_DIR: dir });
    expect(resumed.code).toBe(0);
    expect(resumed.out.split("\n")[0]).toBe(`Fortsätter från senast sparade steg: ${message}`);
    expect(resumed.out).toContain("👑 Vinnare:");
  });
});

describe("the CLI in the reader's language", () => {
  it("prints in English by default and with --lang en, in Swedish from LANG=sv_SE.UTF-8 or --lang sv, saying the participants are simulated", async () => {
    const english = await cli(["--participants", "grok,claude,oneseek", "/debatt Should AI be regulated?"]);
    expect(english.code).toBe(0);
    for (const line of ["Debate: Should AI be regulated?", "simulated participants", "Round 1: Introduction", "Round 4: Voting", "👑 Winner:"])
      expect(english.out).toContain(line);
    const swedish = await cli(["--participants", "grok,claude,oneseek", "/debatt Bör AI regleras?"], { LANG: "sv_SE.UTF-8" });
    expect(swedish.code).toBe(0);
    for (const line of ["Debatt: Bör AI regleras?", "simulerade deltagare", "Runda 1: Introduktion", "Runda 4: Röstning", "👑 Vinnare:"])
      expect(swedish.out).toContain(line);
    expect((await cli(["--lang", "en", "--participants", "grok,claude,oneseek", "/compare Bör AI regleras?"], { LANG: "sv_SE.UTF-8" })).out).toContain(
      "Comparison: Bör AI regleras?",
    );
    const council = await cli(["--lang", "sv", "--participants", "grok,claude,oneseek", "/council Kaffe är nyttigt."]);
    expect(council.out).toContain("(korrekthet)");
    expect((await cli(["--lang", "sv"])).err).toContain("användning: npm run -s debate");
    // Refusals too: Node's option errors and a run's refused participants, worded from their values.
    expect(await cli(["--lang", "sv", "--frob", "/debatt a"])).toMatchObject({ code: 2, err: expect.stringMatching(/^Alternativet --frob finns inte\./) });
    expect((await cli(["--seed"], { LANG: "sv_SE.UTF-8" })).err).toMatch(/^Alternativet --seed behöver ett värde\./);
    expect((await cli(["--lang", "sv", "--participants", "grok,claude", "/vote Bästa språket?"])).out).toContain("/vote behöver 3–7 modeller, 2 angivna");
  });
});

describe("routing", () => {
  it("refuses an option the command does not have, also for /debatt, /dvoice and /compare, rather than take it as the topic", async () => {
    const { deps, models } = testDeps();
    for (const message of ["/debatt --foo AI?", "/dvoice --fast AI?", "/compare --x y"]) {
      const events = await runEvents(deps, message);
      expect(
        events.map((e) => e.event),
        message,
      ).toEqual(["error", "done"]);
      const command = message.split(" ")[0];
      const reason =
        command === "/compare"
          ? { key: "noOptions", values: { command, option: "--x" } }
          : {
              key: "unknownOption",
              values: {
                command,
                option: message.split(" ")[1],
                options:
                  command === "/dvoice"
                    ? "--order simultaneous, --order sequential, --paced, --paced off"
                    : "--order simultaneous, --order sequential, --with-me",
              },
            };
      expect(named(events, "error")[0], message).toMatchObject({ code: "unknown_option", reason });
    }
    expect(models.calls).toHaveLength(0);
  });

  it("answers a command without a topic with a clear message, not a debate", async () => {
    const { deps, models } = testDeps();
    const events = await runEvents(deps, "/dvoice   ");
    expect(events.map((e) => e.event)).toEqual(["error", "done"]);
    expect(named(events, "error")[0]).toMatchObject({ code: "missing_topic", message: '/dvoice needs a topic, e.g. "/dvoice Should AI be regulated?"' });
    expect(models.calls).toHaveLength(0);
  });

  it("sends other messages to the supervisor, streamed", async () => {
    const { deps, models } = testDeps();
    const events = await runEvents(deps, "Hej, vad kan du göra?");
    expect(events.map((e) => e.event)).toEqual(["text-delta", "text-delta", "text-delta", "text-delta", "done"]);
    expect(
      named(events, "text-delta")
        .map((d) => d.delta)
        .join(""),
    ).toBe("Hello from the supervisor.");
    const call = models.callsOf("supervisor")[0];
    expect(String(call.messages[0].content)).toContain("/debatt <ämne>");
    expect(String(call.messages.at(-1)!.content)).toBe("Hej, vad kan du göra?");
  });

  it("reports a failing chat model as an error event", async () => {
    const { deps } = testDeps({ script: () => ({ error: new Error("401 invalid key") }) });
    const events = await runEvents(deps, "hello");
    expect(named(events, "error")[0]).toMatchObject({ code: "model_error", message: expect.stringContaining("401 invalid key") });
  });
});

describe("the simulated provider", () => {
  const factory = simulatedModels({ latencyMs: 0, chunkDelayMs: 0, chunkTokens: 3 });
  const grok = defaultRoster()[0];
  const say = async (topic: string, round = 1) =>
    (await factory.create({ phase: "turn", participant: grok, round, topic }).invoke([new HumanMessage(`Debattämne: ${topic}\n[Claude]: hi`)]))
      .content as string;

  it("is deterministic, varied and in the topic's language", async () => {
    expect(await say("Bör AI regleras?")).toBe(await say("Bör AI regleras?"));
    expect(await say("Bör AI regleras?", 2)).not.toBe(await say("Bör AI regleras?", 1));
    expect(detectLanguage(await say("Bör AI regleras?"))).toBe("sv");
    expect(detectLanguage(await say("Should AI be regulated?"))).toBe("en");
    expect(await say("Should AI be regulated?")).toContain("Claude");
  });

  it("answers a question about its own words, in its language and in an answer's shape, not a debate's", async () => {
    const ask = async (phase: "compare" | "answer" | "turn", topic: string) =>
      (await factory.create({ phase, participant: grok, round: 1, topic }).invoke([new HumanMessage(topic)])).content as string;
    const compare = await ask("compare", "How do I learn TypeScript?");
    expect(compare).toContain("TypeScript");
    expect(compare).not.toMatch(/regulat|in favour|against it/i);
    expect(compare.split("\n").filter((l) => l.startsWith("- ")).length).toBeGreaterThanOrEqual(3);
    const vote = await ask("answer", "Vilket programmeringsspråk passar nybörjare bäst?");
    expect(detectLanguage(vote)).toBe("sv");
    expect(vote).toContain("programmeringsspråk");
    expect(vote).not.toMatch(/jag är (för|emot)/);
    // A debate on an open question takes positions about its words; a yes/no question gets for and against.
    expect(await ask("turn", "Which programming language suits beginners best?")).not.toMatch(/in favour|against it/);
    expect(await ask("turn", "Which programming language suits beginners best?")).toContain("programming");
    const stances = await Promise.all(
      ["Grok", "Claude", "ChatGPT"].map(
        async (who) =>
          (
            await factory
              .create({ phase: "turn", participant: { ...grok, display: who }, round: 1, topic: "Should AI be regulated?" })
              .invoke([new HumanMessage("x")])
          ).content as string,
      ),
    );
    expect(stances.some((t) => /in favour|against it|it depends/.test(t))).toBe(true);
    expect(keywordsOf("How do I learn TypeScript?")[0]).toBe("TypeScript");
    expect(keywordsOf("Bör AI regleras?")[0]).toBe("AI");
  });

  it("votes with valid JSON for someone else", async () => {
    const answer = await factory
      .create({ phase: "vote", participant: grok, round: 4, topic: "t", candidates: ["Claude", "Qwen"] })
      .invoke([new HumanMessage("vote")]);
    expect(["Claude", "Qwen"]).toContain(JSON.parse(answer.content as string).voted_for);
  });

  it("stops when aborted", async () => {
    const slow = simulatedModels({ latencyMs: 5_000, chunkDelayMs: 0, chunkTokens: 1 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("stop")), 50);
    await expect(
      slow.create({ phase: "turn", participant: grok, round: 1, topic: "t" }).invoke([new HumanMessage("x")], { signal: controller.signal }),
    ).rejects.toThrow();
  });
});

describe("langgraph.json", () => {
  it("points at an exported compiled graph with the debate nodes", async () => {
    const config = JSON.parse(readFileSync("langgraph.json", "utf8"));
    const [file, name] = (config.graphs.debatt as string).split(":");
    const mod = await import(`../${file}`);
    const graph = mod[name];
    expect(typeof graph.stream).toBe("function");
    const nodes = Object.keys(graph.getGraph().nodes);
    for (const id of [
      "resolve_intent",
      "supervisor",
      "debate_domain_planner",
      "debate_round_executor",
      "debate_vote",
      "debate_convergence",
      "debate_synthesizer",
    ]) {
      expect(nodes).toContain(id);
    }
    expect(graph.config.recursionLimit).toBeGreaterThanOrEqual(29);
  });
});
