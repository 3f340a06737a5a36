/** Where a revision's own answer begins: the `REVISED RESPONSE:` label, markdown around it allowed. */
const REVISED_LABEL = /REVISED RESPONSE[*_\s]*:[*_ \t]*\n?/i;

/**
 * Shows a streamed revision as its answer only: the DECISION and REASONING lines before the
 * `REVISED RESPONSE:` label are the protocol, told apart once the revision is complete, so they
 * are held back; from the label on, text passes as it streams. A reply without the label shows
 * nothing while it streams (the complete revision says what it amounts to).
 */
export class RevisionStream {
  private seen = "";
  private answering = false;

  /** Takes the next piece of the stream; returns the part of it that is the answer. */
  push(delta: string): string {
    if (this.answering) return delta;
    this.seen += delta;
    const label = REVISED_LABEL.exec(this.seen);
    // A label whose trailing line break may still come is not complete yet.
    if (!label || label.index + label[0].length === this.seen.length) return "";
    this.answering = true;
    return this.seen.slice(label.index + label[0].length);
  }
}
