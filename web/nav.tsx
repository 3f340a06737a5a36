import { useT } from "./i18n.js";
import { Icon } from "./icons.js";

/** The site's pages, by the hash that opens each, in the order the header lists them. */
const PAGES = [
  { hash: "#history", key: "app.history" },
  { hash: "#leaderboard", key: "app.leaderboard" },
  { hash: "#evidence", key: "app.evidence" },
  { hash: "#admin", key: "app.admin" },
] as const;

/** The page a hash opens: one of `PAGES`, else the chat (a new one, or a conversation). */
const pageOf = (hash: string) => PAGES.find((p) => p.hash === hash)?.hash ?? "chat";

/** The header every page shares: the name, which starts a new chat, and the other pages, the current one marked. */
export function SiteNav({ hash }: { hash: string }) {
  const t = useT();
  const here = pageOf(hash);
  return (
    <nav class="site-nav" aria-label={t("nav.label")}>
      <a class="brand" href="#" aria-current={here === "chat" ? "page" : undefined}>
        <Icon name="logo" /> debatt
      </a>
      <a class="nav-link" href="#" aria-current={here === "chat" ? "page" : undefined}>
        {t("app.chat")}
      </a>
      {PAGES.map((p) => (
        <a key={p.hash} class="nav-link" href={p.hash} aria-current={here === p.hash ? "page" : undefined}>
          {t(p.key)}
        </a>
      ))}
    </nav>
  );
}
