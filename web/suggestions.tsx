import { useContext, useEffect, useState } from "preact/hooks";
import type { FormatTemplates } from "../state/templates.js";
import { readApi } from "./api-error.js";
import { LangContext, useT } from "./i18n.js";

/**
 * An empty chat's suggestions: per format, topics and questions in the reader's language (the
 * defaults, or what admins set). Picking one puts the command and it in the message box.
 */
export function Suggestions({ onPick }: { onPick: (text: string) => void }) {
  const t = useT();
  const lang = useContext(LangContext);
  const [formats, setFormats] = useState<FormatTemplates[]>([]);
  useEffect(() => {
    let current = true;
    fetch(`/api/v1/templates?lang=${lang}`)
      .then((res) => readApi<{ formats: FormatTemplates[] }>(res))
      .then(
        (body) => current && setFormats(body?.formats ?? []),
        // Suggestions are a help, not the page: without them the chat works as before.
        () => current && setFormats([]),
      );
    return () => {
      current = false;
    };
  }, [lang]);
  const shown = formats.filter((f) => f.items.length > 0);
  if (shown.length === 0) return null;
  return (
    <section class="suggestions" aria-label={t("templates.title")}>
      <h2>{t("templates.title")}</h2>
      <ul>
        {shown.flatMap((f) =>
          f.items.map((item) => (
            <li key={`${f.format}|${item}`}>
              <button type="button" class="suggestion" title={t("templates.use")} onClick={() => onPick(`${f.command} ${item}`)}>
                <code>{f.command}</code> {item}
              </button>
            </li>
          )),
        )}
      </ul>
    </section>
  );
}
