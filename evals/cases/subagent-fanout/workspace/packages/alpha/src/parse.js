export function parse(text) {
  // TODO: accept a trailing comma
  return JSON.parse(text);
}
