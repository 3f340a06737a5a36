import type { ClientEvent } from "../../state/events.js";
import type { NarrationContext, Narrator } from "../format-definition.js";

/**
 * Tells a deliberation's final text (/deep's synthesis, /council's report) as it streams: it is
 * the result. Answers and votes are told whole when their stage is in, so their deltas are not.
 * A final text its model failed to write is told whole, computed, after a note saying so.
 */
export function finalText({ write, c, t }: NarrationContext, stage: "synthesis" | "report"): Narrator {
  return (e: ClientEvent) => {
    switch (e.event) {
      case "answer-delta":
        if (e.data.stage === stage) write(e.data.delta, "result");
        return true;
      case "deep-synthesis-complete":
      case "council-report-complete":
        if (!e.data.data.fallback) write("\n", "result");
        else {
          write(c.dim(`\n${t("cli.fallback", { error: e.data.data.error ?? "" })}\n`));
          write(`${"synthesis" in e.data.data ? e.data.data.synthesis : e.data.data.report}\n`, "result");
        }
        return true;
      default:
        return false;
    }
  };
}
