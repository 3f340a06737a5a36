import { useEffect, useState } from "preact/hooks";
import { linkable, type Source } from "../state/answer.js";
import { countWords } from "../state/text.js";
import type { CardRound } from "./card.js";
import { endingOf, sourceLabel } from "./citations.js";
import { useCount, useT } from "./i18n.js";
import { loadMissingModels, type MissingModel } from "./model-health.js";

/**
 * Under an answer on its card: how it ended when it was not whole (a badge), the model's thinking
 * (collapsed) and its sources. `brief`: the badge only, for a card clipped to a few lines.
 */
export function AnswerNotes({ answer, brief = false }: { answer?: CardRound; brief?: boolean }) {
  const t = useT();
  if (!answer) return null;
  const ending = endingOf(answer);
  const reasoning = brief ? undefined : answer.reasoning?.trim();
  const sources = brief ? [] : (answer.sources ?? []);
  if (!ending && !reasoning && sources.length === 0) return null;
  return (
    <div class="answer-notes">
      {ending && (
        <p class="ending">
          <span class={`badge ending ${ending}`}>{t(`notes.ending.${ending}`)}</span>
        </p>
      )}
      {reasoning && <Thinking text={reasoning} />}
      {sources.length > 0 && <Sources sources={sources} />}
    </div>
  );
}

/** The model's reasoning, collapsed, as plain text (never markup: it is the model's, unchecked). */
function Thinking({ text }: { text: string }) {
  const t = useT();
  const count = useCount();
  return (
    <details class="thinking" aria-label={t("notes.thinking")}>
      <summary>{t("notes.showThinking", { words: count(countWords(text)) })}</summary>
      <p class="thinking-text">{text}</p>
    </details>
  );
}

/** The answer's sources, numbered as its `[n]` markers are; only an http(s) URL becomes a link. */
function Sources({ sources }: { sources: Source[] }) {
  const t = useT();
  return (
    <section class="sources">
      <h4>{t("notes.sources")}</h4>
      <ol>
        {sources.map((s, i) => {
          const href = linkable(s.url);
          const label = sourceLabel(s);
          return (
            <li key={i} data-source={i + 1}>
              <span class="n">[{i + 1}]</span>{" "}
              {href ? (
                <a href={href} target="_blank" rel="noopener noreferrer">
                  {label}
                </a>
              ) : (
                <span class="unlinked">{label}</span>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/** Whether the reader dismissed the notice on missing models (for this page load: it is not asked again either). */
let dismissed = false;

/**
 * Above the composer, before a run fails on it: each configured model id its endpoint no longer
 * offers, with the nearest one it does. Asked once per page load; says nothing when the check
 * fails or nothing is missing.
 */
export function ModelsNotice() {
  const t = useT();
  const [missing, setMissing] = useState<MissingModel[]>([]);
  const [closed, setClosed] = useState(dismissed);
  useEffect(() => {
    if (closed) return;
    let current = true;
    void loadMissingModels().then((found) => current && setMissing(found));
    return () => {
      current = false;
    };
  }, []);
  if (closed || missing.length === 0) return null;
  const close = () => {
    dismissed = true;
    setClosed(true);
  };
  return (
    <aside class="models-notice" role="status" aria-label={t("notes.models.title")}>
      <p>
        <strong>{t("notes.models.title")}</strong>
      </p>
      <ul>
        {missing.map((m) => (
          <li key={m.id} data-model={m.id}>
            {t("notes.models.missing", { id: m.id })}
            {m.nearest && <span class="nearest"> · {t("notes.models.nearest", { id: m.nearest })}</span>}
          </li>
        ))}
      </ul>
      <button type="button" class="link" onClick={close}>
        {t("notes.models.dismiss")}
      </button>
    </aside>
  );
}
