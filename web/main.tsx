import { MAX_MESSAGE_CHARS } from "../state/text.js";
import { createContext, render } from "preact";
import { useContext, useEffect, useRef, useState } from "preact/hooks";
import { AdminPage } from "./admin.js";
import { Arena, CompareView, markdown } from "./arena.js";
import { DeliberationView } from "./deliberation-view.js";
import { HistoryPage, historyApi, type StoredMessage } from "./history.js";
import { EvidencePage, LatestEvaluationNote } from "./evidence.js";
import { LeaderboardPage } from "./leaderboard.js";
import { MicButton } from "./mic-button.js";
import { Suggestions } from "./suggestions.js";
import { ModelsNotice } from "./answer-notes.js";
import { PanelView } from "./panel-view.js";
import { emptyArena, reduce, splitSynthesis, type ArenaState, type Awaiting } from "./arena-state.js";
import { storedEvents } from "./stored-events.js";
import { inWords, readApi } from "./api-error.js";
import { followRun, streamChat, StreamError } from "./stream.js";
import { DEFAULT_PERSON_NAME, type PersonInput } from "../state/person.js";
import type { ClientEvent } from "../state/events.js";
import { loadSession, SignIn, signOut, type Session } from "./sign-in.js";
import { VoiceBar } from "./voice-bar.js";
import { VoicePlayer, type VoiceView } from "./voice-player.js";
import { initialLang, LangContext, LangSwitch, rememberLang, useT } from "./i18n.js";
import { LANGS, type Lang } from "../state/messages/index.js";
import { commandFormatOf, parseCommand } from "../state/commands.js";
import { FORMATS, formatOfStoredMode, threadKindOf, type FormatId } from "../state/formats.js";
import { errorWords, USAGE_ERROR_CODES, usageHelp, usageWords } from "../state/messages/index.js";
import type { Reason } from "../state/errors.js";
import "./styles.css";

/** One entry of the session's history. */
interface Message {
  id: number;
  role: "user" | "assistant";
  text: string;
  arena?: ArenaState;
  /** Why the stream failed, translated when shown (the reader may switch language). */
  failure?: { code: string; detail: string; reason?: Reason };
  running?: boolean;
  /** /dvoice: the player of this debate's audio and what it shows. */
  player?: VoicePlayer;
  voice?: VoiceView;
  /** An answer loaded from the history: its text is shown as it was stored. */
  stored?: StoredMessage;
  /** The run's id (from the stream's first event), to stop it with. */
  runId?: string;
  /** The conversation (thread) it belongs to, for its export and share menu. */
  thread?: string;
}

let nextId = 1;

/** A conversation as the history API (and an export) holds it. */
interface StoredConversation {
  id: string;
  mode: string;
  title: string | null;
  messages: StoredMessage[];
}

/** The conversation an exported page holds (an HTML export, a read-only link); undefined on the live page. */
const EXPORTED = exportedConversation();

function exportedConversation(): StoredConversation | undefined {
  const data = document.getElementById("debatt-export")?.textContent;
  return data ? (JSON.parse(data) as { conversation: StoredConversation }).conversation : undefined;
}

/** The participant of a finished run the messages go to, and the run's conversation. */
interface TalkingTo {
  runId: string;
  thread: string;
  key: string;
  display: string;
}

/** The participants of a run, as its view has them (any format). */
function runParticipants(a: ArenaState): { key: string; display: string }[] {
  const panel = a.panel && (a.panel.kind === "council" ? a.panel.judges : a.panel.participants);
  return a.deliberation?.participants ?? panel ?? a.compare?.participants ?? a.participants;
}

/** Whether the page only shows a conversation (an export): no message box, nothing asked of a server. */
const ReadOnly = createContext(false);

/** The conversation a message belongs to: its format's own (/vote, /revise, /deep, /council), or the chat's. */
function threadKind(text: string): string {
  return threadKindOf(commandFormatOf(text));
}

