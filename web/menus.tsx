import { useContext, useEffect, useRef, useState } from "preact/hooks";
import { createShare, EXPORT_FORMATS, exportUrl, getShare, revokeShare } from "./api-client.js";
import { inWords } from "./api-error.js";
import { LangContext, useT } from "./i18n.js";

/**
 * A run's export and share menu (for its whole conversation): the Markdown, JSON and HTML
 * downloads, and a read-only link to make or withdraw. A new link is shown once, as its token is.
 */
export function RunMenu({
  conversation,
  participants,
  onContinue,
}: {
  conversation: string;
  participants: { key: string; display: string }[];
  onContinue: (who: { key: string; display: string }) => void;
}) {
  const t = useT();
  const [picked, setPicked] = useState(participants[0]?.key ?? "");
  const lang = useContext(LangContext);
  const [link, setLink] = useState<string | null>(null);
  const [status, setStatus] = useState("");
  /** Whether the conversation has a read-only link (made here or before): asked when the menu opens. */
  const [shared, setShared] = useState(false);
  const menu = useRef<HTMLDetailsElement>(null);
  // A link just made (shown only now) comes into view above the message box, selected for copying.
  useEffect(() => {
    if (!link) return;
    menu.current?.scrollIntoView({ block: "nearest" });
    menu.current?.querySelector<HTMLInputElement>(".share-link")?.focus({ preventScroll: true });
  }, [link]);
  const opened = (e: Event) => {
    if (!(e.target as HTMLDetailsElement).open) return;
    getShare(conversation).then(
      (body) => setShared(body.shared),
      () => setShared(false),
    );
  };
  const share = async () => {
    try {
      const made = await createShare(conversation);
      setLink(new URL(made.url, location.href).href);
      setShared(true);
      setStatus(t("share.made"));
    } catch (err) {
      setStatus(inWords(t, err));
    }
  };
  const revoke = async () => {
    try {
      await revokeShare(conversation);
      setLink(null);
      setShared(false);
      setStatus(t("share.revoked"));
    } catch (err) {
      setStatus(inWords(t, err));
    }
  };
  return (
    <details class="run-menu" ref={menu} onToggle={opened}>
      <summary>{t("export.menu")}</summary>
      <p>
        {t("export.download")}:{" "}
        {EXPORT_FORMATS.map((format) => (
          // A file name of its own: a bare `download` is written as `download="true"`, which browsers took as the name.
          <a key={format} class="export-link" href={exportUrl(conversation, format, lang)} download={`debatt-${conversation}.${format}`}>
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
