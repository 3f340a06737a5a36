import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readConversation, type ChatMessage } from "../routes/openai-request.js";
import { materialText, unwrapSystemText, unwrapUserText } from "../state/client-material.js";

const WRAPPED = new URL("./fixtures/clients/wrapped/", import.meta.url);
/** A request recorded from a client. */
const recorded = (name: string) => (JSON.parse(readFileSync(new URL(name, WRAPPED), "utf8")) as { body: { messages: ChatMessage[] } }).body.messages;

/** Open WebUI's retrieval templates as its sources wrote them (each era's wording; `{{CONTEXT}}`, `{{QUERY}}` filled in). */
const OWUI_2024 = `Use the following context as your learned knowledge, inside <context></context> XML tags.
<context>
    {{CONTEXT}}
</context>

When answer to user:
- If you don't know, just say that you don't know.
- If you don't know when you are not sure, ask for clarification.
Avoid mentioning that you obtained the information from the context.
And answer according to the language of the user's question.

Given the context information, answer the query.
Query: {{QUERY}}`;
const OWUI_AUTUMN_2024 = `You are given a user query, some textual context and rules, all inside xml tags. You have to answer the query based on the context while respecting the rules.

<context>
{{CONTEXT}}
</context>

<rules>
- If you don't know, just say so.
- If you are not sure, ask for clarification.
- Answer in the same language as the user query.
- If the context appears unreadable or of poor quality, tell the user then answer as best as you can.
- If the answer is not in the context but you think you know the answer, explain that to the user then answer with your own knowledge.
- Answer directly and without using xml tags.
</rules>

<user_query>
{{QUERY}}
</user_query>
`;
const OWUI_2025 = `### Task:
Respond to the user query using the provided context, incorporating inline citations in the format [source_id] **only when the <source_id> tag is explicitly provided** in the context.

### Guidelines:
- If you don't know the answer, clearly state that.
- **Only include inline citations using [source_id] when a <source_id> tag is explicitly provided in the context.**  
- Do not cite if the <source_id> tag is not provided in the context.  
- Do not use XML tags in your response.

### Output:
Provide a clear and direct response to the user's query, including inline citations in the format [source_id] only when the <source_id> tag is present in the context.

<context>
{{CONTEXT}}
</context>

<user_query>
{{QUERY}}
</user_query>
`;
const fill = (template: string, context: string, query: string) => template.replace("{{CONTEXT}}", context).replace("{{QUERY}}", query);
const QUESTION = "What is the refund period?";
const POLICY = "Refunds are accepted within 30 days of purchase.";

