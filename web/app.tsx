import { useEffect, useRef, useState } from "preact/hooks";
import { cancelRun, getConversation, getWaitingInput, sendPersonInput, type StoredConversation } from "./api-client.js";
import { inWords } from "./api-error.js";
import { Messages, ReadOnly } from "./answer.js";
import { emptyArena, reduce } from "./arena-state.js";
import { liveRun } from "./live-run.js";
import type { Message, TalkingTo } from "./chat-message.js";
import { Composer, PERSON_NAME_KEY } from "./composer.js";
import { LatestEvaluationNote } from "./evidence.js";
import { useT } from "./i18n.js";
import { ModelsNotice } from "./answer-notes.js";
import { storedEvents } from "./stored-events.js";
import { viewOf } from "./formats/index.js";
import { followRun, streamChat, StreamError } from "./stream.js";
import { Suggestions } from "./suggestions.js";
import { useFollow } from "./follow.js";
import { Icon } from "./icons.js";
import { Landing } from "./landing.js";
import { VoicePlayer } from "./voice-player.js";
import { commandFormatOf, parseCommand } from "../state/commands.js";
import type { ClientEvent } from "../state/events.js";
import { FORMATS, type RunKind } from "../state/formats.js";
import type { PersonInput } from "../state/person.js";

let nextId = 1;

/** The kind of conversation a message is: its command's format, or the chat (a message without a command). */
const kindOf = (text: string): RunKind => commandFormatOf(text) ?? "chat";

/**
 * Whether a message of `kind` goes on in the conversation now open (whose runs are of `current`):
 * a command of the conversation's own format that takes follow-ups, or a message without a command
 * after a run that shares the chat's conversation (/debatt, /dvoice, /compare: a question about
 * it). A command of another format starts a new conversation, since a conversation keeps to one
 * format, and the history lists each under its own title.
 */
function goesOn(current: RunKind, kind: RunKind): boolean {
  if (kind === "chat") return current === "chat" || FORMATS[current].thread === "chat";
  return kind === current && FORMATS[kind].multiTurn;
}

/**
 * The chat; with `conversation`, an earlier one loaded from the history, to read and go on with;
 * with `exported`, one an export holds, to read only.
 */
