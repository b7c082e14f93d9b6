/** Anything shaped like an Anthropic key (`sk-ant-…`), known to codey or not. */
const KEY_SHAPE = /sk-ant-[A-Za-z0-9_-]{8,}/g;

/**
 * The one redaction of codey's secrets: a function that replaces every occurrence of each secret
 * (8 characters or more) with `[redacted]`, and, unless `keyShapes` is false, anything shaped like
 * an Anthropic key too. Used for errors, `-p` output, the session log (injected) and tool output
 * (exact secrets only: a file the person works on may hold key-shaped test data).
 */
export function redactor(
  secrets: readonly (string | undefined)[],
  opts: { keyShapes?: boolean } = {},
): (text: string) => string {
  const list = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 8);
  const keyShapes = opts.keyShapes ?? true;
  return (text) => {
    let out = text;
    for (const s of list) if (out.includes(s)) out = out.split(s).join('[redacted]');
    return keyShapes ? out.replace(KEY_SHAPE, '[redacted]') : out;
  };
}
