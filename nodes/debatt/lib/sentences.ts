/** Shortest piece worth a speech request of its own; shorter ones join the next sentence. */
const MIN_CHARS = 40;
/** Longest piece sent as one request; longer sentences are cut at a comma or a space. */
const MAX_CHARS = 400;

/**
 * Splits an answer into sentences for speech, so the first can be spoken while the rest are still
 * being synthesised. Markdown markers are dropped (they are not meant to be read aloud), short
 * fragments are joined to the next sentence and over-long ones are cut near MAX_CHARS.
 */
export function splitSentences(text: string): string[] {
  const plain = text
    .replace(/```[\s\S]*?```/g, " ")
    .replace(/[*_#>`]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (!plain) return [];
  const raw = plain.match(/[^.!?…]+(?:[.!?…]+["'»”)\]]*|$)/g) ?? [plain];
  // A question mark inside a quote ("On “Should cities ban cars?” my view is…") ends no sentence:
  // what follows it in lower case goes on the same one.
  const whole: string[] = [];
  for (const part of raw.map((s) => s.trim()).filter(Boolean)) {
    if (whole.length > 0 && /^\p{Ll}/u.test(part)) whole[whole.length - 1] += ` ${part}`;
    else whole.push(part);
  }
  const pieces: string[] = [];
  let pending = "";
  for (const part of whole) {
    pending = pending ? `${pending} ${part}` : part;
    if (pending.length >= MIN_CHARS) {
      pieces.push(...cut(pending));
      pending = "";
    }
  }
  if (pending) {
    if (pieces.length > 0 && pending.length < MIN_CHARS) pieces[pieces.length - 1] = `${pieces[pieces.length - 1]} ${pending}`;
    else pieces.push(...cut(pending));
  }
  return pieces;
}

/** Cuts a piece longer than MAX_CHARS at the last comma (else space) before the limit. */
function cut(piece: string): string[] {
  const out: string[] = [];
  let rest = piece;
  while (rest.length > MAX_CHARS) {
    const window = rest.slice(0, MAX_CHARS);
    const at = Math.max(window.lastIndexOf(", ") + 1, 0) || window.lastIndexOf(" ");
    const end = at > MIN_CHARS ? at : MAX_CHARS;
    out.push(rest.slice(0, end).trim());
    rest = rest.slice(end).trim();
  }
  if (rest) out.push(rest);
  return out;
}
