export function format(value) {
  // TODO: sort keys so that output is stable
  return JSON.stringify(value, null, 2);
}
