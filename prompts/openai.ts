/**
 * The OpenAI-compatible API's own prompt: a run's answer written as the JSON a client asked for
 * (`response_format`). The answer is the deliberation's; the model only reshapes it.
 */
export const JSON_RESULT = `Below is the answer to a question, as a panel of models gave it. Write it as one JSON value that
follows this JSON Schema, keeping its content and its language; add nothing it does not say:

{schema}

The answer:
{answer}

Reply with the JSON value alone: no code fence, no text before or after it.`;
