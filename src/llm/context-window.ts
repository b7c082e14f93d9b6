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

/** A lookup of each model's window (tokens); see {@link contextWindowLookup}. */
export interface WindowLookup {
  (model: string): Promise<number>;
  /** `model`'s window when the lookup has answered already, else undefined: it never waits or asks. */
  known(model: string): number | undefined;
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
): WindowLookup {
  const asked = new Map<string, Promise<number>>();
  const answered = new Map<string, number>();
  const lookup = (model: string) => {
    let w = asked.get(model);
    if (!w) {
      w = modelInfo(model)
        .catch(() => undefined)
        .then((info) => {
          const window = windowFromModelInfo(info) ?? setting ?? DEFAULT_CONTEXT_WINDOW;
          answered.set(model, window);
          return window;
        });
      asked.set(model, w);
    }
    return w;
  };
  return Object.assign(lookup, { known: (model: string) => answered.get(model) });
}