describe("a question a client wrapped for retrieval", () => {
  it("Open WebUI 0.12.4 with a file (recorded): the question is what the person typed, the file is material by its name", () => {
    for (const [name, question, source] of [
      ["open-webui-0.12.4-file.json", "What is the secret code word in the document?", "testdoc.txt"],
      // Through its API, without a page: the source has no name.
      ["open-webui-0.12.4-file-api.json", "What is the secret code word? (minimal API call)", "source 1"],
    ]) {
      const read = readConversation(recorded(name), true);
      expect(read.question).toBe(question);
      expect(read.material).toHaveLength(1);
      expect(read.material[0].name).toBe(source);
      expect(read.material[0].text).toContain("The secret code word is PELICAN-42.");
      expect(read.material[0].text).not.toContain("<source");
    }
  });

  it("Open WebUI 0.12.4, the second turn (recorded): the earlier question is read without the list of files, the new one unwrapped", () => {
    const read = readConversation(recorded("open-webui-0.12.4-file-turn2.json"), true);
    expect(read.history.map((m) => m.content)).toEqual(["What is the secret code word in the document?", "STUB-ANSWER: The fixed answer from the stub."]);
    expect(read.question).not.toMatch(/<context>|### Task|attached_files/);
    expect(read.material.map((m) => m.name)).toEqual(["testdoc.txt"]);
  });

  it("each of Open WebUI's wordings, in the user message or the system message, and each form of its sources", () => {
    const sources = `<source id="1" name="policy.pdf" resource-type="file" resource-id="3f2a">${POLICY}</source>\n<source id="1" name="policy.pdf">Store credit otherwise.</source>`;
    // 2024: the template replaced the person's text; the question is its last line.
    expect(unwrapUserText([fill(OWUI_2024, POLICY, QUESTION)])).toEqual({ text: QUESTION, material: [{ name: "context", text: POLICY }] });
    // Autumn 2024: in front of the system prompt; the user message is the question alone.
    const system = unwrapSystemText(`${fill(OWUI_AUTUMN_2024, sources, QUESTION)}\nYou are a helpful assistant.`);
    expect(system).toEqual({ text: "You are a helpful assistant.", material: [{ name: "policy.pdf", text: `${POLICY}\n\nStore credit otherwise.` }] });
    // 2025: <source_id> and <source_context>, the template in front of the user's text, the question quoted twice.
    const old = `<source><source_id>policy.pdf</source_id><source_context>${POLICY}</source_context></source>\n`;
    expect(unwrapUserText([`${fill(OWUI_2025, old, QUESTION)}\n${QUESTION}`])).toEqual({ text: QUESTION, material: [{ name: "policy.pdf", text: POLICY }] });
    // An image attached: the template is in front of each text part, and the list of files is a part of its own.
    const parts = unwrapUserText([
      '<attached_files>\n<file type="file" url="x" name="policy.pdf"/>\n</attached_files>\n\n',
      `${fill(OWUI_2025, sources, QUESTION)}\n${QUESTION}`,
    ]);
    expect(parts.text).toBe(QUESTION);
    expect(parts.material.map((m) => m.name)).toEqual(["policy.pdf"]);
  });

  it.each(["librechat-0.8-rag-one-file", "librechat-0.8-rag-two-files", "librechat-0.8-attached-and-rag"])(
    "%s: the agent's instructions stay, each file is material by its name (never the list of attached files)",
    (name) => {
      const { expect: want, body } = JSON.parse(readFileSync(new URL(`${name}.json`, WRAPPED), "utf8")) as {
        expect: { material: string[]; instructions: string };
        body: { messages: { role: string; content: string }[] };
      };
      const read = unwrapSystemText(body.messages[0].content);
      expect(read.text).toBe(want.instructions);
      expect(read.material.map((m) => m.name)).toEqual(want.material);
      expect(read.material.find((m) => m.name === "returpolicy.pdf")?.text).toBe("Returer tas emot inom 30 dagar från köpet.\n\nKodordet är PELIKAN-42.");
      for (const m of read.material) expect(m.text).not.toMatch(/<\/?(file|filename|type|context|contextItem)>|CDATA|semantic search/);
    },
  );

  it("LibreChat's attached documents in the user message, and AnythingLLM's context blocks", () => {
    const docs = unwrapUserText([`Attached document(s):\n\`\`\`md# "policy.pdf"\n${POLICY}\n\n---\n\n# "faq.txt"\nAsk us anything.\n\n\`\`\`\n${QUESTION}`]);
    expect(docs).toEqual({
      text: QUESTION,
      material: [
        { name: "policy.pdf", text: POLICY },
        { name: "faq.txt", text: "Ask us anything." },
      ],
    });
    const anything = `Given the following conversation, relevant context, and a follow up question, reply.\nContext:\n[CONTEXT 0]:\n<document_metadata>\nsourceDocument: policy.pdf\npublished: 1/18/2026\n</document_metadata>\n\n${POLICY}\n[END CONTEXT 0]\n\n`;
    expect(unwrapSystemText(anything)).toEqual({
      text: "Given the following conversation, relevant context, and a follow up question, reply.",
      material: [{ name: "policy.pdf", text: POLICY }],
    });
  });

  it("leaves a question that no client wrapped as it is, <context> written by the person included", () => {
    for (const text of [QUESTION, "Explain what <context>…</context> means in XML.", "Attached document(s): none today"])
      expect(unwrapUserText([text])).toEqual({ text, material: [] });
  });

  it("keeps the material within its budget, each source named and numbered, a cut one saying so", () => {
    const text = materialText(
      [
        { name: "a.txt", text: "short" },
        { name: "b.txt", text: "x".repeat(10_000) },
      ],
      1_000,
    );
    expect(text.startsWith("[1] a.txt\nshort\n\n[2] b.txt\n")).toBe(true);
    expect(text.length).toBeLessThan(1_100);
    expect(text).toMatch(/… \[cut: 9\d{3} more characters\]$/);
  });
});
