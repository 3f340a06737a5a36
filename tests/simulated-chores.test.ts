import { readFileSync } from "node:fs";
import { describe, expect, it, onTestFinished } from "vitest";
import { simulatedModels } from "../service/formats.js";
import { testDeps } from "./support/harness.js";
import { startApp } from "./support/http.js";

const CLIENTS = new URL("./fixtures/clients/", import.meta.url);
/** A recorded client chore: its request body. */
const fixture = (name: string) =>
  (JSON.parse(readFileSync(new URL(name, CLIENTS), "utf8")) as { body: { messages: { role: string; content: string }[] } }).body;

/** Sends a recorded chore, its chat's question replaced by `question`, to a server on the product's simulated provider; its answer. */
async function chore(name: string, question: string): Promise<string> {
  const { deps } = testDeps();
  deps.models = simulatedModels({ latencyMs: 0, chunkDelayMs: 0, chunkTokens: 8 });
  const server = await startApp(deps);
  onTestFinished(() => server.close());
  const body = fixture(name);
  const recorded = /(?:USER|User):\s*(.+)/.exec(body.messages.map((m) => m.content).join("\n"))![1];
  const messages = body.messages.map((m) => ({ ...m, content: m.content.split(recorded).join(question) }));
  const res = await fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...body, stream: false, messages }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { choices: { message: { content: string } }[] }).choices[0].message.content;
}

describe("a chat client's chores, without a key (the simulated internal model)", () => {
  it("gives Open WebUI a whole title, tags from the question's words and three follow-up questions, in the question's language", async () => {
    const en = "Which database should a small shop use for its orders and stock?";
    expect(JSON.parse(await chore("open-webui-title.json", en))).toEqual({ title: "Database, small shop and orders" });
    expect(JSON.parse(await chore("open-webui-tags.json", en))).toEqual({ tags: ["Database", "Small shop", "Orders"] });
    const followUps = (JSON.parse(await chore("open-webui-follow-ups.json", en)) as { follow_ups: string[] }).follow_ups;
    expect(followUps).toHaveLength(3);
    // A noun whose determiner was the question's "Which" reads with "the".
    expect(followUps.slice(0, 2)).toEqual(["What are the risks of the database?", "How does a small shop change the answer?"]);
    expect(followUps.every((q) => q.endsWith("?"))).toBe(true);
    expect(JSON.parse(await chore("open-webui-queries.json", en))).toEqual({ queries: [en] });
    const sv = "Vilken databas ska en liten butik använda för sina ordrar?";
    expect((JSON.parse(await chore("open-webui-follow-ups.json", sv)) as { follow_ups: string[] }).follow_ups).toEqual([
      "Vilka är riskerna när det gäller databas?",
      "Hur ändrar en liten butik svaret?",
      "Hur skulle ett första steg se ut?",
    ]);
    expect(JSON.parse(await chore("open-webui-tags.json", sv))).toMatchObject({ tags: expect.arrayContaining(["Databas"]) });
  });

  it("gives LibreChat its title as a short question is: whole", async () => {
    expect(await chore("librechat-title.json", "Is nuclear power green?")).toBe("Is nuclear power green");
  });
});
