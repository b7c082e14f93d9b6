/**
 * Whether an API key can be sent at all. A key goes into an HTTP header, which carries visible
 * ASCII only (RFC 9110 field values; Node's fetch refuses anything else): a key with another
 * character (a pasted curly quote, a non-breaking space, a letter from another script) would fail
 * every request, after the client's retries, with a message that names no key. So it is refused
 * before anything is sent.
 */

/**
 * Why `key` cannot be an API key, as a sentence a person can act on (quoting no part of the key),
 * or undefined when every character is visible ASCII (0x21–0x7E).
 */
export function keyProblem(key: string): string | undefined {
  const chars = [...key];
  const at = chars.findIndex((ch) => ch < '!' || ch > '~');
  if (at < 0) return undefined;
  const code = chars[at].codePointAt(0) ?? 0;
  const what =
    code <= 0x20 || (code >= 0x7f && code <= 0xa0)
      ? 'a space or control character'
      : 'a character that is not ASCII';
  const hex = code.toString(16).toUpperCase().padStart(4, '0');
  return `the API key has ${what} (U+${hex}) at character ${at + 1}; keys are plain ASCII: copy it again from the console`;
}