/** Whether a conversation of this kind takes follow-up questions. */
const takesFollowUps = (kind: string) => kind === "chat" || FORMATS[kind as FormatId].multiTurn;

/**
 * The chat; with `conversation`, an earlier one loaded from the history, to read and go on with;
 * with `exported`, one an export holds, to read only.
 */
function App({ conversation, exported }: { conversation?: string; exported?: StoredConversation }) {
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
  // The conversation: its thread on the server and the kind of messages it holds.
  const thread = useRef({ id: conversation ?? crypto.randomUUID(), kind: "chat" });

  useEffect(() => {
    const show = (c: StoredConversation) => {
      thread.current = { id: c.id, kind: threadKindOf(formatOfStoredMode(c.mode)) };
      const shown: Message[] = c.messages.map((m, i) => {
          if (m.role === "user") return { id: nextId++, role: "user", text: m.content };
          // The run's own view, replayed from what it stored; the text alone for chat.
          const events = storedEvents(m.id, m.mode, m.result, c.messages[i - 1]?.content ?? "", i === 1 ? (c.title ?? undefined) : undefined);
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
    historyApi<StoredConversation>("GET", `/${encodeURIComponent(conversation)}`).then(
      (c) => show(c!),
      (err: Error) => setLoadError(inWords(t, err)),
    );
  }, [conversation]);

  // Send and Stop take each other's place: focus on the one that went (or lost to its disabling)
  // moves to the one that came, or to the message box when that one cannot be pressed.
  const composer = useRef<HTMLFormElement>(null);
  const swapped = useRef(Boolean(stoppable));
  useEffect(() => {
    if (swapped.current === Boolean(stoppable)) return;
    swapped.current = Boolean(stoppable);
    const form = composer.current;
    const active = document.activeElement;
    if (!form || (active && active !== document.body && !(active instanceof HTMLButtonElement && form.contains(active)))) return;
    const button = form.querySelector<HTMLButtonElement>("button.stop, button[type=submit]");
    (button && !button.disabled ? button : form.querySelector("textarea"))?.focus();
  }, [Boolean(stoppable)]);

  const update = (id: number, patch: (m: Message) => Message) => setMessages((all) => all.map((m) => (m.id === id ? patch(m) : m)));

  async function send(text: string) {
    // A deliberation format's conversation holds only its own follow-ups (and none for the single-turn
    // ones), so a message of another kind starts a new thread.
    const kind = threadKind(text);
    // A follow-up to one participant stays in its run's conversation; a command ends the talk.
    const continuing = talkingTo && kind === "chat" ? talkingTo : null;
    if (talkingTo && !continuing) setTalkingTo(null);
    if (!continuing && (kind !== thread.current.kind || !takesFollowUps(kind))) thread.current = { id: crypto.randomUUID(), kind };
    const threadId = continuing ? continuing.thread : thread.current.id;
    const user: Message = { id: nextId++, role: "user", text };
    const answer: Message = { id: nextId++, role: "assistant", text: "", arena: emptyArena(), running: true, thread: threadId };
    if (/^\s*\/dvoice\b/i.test(text)) {
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
      streamChat({ message: text, threadId, ...(joining ? { personName: personName.trim() } : {}), ...(continuing ? { continueWith: { runId: continuing.runId, participant: continuing.key } } : {}) }, onEvent, signal),
    );
  }

  /** Streams a run into its answer (its events, or why the stream failed), until it ends; a later stream of the same answer replaces it. */
  async function run(answer: Message, stream: (onEvent: (e: ClientEvent) => void, signal: AbortSignal) => Promise<void>) {
    const controller = new AbortController();
    streams.current.get(answer.id)?.abort();
    streams.current.set(answer.id, controller);
    try {
      await stream((e) => {
        if (e.event === "debate-voice-speaker") answer.player?.speaks(e.data.model, e.data.round, e.data.sentences);
        // Stopped (here, in another tab, or on another instance): the audio stops with the text.
        if (e.event === "error" && e.data.code === "cancelled") answer.player?.stop();
        if (e.event === "debate-voice-chunk") answer.player?.enqueue(e.data.model, e.data.pcm_b64, e.data.round, e.data.sentence_index);
        else update(answer.id, (m) => ({ ...m, arena: reduce(m.arena!, e), ...(e.event === "metadata" ? { runId: e.data.run_id } : {}) }));
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
    const res = await fetch(`/api/v1/debates/${encodeURIComponent(m.runId!)}/input`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(input) });
    const next = await readApi<{ run_id: string; status: "accepted" | "resumed" }>(res);
    if (next?.status !== "resumed") return;
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
    const found = await readApi<{ waiting: Awaiting | null; run_id?: string; live?: boolean }>(await fetch(`/api/v1/debates/${encodeURIComponent(m.stored!.id)}/input`)).catch(() => undefined);
    if (!found?.waiting) return;
    const waiting = found.waiting;
    if (found.live) {
      update(m.id, (x) => ({ ...x, running: true, runId: found.run_id, arena: emptyArena() }));
      void run(m, (onEvent, signal) => followRun(found.run_id!, onEvent, signal));
    } else update(m.id, (x) => ({ ...x, runId: found.run_id, arena: { ...x.arena!, awaiting: waiting, done: false } }));
  }

  /** Stops a run on the server, wherever it runs (its stream then ends by itself), and its audio here. */
  async function stop(m: Message) {
    m.player?.stop();
    try {
      const res = await fetch(`/api/v1/debates/${encodeURIComponent(m.runId!)}/cancel`, { method: "POST" });
      // 409: it had just ended anyway. Anything else is worth saying.
      if (!res.ok && res.status !== 409) await readApi(res);
    } catch (err) {
      update(m.id, (x) => ({ ...x, failure: { code: "stop_failed", detail: inWords(t, err) } }));
    }
  }

  function submit(e: Event) {
    e.preventDefault();
    const text = input.trim();
    if (!text || busy) return;
    setInput("");
    void send(text);
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

  return (
    <main>
      <h1>
        debatt <a class="admin-link" href="#history">{t("app.history")}</a> <a class="admin-link" href="#evidence">{t("app.evidence")}</a> <a class="admin-link" href="#leaderboard">{t("app.leaderboard")}</a> <a class="admin-link" href="#admin">{t("app.admin")}</a>
      </h1>
      {/* A new chat says how the user's own evaluation came out, if they have run one. */}
      {!conversation && messages.length === 0 && <LatestEvaluationNote />}
      {!conversation && messages.length === 0 && (
        <Suggestions
          onPick={(text) => {
            setInput(text);
            composer.current?.querySelector("textarea")?.focus();
          }}
        />
      )}
      {loadError && (
        <p class="error" role="alert">
          {loadError}
        </p>
      )}
      <Messages messages={messages} retry={(text) => send(text)} onContinue={setTalkingTo} onPersonInput={answerPerson} />
      {/* Configured models their endpoints no longer offer, said before a run fails on them. */}
      <ModelsNotice />
      <form class="composer" ref={composer} onSubmit={submit}>
        <label for="message">{t("composer.label")}</label>
        {talkingTo && (
          <p class="talking-to" role="status">
            {t("continue.talking", { display: talkingTo.display })}{" "}
            <button type="button" class="link" onClick={() => setTalkingTo(null)}>
              {t("continue.stop", { display: talkingTo.display })}
            </button>
          </p>
        )}
        <textarea
          id="message"
          value={input}
          rows={2}
          maxLength={MAX_MESSAGE_CHARS}
          placeholder={t("composer.placeholder")}
          aria-describedby="hint"
          onInput={(e) => setInput((e.target as HTMLTextAreaElement).value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey) submit(e);
          }}
        />
        {commandFormatOf(input) === "debatt" && <JoinToggle input={input} setInput={setInput} name={personName} setName={setPersonName} />}
        <MicButton disabled={busy} onText={(text) => setInput((before) => (before.trim() ? `${before.trimEnd()} ${text}` : text))} />
        {stoppable ? (
          // Stops the run on the server, wherever it runs; its stream then ends by itself.
          <button type="button" class="stop" onClick={() => void stop(stoppable)}>
            {t("composer.stop")}
          </button>
        ) : (
          <button type="submit" disabled={busy || !input.trim()}>
            {t("composer.send")}
          </button>
        )}
        <Hint />
      </form>
    </main>
  );
}

/** Where the page keeps the name the reader joins debates under. */
const PERSON_NAME_KEY = "debatt.personName";

/**
 * Beside a /debatt message: "take part yourself" (adds or removes `--with-me` in the message) and,
 * when taking part, the name the models will know the reader by.
 */
function JoinToggle({ input, setInput, name, setName }: { input: string; setInput: (text: string) => void; name: string; setName: (name: string) => void }) {
  const t = useT();
  const command = parseCommand(input);
  const joining = command.kind === "debate" && command.options.withMe === true;
  const toggle = () => setInput(joining ? input.replace(/\s+--with-me(?=\s|$)/i, "") : input.replace(/^(\s*\/debatt)(?=\s|$)/i, "$1 --with-me"));
  return (
    <p class="join">
      <label>
        <input type="checkbox" checked={joining} onChange={toggle} /> {t("person.join")}
      </label>
      {joining && (
        <>
          {" "}
          <label>
            {t("person.name")}{" "}
            <input type="text" class="person-name" maxLength={40} value={name} placeholder={DEFAULT_PERSON_NAME} aria-label={t("person.nameLabel")} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
          </label>
        </>
      )}
    </p>
  );
}

/** The conversation's messages, each answer with what it was asked. */
function Messages({ messages, retry, onContinue, onPersonInput }: { messages: Message[]; retry: (text: string) => void; onContinue?: (who: TalkingTo) => void; onPersonInput?: (m: Message, input: PersonInput) => Promise<void> }) {
  return (
    <ol class="history" aria-live="polite">
      {messages.map((m) => (
        <li class={`message ${m.role}`} key={m.id}>
          {m.role === "user" ? <p>{m.text}</p> : <Answer m={m} asked={messages.find((u) => u.id === m.id - 1)?.text ?? ""} retry={retry} onContinue={onContinue} onPersonInput={onPersonInput} />}
        </li>
      ))}
    </ol>
  );
}

/**
 * A run's export and share menu (for its whole conversation): the Markdown, JSON and HTML
 * downloads, and a read-only link to make or withdraw. A new link is shown once, as its token is.
 */
function RunMenu({ conversation, participants, onContinue }: { conversation: string; participants: { key: string; display: string }[]; onContinue: (who: { key: string; display: string }) => void }) {
  const t = useT();
  const [picked, setPicked] = useState(participants[0]?.key ?? "");
  const lang = useContext(LangContext);
  const [link, setLink] = useState<string | null>(null);
  const [status, setStatus] = useState("");
  /** Whether the conversation has a read-only link (made here or before): asked when the menu opens. */
  const [shared, setShared] = useState(false);
  const base = `/api/v1/conversations/${encodeURIComponent(conversation)}`;
  const opened = (e: Event) => {
    if (!(e.target as HTMLDetailsElement).open) return;
    fetch(`${base}/share`)
      .then((res) => readApi<{ shared: boolean }>(res))
      .then(
        (body) => setShared(body?.shared ?? false),
        () => setShared(false),
      );
  };
  const share = async () => {
    try {
      const made = await readApi<{ url: string }>(await fetch(`${base}/share`, { method: "POST" }));
      setLink(new URL(made!.url, location.href).href);
      setShared(true);
      setStatus(t("share.made"));
    } catch (err) {
      setStatus(inWords(t, err));
    }
  };
  const revoke = async () => {
    try {
      await readApi(await fetch(`${base}/share`, { method: "DELETE" }));
      setLink(null);
      setShared(false);
      setStatus(t("share.revoked"));
    } catch (err) {
      setStatus(inWords(t, err));
    }
  };
  return (
    <details class="run-menu" onToggle={opened}>
      <summary>{t("export.menu")}</summary>
      <p>
        {t("export.download")}:{" "}
        {(["md", "json", "html"] as const).map((format) => (
          <a key={format} class="export-link" href={`${base}/export?format=${format}&lang=${lang}`} download>
            {format === "md" ? "Markdown" : format.toUpperCase()}
          </a>
        ))}
      </p>
      <p>
        <button type="button" onClick={() => void share()}>
          {t(shared ? "share.again" : "share.create")}
        </button>{" "}
        {shared && (
          <button type="button" onClick={() => void revoke()}>
            {t("share.revoke")}
          </button>
        )}
      </p>
      {participants.length > 0 && (
        <p class="continue-with">
          <label>
            {t("continue.choose")}{" "}
            <select value={picked} onChange={(e) => setPicked((e.target as HTMLSelectElement).value)}>
              {participants.map((p) => (
                <option key={p.key} value={p.key}>
                  {p.display}
                </option>
              ))}
            </select>
          </label>{" "}
          <button type="button" onClick={() => onContinue(participants.find((p) => p.key === picked) ?? participants[0])}>
            {t("continue.start")}
          </button>
        </p>
      )}
      {link && <input class="share-link" readOnly value={link} aria-label={t("share.link")} onFocus={(e) => (e.target as HTMLInputElement).select()} />}
      {status && (
        <p class="note" role="status">
          {status}
        </p>
      )}
    </details>
  );
}

/** The composer's hint: each command with what it does, the parts in code. */
function Hint() {
  const t = useT();
  const command = (name: string, arg: "topic" | "question" | "claim", options = "") => <code>{`/${name} ${options}<${t(`composer.${arg}`)}>`}</code>;
  const parts = t("composer.hint").split(/(\{\w+\})/);
  const commands: Record<string, preact.JSX.Element> = {
    "{debatt}": command("debatt", "topic", "[--order simultaneous] [--with-me] "),
    "{dvoice}": command("dvoice", "topic", "[--paced] "),
    "{compare}": command("compare", "question"),
    "{vote}": command("vote", "question"),
    "{revise}": command("revise", "question"),
    "{deep}": command("deep", "question"),
    "{council}": command("council", "claim", "[--debate] "),
  };
  return (
    <p id="hint" class="hint">
      {parts.map((p) => commands[p] ?? p)}
    </p>
  );
}

/** How a stored run ended, when it did not complete. */
function EndedNote({ m }: { m: StoredMessage }) {
  const t = useT();
  const ended = { streaming: t("stored.streaming"), error: t("stored.error", { error: m.error ?? "" }), cancelled: t("stored.cancelled"), complete: "" }[m.status];
  return ended ? <p class="note">({ended})</p> : null;
}

/** A stored answer without a view of its own: its text (never the arena's data block), and how its run ended. */
function StoredAnswer({ m }: { m: StoredMessage }) {
  const text = splitSynthesis(m.content).markdown;
  return (
    <div>
      {text && <div class="synthesis" dangerouslySetInnerHTML={{ __html: markdown.render(text) }} />}
      <EndedNote m={m} />
    </div>
  );
}

/** A stored /dvoice debate's audio: a player and its exports (kept for the most recent debates). */
function StoredAudio({ id }: { id: string }) {
  const t = useT();
  const url = `/api/v1/debates/${encodeURIComponent(id)}/audio`;
  return (
    <div class="voice-bar stored" role="group" aria-label={t("voice.label")}>
      <audio controls preload="none" src={`${url}.wav`} />
      <a href={`${url}.wav`} download>
        {t("voice.download")} (WAV)
      </a>
      <a href={`${url}.mp3`} download>
        MP3
      </a>
    </div>
  );
}

/** An `error` event in the reader's words (the server's message, in English, as the detail), or as it came for a code the catalogues lack. */
function errorInWords(t: ReturnType<typeof useT>, error: { code: string; message: string; reason?: Reason }): string {
  return errorWords(t, error.code, error.message, error.reason) ?? `${error.message} (${error.code})`;
}

/** A failed stream or stop in the reader's words. */
function failureInWords(t: ReturnType<typeof useT>, f: { code: string; detail: string; reason?: Reason }): string {
  if (f.code === "network" || f.code === "stream_dropped") return t(`error.${f.code}`, { detail: f.detail });
  if (f.code === "stop_failed") return t("answer.stopFailed", { detail: f.detail });
  return errorInWords(t, { code: f.code, message: f.detail, reason: f.reason });
}

/** How to use the command the person typed (or any), with examples in the reader's language. */
function Usage({ asked, error }: { asked: string; error: { code: string; message: string; reason?: Reason } }) {
  const t = useT();
  const { needs, examples } = usageHelp(t, asked, error);
  return (
    <div class="usage" role="status">
      <p>{needs}</p>
      <p>{t("usage.examples")}</p>
      <ul>
        {examples.map((example) => (
          <li key={example}>
            <code>{example}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}

function Answer({ m, asked, retry, onContinue, onPersonInput }: { m: Message; asked: string; retry: (text: string) => void; onContinue?: (who: TalkingTo) => void; onPersonInput?: (m: Message, input: PersonInput) => Promise<void> }) {
  const t = useT();
  const readOnly = useContext(ReadOnly);
  const runId = m.runId ?? m.stored?.id;
  const who = m.arena ? runParticipants(m.arena) : [];
  const menu = !readOnly && !m.running && m.thread && (
    <RunMenu conversation={m.thread} participants={runId && onContinue ? who : []} onContinue={(p) => onContinue?.({ ...p, runId: runId!, thread: m.thread! })} />
  );
  if (m.stored && !m.arena) {
    return (
      <>
        <StoredAnswer m={m.stored} />
        {menu}
      </>
    );
  }
  const a = m.arena!;
  const errorText = a.error ? errorInWords(t, a.error) : m.failure && failureInWords(t, m.failure);
  return (
    <div>
      {m.player && a.debateId && (
        <VoiceBar player={m.player} view={m.voice ?? { playing: false, paused: false }} downloadUrl={a.done ? `/api/v1/debates/${a.debateId}/audio.wav` : undefined} />
      )}
      {m.stored && !readOnly && a.voice && a.debateId && <StoredAudio id={a.debateId} />}
      {a.simulated && (a.deliberation || a.panel) && <p class="note simulated">{t("arena.simulated")}</p>}
      {a.deliberation ? <DeliberationView s={a.deliberation} ended={a.done} usage={a.usage} /> : a.panel ? <PanelView s={a.panel} ended={a.done} usage={a.usage} /> : a.compare ? <CompareView c={a.compare} simulated={a.simulated} ended={a.done} usage={a.usage} /> : a.debateId ? <Arena s={a} voiceSpeaker={m.voice?.speaker} send={!readOnly && m.runId && onPersonInput ? (input) => onPersonInput(m, input) : undefined} /> : a.chat ? (
        <>
          {a.continuing && <p class="note continuing">{t("continue.answering", { display: a.continuing.display })}</p>}
          <p class="chat">{a.chat}</p>
        </>
      ) : m.running ? <p class="note">{t("answer.pending")}</p> : null}
      {a.usage && (
        <p class="note run-cost">
          {t("usage.title")}: {usageWords(t, a.usage.total, { simulated: a.usage.simulated, budgetUsd: a.usage.budget_usd })}
        </p>
      )}
      {m.stored && <EndedNote m={m.stored} />}
      {a.error && USAGE_ERROR_CODES.has(a.error.code) ? (
        <Usage asked={asked} error={a.error} />
      ) : a.error?.code === "cancelled" ? (
        <p class="note" role="status">
          {t("answer.stopped")}
        </p>
      ) : (
        errorText && (
          <div class="error" role="alert">
            <p>{errorText}</p>
            {!m.running && !readOnly && a.error?.code !== "unknown_option" && (
              <button type="button" onClick={() => retry(asked)}>
                {t("answer.retry")}
              </button>
            )}
          </div>
        )
      )}
      {menu}
    </div>
  );
}

/** `#admin` shows the admin page, `#history` the earlier conversations, `#c/<id>` one of them, anything else a new chat. */
function Root() {
  const [lang, setLang] = useState<Lang>(initialLang);
  const [hash, setHash] = useState(location.hash);
  const [session, setSession] = useState<Session | null>(null);
  useEffect(() => {
    const onHash = () => setHash(location.hash);
    addEventListener("hashchange", onHash);
    // Without a session the page still works as before (the API will say what is wrong).
    loadSession().then(setSession, () => setSession({ auth: "none", user: null }));
    return () => removeEventListener("hashchange", onHash);
  }, []);
  // The document's language, for assistive technology and hyphenation.
  useEffect(() => void (document.documentElement.lang = lang), [lang]);
  const choose = (next: Lang) => {
    rememberLang(next);
    setLang(next);
  };
  const page = hash === "#admin" ? session && <AdminPage enabled={session.admin !== false} /> : !session ? null : session.auth === "tokens" && !session.user ? <SignIn onSignedIn={setSession} /> : hash === "#history" ? <HistoryPage /> : hash === "#evidence" ? <EvidencePage /> : hash === "#leaderboard" ? <LeaderboardPage /> : conversationPage(hash);
  return (
    <LangContext.Provider value={lang}>
      <div class="top-bar">
        {session?.auth === "tokens" && session.user && <SignedIn name={session.user.name} />}
        <LangSwitch lang={lang} onChange={choose} />
      </div>
      {page}
    </LangContext.Provider>
  );
}

/** Who is signed in, and the way out. */
function SignedIn({ name }: { name: string }) {
  const t = useT();
  return (
    <p class="signed-in">
      {t("app.signedIn", { name })} ·{" "}
      <button type="button" class="link" onClick={() => void signOut()}>
        {t("app.signOut")}
      </button>
    </p>
  );
}

/** `#c/<id>` opens a conversation; a malformed id (a broken %-escape) opens a new chat instead of a blank page. */
function conversationPage(hash: string) {
  const raw = /^#c\/(.+)$/.exec(hash)?.[1];
  let conversation: string | undefined;
  try {
    conversation = raw === undefined ? undefined : decodeURIComponent(raw);
  } catch {
    conversation = undefined;
  }
  return conversation ? <App key={conversation} conversation={conversation} /> : <App />;
}

/** An exported conversation's page: the conversation, read-only, and the language switch. */
function ExportedRoot({ conversation }: { conversation: StoredConversation }) {
  // The language it was exported in (its `<html lang>`), until the reader picks another.
  const [lang, setLang] = useState<Lang>(() => (LANGS as readonly string[]).includes(document.documentElement.lang) ? (document.documentElement.lang as Lang) : initialLang());
  useEffect(() => void (document.documentElement.lang = lang), [lang]);
  return (
    <LangContext.Provider value={lang}>
      <div class="top-bar">
        <LangSwitch lang={lang} onChange={setLang} />
      </div>
      <App exported={conversation} />
    </LangContext.Provider>
  );
}

render(EXPORTED ? <ExportedRoot conversation={EXPORTED} /> : <Root />, document.getElementById("app")!);
