import { useEffect, useRef, useState } from "preact/hooks";
import { ROUND_TYPES } from "../state/formats.js";
import type { Awaiting } from "./arena-state.js";
import type { PersonInput } from "../state/person.js";
import { countWords } from "../state/text.js";
import { inWords } from "./api-error.js";
import { useT } from "./i18n.js";

/** Seconds until `deadline` (epoch ms), counting down once a second; never below 0 (and 0 without one). */
function useSecondsLeft(deadline = 0): number {
  const left = () => Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    setSeconds(left());
    const timer = setInterval(() => setSeconds(left()), 1000);
    return () => clearInterval(timer);
  }, [deadline]);
  return seconds;
}

/**
 * What the debate waits for from the person who joined it: their turn (a text within the round's
 * word limit) or their vote (one of the others, with a reason if they like), with the time left
 * and a way to pass. `send` posts it; a refusal is shown in the reader's words. The turn's `text`
 * is kept by the arena, so a draft the deadline cut off is still shown.
 */
export function PersonInputPanel({
  awaiting,
  send,
  text,
  setText,
}: {
  awaiting: Awaiting;
  send: (input: PersonInput) => Promise<void>;
  text: string;
  setText: (text: string) => void;
}) {
  const t = useT();
  const seconds = useSecondsLeft(awaiting.deadline);
  const [vote, setVote] = useState("");
  const [motivation, setMotivation] = useState("");
  const [error, setError] = useState("");
  const [sending, setSending] = useState(false);
  const first = useRef<HTMLTextAreaElement & HTMLInputElement>(null);
  const panel = useRef<HTMLFormElement>(null);
  // Each request (a round's turn, the vote) is a panel of its own (keyed by the arena): it comes
  // into the middle of the window (the message box steps aside meanwhile) and takes the focus.
  useEffect(() => {
    first.current?.focus({ preventScroll: true });
    panel.current?.scrollIntoView({ block: "center", behavior: "instant" });
  }, []);
  const submit = async (input: PersonInput) => {
    setSending(true);
    setError("");
    try {
      await send(input);
    } catch (err) {
      setError(inWords(t, err));
    } finally {
      setSending(false);
    }
  };
  const words = countWords(text);
  const title =
    awaiting.kind === "turn" ? t("person.turnTitle", { n: awaiting.round, type: t(`round.${ROUND_TYPES[awaiting.round - 1]}`) }) : t("person.voteTitle");
  return (
    <form
      ref={panel}
      class="person-input"
      aria-label={title}
      onSubmit={(e) => {
        e.preventDefault();
        // Each answer names its round: one that arrives after its time ran out is not taken for the next question.
        if (awaiting.kind === "turn") void submit({ text, round: awaiting.round });
        else void submit({ vote, round: awaiting.round, ...(motivation.trim() ? { motivation } : {}) });
      }}
    >
      <h3>{title}</h3>
      {/* A debate that stopped while it waited has no deadline: the answer resumes it. */}
      {awaiting.deadline !== undefined && (
        <p class="note" role="timer" aria-live="off">
          {t("person.timeLeft", { seconds })}
        </p>
      )}
      {awaiting.kind === "turn" ? (
        <>
          <label for="person-text">{t("person.textLabel")}</label>
          <textarea
            id="person-text"
            ref={first}
            rows={5}
            value={text}
            onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
            aria-describedby="person-words"
          />
          <p id="person-words" class={`note${words > awaiting.word_limit ? " over" : ""}`}>
            {t("person.words", { words, limit: awaiting.word_limit })}
          </p>
        </>
      ) : (
        <>
          <fieldset>
            <legend>{t("person.candidates")}</legend>
            {awaiting.candidates.map((c, i) => (
              <label key={c} class="candidate">
                <input type="radio" name="person-vote" value={c} checked={vote === c} ref={i === 0 ? first : undefined} onChange={() => setVote(c)} /> {c}
              </label>
            ))}
          </fieldset>
          <label for="person-motivation">{t("person.motivation")}</label>
          <textarea
            id="person-motivation"
            rows={2}
            maxLength={1000}
            value={motivation}
            onInput={(e) => setMotivation((e.target as HTMLTextAreaElement).value)}
          />
        </>
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <p class="actions">
        <button type="submit" disabled={sending || (awaiting.kind === "turn" ? !text.trim() || words > awaiting.word_limit : !vote)}>
          {t(awaiting.kind === "turn" ? "person.send" : "person.vote")}
        </button>{" "}
        <button type="button" class="link" disabled={sending} onClick={() => void submit({ skip: true, round: awaiting.round })}>
          {t("person.pass")}
        </button>
      </p>
    </form>
  );
}
