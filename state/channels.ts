import { Annotation, DeltaChannel } from "@langchain/langgraph";

/**
 * A channel that folds its writes into its value with `merge`, and whose checkpoints keep each
 * step's writes rather than the whole value (LangGraph's DeltaChannel, beta). A debate's answers
 * grow with every turn; saved whole at every step they made the checkpoints grow quadratically.
 * `merge` must be associative (DeltaChannel may replay several steps' writes in one batch).
 */
export function accumulated<T>(merge: (value: T, write: T) => T, initial: () => T) {
  return () => new DeltaChannel<T, T>((value, writes) => writes.reduce(merge, value), { initialValueFactory: initial });
}

/** A list each update appends to (one item per parallel task), reset with `Overwrite`. */
export const appended = <T>() =>
  accumulated<T[]>(
    (list, items) => list.concat(items),
    () => [],
  );

/** Last write wins. */
export const replace = <T>(fallback: () => T) => Annotation<T>({ reducer: (_a: T, b: T) => b, default: fallback });
