import { useT } from "./i18n.js";
import { Icon } from "./icons.js";
import { FORMAT_IDS, FORMATS, type FormatId } from "../state/formats.js";

/** A format's example question: /dvoice speaks /debatt's. */
const exampleOf = (id: FormatId) => `example.${id === "dvoice" ? "debatt" : id}` as const;

/**
 * A new chat's opening: what debatt does, in two lines, and each format as a button that puts its
 * command and an example in the message box.
 */
export function Landing({ onPick }: { onPick: (text: string) => void }) {
  const t = useT();
  return (
    <header class="landing">
      <h1>
        <Icon name="logo" /> debatt
      </h1>
      <p class="lede">{t("landing.lede")}</p>
      <p class="lede-more">{t("landing.more")}</p>
      <ul class="offers" aria-label={t("landing.formats")}>
        {FORMAT_IDS.map((id) => (
          <li key={id}>
            <button type="button" class="offer" onClick={() => onPick(`${FORMATS[id].command} ${t(exampleOf(id))}`)}>
              <code>{FORMATS[id].command}</code>
              <span>{t(`format.what.${id}`)}</span>
            </button>
          </li>
        ))}
      </ul>
    </header>
  );
}