export function App({ conversation, exported }: { conversation?: string; exported?: StoredConversation }) {
  const t = useT();
  const [messages, setMessages] = useState<Message[]>([]);
  const [input, setInput] = useState("");
  const [loadError, setLoadError] = useState("");
  /** A follow-up to one participant of a finished run: the messages go to it until stopped. */
  const [talkingTo, setTalkingTo] = useState<TalkingTo | null>(null);
  /** Each answer's stream, to stop it when another stream of the same answer takes over. */
  const streams = useRef(new Map<number, AbortController>());
  /** The name the reader joins debates under (`--with-me`), remembered in this browser. */
  const [personName, setPersonName] = useState(() => localStorage.getItem(PERSON_NAME_KEY) ?? "");
  const busy = messages.some((m) => m.running);
  const stoppable = messages.find((m) => m.running && m.runId);
  const newest = messages.findLast((m) => m.role === "assistant");
  // The newest run, followed live, waits for the reader's turn or vote: their panel takes the stage.
  const yourTurn = !exported && newest?.running === true && !newest.failure && newest.arena?.awaiting !== undefined && !newest.arena.done;
  const follow = useFollow(newest?.id, newest?.running ?? false, newest, yourTurn);
  // The conversation: its thread on the server and the kind of messages it holds.
  const thread = useRef<{ id: string; kind: RunKind }>({ id: conversation ?? crypto.randomUUID(), kind: "chat" });

  useEffect(() => {
    const show = (c: StoredConversation) => {
      thread.current = { id: c.id, kind: c.format };
      const shown: Message[] = c.messages.map((m, i) => {
        if (m.role === "user") return { id: nextId++, role: "user", text: m.content };
        // The run's own view, replayed from what it stored; the text alone for chat.
        const asked = c.messages[i - 1]?.content ?? "";
        const events = storedEvents(m.id, m.format, m.result, asked, i === 1 ? (c.title ?? undefined) : undefined, m.status === "cancelled");
        const arena = events?.reduce(reduce, emptyArena());
        // What the run cost, as it was told live.
        if (arena && m.usage) arena.usage = { ...m.usage, simulated: arena.simulated, timestamp: "" };
        return { id: nextId++, role: "assistant", text: m.content, stored: m, thread: c.id, ...(arena ? { arena } : {}) };
      });
      setMessages(shown);
      // A debate the reader joined may still wait for them: it asks again.
      const last = shown.at(-1);
      if (!exported && last?.arena?.person && last.stored?.status !== "complete") void askAgain(last);
    };
    if (exported) return show(exported);
    if (!conversation) return;
    getConversation(conversation).then(
      (c) => show(c),
      (err: Error) => setLoadError(inWords(t, err)),
    );
  }, [conversation]);

  // The message box, for a picked suggestion to focus it.
  const composer = useRef<HTMLFormElement>(null);

  const update = (id: number, patch: (m: Message) => Message) => setMessages((all) => all.map((m) => (m.id === id ? patch(m) : m)));

  async function send(text: string) {
    // A deliberation format's conversation holds only its own follow-ups (and none for the single-turn
    // ones), so a message of another kind starts a new thread.
    const kind = kindOf(text);
    // A follow-up to one participant stays in its run's conversation; a command ends the talk.
    const continuing = talkingTo && kind === "chat" ? talkingTo : null;
    if (talkingTo && !continuing) setTalkingTo(null);
    if (!continuing && !goesOn(thread.current.kind, kind)) thread.current = { id: crypto.randomUUID(), kind };
    const threadId = continuing ? continuing.thread : thread.current.id;
    // A new run silences the audio of any earlier one (a spoken debate's audio may outlast its text).
    for (const m of messages) m.player?.stop();
    const user: Message = { id: nextId++, role: "user", text };
    const answer: Message = { id: nextId++, role: "assistant", text: "", arena: emptyArena(), running: true, thread: threadId };
    const format = commandFormatOf(text);
    if (format && viewOf(format).spoken) {
      // Created inside the submit gesture: browsers only let a user action start audio.
      answer.player = new VoicePlayer((voice) => update(answer.id, (m) => ({ ...m, voice })));
      answer.player.unlock();
    }
    setMessages((all) => [...all, user, answer]);
    // A debate the person joins: under the name they chose (kept for the next time).
    const command = parseCommand(text);
    const joining = command.kind === "debate" && command.options.withMe === true && personName.trim() !== "";
    if (joining) localStorage.setItem(PERSON_NAME_KEY, personName.trim());
    await run(answer, (onEvent, signal) =>
      streamChat(
        {
          message: text,
          threadId,
          ...(joining ? { personName: personName.trim() } : {}),
          ...(continuing ? { continueWith: { runId: continuing.runId, participant: continuing.key } } : {}),
        },
        onEvent,
        signal,
      ),
    );
  }

  /** Streams a run into its answer (its events, or why the stream failed), until it ends; a later stream of the same answer replaces it. */
  async function run(answer: Message, stream: (onEvent: (e: ClientEvent) => void, signal: AbortSignal) => Promise<void>) {
    const controller = new AbortController();
    streams.current.get(answer.id)?.abort();
    streams.current.set(answer.id, controller);
    const next = liveRun();
    try {
      await stream((e) => {
        if (e.event === "debate-voice-speaker") answer.player?.speaks(e.data.model, e.data.round, e.data.sentences);
        // Stopped (here, in another tab, or on another instance): the audio stops with the text.
        if (e.event === "error" && e.data.code === "cancelled") answer.player?.stop();
        if (e.event === "debate-voice-chunk") answer.player?.enqueue(e.data.model, e.data.pcm_b64, e.data.round, e.data.sentence_index);
        else {
          const step = next(e);
          update(answer.id, (m) => ({ ...m, arena: step(m.arena!), ...(e.event === "metadata" ? { runId: e.data.run_id } : {}) }));
        }
      }, controller.signal);
    } catch (err) {
      const failure = err instanceof StreamError ? { code: err.code, detail: err.detail, reason: err.reason } : { code: "", detail: String(err) };
      if (!controller.signal.aborted) update(answer.id, (m) => ({ ...m, failure }));
    } finally {
      if (streams.current.get(answer.id) === controller) {
        streams.current.delete(answer.id);
        update(answer.id, (m) => ({ ...m, running: false }));
      }
    }
  }

  /**
   * Sends the person's turn or vote to the debate they joined. A debate that had stopped while it
   * waited (the server restarted) goes on as a new run of its conversation, followed here.
   */
  async function answerPerson(m: Message, input: PersonInput) {
    const next = await sendPersonInput(m.runId!, input);
    if (next.status !== "resumed") return;
    // The debate goes on in a new run: its stream replaces the old one, and the answer is live again.
    update(m.id, (x) => ({ ...x, running: true, failure: undefined, runId: next.run_id, arena: { ...x.arena!, done: false, error: undefined } }));
    void run(m, (onEvent, signal) => followRun(next.run_id, onEvent, signal));
  }

  /**
   * A reopened debate the reader joined that still waits for them: one waiting in the server is
   * followed live from its start (its replay asks them), one that stopped while it waited shows
   * the question, and their answer resumes it.
   */
  async function askAgain(m: Message) {
    const found = await getWaitingInput(m.stored!.id).catch(() => undefined);
    if (!found?.waiting) return;
    const waiting = found.waiting;
    if (found.live) {
      update(m.id, (x) => ({ ...x, running: true, runId: found.run_id, arena: emptyArena() }));
      void run(m, (onEvent, signal) => followRun(found.run_id, onEvent, signal));
    } else update(m.id, (x) => ({ ...x, runId: found.run_id, arena: { ...x.arena!, awaiting: waiting, done: false } }));
  }

  /** Stops a run on the server, wherever it runs (its stream then ends by itself), and its audio here. */
  async function stop(m: Message) {
    m.player?.stop();
    try {
      // A run that had just ended anyway is no failure; anything else is worth saying.
      await cancelRun(m.runId!);
    } catch (err) {
      update(m.id, (x) => ({ ...x, failure: { code: "stop_failed", detail: inWords(t, err) } }));
    }
  }

  if (exported) {
    return (
      <ReadOnly.Provider value={true}>
        <main>
          <h1>debatt</h1>
          <p class="note read-only">{t("export.readOnly")}</p>
          <Messages messages={messages} retry={() => {}} />
        </main>
      </ReadOnly.Provider>
    );
  }

  const fresh = !conversation && messages.length === 0;
  const pick = (text: string) => {
    setInput(text);
    composer.current?.querySelector("textarea")?.focus();
  };
  return (
    <main>
      {/* A new chat says what debatt does and offers its formats; a conversation is titled by its runs. */}
      {fresh ? <Landing onPick={pick} /> : <h1 class="visually-hidden">debatt</h1>}
      {/* A new chat says how the user's own evaluation came out, if they have run one. */}
      {fresh && <LatestEvaluationNote />}
      {fresh && <Suggestions onPick={pick} />}
      {loadError && (
        <p class="error" role="alert">
          {loadError}
        </p>
      )}
      <Messages messages={messages} retry={(text) => send(text)} onContinue={setTalkingTo} onPersonInput={answerPerson} />
      {/* Configured models their endpoints no longer offer, said before a run fails on them. */}
      <ModelsNotice />
      {follow.target && !yourTurn && (
        <button type="button" class="jump" onClick={follow.jump}>
          <Icon name="down" /> {t(follow.target === "live" ? "follow.live" : "follow.result")}
        </button>
      )}
      <Composer
        aside={yourTurn}
        fresh={fresh}
        formRef={composer}
        input={input}
        setInput={setInput}
        busy={busy}
        onStop={stoppable ? () => void stop(stoppable) : undefined}
        onSend={(text) => void send(text)}
        talkingTo={talkingTo}
        onStopTalking={() => setTalkingTo(null)}
        personName={personName}
        setPersonName={setPersonName}
      />
    </main>
  );
}
