import { useT } from "./i18n.js";
import { Icon } from "./icons.js";

/** The site's pages, by the hash that opens each, in the order the header lists them. */
const PAGES = [
  { hash: "#history", key: "app.history" },
  { hash: "#leaderboard", key: "app.leaderboard" },
  { hash: "#evidence", key: "app.evidence" },
  { hash: "#admin", key: "app.admin" },
] as const;

/** The page a hash opens: one of `PAGES`, a new chat, or an earlier conversation (which no link names). */
const pageOf = (hash: string) => PAGES.find((p) => p.hash === hash)?.hash ?? (hash === "" || hash === "#" ? "chat" : "conversation");

/**
 * The header every page shares: the name and "Chat", which start a new chat (`onNewChat` when the
 * page is one already, since the hash then does not change), and the other pages, the current one marked.
 */
export function SiteNav({ hash, onNewChat }: { hash: string; onNewChat: () => void }) {
  const t = useT();
  const here = pageOf(hash);
  const newChat = () => {
    if (here === "chat") onNewChat();
  };
  return (
    <nav class="site-nav" aria-label={t("nav.label")}>
      <a class="brand" href="#" aria-current={here === "chat" ? "page" : undefined} onClick={newChat}>
        <Icon name="logo" /> debatt
      </a>
      <a class="nav-link" href="#" aria-current={here === "chat" ? "page" : undefined} onClick={newChat}>
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
