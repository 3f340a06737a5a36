import { useState } from "preact/hooks";
import { useT } from "./i18n.js";

/** A password field for a token and a "Sign in" button; `onSubmit` gets the trimmed token. */
export function TokenForm({ id, label, initial = "", onSubmit }: { id: string; label: string; initial?: string; onSubmit: (token: string) => void }) {
  const t = useT();
  const [entered, setEntered] = useState(initial);
  return (
    <form
      class="token"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(entered.trim());
      }}
    >
      <label for={id}>{label}</label>
      <input id={id} type="password" autocomplete="current-password" value={entered} onInput={(e) => setEntered((e.target as HTMLInputElement).value)} />
      <button type="submit">{t("signIn.submit")}</button>
    </form>
  );
}
