import { openHistory } from "../history/open.js";
import { ensureDataDir } from "../providers/data-dir.js";
import { loadSettings } from "../state/config.js";
import { ConfigError } from "../state/errors.js";

const USAGE = "usage: npm run users -- add <name> | list | remove <id>";

/**
 * `npm run users`: manages the users of AUTH=tokens in the history database of this environment
 * (DEBATT_DATA_DIR or DATABASE_URL), as the admin API does. `add` prints the token once.
 */
async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  const arg = rest.join(" ").trim();
  if (!(command === "list" && rest.length === 0) && !((command === "add" || command === "remove") && arg)) {
    console.error(USAGE);
    return 2;
  }
  let settings;
  try {
    settings = loadSettings();
    if (!settings.databaseUrl) ensureDataDir(settings.dataDir);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`debatt: configuration error: ${err.message}`);
    return 2;
  }
  const history = await openHistory(settings);
  try {
    if (command === "add") {
      const user = await history.users.add(arg);
      console.log(`added ${user.name} (id ${user.id})`);
      console.log(`token (shown only now): ${user.token}`);
    } else if (command === "list") {
      const users = await history.users.list();
      if (users.length === 0) console.log("no users yet: npm run users -- add <name>");
      for (const u of users) console.log(`${u.id}  ${u.name}  added ${u.createdAt.toISOString()}`);
    } else {
      if (!(await history.users.remove(arg))) {
        console.error(`no user "${arg}"`);
        return 1;
      }
      console.log(`removed ${arg}; their token no longer works`);
    }
    return 0;
  } finally {
    await history.close();
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code));
