/**
 * The model's input window (DESIGN.md "LLM layer": model facts). Source, first that answers: the
 * Models API (`GET /v1/models/{id}`, field `max_input_tokens`), the `context_window` setting, then
 * {@link DEFAULT_CONTEXT_WINDOW}.
 */

/** Tokens assumed when neither the endpoint nor the settings say: the window of current Claude models. */
export const DEFAULT_CONTEXT_WINDOW = 200_000;

/** The input window (tokens) of a Models API entry, or undefined when it has no usable figure. */
export function windowFromModelInfo(info: unknown): number | undefined {
  const n = (info as { max_input_tokens?: unknown } | undefined)?.max_input_tokens;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.floor(n) : undefined;
}

/**
 * A lookup of each model's window (tokens), asking the Models API at most once per model: the
 * answer (or its absence) is kept for the session. Never rejects.
 * @param modelInfo the Models API entry of a model id; undefined when the endpoint does not answer.
 * @param setting the `context_window` setting (tokens), used when the endpoint has no figure.
 */
export function contextWindowLookup(
  modelInfo: (id: string) => Promise<unknown>,
  setting?: number,
): (model: string) => Promise<number> {
  const known = new Map<string, Promise<number>>();
  return (model) => {
    let w = known.get(model);
    if (!w) {
      w = modelInfo(model)
        .catch(() => undefined)
        .then((info) => windowFromModelInfo(info) ?? setting ?? DEFAULT_CONTEXT_WINDOW);
      known.set(model, w);
    }
    return w;
  };
}
