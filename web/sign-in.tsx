import { inWords, readApi } from "./api-error.js";
import { useState } from "preact/hooks";
import { useT } from "./i18n.js";
import { TokenForm } from "./token-form.js";

/** What `GET /api/v1/session` answers. */
export interface Session {
  auth: "none" | "tokens";
  user: { id: string; name: string } | null;
  /** Whether the server has ADMIN_TOKEN, so that its admin page can be used. */
  admin?: boolean;
}

/** The server's session: whether it needs a token, and who is signed in. */
export async function loadSession(): Promise<Session> {
  const res = await fetch("/api/v1/session");
  if (!res.ok) throw new Error(`the server answered ${res.status}`);
  return (await res.json()) as Session;
}

/** Signs out (the session cookie is cleared) and shows the sign-in form again. */
export async function signOut(): Promise<void> {
  await fetch("/api/v1/session", { method: "DELETE" });
  location.reload();
}

/**
 * The sign-in form of a server with AUTH=tokens: the token goes to `POST /api/v1/session`, which
 * sets an HttpOnly cookie that every later request (the streams included) carries.
 */
export function SignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const t = useT();
  const [error, setError] = useState("");
  const submit = async (token: string) => {
    try {
      const res = await fetch("/api/v1/session", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token }) });
      onSignedIn((await readApi<Session>(res))!);
    } catch (err) {
      setError(inWords(t, err));
    }
  };
  return (
    <main class="admin sign-in">
      <h1>debatt</h1>
      <p>{t("signIn.needsToken")}</p>
      <TokenForm id="user-token" label={t("signIn.token")} onSubmit={(token) => void submit(token)} />
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </main>
  );
}
