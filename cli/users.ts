import { openAppHistory } from "../service/formats.js";
import { ensureDataDir } from "../providers/data-dir.js";
import { loadSettings } from "../state/config.js";
import { ConfigError } from "../state/errors.js";
import { pickLang, translate, type MessageKey } from "../state/messages/index.js";

/** The terminal's language (LC_ALL, LC_MESSAGES, LANG). */
const lang = pickLang([process.env.LC_ALL, process.env.LC_MESSAGES, process.env.LANG]);
const t = (key: MessageKey, values?: Record<string, string | number>) => translate(lang, key, values);

/**
 * `npm run users`: manages the users of AUTH=tokens in the history database of this environment
 * (DEBATT_DATA_DIR or DATABASE_URL), as the admin API does. `add` prints the token once.
 */
async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  const arg = rest.join(" ").trim();
  if (!(command === "list" && rest.length === 0) && !((command === "add" || command === "remove") && arg)) {
    console.error(t("users.usage"));
    return 2;
  }
  let settings;
  try {
    settings = loadSettings();
    if (!settings.databaseUrl) ensureDataDir(settings.dataDir);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`debatt: ${t("cli.configError", { message: err.message })}`);
    return 2;
  }
  const history = await openAppHistory(settings);
  try {
    if (command === "add") {
      const user = await history.users.add(arg);
      console.log(t("users.added", { name: user.name, id: user.id }));
      console.log(t("users.token", { token: user.token }));
    } else if (command === "list") {
      const users = await history.users.list();
      if (users.length === 0) console.log(t("users.none"));
      for (const u of users) console.log(t("users.row", { id: u.id, name: u.name, at: u.createdAt.toISOString() }));
    } else {
      if (!(await history.users.remove(arg))) {
        console.error(t("users.unknown", { id: arg }));
        return 1;
      }
      console.log(t("users.removed", { id: arg }));
    }
    return 0;
  } finally {
    await history.close();
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code));
