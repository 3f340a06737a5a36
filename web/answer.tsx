import { createContext } from "preact";
import { useContext } from "preact/hooks";
import { markdown } from "./arena.js";
import type { StoredMessage } from "./api-client.js";
import { formatOfRun, splitSynthesis } from "./arena-state.js";
import { runParticipants, type Message, type TalkingTo } from "./chat-message.js";
import { viewOf } from "./formats/index.js";
import { LangContext, useT } from "./i18n.js";
import { RunMenu } from "./menus.js";
import type { PersonInput } from "../state/person.js";
import type { Reason } from "../state/errors.js";
import { errorWords, USAGE_ERROR_CODES, usageHelp, usageWords } from "../state/messages/index.js";

/** Whether the page only shows a conversation (an export): no message box, nothing asked of a server. */
export const ReadOnly = createContext(false);

/** The conversation's messages, each answer with what it was asked. */
export function Messages({
  messages,
  retry,
  onContinue,
  onPersonInput,
}: {
  messages: Message[];
  retry: (text: string) => void;
  onContinue?: (who: TalkingTo) => void;
  onPersonInput?: (m: Message, input: PersonInput) => Promise<void>;
}) {
  return (
    <ol class="history" aria-live="polite">
      {messages.map((m) => (
        <li
          class={`message ${m.role}`}
          key={m.id}
          data-answer={m.role === "assistant" ? m.id : undefined}
          aria-busy={m.role === "assistant" ? Boolean(m.running) : undefined}
        >
          {m.role === "user" ? (
            <p>{m.text}</p>
          ) : (
            <Answer m={m} asked={messages.find((u) => u.id === m.id - 1)?.text ?? ""} retry={retry} onContinue={onContinue} onPersonInput={onPersonInput} />
          )}
        </li>
      ))}
    </ol>
  );
}

/** How a stored run ended, when it neither completed nor was stopped (a stopped one says so above its view). */
function EndedNote({ m }: { m: StoredMessage }) {
  const t = useT();
  const ended = { streaming: t("stored.streaming"), error: t("stored.error", { error: m.error ?? "" }), cancelled: "", complete: "" }[m.status];
  return ended ? <p class="note">({ended})</p> : null;
}

/** A stopped run, live or reopened: said first, where the page brings the run's end into view. */
function StoppedNote() {
  const t = useT();
  return (
    <p class="note ended" role="status" data-result>
      {t("answer.stopped")}
    </p>
  );
}

/** A stored answer without a view of its own: its text (never the arena's data block), and how its run ended. */
function StoredAnswer({ m }: { m: StoredMessage }) {
  const text = splitSynthesis(m.content).markdown;
  return (
    <div>
      {m.status === "cancelled" && <StoppedNote />}
      {text && <div class="synthesis" data-result dangerouslySetInnerHTML={{ __html: markdown.render(text) }} />}
      <EndedNote m={m} />
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
    <div class="usage" role="status" data-result>
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

/** An answer: its run's view (live or replayed), a stored text, or why it failed; and its run's menu. */
function Answer({
  m,
  asked,
  retry,
  onContinue,
  onPersonInput,
}: {
  m: Message;
  asked: string;
  retry: (text: string) => void;
  onContinue?: (who: TalkingTo) => void;
  onPersonInput?: (m: Message, input: PersonInput) => Promise<void>;
}) {
  const t = useT();
  const readOnly = useContext(ReadOnly);
  const lang = useContext(LangContext);
  const runId = m.runId ?? m.stored?.id;
  const who = m.arena ? runParticipants(m.arena) : [];
  // A run that never started (a command without its topic) has nothing stored to export or share.
  const usageError = m.arena?.error !== undefined && USAGE_ERROR_CODES.has(m.arena.error.code);
  const menu = !readOnly && !m.running && m.thread && (m.runId || m.stored) && !usageError && (
    <RunMenu
      conversation={m.thread}
      participants={runId && onContinue ? who : []}
      onContinue={(p) => onContinue?.({ ...p, runId: runId!, thread: m.thread! })}
    />
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
  // The run's own view, its format's; a chat answer's text otherwise.
  const format = formatOfRun(a);
  const View = format ? viewOf(format).View : undefined;
  const errorText = a.error ? errorInWords(t, a.error) : m.failure && failureInWords(t, m.failure);
  // Stopped live, or stored as stopped and not resumed since (a resumed run has a run id of its own).
  const stopped = a.error?.code === "cancelled" || (m.stored?.status === "cancelled" && !m.runId);
  return (
    <div>
      {stopped && <StoppedNote />}
      {View ? (
        <View
          a={a}
          player={m.player}
          voice={m.voice}
          storedAudio={Boolean(m.stored) && !readOnly}
          send={!readOnly && m.runId && onPersonInput ? (input) => onPersonInput(m, input) : undefined}
        />
      ) : a.chat ? (
        <>
          {a.continuing && <p class="note continuing">{t("continue.answering", { display: a.continuing.display })}</p>}
          {/* A chat answer is a model's Markdown, rendered as the formats' answers are (its HTML left as text). */}
          <div class="chat md" data-result={(!m.running && !m.failure) || undefined} dangerouslySetInnerHTML={{ __html: markdown.render(a.chat) }} />
        </>
      ) : m.running ? (
        <p class="note">{t("answer.pending")}</p>
      ) : null}
      {a.resumed !== undefined && <p class="note run-resumed">{t("answer.resumed")}</p>}
      {a.usage && (
        <p class="note run-cost">
          {t("usage.title")}: {usageWords(t, a.usage.total, { simulated: a.usage.simulated, budgetUsd: a.usage.budget_usd }, lang)}
        </p>
      )}
      {m.stored && <EndedNote m={m.stored} />}
      {usageError ? (
        <Usage asked={asked} error={a.error!} />
      ) : stopped ? null : (
        errorText && (
          <div class="error" role="alert" data-result>
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
