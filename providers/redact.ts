/** A connection URL fit for a log line: its password replaced by `***`. */
export function redactUrl(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = "***";
  return u.toString();
}
