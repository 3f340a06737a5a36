import { useEffect, useState } from "preact/hooks";
import { AdminPage } from "./admin.js";
import { App } from "./app.js";
import type { StoredConversation } from "./api-client.js";
import { EvidencePage } from "./evidence.js";
import { HistoryPage } from "./history.js";
import { initialLang, LangContext, LangSwitch, rememberLang, useT } from "./i18n.js";
import { LeaderboardPage } from "./leaderboard.js";
import { SiteNav } from "./nav.js";
import { loadSession, SignIn, signOut, type Session } from "./sign-in.js";
import { LANGS, type Lang } from "../state/messages/index.js";

/**
 * The live page: the language, the session, and the page the hash names. `#admin` shows the admin
 * page, `#history` the earlier conversations, `#c/<id>` one of them, anything else a new chat.
 */
export function Root() {
  const [lang, setLang] = useState<Lang>(initialLang);
  const [hash, setHash] = useState(location.hash);
  const [session, setSession] = useState<Session | null>(null);
  /** Bumped when the header starts a new chat on a page that is one: the chat starts afresh. */
  const [chats, setChats] = useState(0);
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
  const page =
    hash === "#admin" ? (
      session && <AdminPage enabled={session.admin !== false} />
    ) : !session ? null : session.auth === "tokens" && !session.user ? (
      <SignIn onSignedIn={setSession} />
    ) : hash === "#history" ? (
      <HistoryPage />
    ) : hash === "#evidence" ? (
      <EvidencePage />
    ) : hash === "#leaderboard" ? (
      <LeaderboardPage />
    ) : (
      conversationPage(hash, chats)
    );
  return (
    <LangContext.Provider value={lang}>
      <div class="top-bar">
        <SiteNav hash={hash} onNewChat={() => setChats((n) => n + 1)} />
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
function conversationPage(hash: string, chats: number) {
  const raw = /^#c\/(.+)$/.exec(hash)?.[1];
  let conversation: string | undefined;
  try {
    conversation = raw === undefined ? undefined : decodeURIComponent(raw);
  } catch {
    conversation = undefined;
  }
  return conversation ? <App key={conversation} conversation={conversation} /> : <App key={`new-${chats}`} />;
}

/** An exported conversation's page: the conversation, read-only, and the language switch. */
export function ExportedRoot({ conversation }: { conversation: StoredConversation }) {
  // The language it was exported in (its `<html lang>`), until the reader picks another.
  const [lang, setLang] = useState<Lang>(() =>
    (LANGS as readonly string[]).includes(document.documentElement.lang) ? (document.documentElement.lang as Lang) : initialLang(),
  );
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
