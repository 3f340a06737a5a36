import type { RefObject } from "preact";
import { useEffect, useRef } from "preact/hooks";
import type { TalkingTo } from "./chat-message.js";
import { useT } from "./i18n.js";
import { MicButton } from "./mic-button.js";
import { commandHint } from "./formats/index.js";
import { commandFormatOf, parseCommand } from "../state/commands.js";
import { FORMAT_IDS, FORMATS, type FormatFlags, type FormatId } from "../state/formats.js";
import { DEFAULT_PERSON_NAME } from "../state/person.js";
import { MAX_MESSAGE_CHARS } from "../state/text.js";

/** Where the page keeps the name the reader joins debates under. */
export const PERSON_NAME_KEY = "debatt.personName";

/** What the message box shows and what it does: the App keeps the state, the box draws it. */
export interface ComposerProps {
  /** The form, for the App to focus its message box (a suggestion picked). */
  formRef: RefObject<HTMLFormElement>;
  input: string;
  setInput: (text: string | ((before: string) => string)) => void;
  /** An answer is still running: nothing more is sent. */
  busy: boolean;
  /** Stops the running answer that can be stopped; undefined when none can (Send shows instead of Stop). */
  onStop?: () => void;
  onSend: (text: string) => void;
  talkingTo: TalkingTo | null;
  onStopTalking: () => void;
  personName: string;
  setPersonName: (name: string) => void;
  /** The reader's turn in a debate they joined is open: the box steps aside for its panel. */
  aside?: boolean;
  /** A new chat, before any run: the commands' hint shows on a phone too. */
  fresh?: boolean;
}

/** The message box: the message, joining a /debatt, the microphone, Send or Stop, and the commands' hint. */
export function Composer(props: ComposerProps) {
  const { formRef, input, setInput, busy, onStop, onSend, talkingTo, onStopTalking, personName, setPersonName, aside = false, fresh = false } = props;
  const t = useT();
  useComposerHeight(formRef);
  const stoppable = Boolean(onStop);
  // Send and Stop take each other's place: focus on the one that went (or lost to its disabling)
  // moves to the one that came, or to the message box when that one cannot be pressed.
  const swapped = useRef(stoppable);
  useEffect(() => {
    if (swapped.current === stoppable) return;
    swapped.current = stoppable;
    const form = formRef.current;
    const active = document.activeElement;
    if (!form || (active && active !== document.body && !(active instanceof HTMLButtonElement && form.contains(active)))) return;
    const button = form.querySelector<HTMLButtonElement>("button.stop, button[type=submit]");
    (button && !button.disabled ? button : form.querySelector("textarea"))?.focus();
  }, [stoppable]);

  // Back from the reader's turn with the focus nowhere (its panel went): it returns to the message
  // box. So it does as the page opens, except on a touch screen, where a focused box would unfold
  // the commands' hint over the landing (and some phones would open their keyboard).
  const opening = useRef(true);
  useEffect(() => {
    const opened = opening.current;
    opening.current = false;
    if (opened && matchMedia("(pointer: coarse)").matches) return;
    if (!aside && document.activeElement === document.body) formRef.current?.querySelector("textarea")?.focus({ preventScroll: true });
  }, [aside]);

  function submit(e: Event) {
    e.preventDefault();
    const text = input.trim();
    if (!text || busy) return;
    setInput("");
    onSend(text);
  }

  // The reader's turn holds the stage: the box steps aside, leaving a line that says so, and Stop.
  if (aside)
    return (
      <form class="composer aside" ref={formRef} onSubmit={(e) => e.preventDefault()}>
        <p class="note">{t("person.turnOpen")}</p>
        {onStop && (
          <button type="button" class="stop" onClick={onStop}>
            {t("composer.stop")}
          </button>
        )}
      </form>
    );
  return (
    <form class={`composer${fresh ? " fresh" : ""}`} ref={formRef} onSubmit={submit}>
      <label for="message">{t("composer.label")}</label>
      {talkingTo && (
        <p class="talking-to" role="status">
          {t("continue.talking", { display: talkingTo.display })}{" "}
          <button type="button" class="link" onClick={onStopTalking}>
            {t("continue.stop", { display: talkingTo.display })}
          </button>
        </p>
      )}
      <div class="composer-row">
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
        <MicButton disabled={busy} onText={(text) => setInput((before) => (before.trim() ? `${before.trimEnd()} ${text}` : text))} />
        {onStop ? (
          // Stops the run on the server, wherever it runs; its stream then ends by itself.
          <button type="button" class="stop" onClick={onStop}>
            {t("composer.stop")}
          </button>
        ) : (
          <button type="submit" disabled={busy || !input.trim()}>
            {t("composer.send")}
          </button>
        )}
      </div>
      {joinable(commandFormatOf(input)) && <JoinToggle input={input} setInput={setInput} name={personName} setName={setPersonName} />}
      <Hint full={fresh} />
    </form>
  );
}

/** Whether a format's runs take the reader among the participants (its command has `--with-me`: /debatt). */
const joinable = (format: FormatId | undefined) => format !== undefined && Object.values<FormatFlags>(FORMATS[format].flags).some((flags) => flags.withMe);

/**
 * Beside a /debatt message: "take part yourself" (adds or removes `--with-me` in the message) and,
 * when taking part, the name the models will know the reader by.
 */
function JoinToggle({ input, setInput, name, setName }: { input: string; setInput: (text: string) => void; name: string; setName: (name: string) => void }) {
  const t = useT();
  const command = parseCommand(input);
  const joining = command.kind === "debate" && command.options.withMe === true;
  const toggle = () => setInput(joining ? input.replace(/\s+--with-me(?=\s|$)/i, "") : input.replace(/^(\s*\/\S+)/, "$1 --with-me"));
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
            <input
              type="text"
              class="person-name"
              maxLength={40}
              value={name}
              placeholder={DEFAULT_PERSON_NAME}
              aria-label={t("person.nameLabel")}
              onInput={(e) => setName((e.target as HTMLInputElement).value)}
            />
          </label>
        </>
      )}
    </p>
  );
}

/**
 * The composer's hint: in a new chat each command (in code) with what it does, then what anything
 * else is; after a run, the commands alone on one line (what each does in its tooltip), so that the
 * message box leaves the page to the runs.
 */
function Hint({ full }: { full: boolean }) {
  const t = useT();
  if (!full)
    return (
      <p id="hint" class="hint short">
        {FORMAT_IDS.map((id) => (
          <span key={id}>
            <code title={t(`format.what.${id}`)}>{FORMATS[id].command}</code>{" "}
          </span>
        ))}
        · {t("composer.chat")}
      </p>
    );
  return (
    <p id="hint" class="hint">
      {FORMAT_IDS.map((id) => (
        <span key={id}>
          <code>{commandHint(id, t(`composer.${FORMATS[id].takes}`))}</code> {t(`format.what.${id}`)} ·{" "}
        </span>
      ))}
      {t("composer.chat")}
    </p>
  );
}

/**
 * Keeps the message box's height in `--composer-h` on the page, so that what the page scrolls
 * into view is not hidden under the box (`scroll-margin-bottom`).
 */
function useComposerHeight(formRef: RefObject<HTMLFormElement>) {
  useEffect(() => {
    const form = formRef.current;
    if (!form || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(() => document.documentElement.style.setProperty("--composer-h", `${form.offsetHeight}px`));
    observer.observe(form);
    return () => observer.disconnect();
  }, []);
}
