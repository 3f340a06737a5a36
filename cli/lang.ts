import { LANGS, pickLang, type Lang, type Translate as T } from "../state/messages/index.js";

/** The terminal's language from the environment (LC_ALL, LC_MESSAGES, LANG): Swedish or English. */
export function envLang(): Lang {
  return pickLang([process.env.LC_ALL, process.env.LC_MESSAGES, process.env.LANG]);
}

/** The language asked for with `--lang` (read before the options are, so that their errors are in it too). */
export function langInArgs(argv: readonly string[]): Lang | undefined {
  const i = argv.findIndex((a) => a === "--lang" || a.startsWith("--lang="));
  const value = i < 0 ? undefined : argv[i].includes("=") ? argv[i].split("=")[1] : argv[i + 1];
  return (LANGS as readonly string[]).includes(value ?? "") ? (value as Lang) : undefined;
}

/** An option that could not be read, in the reader's words (Node's own message for anything else). */
export function argsError(t: T, err: Error & { code?: string }): string {
  const option = /'(--?[\w-]+)/.exec(err.message)?.[1] ?? "";
  if (err.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return t("cli.unknownOption", { option });
  if (err.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") return t("cli.optionValue", { option });
  return err.message;
}
